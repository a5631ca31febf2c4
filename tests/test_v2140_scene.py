"""Venus 2140 through the core's flow (run_action): the rulebook's scenes, prompts, seats, laws."""

from __future__ import annotations

import copy

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.fields import read_faces
from tableside.core.offers import buttons_now
from tableside.core.recorder import NeedsDice
from tableside.core.systems.v2140 import SYSTEM

from tests.dicehelp import play, play_step


def scene(**options):
    return SYSTEM.start(SYSTEM.validate_options(options))


_ROLLED: list[dict] = []  # the log's roll records of the newest action that rolled


def act(state, raw, faces=None, seat=None):
    """One action; ``faces`` as a phone sends them (a list, or a count per face)."""
    if isinstance(faces, dict):
        faces = read_faces(faces, 6)
    step = play_step(SYSTEM, state, raw, faces, seat)
    if step.rolls:
        _ROLLED[:] = step.rolls
    return step.state, step.result


def refused(state, raw, match, faces=None, seat=None, error=RuleError):
    before = copy.deepcopy(state)
    with pytest.raises(error, match=match) as caught:
        play(SYSTEM, state, raw, faces, seat)
    assert state == before
    return caught.value


def pool(state, name):
    return state["participants"][name]["pool"]


def kept(state, name):
    """The dice that stayed from the newest roll into ``name``'s pool, as the log's records mark them."""
    marked = [zip(r["rolls"], r["marks"], strict=True) for r in _ROLLED if r["label"].startswith(name)]
    return sorted((face for record in marked for face, mark in record if mark == "kept"), reverse=True)


def books(state, name):
    return state["participants"][name]["books"]


def shred_and_jack():
    """The rulebook's Shred against Alamo Jack, pools rolled from typed-in faces."""
    s = scene(players=["Shred"], gm="GM")
    s, _ = act(
        s,
        {
            "type": "prepare_pool",
            "participant": "Shred",
            "primary_skills": 3,
            "secondary_skills": 3,
            "secondary_assist_quality": 4,
        },
    )
    s, r = act(s, {"type": "roll_pool", "participant": "Shred"}, faces=[6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5])
    assert kept(s, "Shred") == [6, 6, 5, 5, 5, 5, 4] and r["rolled_in"] == 2 and r["stay"] == 7
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    s, r = act(s, {"type": "roll_pool", "participant": "GM"}, faces=[6, 4, 3, 2, 2, 1, 1])
    assert kept(s, "GM") == [6, 4] and set(r) == {"summary", "rolled", "rolled_in", "stay", "dice"}  # no faces
    return s


def test_shred_and_jack_through_the_actions() -> None:
    s = shred_and_jack()
    assert pool(s, "Shred") == [6, 6, 5, 5, 5, 5, 4] and s["participants"]["Shred"]["dice"] == 7
    assert pool(s, "GM") == [6, 4]
    s, _ = act(s, {"type": "bid_initiative", "participant": "Shred", "dice": [4]})
    s, r = act(s, {"type": "settle_initiative"})
    assert s["order"] == ["Shred", "GM"] and "Shred goes first" in r["summary"]
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]})
    assert [(p.seat, p.type) for p in SYSTEM.pending(s)] == [("GM", "answer")]
    assert SYSTEM.pending(s)[0].text == "GM: answer Shred's 6 with 1 die"
    s, _ = act(s, {"type": "answer", "dice": [4]})
    s, r = act(s, {"type": "resolve"})
    assert books(s, "Shred") == 1 and r["books"] == {"Shred": 1, "GM": 0}
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]})
    s, _ = act(s, {"type": "answer", "dice": [6]})
    s, r = act(s, {"type": "resolve"})
    assert books(s, "Shred") == 3 and "takes the stake" in r["summary"]
    assert pool(s, "Shred") == [5, 5, 5, 5] and pool(s, "GM") == []
    assert [rec["put_forward"] for rec in s["ledger"]] == [2, 2]
    assert SYSTEM.laws(s) == []
    # "He has four additional dice, which he could use as two additional books."
    paired, _ = act(s, {"type": "pair_leftovers", "participant": "Shred"})
    assert books(paired, "Shred") == 5 and pool(paired, "Shred") == []
    # "However, he has a mind to use them in a follow up conflict instead": two follow-up dice.
    s, _ = act(s, {"type": "follow_up"})
    assert s["participants"]["Shred"]["follow_up"] == 2 and s["conflict"] == 2 and books(s, "Shred") == 3
    # Authority and Intimidation (4), Physique (1), Jack scarred (1) and the two follow-up dice: 8.
    s, r = act(
        s,
        {
            "type": "prepare_pool",
            "participant": "Shred",
            "primary_skills": 2,
            "secondary_skills": 1,
            "circumstances": 1,
        },
    )
    assert r["dice"] == 8
    s, r = act(s, {"type": "roll_pool", "participant": "Shred"}, faces=[6, 6, 6, 5, 4, 3, 2, 2, 5, 3, 2])
    assert kept(s, "Shred") == [6, 6, 6, 5, 5, 4]  # "Shred gets 66654322, rerolling and discarding to 666554"
    assert s["participants"]["Shred"]["follow_up"] == 0


