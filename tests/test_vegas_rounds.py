"""Rounds: the resets, the player furthest behind (a tie is put to the players), the end, the ranking."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rounds, tracks, tricks, vp

from tests.test_vegas_helpers import after_setup, in_round, new_game


def test_round_one_waits_for_every_setup_choice():
    with pytest.raises(RuleError, match="waiting for Ann, Bob, Cy"):
        rounds.start_round(new_game())


def test_after_setup_everyone_ties_for_furthest_behind_and_the_players_choose():
    state = after_setup()
    result = rounds.start_round(state)
    assert state["furthest_behind"] == ["Ann", "Bob", "Cy"] and state["chosen"] is None
    assert "Ann, Bob and Cy tie for furthest behind (2 each)" in result["summary"]
    with pytest.raises(RuleError, match="tie for furthest behind: choose who takes the free increase, or press B"):
        rounds.free_increase(state, "Team")
    rounds.free_increase(state, "Team", "Bob")
    assert state["leader"] == "Bob" and state["round_leader"] == "Bob"
    assert state["boards"]["Bob"]["Team"] == 2
    assert state["hand"]["Bob"] == 9


def test_the_player_with_fewest_vp_plus_increases_is_furthest_behind():
    state = after_setup()
    vp.change_vp(state, "Ann", 3, "test")  # Ann 3 + 2 = 5
    tracks.increase(state, "Cy", "Bot", "test")  # Cy 0 + 3 = 3
    vp.change_vp(state, "Bob", 1, "test")  # Bob 1 + 2 = 3 -> Bob and Cy tie
    assert rounds.furthest_behind(state) == ["Bob", "Cy"]
    vp.change_vp(state, "Cy", 1, "test")  # Cy 4: Bob alone
    assert rounds.furthest_behind(state) == ["Bob"]
    rounds.start_round(state)
    assert state["chosen"] == "Bob"
    with pytest.raises(RuleError, match="Ann is not furthest behind; that is Bob"):
        rounds.free_increase(state, "Team", "Ann")
    rounds.free_increase(state, "Mobster")
    assert state["leader"] == "Bob" and state["tokens"]["Bob"]["Mobster"] == 1


def test_choose_furthest_behind_settles_a_tie_only_among_the_tied():
    state = after_setup()
    vp.change_vp(state, "Ann", 1, "test")
    rounds.start_round(state)
    with pytest.raises(RuleError, match="Ann is not furthest behind; that is Bob or Cy"):
        rounds.choose_furthest_behind(state, "Ann")
    rounds.choose_furthest_behind(state, "Cy", "random pick")
    rounds.free_increase(state, "Inspector")
    assert state["leader"] == "Cy" and state["boards"]["Cy"]["Inspector"] == 2


def _play_out_round(state):
    """Everyone plays their lowest cards until one player holds cards; winners decline their bonus."""
    while state["phase"] == "Tricks":
        winner = state["leader"]
        tricks.trick_winner(state, winner)
        if state["trick"] is not None:
            tricks.next_trick(state)


def test_round_start_resets_tokens_and_indicators_and_refills_hands_and_tokens():
    state = in_round()
    state["trump"], state["rank"] = "Bot", "Low Wins"
    state["tokens"]["Bob"]["Game"] = 0
    _play_out_round(state)
    assert state["phase"] == "Reveal"
    revealer = state["revealer"]
    for n in range(1, state["hand"][revealer] + 1):
        tricks.reveal_card(state, "Team", n)
    assert state["phase"] == "Round over"
    state["tokens"]["Cy"]["Bot"] = 5  # a Bot ability collected extra: all tokens are returned
    rounds.start_round(state)
    assert state["round"] == 2
    assert (state["trump"], state["rank"]) == ("No Trump", "High Wins")
    assert all(n == 0 for t in state["tokens"].values() for n in t.values())
    rounds.free_increase(state, "Team", state["furthest_behind"][0])
    for player in state["players"]:
        board = state["boards"][player]
        assert state["hand"][player] == tracks.value(board, "Team")
        assert state["tokens"][player] == {c: tracks.value(board, c) for c in ("Game", "Inspector", "Bot", "Mobster")}


def test_the_round_ends_when_one_player_still_holds_cards_and_they_reveal():
    state = in_round(["Ann", "Bob"], leader="Ann", track="Team")  # Ann 11 cards, Bob 9 (Game+Inspector)
    assert state["hand"] == {"Ann": 11, "Bob": 7}
    _play_out_round(state)
    assert state["phase"] == "Reveal" and state["revealer"] == "Ann" and state["hand"] == {"Ann": 4, "Bob": 0}
    with pytest.raises(RuleError, match="tricks are played during a round; now: Reveal"):
        tricks.trick_winner(state, "Ann")


@pytest.mark.parametrize("players, rounds_played", [(["Ann", "Bob"], 3), (["Ann", "Bob", "Cy"], 4)])
def test_the_game_ends_after_its_rounds(players, rounds_played):
    state = after_setup(players)
    for _ in range(rounds_played):
        rounds.start_round(state)
        rounds.free_increase(state, "Team", state["furthest_behind"][0])
        _play_out_round(state)
        n = 0
        while state["phase"] == "Reveal":
            n += 1
            tricks.reveal_card(state, "Mobster", n)  # 1-5: +1 VP; 10-13: Mobster twice
    assert state["phase"] == "Game over" and state["round"] == rounds_played
    with pytest.raises(RuleError, match=f"the game is over after {rounds_played} rounds"):
        rounds.start_round(state)
    assert [r["place"] for r in state["ranking"]][0] == 1


def test_ties_on_vp_are_broken_by_track_increases_and_the_ranking_shows_both():
    state = new_game(["Ann", "Bob", "Cy", "Di"])
    for player, points in (("Ann", 5), ("Bob", 5), ("Cy", 7), ("Di", 5)):
        vp.change_vp(state, player, points, "test")
    tracks.increase(state, "Bob", "Team", "test")
    tracks.increase(state, "Bob", "Game", "test")
    tracks.increase(state, "Ann", "Bot", "test")
    tracks.increase(state, "Di", "Bot", "test")
    assert rounds.ranking(state) == [
        {"player": "Cy", "vp": 7, "increases": 0, "place": 1},
        {"player": "Bob", "vp": 5, "increases": 2, "place": 2},
        {"player": "Ann", "vp": 5, "increases": 1, "place": 3},
        {"player": "Di", "vp": 5, "increases": 1, "place": 3},
    ]


def test_more_vp_beats_more_increases():
    state = new_game(["Ann", "Bob"])
    vp.change_vp(state, "Ann", 1, "test")
    for _ in range(4):
        tracks.increase(state, "Bob", "Team", "test")
    assert [r["player"] for r in rounds.ranking(state)] == ["Ann", "Bob"]


def test_a_hand_corrected_to_zero_moves_the_lead_or_ends_the_round():
    state = in_round(leader="Ann")
    state["hand"]["Ann"] = 0
    assert rounds.settle(state) == "Bob leads the next trick" and state["leader"] == "Bob"
    state["hand"]["Bob"] = 0
    assert rounds.settle(state).startswith("only Cy holds cards") and state["phase"] == "Reveal"
    state["hand"]["Cy"] = 0
    assert rounds.settle(state) == "round 1 ends" and state["phase"] == "Round over"
