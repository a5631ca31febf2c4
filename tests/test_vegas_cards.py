"""The cards of the current round: cards already played, entered hands, following suit, the revealed 1-5.

Each test quotes the rulebook line (docs/rulebooks/vegas.txt) it checks, and goes through the
core's flow (run_action), so refusals change nothing and the laws are checked after every step.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tableside.core.errors import RuleError
from tableside.core.system import run_action
from tableside.core.systems.vegas import SYSTEM, rules

from tests.test_vegas_helpers import in_round

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = (ROOT / "docs" / "rulebooks" / "vegas.txt").read_text()
RULES_DOC = ROOT / "docs" / "systems" / "vegas.md"
ONE_LINE = " ".join(RULEBOOK.split())


def quoted(line: str) -> str:
    """The line as the rulebook prints it: a test that quotes a line the rulebook lacks fails here."""
    assert " ".join(line.split()) in ONE_LINE, f"not in the rulebook: {line!r}"
    return line


def act(state, raw, seat=None):
    return run_action(SYSTEM, state, raw, seat=seat, rng=random.Random(3))


def row(player, card, **extra):
    suit, number = card.rsplit(" ", 1)
    return {"player": player, "suit": suit, "number": int(number), **extra}


def trick(state, *plays):
    """One trick entered card by card from the leader round the table; bonuses declined (A)."""
    step = act(
        state, {"type": "play_trick", "cards": [row(p, c, **x) for p, c, *rest in plays for x in (rest or [{}])]}
    )
    state = step.state
    if state["trick"] is not None:
        state = act(state, {"type": "next_trick"}).state
    return state


def refused(state, raw, words, seat=None):
    with pytest.raises(RuleError) as err:
        act(state, raw, seat)
    assert words in str(err.value), str(err.value)
    return str(err.value)


def round_one():
    """Ann, Bob and Cy in round 1; Ann leads."""
    state = SYSTEM.derive(in_round(leader="Ann"))
    assert state["leader"] == "Ann" and state["phase"] == "Tricks"
    return state


def test_a_card_played_earlier_in_the_round_is_refused_in_words():
    quoted("65 employee cards in 5 suits — Team, Game, Inspector, Bot and Mobster — numbered 1 to 13.")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    assert [(r["card"], r["player"], r["trick"]) for r in state["played"]] == [
        ("Game 9", "Ann", 1),
        ("Game 4", "Bob", 1),
        ("Bot 2", "Cy", 1),
    ]
    lead = state["leader"]
    order = [lead, *[p for p in ("Bob", "Cy", "Ann", "Bob", "Cy") if p != lead]][:3]
    again = {"type": "play_trick", "cards": [row(order[0], "Team 1"), row(order[1], "Game 9"), row(order[2], "Bot 3")]}
    words = refused(state, again, "Game 9 was already played this round (Ann, trick 1)")
    assert "there is one of each card" in words


def test_the_played_cards_start_again_when_the_deck_is_reshuffled():
    quoted("Each round All modifier tokens are returned and the deck is reshuffled.")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    state = act(state, {"type": "correct", "key": "hand.1", "value": 0}).state
    state = act(state, {"type": "correct", "key": "hand.2", "value": 0}).state
    assert state["phase"] == "Reveal"
    state = act(state, {"type": "correct", "key": "hand.0", "value": 0}).state
    assert state["phase"] == "Round over" and state["played"]
    state = act(state, {"type": "start_round"}).state
    assert state["played"] == [] and all(h is None for h in state["hands"].values())


def test_a_card_a_mobster_token_took_back_into_a_hand_may_be_played_again():
    quoted("Mobster — take one card out of this trick into your hand.")
    state = round_one()
    state["tokens"]["Cy"]["Mobster"] = 1
    state = trick(state, ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2", {"token": "Mobster", "take": "Game 4"}))
    assert [r["card"] for r in state["played"]] == ["Game 9", "Bot 2"]
    lead = state["leader"]
    others = [p for p in ("Ann", "Bob", "Cy") if p != lead]
    cards = {lead: "Team 1", others[0]: "Team 2", others[1]: "Team 3"}
    cards["Cy"] = "Game 4"  # Cy took it into the hand, so Cy may play it
    order = [lead, *others]
    state = trick(state, *[(p, cards[p]) for p in order])
    assert "Game 4" in [r["card"] for r in state["played"]]


def test_following_suit_is_checked_against_an_entered_hand():
    quoted("Follow the led suit if you can; otherwise play anything.")
    state = round_one()
    held = state["hand"]["Bob"]
    hand = ["Game 4", *[f"Team {n}" for n in range(1, held)]]
    state = act(state, {"type": "enter_hand", "player": "Bob", "cards": hand}, seat="Bob").state
    off_suit = {"type": "play_trick", "cards": [row("Ann", "Game 9"), row("Bob", "Team 1"), row("Cy", "Bot 2")]}
    refused(state, off_suit, "Bob holds Game 4: follow the led suit (Game) if you can, not Team 1", seat="Bob")
    # "otherwise play anything": led Bot, which Bob does not hold, so any card is fine.
    state = trick(state, ("Ann", "Bot 9"), ("Bob", "Team 1"), ("Cy", "Bot 2"))
    assert "Team 1" not in state["hands"]["Bob"] and len(state["hands"]["Bob"]) == state["hand"]["Bob"]


def test_a_card_not_in_the_entered_hand_is_refused():
    quoted("Follow the led suit if you can; otherwise play anything.")
    state = round_one()
    held = state["hand"]["Cy"]
    state = act(state, {"type": "enter_hand", "player": "Cy", "cards": [f"Team {n}" for n in range(1, held + 1)]}).state
    raw = {"type": "play_trick", "cards": [row("Ann", "Game 9"), row("Bob", "Game 4"), row("Cy", "Bot 2")]}
    refused(state, raw, "Cy's hand as entered does not hold Bot 2", seat="Cy")
    raw = {"type": "play_trick", "cards": [row("Ann", "Team 1"), row("Bob", "Game 4"), row("Cy", "Team 2")]}
    refused(state, raw, "Ann's card: Team 1 is in Cy's hand as entered", seat="Cy")


def test_an_entered_hand_must_be_the_cards_held_none_played():
    quoted("65 employee cards in 5 suits — Team, Game, Inspector, Bot and Mobster — numbered 1 to 13.")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    held = state["hand"]["Ann"]
    refused(state, {"type": "enter_hand", "player": "Ann", "cards": ["Team 1"]}, f"Ann holds {held} cards; 1 entered")
    cards = ["Game 9", *[f"Team {n}" for n in range(1, held)]]
    refused(state, {"type": "enter_hand", "player": "Ann", "cards": cards}, "Game 9 was already played this round")
    refused(
        state,
        {"type": "enter_hand", "player": "Ann", "cards": [f"Team {n}" for n in range(1, held + 1)]},
        "Enter your hand: Bob cannot act for Ann",
        seat="Bob",
    )


def test_an_entered_hand_is_private_to_its_seat():
    quoted("Follow the led suit if you can; otherwise play anything.")
    state = round_one()
    held = state["hand"]["Ann"]
    cards = [f"Mobster {n}" for n in range(1, held + 1)]
    step = act(state, {"type": "enter_hand", "player": "Ann", "cards": cards}, seat="Ann")
    assert step.private == {"seat": "Ann", "summary": f"Ann entered their hand ({held} cards)"}
    assert "Mobster" not in step.result["summary"]
    state = step.state
    assert SYSTEM.redact(state, "Ann")["hands"]["Ann"] == cards
    for seat in ("Bob", None):
        view = SYSTEM.redact(state, seat)
        assert view["hands"]["Ann"] is None and view["hand_entered"]["Ann"] is True


def test_an_entered_hand_is_set_aside_when_the_cards_held_change_out_of_sight():
    quoted("Team: draw a card / draw 2 and take their round bonuses.")
    state = round_one()
    held = state["hand"]["Ann"]
    state = act(
        state, {"type": "enter_hand", "player": "Ann", "cards": [f"Mobster {n}" for n in range(1, held + 1)]}
    ).state
    step = act(
        state, {"type": "play_trick", "cards": [row("Ann", "Mobster 9"), row("Bob", "Team 7"), row("Cy", "Bot 2")]}
    )
    state = step.state
    assert len(state["hands"]["Ann"]) == held - 1
    state = act(state, {"type": "claim_bonus", "player": "Ann", "suit": "Team", "number": 7}).state  # draws a card
    assert state["hands"]["Ann"] is None and state["hand_entered"]["Ann"] is False


def test_a_trick_entered_by_its_winner_only_sets_entered_hands_aside():
    quoted("Follow the led suit if you can; otherwise play anything.")
    state = round_one()
    held = state["hand"]["Bob"]
    state = act(
        state, {"type": "enter_hand", "player": "Bob", "cards": [f"Team {n}" for n in range(1, held + 1)]}
    ).state
    step = act(state, {"type": "trick_winner", "winner": "Ann"})
    assert step.state["hands"]["Bob"] is None
    assert "entered hands of Bob are set aside" in step.result["summary"]


def test_a_revealed_card_played_this_round_is_refused():
    quoted("That player reveals their remaining hand one card at a time")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    for i in (1, 2):
        state = act(state, {"type": "correct", "key": f"hand.{i}", "value": 0}).state
    assert state["phase"] == "Reveal" and state["revealer"] == "Ann"
    refused(state, {"type": "reveal_card", "suit": "Game", "number": 4}, "Game 4 was already played this round")


@pytest.mark.parametrize(
    ("reading", "gain"), [(None, rules.ROUND_LOW_VP), ("round bonus", 1), ("larger bonus", rules.TRICK_LOW_VP)]
)
def test_a_revealed_low_card_scores_the_reading_chosen_at_setup(reading, gain):
    quoted(
        "takes each card's round bonus — the larger of the two bonuses printed on it. "
        "Running yourself low on cards is not automatically good."
    )
    quoted("1–5 Gain 2 VP Gain 1 VP")
    options = {} if reading is None else {"reveal_low": reading}
    state = SYSTEM.derive(in_round(leader="Ann", **options))
    for i in (1, 2):
        state = act(state, {"type": "correct", "key": f"hand.{i}", "value": 0}).state
    before = state["vp"]["Ann"]
    state = act(state, {"type": "reveal_card", "suit": "Team", "number": 3}).state
    assert state["vp"]["Ann"] - before == gain
    # A 6-9 and a 10-13 take the round bonus under either reading: it is the larger of the two.
    state = act(state, {"type": "reveal_card", "suit": "Mobster", "number": 8}).state
    assert state["vp"]["Ann"] - before == gain + rules.MOBSTER_ROUND_GAIN


def test_the_reveal_reading_is_a_setup_option_with_both_choices():
    option = next(o for o in SYSTEM.options if o.name == "reveal_low")
    described = option.describe()
    assert described["default"] == "round bonus"
    assert [c["value"] for c in described["choices"]] == ["round bonus", "larger bonus"]
    with pytest.raises(RuleError):
        SYSTEM.validate_options({"players": ["Ann", "Bob"], "reveal_low": "the smaller"})


def test_the_cards_law_names_a_card_played_twice():
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    state["played"].append({"card": "Game 9", "player": "Bob", "trick": 2})
    assert "Game 9 is recorded as played twice this round" in SYSTEM.laws(state)


def test_enter_hand_has_a_form_a_phone_draws():
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    described = SYSTEM.actions["enter_hand"].describe(state, ["Ann", "Bob", "Cy"])
    assert described["available"] is True and described["label"] == "Enter your hand"
    fields = {f["name"]: f for f in described["fields"]}
    assert fields["player"]["kind"] == "seat" and [c["value"] for c in fields["player"]["choices"]] == [
        "Ann",
        "Bob",
        "Cy",
    ]
    assert fields["cards"]["kind"] == "picks" and len(fields["cards"]["choices"]) == rules.CARDS
    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Ann", "Bob"]}))
    assert SYSTEM.actions["enter_hand"].describe(state, ["Ann", "Bob"])["reason"] == "only in Tricks; now: Setup"


def test_a_bonus_named_from_a_trick_entered_by_its_winner_joins_the_cards_played():
    quoted("The winner then chooses one opponent's card from the trick and takes that card's trick bonus.")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    state = act(state, {"type": "trick_winner", "winner": "Ann"}).state
    refused(state, {"type": "claim_bonus", "player": "Ann", "suit": "Game", "number": 4}, "Game 4 was already played")
    state = act(state, {"type": "claim_bonus", "player": "Ann", "suit": "Team", "number": 3}).state
    assert {"card": "Team 3", "player": "", "trick": 2} in state["played"]
    lead = state["leader"]
    others = [p for p in ("Ann", "Bob", "Cy") if p != lead]
    raw = {"type": "play_trick", "cards": [row(lead, "Team 3"), row(others[0], "Team 5"), row(others[1], "Team 6")]}
    refused(state, raw, "Team 3 was already played this round (trick 2)")


def test_the_docs_rules_table_quotes_the_rulebook():
    """docs/systems/vegas.md's Rules table: every quote in its rulebook column is in the rulebook."""
    doc = (RULES_DOC).read_text()
    table = doc.split("## Rules (each with its quote")[1].split("\n## ")[0]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) >= 5
    for row in rows:
        quotes = re.findall(r"\"(.+?)\"", row[1])
        assert quotes, row
        for text in quotes:
            quoted(text)