def test_the_interrogation_exchanges_lead_and_answer() -> None:
    s = scene(players=["Shred"], gm="GM")
    s["participants"]["Shred"]["pool"] = [6, 6, 6, 5, 4]
    s["participants"]["GM"]["pool"] = [6, 6, 5, 5, 4, 4]
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 6]})
    s, _ = act(s, {"type": "answer", "dice": [5, 4]})
    s, _ = act(s, {"type": "resolve"})
    assert books(s, "Shred") == 2
    s, _ = act(s, {"type": "buy_goal", "participant": "Shred", "goal": "Tell me something useful", "price": 2})
    assert books(s, "Shred") == 0
    s, _ = act(s, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [6, 6]})
    s, _ = act(s, {"type": "answer", "dice": [6, 5]})
    s, _ = act(s, {"type": "resolve"})
    assert books(s, "GM") == 2  # "Jack wins two Books."
    assert pool(s, "GM") == [5, 4] and pool(s, "Shred") == [4]


def test_the_vid_dronz_scene() -> None:
    s = scene(players=["Shred", "Sven", "Wire"], gm="GM")
    s["participants"]["GM"]["pool"] = [6, 6, 6, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4]
    s["participants"]["Shred"]["pool"] = [6, 5, 5, 5, 5, 4]
    s["participants"]["Wire"]["pool"] = [6, 6, 6]
    s, _ = act(s, {"type": "put_forward", "actor": "GM", "target": "Sven", "dice": [6, 6, 5]})
    assert [p.type for p in SYSTEM.pending(s)] == ["resolve"]  # Sven has nothing to answer with
    refused(s, {"type": "answer", "dice": []}, "Sven has no dice to answer")
    s, r = act(s, {"type": "resolve"})
    assert books(s, "GM") == 1 and "1 lost" in r["summary"]
    s, _ = act(s, {"type": "put_forward", "actor": "Wire", "target": "GM", "dice": [6, 6]})
    s, _ = act(s, {"type": "answer", "dice": [4, 4]})
    s, _ = act(s, {"type": "resolve"})
    assert books(s, "Wire") == 2
    s, _ = act(s, {"type": "give_book", "participant": "Wire", "to": "Shred"})
    refused(s, {"type": "give_book", "participant": "Wire", "to": "Shred"}, "already given a book this round")
    # "The GM leads 655, but Wire only has one six left."; the 5s return and are rolled back in.
    s, _ = act(s, {"type": "put_forward", "actor": "GM", "target": "Wire", "dice": [6, 5, 5]})
    refused(s, {"type": "answer", "dice": []}, "Wire must answer GM's 3 dice with 1")
    s, _ = act(s, {"type": "answer", "dice": [6]})
    s, r = act(s, {"type": "resolve"}, faces=[5, 2])
    assert books(s, "GM") == 3 and "GM rolls 2 returned dice back in" in r["summary"]
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 5, 5]})
    s, _ = act(s, {"type": "answer", "dice": [5, 4, 4]})
    s, _ = act(s, {"type": "resolve"})
    assert books(s, "Shred") == 4
    s, _ = act(s, {"type": "buy_goal", "participant": "Shred", "guide": "knock out one person", "target": "GM"})
    assert books(s, "Shred") == 1
    s, _ = act(s, {"type": "put_forward", "actor": "GM", "target": "Wire", "dice": [5, 4]})
    s, _ = act(s, {"type": "resolve"})
    assert (books(s, "GM"), books(s, "Shred"), books(s, "Wire")) == (4, 1, 1)
    assert len(s["ledger"]) == 5 and SYSTEM.laws(s) == []


def test_a_risky_exchange_through_the_actions() -> None:
    s = scene(players=["Shred"], gm="GM")
    s["participants"]["Shred"]["pool"] = [6, 6, 4, 4, 4, 4]
    s["participants"]["GM"]["pool"] = [5, 5, 5, 4]
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 6, 4], "risky": True})
    s, _ = act(s, {"type": "answer", "dice": [5, 5, 5]})
    s, r = act(s, {"type": "resolve"})
    assert books(s, "Shred") == 3 and "total 16 beats 15" in r["summary"]
    fates = sorted(f["fate"] for f in s["last_exchange"]["fates"])
    assert fates == ["captured"] * 3 + ["won"] * 3


