"""Turns: clockwise from Pluto, rounds, one action per turn, what ending a turn resets."""

from __future__ import annotations

from tests.test_vnm_support import act, new_game, refused


def test_end_turn_passes_clockwise_and_counts_rounds() -> None:
    state = new_game(players=["Venus", "Pluto", "Mars"])
    seen = []
    for _ in range(4):
        seen.append((state["round"], state["turn_order"][state["turn"]]))
        state, _ = act(state, {"type": "end_turn"})
    assert seen == [(1, "Pluto"), (1, "Mars"), (1, "Venus"), (2, "Pluto")]


def test_two_player_teams_never_play_twice_in_a_row() -> None:
    teams = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Ganymede", "Titan"]}]
    state = new_game(players=teams, first_player="Titan")
    players = []
    for _ in range(8):
        players.append(state["worlds"][state["turn_order"][state["turn"]]]["player"])
        state, _ = act(state, {"type": "end_turn"})
    assert players == [1, 0, 1, 0, 1, 0, 1, 0]


def test_end_turn_resets_the_action_target_and_zap_priority() -> None:
    state = new_game()
    state, _ = act(state, {"type": "declare_target", "target": "Mars"})
    state, _ = act(state, {"type": "attack", "faces": [1, 1]})
    state, _ = act(state, {"type": "play_zap", "number": 4})
    state, result = act(state, {"type": "end_turn"})
    assert "Pluto ends the turn (Attack)" in result["summary"]
    assert state["turn_action"] is None and state["aim"] is None and state["zap_played"] == []
    assert state["prompt"].startswith("Venus plays next")


def test_a_turn_may_end_without_an_action_and_says_so() -> None:
    _, result = act(new_game(), {"type": "end_turn"})
    assert "(no action)" in result["summary"]


def test_move_is_recorded_as_the_action() -> None:
    state, result = act(new_game(), {"type": "move"})
    assert state["turn_action"]["kind"] == "move"
    assert result["summary"] == "Pluto moves their spaceships"
    refused(state, {"type": "attack", "target": "Mars", "faces": [9, 9]}, "already chose the Move action")


def test_unknown_actions_and_fields_are_refused() -> None:
    from tableside.core.errors import BadRequest

    refused(new_game(), {"type": "teleport"}, "unknown action 'teleport'")
    refused(new_game(), {"type": "move", "where": "Orbit"}, "where", error=BadRequest)
    refused(new_game(), {"type": "move", "faces": [3]}, "rolls no dice", error=BadRequest)