def test_a_card_played_seat_by_seat_is_checked_as_it_is_played():
    quoted("Follow the led suit if you can; otherwise play anything.")
    state = trick(round_one(), ("Ann", "Game 9"), ("Bob", "Game 4"), ("Cy", "Bot 2"))
    assert state["leader"] == "Ann"
    held = state["hand"]["Bob"]
    hand = ["Team 2", *[f"Mobster {n}" for n in range(1, held)]]
    state = act(state, {"type": "enter_hand", "player": "Bob", "cards": hand}, seat="Bob").state
    state = act(state, {"type": "play_card", "player": "Ann", "suit": "Team", "number": 1}, seat="Ann").state
    card = {"type": "play_card", "player": "Bob", "suit": "Mobster", "number": 1}
    refused(state, card, "Bob holds Team 2: follow the led suit (Team) if you can, not Mobster 1", seat="Bob")
    refused(state, {**card, "suit": "Game", "number": 4}, "Game 4 was already played this round (Bob, trick 1)")
    state = act(state, {**card, "suit": "Team", "number": 2}, seat="Bob").state
    state = act(state, {"type": "play_card", "player": "Cy", "suit": "Bot", "number": 5}, seat="Cy").state
    assert [r["card"] for r in state["played"]][-3:] == ["Team 1", "Team 2", "Bot 5"]
    assert "Team 2" not in state["hands"]["Bob"]