def test_more_than_half_needs_the_exception() -> None:
    s = shred_and_jack()
    refused(
        s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 6, 5, 5, 5]}, "at most 4 of 7 dice"
    )
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 6, 5, 5, 5], "exception": True})
    assert s["exchange"]["answer_count"] == 2


def test_an_exchange_blocks_the_next_one_and_c_until_b() -> None:
    s = shred_and_jack()
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]})
    shred_waits = "is waiting; resolve it with button B"
    refused(s, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [6]}, shred_waits)
    refused(s, {"type": "next_participant"}, "is waiting")
    refused(s, {"type": "resolve"}, "waiting for GM to answer")
    w, _ = act(s, {"type": "withdraw"})
    assert pool(w, "Shred") == [6, 6, 5, 5, 5, 5, 4] and w["exchange"] is None


def test_buttons() -> None:
    s = shred_and_jack()
    assert [(b.button, b.hold, b.label) for b in SYSTEM.buttons(s)] == [
        ("A", False, "Roll pool"),
        ("B", False, "Resolve exchange"),
        ("C", False, "Next participant"),
        ("D", False, "Undo"),
        ("D", True, "Redo"),
    ]
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    assert SYSTEM.binding("A", False, s).action(s) == {"type": "roll_pool", "participant": "GM"}
    assert SYSTEM.binding("B", False, s).action(s) == {"type": "resolve"}
    assert SYSTEM.binding("C", False, s).action(s) == {"type": "next_participant"}
    s, r = act(s, SYSTEM.binding("C", False, s).action(s))
    assert r["summary"] == "GM's move (round 1)"
    s, _ = act(s, SYSTEM.binding("C", False, s).action(s))
    assert s["round"] == 2


def test_a_is_offered_only_while_a_press_would_roll_a_pool() -> None:
    """#17 F6: the GM's phone, while Shred puts dice forward (Shred rolled his pool; the GM drew nothing), offered
    "Roll pool (button A)"; pressed, it was refused ("Shred has no dice prepared"). A binding's action is offered
    only when the press itself would be taken: its availability and fields alone said yes."""
    s = scene(players=["Shred", "Sven"], gm="GM")
    s, _ = act(s, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 2})
    assert [b["button"] for b in buttons_now(SYSTEM, s)][:1] == ["A"]  # Shred's drawn dice: roll them with button A
    s, _ = act(s, {"type": "roll_pool", "participant": "Shred"}, faces=[6, 5, 5, 4, 4])
    assert SYSTEM.binding("A", False, s).action(s) == {"type": "roll_pool", "participant": "Shred"}
    refused(s, SYSTEM.binding("A", False, s).action(s), "Shred has no dice prepared")
    assert "A" not in [b["button"] for b in buttons_now(SYSTEM, s)]
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    assert [b["button"] for b in buttons_now(SYSTEM, s)][:1] == ["A"]  # the GM's drawn dice, the first prepared


def test_a_roll_through_tableside_dice_asks_for_missing_faces() -> None:
    s = scene(players=["Shred"], gm="GM")
    s, _ = act(s, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    with pytest.raises(NeedsDice) as caught:
        act(s, {"type": "roll_pool", "participant": "Shred"}, faces=[6, 5])
    assert caught.value.needs_dice == [{"label": "Shred scene pool roll-in 1", "expr": "1d6"}]


def test_fly_dice_james_and_the_gm() -> None:
    s = scene(players=["James"], gm="GM")
    s["participants"]["GM"]["pool"] = [5]
    s, r = act(
        s,
        {"type": "fly_dice", "attacker": "James", "defender": "GM", "attack_dice": 6, "defense_dice": 6},
        faces=[5, 5, 4, 3, 2, 1, 6, 6, 5, 5, 4, 2, 5, 5],
    )
    assert r["winner"] == "GM" and r["added"] == [6, 6, 5, 5, 5, 5, 4]
    assert pool(s, "GM") == [6, 6, 5, 5, 5, 5, 5, 4] and pool(s, "James") == []


def test_seated_phones_act_for_themselves_only() -> None:
    s = shred_and_jack()
    refused(
        s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]}, "GM cannot act for Shred", seat="GM"
    )
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]}, seat="Shred")
    refused(s, {"type": "answer", "dice": [4]}, "Answer the exchange: GM answers with their own dice", seat="Shred")
    s, _ = act(s, {"type": "answer", "dice": [4]}, seat="GM")
    refused(s, {"type": "award_player_points", "player": "Shred", "count": 1}, "Shred cannot act for GM", seat="Shred")


