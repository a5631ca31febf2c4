"""The trick referee: the winner under every Trump x Rank combination, and the modifier tokens."""

from __future__ import annotations

import copy
import itertools

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import referee, rules, tricks

from tests.test_vegas_helpers import in_round

# Led suit Game; one Team, one Bot and one Mobster card; no Inspector card.
TRICK = [("Game", 7), ("Team", 12), ("Game", 3), ("Bot", 9), ("Mobster", 1)]
EXPECTED = {  # (trump, rank) -> index of the winning card, worked out by hand from the rulebook
    ("No Trump", "High Wins"): 0,
    ("No Trump", "Low Wins"): 2,  # highest / lowest Game (led)
    ("Game", "High Wins"): 0,
    ("Game", "Low Wins"): 2,  # the led suit is trump
    ("Team", "High Wins"): 1,
    ("Team", "Low Wins"): 1,  # the only trump wins
    ("Bot", "High Wins"): 3,
    ("Bot", "Low Wins"): 3,
    ("Mobster", "High Wins"): 4,
    ("Mobster", "Low Wins"): 4,
    ("Inspector", "High Wins"): 0,
    ("Inspector", "Low Wins"): 2,  # no trump in the trick: led suit
}


def test_the_table_covers_every_trump_and_rank():
    assert set(EXPECTED) == set(itertools.product(rules.TRUMP_CHOICES, rules.RANKS))


@pytest.mark.parametrize("trump, rank", sorted(EXPECTED))
def test_winner_under_every_trump_and_rank(trump, rank):
    assert referee.winning_card(TRICK, trump, rank) == EXPECTED[(trump, rank)]


@pytest.mark.parametrize("rank, expected", [("High Wins", 2), ("Low Wins", 1)])
def test_with_two_trumps_the_rank_decides_between_them(rank, expected):
    cards = [("Team", 5), ("Bot", 2), ("Bot", 11), ("Team", 13)]
    assert referee.winning_card(cards, "Bot", rank) == expected
    assert referee.why(cards, "Bot", rank) == f"{'highest' if rank == 'High Wins' else 'lowest'} trump (Bot)"


@pytest.mark.parametrize("rank, expected", [("High Wins", 0), ("Low Wins", 0)])
def test_off_suit_cards_never_win_without_trump(rank, expected):
    cards = [("Inspector", 6), ("Team", 13), ("Game", 1)]
    assert referee.winning_card(cards, "No Trump", rank) == expected
    assert referee.why(cards, "No Trump", rank).endswith("of the led suit (Inspector)")


@pytest.mark.parametrize(
    "suit, number, message",
    [
        ("Team", 14, "there is no Team 14; cards are numbered 1-13"),
        ("Game", 0, "there is no Game 0"),
        ("Joker", 3, "'Joker' is not a suit"),
    ],
)
def test_a_card_that_does_not_exist_is_refused(suit, number, message):
    with pytest.raises(RuleError, match=message):
        referee.check_card(suit, number)


def test_card_names_parse_and_all_65_exist():
    assert referee.parse_card("Mobster 13") == ("Mobster", 13)
    assert len(referee.all_cards()) == rules.CARDS == 65
    with pytest.raises(RuleError, match="'Mobster' is not a card"):
        referee.parse_card("Mobster")


# --- tokens played into a trick, through the trick itself -------------------------------


def _rows(state, cards, **extra):
    """Rows in playing order from the leader clockwise."""
    seats = state["players"]
    start = seats.index(state["leader"])
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    rows = [{"player": p, "suit": s, "number": n} for p, (s, n) in zip(order, cards, strict=False)]
    for player, row_extra in extra.items():
        next(r for r in rows if r["player"] == player).update(row_extra)
    return rows


def test_a_game_token_moves_trump_at_once_and_the_trick_is_judged_under_it():
    state = in_round(leader="Ann")  # Ann holds Game tokens (setup Team+Game, free Game)
    rows = _rows(state, [("Team", 4), ("Team", 9), ("Bot", 2)], Ann={"token": "Game", "trump": "Bot"})
    result = tricks.play_trick(state, rows)
    assert state["trump"] == "Bot"
    assert result["winner"] == "Cy"
    assert "Bot 2, highest trump (Bot)" in result["summary"]
    assert state["tokens"]["Ann"]["Game"] == 1  # had 2, spent 1


