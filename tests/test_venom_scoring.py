"""Victory Points, captures into the VP pile, game end and the Medal of Honor."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import scoring

from tests.test_venom_helpers import act, attacking, started


def _player(name, leaders=(), rewards=()):
    return {
        "name": name,
        "leaders": [{"name": "L", "vp": v} for v in leaders],
        "rewards": [{"name": "R", "vp": v} for v in rewards],
    }


def test_victory_points_are_rewards_plus_leader_support_values():
    assert scoring.victory_points(_player("A", leaders=[2, 3], rewards=[1, 4])) == 10


def test_medal_of_honor_goes_to_the_highest_vp():
    players = [_player("A", leaders=[2]), _player("B", leaders=[3], rewards=[1]), _player("C")]
    assert scoring.medal_of_honor(players) == ["B"]


def test_medal_of_honor_tie_broken_by_most_leaders_captured():
    players = [_player("A", leaders=[2, 2]), _player("B", leaders=[3], rewards=[1])]
    assert scoring.medal_of_honor(players) == ["A"]


def test_medal_of_honor_still_tied_is_shared():
    players = [_player("A", leaders=[1, 3]), _player("B", leaders=[2, 2]), _player("C", leaders=[4])]
    assert scoring.medal_of_honor(players) == ["A", "B"]


VIPRESS = {"name": "Vipress", "vp": 2, "zone": "VENOM Mountain Defense", "turn": 1}


def test_a_capture_is_in_the_vp_pile_as_soon_as_the_verdict_is_known():
    state = attacking(health=3, defense=4, dice=5, support=2)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    assert state["players"][0]["leaders"] == [{**VIPRESS, "live": True}]
    state, result = act(state, {"type": "next_phase"})
    assert state["players"][0]["leaders"] == [{**VIPRESS, "live": False}]
    assert "Ann captured Vipress (+2 VP)" in result["summary"]


def test_a_live_capture_follows_the_verdict_while_abilities_change_the_dice():
    state = attacking(health=3, defense=4, dice=5, support=2)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    state, _ = act(state, {"type": "modify_die", "die": 1, "by": -1})  # 2 successes: not captured
    assert state["players"][0]["leaders"] == []
    state, _ = act(state, {"type": "modify_die", "die": 4, "by": 3})  # 3 again
    assert state["players"][0]["leaders"] == [{**VIPRESS, "live": True}]


def test_a_game_won_in_the_combat_phase_counts_that_capture_for_the_medal():
    """Issue 7: the Mission may be won by the capture itself, before the Combat Phase ends."""
    state = attacking(health=3, defense=4, dice=5, support=2)
    state, _ = act(state, {"type": "add_reward", "name": "Intel", "vp": 1, "player": "Bob"})
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    state, result = act(state, {"type": "game_over", "winner": "freedom_squadron"})
    assert result["medal_of_honor"] == ["Ann"]
    assert result["victory_points"] == {"Ann": 2, "Bob": 1, "Cy": 0}
    assert state["players"][0]["leaders"] == [{**VIPRESS, "live": False}]


def test_a_failed_combat_captures_nothing():
    state = attacking(health=3, defense=4, dice=5)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 3, 3, 2, 1])
    state, result = act(state, {"type": "next_phase"})
    assert state["players"][0]["leaders"] == []
    assert "not captured: 1 success vs Health 3" in result["summary"]


def test_rewards_and_manual_captures_count_for_the_named_or_active_player():
    state = started()
    state, result = act(state, {"type": "add_reward", "name": "The Phantom Brigade", "vp": 2})
    assert result["player"] == "Ann" and result["victory_points"] == 2
    state, result = act(state, {"type": "record_capture", "name": "Vipress", "support": 3, "player": "Bob"})
    assert result["player"] == "Bob" and result["victory_points"] == 3
    with pytest.raises(RuleError, match="'Zed' is not one of Ann, Bob, Cy"):
        act(state, {"type": "add_reward", "name": "X", "vp": 1, "player": "Zed"})
    with pytest.raises(RuleError, match="vipress is already in Bob's Victory Point pile: a Leader is captured once"):
        act(state, {"type": "record_capture", "name": "vipress", "support": 3})


def test_a_leader_seen_this_game_is_picked_and_keeps_its_support_value():
    state = attacking(health=3, defense=4, dice=5, support=4)
    state, result = act(state, {"type": "record_capture", "leader": "Vipress", "player": "Cy"})
    assert state["players"][2]["leaders"] == [{**VIPRESS, "vp": 4, "live": False}]
    state, _ = act(state, {"type": "combat_roll"}, faces=[6, 6, 6, 6, 6])  # captured again? counted once
    assert [len(p["leaders"]) for p in state["players"]] == [0, 0, 1]


def test_mission_victory_awards_the_medal_of_honor_and_ends_the_game():
    state = started()
    state, _ = act(state, {"type": "record_capture", "name": "Vipress", "support": 2, "player": "Bob"})
    state, _ = act(state, {"type": "add_reward", "name": "Intel", "vp": 2, "player": "Cy"})
    state, result = act(state, {"type": "game_over", "winner": "freedom_squadron"})
    assert result["medal_of_honor"] == ["Bob"]  # 2 VP each; Bob captured more Leaders
    assert result["victory_points"] == {"Ann": 0, "Bob": 2, "Cy": 2}
    assert state["phase"] == "Game Over"
    with pytest.raises(RuleError, match="the game is over"):
        act(state, {"type": "next_phase"})


def test_venom_victory_awards_no_medal():
    state, result = act(started(), {"type": "game_over", "winner": "venom"})
    assert result["medal_of_honor"] == [] and state["game_over"]["winner"] == "venom"
    assert "all players lose" in result["summary"]


def test_the_first_documented_record_capture_request_stays_valid():
    """``{"leader": NAME}`` for a Leader never chosen this game reads as another Leader's name."""
    state = started()
    state, result = act(state, {"type": "record_capture", "leader": "Vipress", "support": 2, "player": "Bob"})
    assert "Vipress" in result["summary"]
    assert [p["leaders"] for p in state["players"] if p["name"] == "Bob"][0][0]["name"] == "Vipress"
