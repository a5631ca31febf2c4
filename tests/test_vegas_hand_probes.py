"""A Vegas hand cannot be probed from another phone (#33).

Found from outside: a phone with no seat learned every card of Cy's entered hand through refusals ("Bob's
card: Team 3 is in Cy's hand as entered"; "Cy's hand as entered does not hold Bot 2": 7 of 7 cards in 65
probes). Now a card entered by any phone but the hand's own seat is checked against what is public only, so
every other phone gets the same answer (refusal words, accepted or not, the view after) whatever the hand
holds. The test plays each of the 65 cards against two tables that differ only in Cy's entered hand and
counts the facts another phone learns: 0.
"""

from __future__ import annotations

from tableside.core.system import run_action
from tableside.core.systems.vegas import SYSTEM, referee

from tests import probehelp
from tests.test_vegas_helpers import in_round

PHONES = (None, "Ann", "Bob")  # the table's phone and two seats that are not Cy's


def table_with(cy_hand: list[str]) -> dict:
    """Ann, Bob and Cy in round 1, Ann to lead; Cy's phone entered ``cy_hand``."""
    state = SYSTEM.derive(in_round(leader="Ann"))
    held = state["hand"]["Cy"]
    return run_action(SYSTEM, state, {"type": "enter_hand", "player": "Cy", "cards": cy_hand[:held]}, seat="Cy").state


def answer(state: dict, raw: dict, phone: str | None) -> str:
    return probehelp.answer(SYSTEM, state, raw, phone)


def probes(card: str) -> list[dict]:
    """Every way a phone can name a card in play against the hands: Ann's card seat by seat, and a whole trick
    with Bob's card. (A bonus named from a trick entered by its winner only meets no entered hand: that trick
    sets every entered hand aside, ``hands.unseen_plays``.)"""
    suit, number = referee.parse_card(card)
    other = "Team 13" if card != "Team 13" else "Team 12"
    o_suit, o_number = referee.parse_card(other)
    return [
        {"type": "play_card", "player": "Ann", "suit": suit, "number": number},
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": o_suit, "number": o_number},
                {"player": "Bob", "suit": suit, "number": number},
                {"player": "Cy", "suit": "Mobster", "number": 13},
            ],
        },
    ]


def test_no_phone_but_cy_s_learns_a_card_of_cy_s_entered_hand():
    held = table_with(referee.all_cards())["hand"]["Cy"]
    first = [c for c in referee.all_cards() if not c.startswith("Mobster")][:held]
    second = [c for c in referee.all_cards() if not c.startswith("Mobster")][held : 2 * held]
    a, b = table_with(first), table_with(second)
    assert a["hands"]["Cy"] != b["hands"]["Cy"] and SYSTEM.redact(a, "Ann") == SYSTEM.redact(b, "Ann")
    learned, asked = [], 0
    for card in referee.all_cards():
        for raw in probes(card):
            for phone in PHONES:
                asked += 1
                if answer(a, raw, phone) != answer(b, raw, phone):
                    learned.append((card, raw["type"], phone, answer(a, raw, phone)[:120]))
    assert asked == 65 * 2 * len(PHONES)
    assert learned == [], f"{len(learned)} facts learned in {asked} probes, e.g. {learned[:3]}"


def test_cy_s_own_phone_is_still_told_its_hand_does_not_hold_the_card():
    """Checked aloud where it tells nothing new: Cy's phone playing a card Cy's entered hand lacks."""
    state = table_with([c for c in referee.all_cards() if c.startswith("Team")])
    state = run_action(SYSTEM, state, {"type": "play_card", "player": "Ann", "suit": "Bot", "number": 9}).state
    state = run_action(SYSTEM, state, {"type": "play_card", "player": "Bob", "suit": "Bot", "number": 8}).state
    said = answer(state, {"type": "play_card", "player": "Cy", "suit": "Bot", "number": 2}, "Cy")
    assert said.startswith("422 ") and "Cy's hand as entered does not hold Bot 2" in said, said
    # From the table the same card is taken as seen: Cy's entered hand no longer matches, set aside for Cy
    # alone; every other phone still sees a hand entered.
    step = run_action(SYSTEM, state, {"type": "play_card", "player": "Cy", "suit": "Bot", "number": 2})
    assert SYSTEM.redact(step.state, "Cy")["hands_stale"] == {"Cy": step.state["hand"]["Cy"]}
    for phone in PHONES:
        view = SYSTEM.redact(step.state, phone)
        assert view["hand_entered"]["Cy"] is True and view["hands_stale"] == {}