def test_an_inspector_token_flips_the_rank_for_the_rest_of_the_round():
    state = in_round(leader="Ann")  # Bob holds an Inspector token
    rows = _rows(state, [("Game", 4), ("Game", 9), ("Game", 6)], Bob={"token": "Inspector"})
    assert tricks.play_trick(state, rows)["winner"] == "Ann"  # lowest Game wins
    assert state["rank"] == "Low Wins"
    tricks.next_trick(state)
    rows = _rows(state, [("Team", 10), ("Team", 2), ("Team", 3)])
    assert tricks.play_trick(state, rows)["winner"] == "Bob"  # still Low Wins


def test_two_game_tokens_in_one_trick_are_refused_and_change_nothing():
    state = in_round(leader="Ann")
    before = copy.deepcopy(state)
    rows = _rows(
        state,
        [("Team", 4), ("Team", 9), ("Bot", 2)],
        Ann={"token": "Game", "trump": "Bot"},
        Bob={"token": "Game", "trump": "Team"},
    )
    with pytest.raises(
        RuleError,
        match="only one token of each colour may be played per trick: Ann already played "
        "the Game token, so Bob cannot play another",
    ):
        tricks.play_trick(state, rows)
    assert state == before


def test_a_token_the_player_does_not_hold_is_refused():
    state = in_round(leader="Ann")
    before = copy.deepcopy(state)
    rows = _rows(state, [("Team", 4), ("Team", 9), ("Bot", 2)], Ann={"token": "Mobster"})
    with pytest.raises(RuleError, match="Ann holds no Mobster token"):
        tricks.play_trick(state, rows)
    assert state == before


def test_a_token_played_only_to_block_changes_no_indicator():
    state = in_round(leader="Ann")
    rows = _rows(
        state,
        [("Team", 4), ("Team", 9), ("Bot", 2)],
        Ann={"token": "Game", "block": True},
        Bob={"token": "Inspector", "block": True},
    )
    result = tricks.play_trick(state, rows)
    assert (state["trump"], state["rank"]) == ("No Trump", "High Wins")
    assert result["winner"] == "Bob"
    assert state["tokens"]["Ann"]["Game"] == 1 and state["tokens"]["Bob"]["Inspector"] == 0
    assert "Ann plays a Game token to block" in result["summary"]


def test_a_used_game_token_must_say_where_trump_goes():
    state = in_round(leader="Ann")
    rows = _rows(state, [("Team", 4), ("Team", 9), ("Bot", 2)], Ann={"token": "Game"})
    with pytest.raises(RuleError, match="Ann's Game token moves the Trump Indicator: say to which suit or No Trump"):
        tricks.play_trick(state, rows)
    rows = _rows(state, [("Team", 4), ("Team", 9), ("Bot", 2)], Bob={"token": "Inspector", "trump": "Team"})
    with pytest.raises(RuleError, match="Bob: only a Game token used for its ability moves the Trump Indicator"):
        tricks.play_trick(state, rows)


def test_everyone_holding_cards_plays_once_and_the_leader_first():
    state = in_round(leader="Bob")
    with pytest.raises(RuleError, match="Bob leads this trick, not Ann"):
        tricks.play_trick(
            state, [{"player": p, "suit": "Team", "number": n} for p, n in (("Ann", 1), ("Bob", 2), ("Cy", 3))]
        )
    with pytest.raises(RuleError, match="everyone still holding cards plays: Ann did not"):
        tricks.play_trick(state, _rows(state, [("Team", 1), ("Team", 2)]))
    with pytest.raises(RuleError, match="Team 2 is played twice"):
        tricks.play_trick(state, _rows(state, [("Team", 2), ("Team", 2), ("Game", 2)]))
    with pytest.raises(RuleError, match="there is no Team 14"):
        tricks.play_trick(state, _rows(state, [("Team", 14), ("Team", 2), ("Game", 2)]))