def test_a_correction_that_changes_who_plays_gives_the_cards_played_so_far_back():
    """Found by the walk: a hand corrected mid-trick moved the lead while cards lay in the trick, and the
    trick could never be judged ("Di leads this trick, not Cy"); a round ended that way kept them."""
    state = round_one()
    state = act(state, {"type": "play_card", "player": "Ann", "suit": "Team", "number": 1}).state
    assert [r["player"] for r in state["playing"]] == ["Ann"]
    step = act(state, {"type": "correct", "key": "hand.0", "value": 0})
    assert step.state["playing"] == [] and step.state["leader"] == "Bob"
    state = act(step.state, {"type": "play_card", "player": "Bob", "suit": "Team", "number": 1}).state
    state = act(state, {"type": "play_card", "player": "Cy", "suit": "Team", "number": 2}).state
    assert state["trick"]["winner"] == "Cy" and state["tricks_played"] == 1


def test_a_correction_that_takes_the_last_card_of_a_player_yet_to_play_restarts_the_trick():
    """Found by the walk: every player still holding cards had played, so nobody was waiting and the trick was
    never judged."""
    state = round_one()
    state = act(state, {"type": "play_card", "player": "Ann", "suit": "Team", "number": 1}).state
    state = act(state, {"type": "play_card", "player": "Bob", "suit": "Team", "number": 2}).state
    step = act(state, {"type": "correct", "key": "hand.2", "value": 0})
    assert step.state["playing"] == []


def test_a_hand_entered_during_a_trick_played_seat_by_seat_leaves_out_the_cards_face_up():
    """Found by the walk: a hand entered with a card another seat had just played face up, or by a seat whose
    card already lay face up, made the trick impossible to judge."""
    state = round_one()
    state = act(state, {"type": "play_card", "player": "Ann", "suit": "Team", "number": 1}).state
    held = state["hand"]["Bob"]
    cards = [f"Team {n}" for n in range(1, held + 1)]
    refused(
        state,
        {"type": "enter_hand", "player": "Bob", "cards": cards},
        "Team 1 lies face up in this trick, played by Ann",
    )
    held = state["hand"]["Ann"]
    cards = [f"Team {n}" for n in range(1, held + 1)]
    refused(state, {"type": "enter_hand", "player": "Ann", "cards": cards}, "Ann has a card face up in the trick")
