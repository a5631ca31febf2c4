"""Each modifier-token refusal of the Vegas referee, in its exact words and with the rulebook passage it rests
on (the ``rule`` key the phone's "Rule" button opens), checked in the order a trick's tokens are read.
Each rule quotes docs/rulebooks/vegas.txt."""

from __future__ import annotations

import copy

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import referee

from tests.rulebook_quotes import quoted

ONE_TOKEN = quoted("vegas", "You may play one modifier token face up along with your card")
ONE_OF_EACH = quoted("vegas", "Only one token of each color may be played per trick")


def holding(**tokens: dict[str, int]) -> dict:
    full = {"Game": 0, "Inspector": 0, "Bot": 0, "Mobster": 0}
    return {"tokens": {player: {**full, **held} for player, held in tokens.items()}}


STATE = holding(Ann={"Game": 1, "Bot": 1}, Bob={"Bot": 1, "Inspector": 1}, Cy={})


@pytest.mark.parametrize(
    ("plays", "words", "rule"),
    [
        (
            [{"player": "Ann", "colour": "Bot"}, {"player": "Ann", "colour": "Game", "trump": "Team"}],
            "You may play one modifier token face up along with your card: Ann already played the Bot token in "
            "this trick, so cannot also play the Game token",
            "one_token",
        ),
        (
            [{"player": "Ann", "colour": "Bot"}, {"player": "Bob", "colour": "Bot"}],
            "only one token of each colour may be played per trick: Ann already played the Bot token, so Bob "
            "cannot play another",
            "token_colour",
        ),
        ([{"player": "Cy", "colour": "Bot"}], "Cy holds no Bot token", "tokens_income"),
        (
            [{"player": "Ann", "colour": "Game"}],
            "Ann's Game token moves the Trump Indicator: say to which suit or No Trump (or play it to block)",
            "game_token",
        ),
        (
            [{"player": "Ann", "colour": "Game", "block": True, "trump": "Team"}],
            "Ann: only a Game token used for its ability moves the Trump Indicator",
            "game_token",
        ),
        (
            [{"player": "Bob", "colour": "Inspector", "trump": "Team"}],
            "Bob: only a Game token used for its ability moves the Trump Indicator",
            "game_token",
        ),
        (
            [{"player": "Ann", "colour": "Red"}],
            "'Red' is not a modifier token; they are Game, Inspector, Bot, Mobster",
            None,
        ),
    ],
)
def test_a_token_refusal_says_why_and_names_its_rule(plays, words, rule):
    assert ONE_TOKEN and ONE_OF_EACH
    state = copy.deepcopy(STATE)
    with pytest.raises(RuleError) as refused:
        referee.check_tokens(state, plays)
    assert str(refused.value) == words and refused.value.rule == rule
    assert state == STATE  # a refusal changes nothing


def test_one_token_each_is_checked_per_player_not_per_trick():
    """Ann's Bot and Bob's Inspector in one trick: two players, two colours, each holding the token."""
    referee.check_tokens(
        copy.deepcopy(STATE), [{"player": "Ann", "colour": "Bot"}, {"player": "Bob", "colour": "Inspector"}]
    )


def test_a_log_from_before_the_one_token_check_replays_two_tokens_of_one_player():
    plays = [{"player": "Ann", "colour": "Bot"}, {"player": "Ann", "colour": "Game", "trump": "Team"}]
    referee.check_tokens(copy.deepcopy(STATE), plays, one_per_player=False)


def test_the_game_token_used_for_its_ability_names_a_suit_or_no_trump():
    referee.check_tokens(copy.deepcopy(STATE), [{"player": "Ann", "colour": "Game", "trump": "Team"}])
    referee.check_tokens(copy.deepcopy(STATE), [{"player": "Ann", "colour": "Game", "block": True}])
