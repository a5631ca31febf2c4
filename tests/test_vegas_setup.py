"""Setup: 2-5 players, the setup increases (3 at five players), rounds by player count."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rules, setup, tracks

from tests.test_vegas_helpers import after_setup, new_game


@pytest.mark.parametrize("players, rounds", [(2, 3), (3, 4), (4, 4), (5, 4)])
def test_four_rounds_or_three_with_two_players(players, rounds):
    state = new_game([f"P{i}" for i in range(players)])
    assert state["rounds"] == rounds
    assert rules.rounds_for(players) == rounds


def test_everyone_starts_with_seven_cards_boards_at_the_bottom_and_no_tokens():
    state = new_game()
    assert state["hand"] == {"Ann": 7, "Bob": 7, "Cy": 7}
    assert all(level == 1 for board in state["boards"].values() for level in board.values())
    assert all(n == 0 for tokens in state["tokens"].values() for n in tokens.values())
    assert (state["trump"], state["rank"]) == ("No Trump", "High Wins")


@pytest.mark.parametrize("count", [1, 6])
def test_two_to_five_players(count):
    with pytest.raises(RuleError, match=f"Venusian Vegas is for 2-5 players, got {count}"):
        new_game([f"P{i}" for i in range(count)])


def test_names_must_differ_and_vp_spaces_must_exist():
    with pytest.raises(RuleError, match="names must differ, 'Ann' appears twice"):
        new_game(["Ann", "ann"])
    with pytest.raises(RuleError, match="'Team 1' is not a space a marker can reach"):
        new_game(vp_spaces=["Team 1"])
    with pytest.raises(RuleError, match="'Game 3' appears twice"):
        new_game(vp_spaces=["Game 3", "Game 3"])


def test_two_different_tracks_at_setup_score_and_pay_income_at_once():
    state = new_game(vp_spaces=["Team 2"])
    result = setup.choose_setup_tracks(state, "Ann", ["Team", "Bot"])
    assert state["boards"]["Ann"]["Team"] == 2 and state["boards"]["Ann"]["Bot"] == 2
    assert state["hand"]["Ann"] == 9  # drew up to the Team value 9
    assert state["tokens"]["Ann"]["Bot"] == 1  # collected a Bot token
    assert state["vp"]["Ann"] == 1  # Team 2 is a VP space in this game
    assert result["waiting"] == ["Bob", "Cy"]


def test_five_players_increase_three_tracks():
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    state = new_game(names)
    with pytest.raises(RuleError, match="at 5 players each player increases 3 different tracks at setup, got 2"):
        setup.choose_setup_tracks(state, "Ann", ["Team", "Game"])
    setup.choose_setup_tracks(state, "Ann", ["Team", "Game", "Bot"])
    assert tracks.increases(state["boards"]["Ann"]) == 3
    state = after_setup(names)
    assert all(tracks.increases(state["boards"][p]) == 3 for p in names)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_fewer_than_five_players_increase_two_tracks(count):
    state = new_game(["Ann", "Bob", "Cy", "Di"][:count])
    with pytest.raises(RuleError, match=f"at {count} players each player increases 2 different tracks"):
        setup.choose_setup_tracks(state, "Ann", ["Team", "Game", "Bot"])


def test_one_track_twice_at_setup_is_refused_and_changes_nothing():
    state = new_game()
    with pytest.raises(RuleError, match="Ann chose Game twice: the setup increases must be 2 different tracks"):
        setup.choose_setup_tracks(state, "Ann", ["Game", "Game"])
    assert state == new_game()


def test_setup_once_per_player_and_only_during_setup():
    state = new_game()
    setup.choose_setup_tracks(state, "Ann", ["Team", "Game"])
    with pytest.raises(RuleError, match="Ann already chose the setup increases: Team, Game"):
        setup.choose_setup_tracks(state, "Ann", ["Bot", "Mobster"])
    with pytest.raises(RuleError, match="'Zed' is not playing"):
        setup.choose_setup_tracks(state, "Zed", ["Bot", "Mobster"])
