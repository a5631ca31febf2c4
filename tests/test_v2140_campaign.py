"""Venus 2140 rules the table used to keep in memory: who leads the next exchange, effects carried across
scenes and sessions, downtime, training, Connections, the full-sleeve point, goals per root skill.

Each test quotes the rulebook line (docs/rulebooks/v2140.txt) it checks; ``quoted`` fails when a line is
not in the rulebook, so a quote cannot drift from the text. Every step goes through the core's flow.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from tableside.core.errors import RuleError
from tableside.core.fields import read_faces
from tableside.core.systems.v2140 import SYSTEM, effects

from tests.dicehelp import play

RULEBOOK = " ".join((Path(__file__).resolve().parents[1] / "docs" / "rulebooks" / "v2140.txt").read_text().split())


def plain(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())


def quoted(line: str) -> str:
    """The line as the rulebook prints it (straight apostrophes for curly ones)."""
    assert plain(line) in plain(RULEBOOK), f"not in the rulebook: {line!r}"
    return line


def scene(**options):
    return SYSTEM.start(SYSTEM.validate_options({"players": ["Shred", "Sven"], "gm": "GM", **options}))


def act(state, raw, faces=None, seat=None):
    if isinstance(faces, dict):
        faces = read_faces(faces, 6)
    state, result = play(SYSTEM, state, raw, faces, seat)
    assert SYSTEM.laws(state) == []
    return state, result


def refused(state, raw, match, faces=None, seat=None):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError, match=match) as caught:
        play(SYSTEM, state, raw, faces, seat)
    assert state == before
    return str(caught.value)


def with_pools(state, **pools):
    state = copy.deepcopy(state)
    for name, faces in pools.items():
        state["participants"][name]["pool"] = sorted(faces, reverse=True)
    return SYSTEM.derive(state)


def exchange(state, actor, target, forward, answer):
    state, _ = act(state, {"type": "put_forward", "actor": actor, "target": target, "dice": forward})
    state, _ = act(state, {"type": "answer", "dice": answer})
    return act(state, {"type": "resolve"})


def prompt(state):
    first = SYSTEM.pending(SYSTEM.redact(state, None))[0]
    return first.seat, first.text, first.type


def effect_named(state, character, name):
    return next(e for e in effects.active(state) if e["character"] == character and e["effect"] == name)


# --- who leads the next exchange -------------------------------------------------------------------------


def test_the_side_that_captured_last_starts_the_next_exchange():
    quoted("The side that captured last time starts a new exchange until someone is out of dice.")
    s = with_pools(scene(players=["Shred"]), Shred=[6, 6, 5, 5, 5, 5], GM=[6, 6, 4])
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [5]})
    s, _ = act(s, {"type": "answer", "dice": [6]})
    s, r = act(s, {"type": "resolve"})
    assert r["books"] == {"Shred": 0, "GM": 1} and s["lead"] == "GM"
    assert prompt(s) == ("GM", "GM: captured last, starts a new exchange", "put_forward")
    # The actor left out: the one who leads, not whose move it is (Shred's).
    s, r = act(s, {"type": "put_forward", "target": "Shred", "dice": [4]})
    assert s["exchange"]["actor"] == "GM"


def test_the_lead_ends_when_someone_is_out_of_dice():
    quoted("The side that captured last time starts a new exchange until someone is out of dice.")
    s = with_pools(scene(players=["Shred"]), Shred=[6, 5], GM=[4])
    s, r = exchange(s, "Shred", "GM", [6], [4])
    assert r["books"]["Shred"] == 1 and s["participants"]["GM"]["dice"] == 0
    assert s["lead"] is None and prompt(s) == ("Shred", "Shred: put dice forward", "put_forward")


def test_another_side_may_still_lead_and_c_moves_on():
    quoted("Even though normally Shred would make the next lead, everyone ignores this and the GM leads two sixes.")
    s = with_pools(scene(players=["Shred"]), Shred=[6, 6, 6, 5, 4], GM=[6, 6, 5, 5, 4, 4])
    s, _ = exchange(s, "Shred", "GM", [6, 6], [5, 4])
    assert s["lead"] == "Shred"
    s, r = exchange(s, "GM", "Shred", [6, 6], [6, 5])  # the GM leads anyway; the GM captured
    assert s["lead"] == "GM"
    s, _ = act(s, {"type": "next_participant"})
    assert s["lead"] is None


def test_dice_paired_up_for_want_of_an_answer_are_no_capture():
    quoted("Sven cannot give dice back to match. Two of the dice are paired up and make a book(665).")
    quoted("Wire has tremendous natural initiative so he goes next.")
    s = with_pools(scene(players=["Sven", "Wire"]), GM=[6, 6, 5, 4, 4, 4], Wire=[6, 6, 6])
    s, _ = act(s, {"type": "put_forward", "actor": "GM", "target": "Sven", "dice": [6, 6, 5]})
    s, r = act(s, {"type": "resolve"})
    assert r["books"]["GM"] == 1 and s["lead"] is None


# --- effects across scenes and sessions ------------------------------------------------------------------


def test_effect_names_read_paragraphs_the_table_confirms():
    quoted("Looking at the Coordination goal chart, he could Wound, Scar, Knock Out, or Cripple Jack.")
    quoted("You are knocked out and you will be crippled.")
    s = scene()
    assert s["readings"] == {"Wound": "wound", "Scar": "marked", "Knock Out": "stopped", "Cripple": "crippling"}
    option = next(o for o in SYSTEM.options if o.name == "effects").describe()
    reads = next(f for f in option["fields"] if f["name"] == "reads")
    assert [c["value"] for c in reads["choices"]] == list(effects.PARAGRAPHS)
    # The fifth paragraph has no name in the text: the table may give it one.
    s = scene(effects=[{"name": "Maimed", "reads": "stopped_then_crippling"}, {"name": "Scar", "reads": "marked"}])
    s = with_pools(s, Sven=[5, 4])
    s, r = act(s, {"type": "add_effect", "character": "Sven", "effect": "Maimed", "by": "GM"})
    assert [e["reads"] for e in effects.active(s)] == ["stopped", "crippling"]
    assert s["participants"]["Sven"]["pool"] == []
    with pytest.raises(RuleError, match="named twice"):
        scene(effects=[{"name": "Scar", "reads": "marked"}, {"name": "scar", "reads": "wound"}])


def test_a_scar_bought_as_a_goal_is_a_die_for_the_one_who_did_it():
    quoted("you'll have a circumstance against you when you go against the person who did this to you")
    quoted("As for circumstances, Jack is Scarred, and since Shred did it that applies here. Plus one die for Shred.")
    s = with_pools(scene(), Shred=[6])
    s["participants"]["Shred"]["books"] = 2
    s, _ = act(s, {"type": "set_skills", "primary": "Coordination: Projectiles: Airgun"})
    s, r = act(
        s,
        {
            "type": "buy_goal",
            "participant": "Shred",
            "chart_goal": "Coordination: Scar",
            "price": 2,
            "target": "GM",
            "character": "Jack",
            "applies_to": "acid burn on forehead",
        },
    )
    scar = effect_named(s, "Jack", "Scar")
    assert scar["by"] == "Shred" and scar["permanent"] and "effect: Jack: Scar by Shred" in r["summary"]
    s, _ = act(s, {"type": "treat_effect", "effect": scar["id"]})
    offered = {c["value"]: c["for"] for c in effects.candidates(s)}
    assert offered == {f"Shred:{scar['id']}:scar": "Shred"}  # only for Shred, not Sven
    s, r = act(
        s,
        {"type": "prepare_pool", "participant": "Shred", "primary_skills": 2, "effects": [f"Shred:{scar['id']}:scar"]},
    )
    assert r["dice"] == 5 and "effects counted: Shred: +1 die, Jack's Scar (scar)" in r["summary"]
    refused(
        s,
        {"type": "prepare_pool", "participant": "Sven", "primary_skills": 1, "effects": [f"Shred:{scar['id']}:scar"]},
        "is not an effect that gives Sven a circumstance die",
    )


def test_an_untreated_scar_is_just_a_wound_and_a_wound_is_a_die_for_the_other_side():
    quoted("Until it's treated, it's just a wound.")
    quoted(
        "All penalties to the opposing side are added to your side as bonus dice. One die per "
        "advantage, never subtract."
    )
    s = scene()
    s, _ = act(s, {"type": "add_effect", "character": "Jack", "effect": "Scar", "by": "Shred"})
    s, _ = act(s, {"type": "add_effect", "character": "Sven", "effect": "Wound", "by": "GM", "applies_to": "physical"})
    by_builder = {}
    for c in effects.candidates(s):
        by_builder.setdefault(c["for"], []).append(c["what"])
    # Jack's untreated scar counts for both players as a wound; Sven's wound for the GM only.
    assert by_builder == {"Shred": ["wound until treated"], "Sven": ["wound until treated"], "GM": ["wound"]}
    s, r = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    assert r["dice"] == 6 and "not counted: GM: +1 die, Sven's Wound (wound), physical" in r["summary"]


def test_crippling_is_a_wound_and_a_scar_until_treated():
    quoted(
        "Kind of like a scar, except that it is a permanent physical penalty. Until it's treated, "
        "it's a wound and a scar."
    )
    s = scene()
    s, _ = act(s, {"type": "add_effect", "character": "Jack", "effect": "Cripple", "by": "Shred"})
    e = effect_named(s, "Jack", "Cripple")
    assert sorted(c["what"] for c in effects.candidates(s, "Shred")) == ["scar until treated", "wound until treated"]
    assert [c["what"] for c in effects.candidates(s, "Sven")] == ["wound until treated"]
    s, r = act(s, {"type": "treat_effect", "effect": e["id"]})
    assert "now a permanent physical penalty" in r["summary"]
    assert [c["what"] for c in effects.candidates(s, "Sven")] == ["permanent physical penalty"]
    refused(s, {"type": "treat_effect", "effect": e["id"]}, "not one of none right now")


def test_knocked_out_empties_the_pool_and_leaves_only_spending_books():
    quoted("You aren't wounded, but you stop doing anything. Any dice you had in your scene pool are gone gone gone.")
    quoted("This is your last chance to spend any books.")
    s = with_pools(scene(), Sven=[6, 5, 4], Shred=[6, 6], GM=[6, 6, 5])
    s["participants"]["Sven"]["books"] = 2
    s["participants"]["GM"]["books"] = 3
    s, r = act(
        s,
        {
            "type": "buy_goal",
            "participant": "GM",
            "guide": "knock out one person",
            "target": "Sven",
            "effect": "Knock Out",
        },
    )
    assert s["participants"]["Sven"]["pool"] == [] and "3 dice in the scene pool are gone gone gone" in r["summary"]
    refused(s, {"type": "prepare_pool", "participant": "Sven", "primary_skills": 1}, "Sven is stopped")
    s2 = with_pools(s, Sven=[5])  # even with a die somehow in hand, no exchange
    refused(s2, {"type": "put_forward", "actor": "Sven", "target": "GM", "dice": [5]}, "only spending books is left")
    s, r = act(s, {"type": "buy_goal", "participant": "Sven", "goal": "Last words", "price": 2})
    assert s["participants"]["Sven"]["books"] == 0
    # It lasts the scene: the next scene Sven acts again.
    s, r = act(s, {"type": "new_scene"})
    assert "Sven come round" in r["summary"] and not effects.is_stopped(s, "Sven")


def test_effects_stay_across_scenes_and_sessions_and_show_on_every_phone():
    quoted("The Wound trait of Scarred will last forever, so the GM makes a note of it on Jack's NPC card.")
    s = with_pools(scene(), Shred=[6, 5], GM=[4])
    s, _ = act(s, {"type": "add_effect", "character": "Jack", "effect": "Scar", "by": "Shred", "note": "acid burn"})
    s, _ = act(
        s,
        {
            "type": "add_effect",
            "character": "Sven",
            "effect": "Wound",
            "by": "GM",
            "applies_to": "physical",
            "until": "a day",
        },
    )
    s, r = act(s, {"type": "new_scene"})
    assert s["campaign"] == {"session": 1, "scene": 2} and s["participants"]["Shred"]["pool"] == []
    assert "Jack: Scar by Shred (acid burn)" in r["summary"]
    s, r = act(s, {"type": "new_session"})
    assert s["campaign"] == {"session": 2, "scene": 1} and len(effects.active(s)) == 2
    for seat in ("Shred", "GM", None):  # effects are public: every phone and the e-paper show them
        view = SYSTEM.redact(s, seat)
        assert [e["character"] for e in view["effects"]] == ["Jack", "Sven"]
    texts = [getattr(el, "text", "") for el in SYSTEM.screen(SYSTEM.redact(s, None)).elements]
    assert any("Jack: Scar by Shred" in t and "Sven: Wound" in t for t in texts)
    wound = effect_named(s, "Sven", "Wound")
    s, r = act(s, {"type": "end_effect", "effect": wound["id"], "reason": "medical attention"})
    assert [e["character"] for e in effects.active(s)] == ["Jack"] and "(medical attention)" in r["summary"]


def test_a_new_session_refills_the_gm_session_pool():
    quoted("Session Budget The GM gets one rack for each player to throw in where it can make things tougher")
    s = scene()
    s, _ = act(s, {"type": "session_rack"}, faces=[5, 5, 4, 4, 3, 2])
    assert s["session_racks"] == 1
    s, _ = act(s, {"type": "new_session"})
    assert s["session_racks"] == 2


# --- downtime, healing, training, Connections ------------------------------------------------------------


def wounded(level=1, **options):
    s = scene(**options)
    s, _ = act(s, {"type": "add_effect", "character": "Sven", "effect": "Wound", "by": "GM", "level": level})
    return s, effect_named(s, "Sven", "Wound")["id"]


def test_downtime_is_a_test_against_three_dice_per_level_two_books_rid_of_a_wound():
    quoted("The player or his doctor makes a test against three dice for each level of the wound.")
    quoted("It costs 2 books to get rid of a wound, and 3 to make a wound permanent.")
    s, wound = wounded(level=2)
    # Sven's 4 dice 6 5 5 4 (the six rolls in a 5), the six against 5 4 4 3 2 1: 65554 against 544.
    faces = [6, 5, 5, 4, 5, 5, 4, 4, 3, 2, 1]
    after, r = act(s, {"type": "downtime", "effect": wound, "dice": 4, "buy": "get rid of it"}, faces=faces)
    assert r["own"] == [6, 5, 5, 5, 4] and r["against"] == [5, 4, 4] and r["books"] == 3
    assert effects.active(after) == [] and "gets rid of the Wound" in r["summary"]
    after, r = act(s, {"type": "downtime", "effect": wound, "dice": 4, "buy": "make it permanent"}, faces=faces)
    assert effect_named(after, "Sven", "Wound")["permanent"]


def test_downtime_books_short_of_the_cost_leave_the_wound():
    quoted("It costs 2 books to get rid of a wound, and 3 to make a wound permanent.")
    s, wound = wounded()
    after, r = act(
        s, {"type": "downtime", "effect": wound, "dice": 2, "buy": "get rid of it"}, faces=[5, 1, 6, 5, 4, 5]
    )
    assert r["books"] == 0 and "needs 2 books to get rid of it: the Wound stays" in r["summary"]
    assert effect_named(after, "Sven", "Wound")["permanent"] is False


def test_four_permanent_effects_mean_a_healing_downtime_where_half_disappear():
    quoted(
        "If a character goes into downtime with four or more permanent effects, they spend that "
        "downtime period healing."
    )
    quoted("In effect, the GM and players should work out a reason to have half of the effects disappear.")
    s, wound = wounded()
    for _ in range(4):
        s, _ = act(s, {"type": "add_effect", "character": "Sven", "effect": "Scar", "by": "GM"})
    refused(
        s, {"type": "downtime", "effect": wound, "dice": 4, "buy": "get rid of it"}, "this downtime is spent healing"
    )
    refused(s, {"type": "train", "participant": "Sven", "skill": "Physique", "dice": 2}, "spends this downtime healing")
    scars = [e["id"] for e in effects.active(s) if e["effect"] == "Scar"]
    refused(s, {"type": "heal", "character": "Sven", "effects": scars[:1]}, "pick 2")
    s, r = act(s, {"type": "heal", "character": "Sven", "effects": scars[:2]})
    assert effects.permanent_count(s, "Sven") == 2
    refused(s, {"type": "heal", "character": "Sven", "effects": scars[2:]}, "at 4 or more")


def test_training_gives_restricted_points_next_session_for_that_skill_only():
    quoted("Make a test with a skill you plan to use against two racks.")
    quoted("Every book you pull out is worth a player point in the next session, when you're using that skill.")
    quoted("These player points are restricted, which means that they can only be used in association with the skill")
    s = scene(rack=2)  # two racks of two: four dice against
    faces = [6, 6, 5, 4, 4, 5, 5, 4, 2, 1]  # Shred 6654 + roll-ins 45: 665544 against 54: two captured
    s, r = act(
        s, {"type": "train", "participant": "Shred", "skill": "Coordination: Projectiles", "dice": 4}, faces=faces
    )
    assert r["books"] == 2 and s["participants"]["Shred"]["restricted"] == [
        {"skill": "Coordination: Projectiles", "points": 2, "usable_from": 2}
    ]
    s["participants"]["Shred"]["books"] = 0
    s, _ = act(s, {"type": "set_skills", "primary": "Coordination: Projectiles: Airgun"})
    goal = {"type": "buy_goal", "participant": "Shred", "goal": "Pin him down", "price": 2, "restricted": 2}
    refused(s, goal, "0 restricted point")  # not before the next session
    s, _ = act(s, {"type": "new_session"})
    s, _ = act(s, {"type": "set_skills", "primary": "Physique: Athletics: Running"})
    refused(s, goal, "usable with Physique: Athletics: Running")  # another skill
    s, _ = act(s, {"type": "set_skills", "primary": "Coordination: Projectiles: Airgun"})
    s, r = act(s, goal)
    assert s["participants"]["Shred"]["restricted"] == [] and "2 restricted points trained for" in r["summary"]


def test_a_connections_test_rolls_two_dice_per_lifestyle_and_two_for_a_network():
    quoted("for each lifestyle the character has that relates to what they are seeking, the players roll two dice.")
    quoted("If a player has chosen a Network as a memento of their lifestyle, then they get an extra two dice.")
    s = scene()
    raw = {
        "type": "connections",
        "participant": "Sven",
        "seeking": "a boat",
        "lifestyles": 1,
        "network": True,
        "against": 2,
    }
    s, r = act(s, raw, faces=[5, 5, 4, 4, 3, 2])
    assert r["own"] == [5, 5, 4, 4] and r["books"] == 2 and s["tests"][-1]["test"] == "connections"
    refused(s, {**raw, "participant": "GM"}, "Who: 'GM' is not one of Shred, Sven")
    # Left out on the table's phone ("default: whose move it is"): it said "None is not in this scene".
    s, r = act(s, {k: v for k, v in raw.items() if k != "participant"}, faces=[5, 5, 4, 4, 3, 2])
    assert s["tests"][-1]["who"] == "Shred" and r["summary"].startswith("Connections: Shred seeks a boat")


# --- the full-sleeve point; goals per root skill and after Fly-Dice --------------------------------------


def test_a_side_outnumbered_by_a_full_sleeve_is_offered_one_point():
    quoted(
        "If you enter a conflict where you are outnumbered by a full sleeve of dice, you are "
        "entitled to one player point"
    )
    quoted("This pertains to both the GM and the players.")
    s = scene()
    s, _ = act(s, {"type": "prepare_pool", "participant": "Sven", "primary_skills": 2})
    s, _ = act(s, {"type": "roll_pool", "participant": "Sven"}, faces=[5, 5, 4, 4])
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 2})
    s, _ = act(s, {"type": "roll_pool", "participant": "GM"}, faces=[5] * 12)
    offers = [p for p in SYSTEM.pending(s) if p.type == "outnumbered_point"]
    assert [(p.seat, p.text) for p in offers] == [
        ("GM", "Sven: outnumbered by a full sleeve (4 dice against 12): one Player Point, if germane")
    ]
    refused(s, {"type": "outnumbered_point", "participant": "Sven"}, "cannot act for GM", seat="Sven")
    s, r = act(s, {"type": "outnumbered_point", "participant": "Sven"})
    assert s["participants"]["Sven"]["player_points"] == 1
    refused(s, {"type": "outnumbered_point", "participant": "Sven"}, "not one of none right now")
    # Not outnumbered by a full sleeve: Shred's 10 against 12 (a sleeve is the GM's rack of 6).
    t = scene()
    t, _ = act(
        t,
        {
            "type": "prepare_pool",
            "participant": "Shred",
            "primary_skills": 3,
            "secondary_skills": 3,
            "circumstances": 1,
        },
    )
    t, _ = act(t, {"type": "roll_pool", "participant": "Shred"}, faces=[5] * 10)
    t, _ = act(t, {"type": "prepare_pool", "participant": "GM", "racks": 2})
    t, _ = act(t, {"type": "roll_pool", "participant": "GM"}, faces=[5] * 12)
    assert not [p for p in SYSTEM.pending(t) if p.type == "outnumbered_point"]


def test_the_full_sleeve_point_is_said_while_the_conflict_is_entered_not_all_conflict_long():
    """#17 QA: "GM: outnumbered by a full sleeve (6 dice against 16) ..." stayed under every prompt all round.
    It is said while the conflict is entered; once dice go forward the GM still gives it from Points."""
    s = scene()
    for name, faces in (("Shred", [5] * 8), ("Sven", [4] * 8)):
        s, _ = act(s, {"type": "prepare_pool", "participant": name, "primary_skills": 3, "secondary_skills": 2})
        s, _ = act(s, {"type": "roll_pool", "participant": name}, faces=faces)
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    s, _ = act(s, {"type": "roll_pool", "participant": "GM"}, faces=[5] * 6)

    def offered(state):
        return [p.text for p in SYSTEM.pending(state) if p.type == "outnumbered_point"]

    assert offered(s) == ["GM: outnumbered by a full sleeve (6 dice against 16): a Murphy point, if germane"]
    s, _ = act(s, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [5]})
    assert offered(s) == []  # an exchange waits
    s, _ = act(s, {"type": "answer", "dice": [5]})
    s, _ = act(s, {"type": "resolve"})
    assert not s["exchange"] and offered(s) == []  # and after it, all conflict long
    assert SYSTEM.actions["outnumbered_point"].describe(s, s["seating"])["available"]
    s, r = act(s, {"type": "outnumbered_point", "participant": "GM"})
    assert s["murphy"] == 1, r
    # A follow-up conflict is entered anew: said again for whoever is outnumbered then.
    t, _ = act(scene(), {"type": "prepare_pool", "participant": "Sven", "primary_skills": 2})
    t, _ = act(t, {"type": "roll_pool", "participant": "Sven"}, faces=[5, 5, 4, 4])
    t, _ = act(t, {"type": "prepare_pool", "participant": "GM", "racks": 2})
    t, _ = act(t, {"type": "roll_pool", "participant": "GM"}, faces=[5] * 12)
    t, _ = act(t, {"type": "put_forward", "actor": "Sven", "target": "GM", "dice": [5]})
    t, _ = act(t, {"type": "withdraw"})
    assert offered(t)  # taken back: nothing went forward after all


def test_a_player_is_not_offered_the_gm_s_initiative_dice_nor_racks_the_session_pool_lacks():
    quoted("The GM can add dice for any individual character he wants to go first.")
    s = scene()
    bid = {f["name"]: f for f in SYSTEM.actions["bid_initiative"].describe(s, s["seating"], "Shred")["fields"]}
    assert bid["for"]["for_role"] == "gm"  # a player's phone leaves it out; the GM's and the table's show it

    def session_racks(state):
        fields = SYSTEM.actions["prepare_pool"].describe(state, state["seating"], "GM")["fields"]
        return next((f for f in fields if f["name"] == "session_racks"), None)

    assert s["session_racks"] == 2 and session_racks(s)["maximum"] == 2  # it offered 0-99
    s, _ = act(s, {"type": "prepare_pool", "participant": "GM", "session_racks": 1})
    s, _ = act(s, {"type": "roll_pool", "participant": "GM"}, faces=[5] * 6)
    assert session_racks(s)["maximum"] == 1
    s, _ = act(s, {"type": "session_rack"}, faces=[5] * 6)
    assert s["session_racks"] == 0 and session_racks(s) is None  # empty: not asked at all
    refused(s, {"type": "prepare_pool", "participant": "GM", "session_racks": 1}, "holds 0 racks")


def test_goals_are_offered_per_the_conflicts_root_skills():
    quoted(
        "The Root field of Air gun is Coordination. This means that the whole list of Coordination "
        "options listed below become open"
    )
    quoted(
        "The root field of Running is Physique. Physique has a number of goals attached including "
        "the crucial one: Escape."
    )
    s = with_pools(scene(), Shred=[6])
    s["participants"]["Shred"]["books"] = 4
    goal = {"type": "buy_goal", "participant": "Shred", "chart_goal": "Physique: Escape", "price": 2, "exception": True}
    refused(s, goal, "Goal from the charts: 'Physique: Escape' is not one of none right now")
    s, r = act(
        s,
        {
            "type": "set_skills",
            "primary": "Coordination: Projectiles: Airgun",
            "secondary": "Physique: Athletics: Running",
        },
    )
    assert (
        "goals on offer: Coordination: Wound, Coordination: Scar, Coordination: Knock Out, "
        "Coordination: Cripple, Physique: Escape" in r["summary"]
    )
    s, r = act(s, goal)
    assert s["goals"][-1]["goal"] == "Escape"
    refused(s, {**goal, "chart_goal": "Cognition: Create Major Detail"}, "is not one of Coordination: Wound, ")
    offered = SYSTEM.actions["buy_goal"].describe(s, ["Shred", "Sven", "GM"])["fields"]
    chart = next(f for f in offered if f["name"] == "chart_goal")
    assert [c["value"] for c in chart["choices"]] == [
        "Coordination: Wound",
        "Coordination: Scar",
        "Coordination: Knock Out",
        "Coordination: Cripple",
        "Physique: Escape",
    ]


def test_fly_dice_goals_go_to_the_winning_party_only():
    quoted("Any goals from the skill used can be purchased in the original conflict by the winning party only.")
    s = scene(players=["James"])
    s, _ = act(s, {"type": "set_skills", "primary": "Authority: Persuasion"})
    fly = {
        "type": "fly_dice",
        "attacker": "James",
        "defender": "GM",
        "attack_dice": 6,
        "defense_dice": 6,
        "skill": "Physique: Unarmed: Punch",
    }
    s, r = act(s, fly, faces=[5, 5, 4, 3, 2, 1, 6, 6, 5, 5, 4, 2, 5, 5])
    assert r["winner"] == "GM" and s["fly_goals"] == [
        {"skill": "Physique: Unarmed: Punch", "root": "Physique", "winner": "GM"}
    ]
    s["participants"]["James"]["books"] = 3
    s["participants"]["GM"]["books"] = 3
    ko = {"type": "buy_goal", "chart_goal": "Physique: Escape", "price": 1}
    words = refused(s, {**ko, "participant": "James"}, "by the winning party only")
    assert "(GM)" in words
    s, _ = act(s, {**ko, "participant": "GM"})
    # "Even if James already has 3 books from the ongoing conversation, he doesn't get to hurt anyone."


def test_the_new_actions_have_forms_a_phone_draws():
    s = scene()
    s, _ = act(s, {"type": "add_effect", "character": "Sven", "effect": "Wound", "by": "GM"})
    seats = [x.name for x in SYSTEM.seats(s)]
    for kind in (
        "add_effect",
        "treat_effect",
        "end_effect",
        "new_scene",
        "new_session",
        "downtime",
        "heal",
        "train",
        "connections",
        "outnumbered_point",
        "set_skills",
    ):
        described = SYSTEM.actions[kind].describe(s, seats)
        assert described["label"] and described["group"]
        for f in described["fields"]:
            assert f["kind"] in ("count", "pick", "picks", "text", "flag") and f["label"]
    wound = SYSTEM.actions["downtime"].describe(s, seats)["fields"][0]
    assert wound["choices"] == [{"value": 1, "label": "Sven: Wound by GM"}]
    effect = SYSTEM.actions["add_effect"].describe(s, seats)["fields"][1]
    assert [c["value"] for c in effect["choices"]] == ["Wound", "Scar", "Knock Out", "Cripple"]


def test_seats_act_for_their_own_character_and_the_gm_notes_effects():
    quoted("The player or his doctor makes a test against three dice for each level of the wound.")
    s, wound = wounded()
    refused(
        s,
        {"type": "add_effect", "character": "Jack", "effect": "Scar", "by": "Sven"},
        "Sven cannot act for GM",
        seat="Sven",
    )
    refused(
        s,
        {"type": "train", "participant": "Shred", "skill": "Physique", "dice": 2},
        "Sven cannot act for Shred",
        seat="Sven",
    )
    # The wounded character, the GM or another character as the doctor: anyone at the table.
    for seat in ("Sven", "GM", "Shred"):
        act(
            s,
            {"type": "downtime", "effect": wound, "dice": 2, "buy": "get rid of it"},
            faces=[5, 4, 3, 2, 1],
            seat=seat,
        )
    s, _ = act(s, {"type": "train", "skill": "Physique", "dice": 1}, faces=[4] + [1] * 12, seat="Shred")
    assert s["tests"][-1]["who"] == "Shred"  # left out, the participant is the seat's own


def test_a_campaign_holds_a_bounded_number_of_standing_effects():
    s = scene()
    s["effects"] = [
        {**e, "id": i + 1}
        for i, e in enumerate([effects.new_effect(copy.deepcopy(s), "Jack", "Wound")[0]] * effects.MAX_EFFECTS)
    ]
    s["next_effect"] = effects.MAX_EFFECTS + 1
    refused(s, {"type": "add_effect", "character": "Jack", "effect": "Scar"}, "at most 200 standing effects")


def test_the_docs_rules_table_quotes_the_rulebook():
    """docs/systems/v2140.md's Rules table: every quote in its rulebook column is in the rulebook."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "systems" / "v2140.md").read_text()
    table = doc.split("## Rules (each with its quote")[1].split("\n## ")[0]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) >= 13
    for row in rows:
        quotes = re.findall(r"\u201c(.+?)\u201d|\"(.+?)\"", row[1])
        assert quotes, row
        for pair in quotes:
            quoted(pair[0] or pair[1])


def test_button_c_passes_over_a_knocked_out_participant_and_says_so():
    """#36: C gave the move to a knocked-out seat, who "stop[s] doing anything". It goes past them now, and says
    so; an older log's C (no ``skip_stopped``) replays as it was played."""
    quoted("You aren't wounded, but you stop doing anything.")
    s = with_pools(scene(), Sven=[6, 5, 4], Shred=[6, 6], GM=[6, 6, 5])
    s, _ = act(s, {"type": "add_effect", "character": "Sven", "effect": "Knock Out", "by": "GM"})
    order = s["order"]
    s["turn"] = (order.index("Sven") - 1) % len(order)
    before = copy.deepcopy(s)
    c = next(b for b in SYSTEM.bindings if b.button == "C").action(s)
    after, r = act(s, c)
    nxt = order[(order.index("Sven") + 1) % len(order)]
    assert after["order"][after["turn"]] == nxt
    assert r["summary"].startswith(f"{nxt}'s move") and "past Sven (knocked out)" in r["summary"]
    old, _ = SYSTEM.apply(before, {"type": "next_participant"}, None)  # as an older log holds it
    assert old["order"][old["turn"]] == "Sven"
