"""Venusian Vegas played seat by seat: each seat plays its own card in lead order, the trick is judged
when every seat has played; a whole trick from the table replaces the cards played so far."""

from __future__ import annotations

import random

import pytest
from tableside.core.errors import RuleError
from tableside.core.system import run_action
from tableside.core.systems.vegas import SYSTEM

from tests.test_vegas_system import act, prompts, set_up


def leading(leader: str = "Cy"):
    state = act(set_up(), {"type": "start_round"}).state
    state = act(state, {"type": "choose_furthest_behind", "player": leader}).state
    return act(state, {"type": "free_increase", "track": "Bot"}).state


def play(state, player, suit, number, seat=None, **more):
    raw = {"type": "play_card", "player": player, "suit": suit, "number": number, **more}
    return run_action(SYSTEM, state, raw, seat=seat, rng=random.Random(1))


def test_three_seats_play_in_lead_order_and_the_trick_judges_itself():
    state = leading("Cy")
    step = play(state, "Cy", "Game", 9, seat="Cy")
    assert step.result["summary"] == "Cy plays Game 9; Ann next"
    assert prompts(step.state) == [("Ann", "play_card")]
    assert SYSTEM.pending(step.state)[0].text == "Trick 1: Ann plays (Cy Game 9)"
    step = play(step.state, "Ann", "Team", 7, seat="Ann")
    step = play(step.state, "Bob", "Game", 4, seat="Bob")
    assert step.result["winner"] == "Cy"
    assert step.result["summary"].startswith("Bob plays Game 4. Trick 1: Cy wins")
    assert step.state["playing"] == [] and step.state["tricks_played"] == 1
    assert [c["card"] for c in step.state["trick"]["cards"]] == ["Game 9", "Team 7", "Game 4"]


@pytest.mark.parametrize(
    ("who", "seat", "card", "words"),
    [
        ("Ann", "Ann", ("Team", 7), "Cy plays before Ann"),  # out of turn
        ("Cy", "Ann", ("Team", 7), "Ann cannot play Cy's card"),  # another seat's card
        ("Cy", None, ("Game", 14), "14"),  # no such card
    ],
)
def test_a_card_out_of_turn_for_another_seat_or_not_in_the_deck_is_refused_in_words(who, seat, card, words):
    state = leading("Cy")
    with pytest.raises(RuleError, match=words):
        play(state, who, *card, seat=seat)


def test_the_same_card_twice_in_a_trick_is_refused():
    state = play(leading("Cy"), "Cy", "Game", 9).state
    with pytest.raises(RuleError, match="Game 9 is played already"):
        play(state, "Ann", "Game", 9)


def test_a_whole_trick_from_the_table_replaces_the_cards_played_so_far():
    state = play(leading("Cy"), "Cy", "Game", 9).state
    cards = [
        {"player": "Cy", "suit": "Game", "number": 9},
        {"player": "Ann", "suit": "Team", "number": 7},
        {"player": "Bob", "suit": "Game", "number": 4},
    ]
    step = run_action(SYSTEM, state, {"type": "play_trick", "cards": cards}, rng=random.Random(1))
    assert step.result["winner"] == "Cy" and step.state["playing"] == []


def test_a_bonus_is_taken_by_the_card_of_the_trick():
    state = leading("Cy")
    for who, suit, n in (("Cy", "Game", 9), ("Ann", "Team", 7), ("Bob", "Game", 4)):
        state = play(state, who, suit, n).state
    offered = [f for f in SYSTEM.spec("claim_bonus").describe(state)["fields"] if f["name"] == "from_card"][0]
    assert [c["value"] for c in offered["choices"]] == ["Team 7", "Game 4"]  # not the winner's own card
    step = run_action(SYSTEM, state, {"type": "claim_bonus", "player": "Cy", "from_card": "Team 7"})
    assert "Team 7" in step.result["summary"]