def test_redaction_hides_pools_but_not_counts() -> None:
    s = shred_and_jack()
    public = SYSTEM.redact(s, None)
    assert public["participants"]["Shred"]["pool"] is None and public["participants"]["Shred"]["dice"] == 7
    assert set(public["participants"]["Shred"]) == set(s["participants"]["Shred"])  # nothing else kept per seat
    mine = SYSTEM.redact(s, "Shred")
    assert mine["participants"]["Shred"]["pool"] == [6, 6, 5, 5, 5, 5, 4] and mine["participants"]["GM"]["pool"] is None
    assert s["participants"]["Shred"]["pool"] == [6, 6, 5, 5, 5, 5, 4]  # redaction copies


def test_goals_points_and_murphy() -> None:
    s = scene(players=["Sven"], gm="GM", murphy=1)
    s["participants"]["Sven"]["books"] = 1
    refused(s, {"type": "buy_goal", "participant": "Sven", "guide": "persuade one person"}, "has 1 book")
    s, _ = act(s, {"type": "grant_player_points", "player": "Sven", "count": 3})
    assert s["participants"]["Sven"]["player_points"] == 3 and s["murphy"] == 4
    assert s["murphy_against"] == {"Sven": 3}
    s, r = act(s, {"type": "buy_goal", "participant": "Sven", "guide": "persuade one person", "points": 3})
    assert r["price"] == 4 and books(s, "Sven") == 0 and s["participants"]["Sven"]["player_points"] == 0
    refused(s, {"type": "murphy", "spend": 5}, "holds 4, cannot spend 5")
    s, _ = act(s, {"type": "murphy", "spend": 2, "against": "Sven"})
    assert s["murphy"] == 2 and s["murphy_against"] == {"Sven": 1}
    refused(s, {"type": "award_player_points", "player": "GM", "count": 1}, "not one of Sven")


def test_racks_and_the_session_pool() -> None:
    s = scene(players=["Shred", "Sven", "Wire"], gm="GM")
    assert s["session_racks"] == 3
    refused(s, {"type": "prepare_pool", "participant": "Shred", "racks": 1}, "racks are the GM's dice")
    refused(s, {"type": "prepare_pool", "participant": "GM", "session_racks": 4}, "holds 3 rack")
    s, r = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 2, "session_racks": 1, "circumstances": 2})
    assert r["dice"] == 20  # "a total of 3 racks and 2 Circumstance dice. Total 20 dice."
    s, _ = act(s, {"type": "roll_pool", "participant": "GM"}, faces={"6": 3, "5": 6, "4": 5, "3": 5, "2": 4})
    assert pool(s, "GM") == [6, 6, 6, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4]  # the rulebook's GM pool
    assert s["session_racks"] == 2
    s, _ = act(s, {"type": "set_rack", "participant": "GM", "rack": 7})
    s, r = act(s, {"type": "session_rack"}, faces=[6, 1, 1, 1, 1, 1, 1, 4])
    assert kept(s, "GM") == [6, 4] and r["stay"] == 2 and s["session_racks"] == 1


def test_take_it_on_the_chin_and_follow_up_dice() -> None:
    s = scene(players=["Jack"], gm="GM")
    s["participants"]["GM"]["pool"] = [5, 5, 4]
    refused(s, {"type": "take_on_the_chin", "participant": "GM", "opponent": "Jack"}, "still has 3 dice")
    s, r = act(s, {"type": "take_on_the_chin", "participant": "Jack", "opponent": "GM"})
    assert s["participants"]["GM"]["follow_up"] == 1 and pool(s, "GM") == []


