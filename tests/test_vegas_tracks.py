"""Player boards: the printed track values, increases, overflow VP at the top, VP spaces, income."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rules, tracks, vp

from tests.test_vegas_helpers import new_game

PRINTED = {
    "Team": [7, 9, 11, 12, 13],
    "Game": [0, 1, 2, 2, 3],
    "Inspector": [0, 1, 2, 2, 3],
    "Bot": [0, 1, 2, 3, 4],
    "Mobster": [0, 1, 2, 3, 4],
}


@pytest.mark.parametrize("track", rules.TRACKS)
def test_each_increase_moves_through_the_printed_values(track):
    state = new_game()
    seen = [tracks.value(state["boards"]["Ann"], track)]
    for _ in range(4):
        tracks.increase(state, "Ann", track, "test")
        seen.append(tracks.value(state["boards"]["Ann"], track))
    assert seen == PRINTED[track]
    assert state["vp"]["Ann"] == 0
    assert tracks.increases(state["boards"]["Ann"]) == 4


@pytest.mark.parametrize("track", rules.TRACKS)
def test_an_increase_at_the_top_scores_one_vp_instead(track):
    state = new_game()
    for _ in range(4):
        tracks.increase(state, "Ann", track, "test")
    step = tracks.increase(state, "Ann", track, "test")
    assert state["boards"]["Ann"][track] == 5
    assert state["vp"]["Ann"] == 1
    assert step["vp"] == 1 and step["to"] == 5
    assert "is at its top: +1 VP instead" in step["text"]
    tracks.increase(state, "Ann", track, "test")
    assert state["vp"]["Ann"] == 2
    # an overflow is VP, not a track increase: the board's increases stay at 4
    assert tracks.increases(state["boards"]["Ann"]) == 4
    assert vp.ledger_problems(state) == []


def test_no_vp_spaces_by_default():
    state = new_game()
    for _ in range(4):
        tracks.increase(state, "Bob", "Bot", "test")
    assert state["vp"]["Bob"] == 0


def test_reaching_a_vp_space_the_players_confirmed_scores_one_vp_once():
    state = new_game(vp_spaces=["Game 3", "Team 5"])
    texts = [tracks.increase(state, "Cy", "Game", "test")["text"] for _ in range(3)]
    assert state["boards"]["Cy"]["Game"] == 4
    assert state["vp"]["Cy"] == 1
    assert texts[1].endswith("a VP space: +1 VP") and "VP space" not in texts[0] + texts[2]
    assert state["vp_log"][-1]["reason"] == "Game 3 is a VP space (test)"


def test_an_unknown_track_is_refused():
    with pytest.raises(RuleError, match="'Casino' is not a track"):
        tracks.increase(new_game(), "Ann", "Casino", "test")


def test_income_draws_up_to_team_and_collects_tokens_up_to_each_value():
    state = new_game()
    for track in ("Team", "Team", "Bot", "Bot", "Bot", "Game"):
        tracks.increase(state, "Ann", track, "test")
    tracks.pay_income(state, "Ann")
    assert state["hand"]["Ann"] == 11
    assert state["tokens"]["Ann"] == {"Game": 1, "Inspector": 0, "Bot": 3, "Mobster": 0}
    state["hand"]["Ann"] = 12
    tracks.pay_income(state, "Ann")
    assert state["hand"]["Ann"] == 12  # "draws up to": never discards


def test_board_laws_name_what_is_broken():
    state = new_game()
    assert tracks.problems(state) == []
    state["boards"]["Bob"]["Team"] = 6
    state["tokens"]["Cy"]["Bot"] = -1
    state["hand"]["Ann"] = -2
    assert tracks.problems(state) == [
        "Ann holds -2 cards; never below 0",
        "Bob's Team track is at 6; levels run 1-5",
        "Cy holds -1 Bot tokens; never below 0",
    ]


def test_an_increase_says_what_the_track_gives_in_words():
    """ "Jo's Team track 1 -> 2 (9)": the 9 was the hand size, unsaid; a colour's figure is its tokens."""
    from tableside.core.systems.vegas import setup, tracks

    state = setup.initial_state({"players": ["Jo", "Kim"]})
    assert tracks.increase(state, "Jo", "Team", "test")["text"] == "Jo's Team track 1 -> 2 (9 cards)"
    assert tracks.increase(state, "Jo", "Game", "test")["text"] == "Jo's Game track 1 -> 2 (1 token)"
    assert tracks.increase(state, "Jo", "Game", "test")["text"] == "Jo's Game track 2 -> 3 (2 tokens)"
