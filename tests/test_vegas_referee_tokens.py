"""The Vegas trick referee past its first case: a second Inspector token flips the Rank Indicator back,
a second token of a colour in one trick is refused, a trump set but not played leaves the led suit to win,
and the exact words of each refusal about cards and tokens. Each rule quotes docs/rulebooks/vegas.txt."""

from __future__ import annotations

import copy
import re

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import referee, rules, tricks

from tests.rulebook_quotes import quoted
from tests.test_vegas_helpers import in_round
from tests.test_vegas_referee import _rows

INSPECTOR = quoted("vegas", "Inspector — flip the Rank Indicator between High Wins and Low Wins.")
ONE_OF_EACH = quoted("vegas", "Only one token of each color may be played per trick")
WINS = quoted(
    "vegas",
    "The highest card of the led suit wins — unless trump has been set, in which case the highest trump wins.",
)


def refused(message: str):
    return pytest.raises(RuleError, match=f"^{re.escape(message)}$")


def test_a_second_inspector_token_flips_the_rank_back_to_high_wins():
    assert INSPECTOR
    state = in_round(leader="Bob", track="Inspector")  # Bob holds two Inspector tokens
    assert state["tokens"]["Bob"]["Inspector"] == 2
    first = tricks.play_trick(state, _rows(state, [("Game", 4), ("Game", 9), ("Game", 6)], Bob={"token": "Inspector"}))
    assert state["rank"] == rules.LOW_WINS and first["winner"] == "Bob"  # the lowest Game
    tricks.next_trick(state)
    second = _rows(state, [("Team", 2), ("Team", 10), ("Team", 3)], Bob={"token": "Inspector"})
    assert tricks.play_trick(state, second)["winner"] == "Cy"  # High Wins again: Team 10
    assert state["rank"] == rules.HIGH_WINS and state["tokens"]["Bob"]["Inspector"] == 0


def test_the_inspector_token_says_the_rank_it_flipped_to_each_time():
    state = {"tokens": {"Bob": {"Inspector": 2}}, "rank": rules.HIGH_WINS}
    assert referee.apply_tokens(state, [{"player": "Bob", "colour": "Inspector"}]) == [
        "Bob's Inspector token: Low Wins"
    ]
    assert referee.apply_tokens(state, [{"player": "Bob", "colour": "Inspector"}]) == [
        "Bob's Inspector token: High Wins"
    ]


def test_a_second_inspector_token_in_one_trick_is_refused_and_changes_nothing():
    assert ONE_OF_EACH
    state = in_round(leader="Bob", track="Inspector")
    state["tokens"]["Cy"]["Inspector"] = 1
    before = copy.deepcopy(state)
    rows = _rows(state, [("Game", 4), ("Game", 9), ("Game", 6)], Bob={"token": "Inspector"}, Cy={"token": "Inspector"})
    with refused(
        "only one token of each colour may be played per trick: Bob already played the Inspector token, "
        "so Cy cannot play another"
    ):
        tricks.play_trick(state, rows)
    assert state == before


def test_bot_and_mobster_tokens_used_for_their_ability_are_said_by_name():
    state = {"tokens": {"Cy": {"Bot": 1, "Mobster": 1}}}
    plays = [{"player": "Cy", "colour": "Bot"}, {"player": "Cy", "colour": "Mobster"}]
    assert referee.apply_tokens(state, plays) == ["Cy plays a Bot token", "Cy plays a Mobster token"]
    assert state["tokens"]["Cy"] == {"Bot": 0, "Mobster": 0}


def test_a_game_token_played_to_block_cannot_also_move_trump():
    state = in_round(leader="Ann")
    rows = _rows(state, [("Team", 4), ("Team", 9), ("Bot", 2)], Ann={"token": "Game", "block": True, "trump": "Bot"})
    with refused("Ann: only a Game token used for its ability moves the Trump Indicator"):
        tricks.play_trick(state, rows)


def test_a_colour_that_is_no_token_is_refused_naming_the_four():
    state = in_round(leader="Ann")
    with refused("'Team' is not a modifier token; they are Game, Inspector, Bot, Mobster"):
        referee.check_tokens(state, [{"player": "Ann", "colour": "Team"}])


def test_a_trump_nobody_played_leaves_the_led_suit_to_win():
    assert WINS
    cards = [("Game", 7), ("Game", 11), ("Bot", 13)]
    assert referee.winning_card(cards, "Team", rules.HIGH_WINS) == 1
    assert referee.why(cards, "Team", rules.HIGH_WINS) == "highest of the led suit (Game)"
    all_trump = [("Bot", 3), ("Bot", 12)]
    assert referee.why(all_trump, "Bot", rules.LOW_WINS) == "lowest trump (Bot)"
    with refused("a trick needs at least one card"):
        referee.winning_card([], "Team", rules.HIGH_WINS)


def test_the_deck_is_five_suits_numbered_1_to_13():
    quoted("vegas", "65 employee cards in 5 suits — Team, Game, Inspector, Bot and Mobster — numbered 1 to 13.")
    cards = referee.all_cards()
    assert cards[:2] == ["Team 1", "Team 2"] and cards[-1] == "Mobster 13" and len(set(cards)) == 65
    assert [referee.parse_card(c) for c in cards] == [(s, n) for s in rules.SUITS for n in range(1, 14)]
    assert referee.check_card("Inspector", 1) == ("Inspector", 1)


def test_a_card_that_does_not_exist_says_why_in_full():
    with refused("card: 'Joker' is not a suit; the suits are Team, Game, Inspector, Bot, Mobster"):
        referee.check_card("Joker", 3)
    with refused("card: there is no Team True; cards are numbered 1-13"):
        referee.check_card("Team", True)
    with refused("card: there is no Team 7.0; cards are numbered 1-13"):
        referee.check_card("Team", 7.0)
    with refused("Ann's hand: there is no Game 14; cards are numbered 1-13"):
        referee.parse_card("Game 14", "Ann's hand")


@pytest.mark.parametrize("text", [7, None, "Mobster", "Game 7 7", "Game ²", "Game -3", "Game seven"])
def test_a_text_that_is_no_card_is_refused_as_such(text):
    with refused(f"card: {text!r} is not a card; write the suit and number, e.g. 'Game 7'"):
        referee.parse_card(text)


def test_a_card_name_may_carry_spaces_around_it():
    assert referee.parse_card(" Game  7 ") == ("Game", 7)