def test_corrections_and_the_screen() -> None:
    s = shred_and_jack()
    keys = {t.key for t in SYSTEM.tracked(s)}
    assert {
        "participants.Shred.books",
        "participants.Shred.player_points",
        "murphy",
        "session_racks",
        "participants.GM.rack",
    } <= keys
    s, r = act(s, {"type": "correct", "key": "participants.Shred.books", "value": 2, "reason": "a missed capture"})
    assert books(s, "Shred") == 2 and r["correction"]["from"] == 0
    refused(s, {"type": "correct", "key": "participants.Shred.books", "value": -1}, "at least 0")
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 5]})
    screen = SYSTEM.screen(SYSTEM.redact(s, None)).to_dict()
    kinds = [e["kind"] for e in screen["elements"]]
    assert kinds[:3] == ["grid", "text", "dice"]
    grid = screen["elements"][0]
    assert [list(r["cells"]) for r in grid["rows"]] == [
        ["5 dice", "2 books", "PP 0"],
        ["2 dice", "0 books", "Murphy 0"],
    ]
    assert screen["elements"][1]["text"] == "Shred 6 and 5 against GM ??"
    assert [(d["face"], d["mark"]) for d in screen["elements"][2]["dice"]] == [(6, "committed"), (5, "committed")]
    assert screen["status"] == "Shred's move · GM next" and screen["prompt"] == "GM: answer Shred's 6 and 5 with 2 dice"
    s, _ = act(s, {"type": "answer", "dice": [6, 4]})
    s, _ = act(s, {"type": "resolve"})
    screen = SYSTEM.screen(SYSTEM.redact(s, None)).to_dict()
    marks = [[(d["face"], d["mark"]) for d in e["dice"]] for e in screen["elements"] if e["kind"] == "dice"]
    assert marks == [[(6, "hit"), (5, "hit")], [(6, "captured"), (4, "captured")]]
    assert screen["elements"][1]["text"] == "Shred 6 and 5 against GM 6 and 4: Shred +2"
    assert screen["prompt"] == "Shred: put dice forward"  # from the public view: counts, not pools


def test_bad_input_names_the_problem() -> None:
    s = shred_and_jack()
    # told to the pool's own seat only (#33: tests/test_v2140_pool_probes.py)
    forward = {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 6, 6]}
    refused(s, forward, "needs 1 more 6", seat="Shred")
    refused(s, {"type": "put_forward", "actor": "Shred", "target": "Shred", "dice": [6]}, "their own target")
    refused(s, {"type": "put_forward", "actor": "Shred", "target": "Nobody", "dice": [6]}, "not one of Shred, GM")
    refused(s, {"type": "prepare_pool", "participant": "GM", "racks": -1}, "must be at least 0, got -1")
    refused(s, {"type": "set_rack", "participant": "GM", "rack": -2}, "must be at least 1, got -2")
    refused(s, {"type": "roll_pool", "participant": "Shred"}, "no dice prepared")
    refused(s, {"type": "prepare_pool", "participant": "Shred"}, "draws no dice")
    refused(s, {"type": "pair_leftovers", "participant": "Shred"}, "opponents still have dice")
    refused(s, {"type": "buy_goal", "participant": "Shred", "price": 1}, "has 0 book")
    refused(
        s, {"type": "prepare_pool", "participant": "Shred", "primary_skills": "many"}, "whole number", error=BadRequest
    )


def test_a_face_of_7_is_refused_by_the_rules() -> None:
    s = shred_and_jack()
    refused(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [7]}, "dice: a d6 face is 1-6, got 7")
    s, _ = act(s, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    for faces in ([7, 5], {"7": 1, "5": 1}):  # typed-in physical dice: the core reads them
        refused(s, {"type": "roll_pool", "participant": "Shred"}, r"face 7 is not on a d6|got 7", faces=faces)
    assert SYSTEM.validate_action({"type": "roll_pool", "faces": [6, 5]}, s)["type"] == "roll_pool"
    with pytest.raises(RuleError, match="faces: a d6 face is 1-6, got 0"):
        SYSTEM.validate_action({"type": "roll_pool", "faces": [0, 5]}, s)


def test_a_seat_with_no_dice_drawn_is_not_offered_to_roll() -> None:
    # "Shred: roll the scene pool (A)" is Shred's: Sven's phone offered Roll the scene pool among its main
    # moves, for Sven's own pool with nothing drawn ("Sven has no dice prepared").
    s = scene(players=["Shred", "Sven"], gm="GM")
    s, _ = act(s, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    spec = SYSTEM.spec("roll_pool")
    assert spec.reason(s, "Sven") == "Sven has no dice drawn to roll: draw dice for a scene pool first"
    assert spec.reason(s, "Shred") is None and spec.reason(s, None) is None
    refused(s, {"type": "roll_pool"}, "^Roll the scene pool \\(A\\): Sven has no dice drawn to roll", seat="Sven")


def test_one_resist_die_is_said_as_one() -> None:
    # "Shred rolled 1 resist dice: 1 join the scene pool", seen walking every action.
    s = scene(players=["Shred", "Sven"], gm="GM")
    _, r = act(s, {"type": "resist", "participant": "Shred", "quality": 1}, faces=[5])
    assert r["summary"] == "Shred rolled 1 resist die: 1 joins the scene pool"
