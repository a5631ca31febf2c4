"""Buttons and the e-paper: the default map and what a glance at the table shows."""

from __future__ import annotations

import json

from tableside.core.systems.vnm import SYSTEM

from tests.dicehelp import dice_for
from tests.test_vnm_support import act, enhanced_game, new_game, play_to


def press(state: dict, button: str, hold: bool = False):
    binding = SYSTEM.binding(button, hold)
    assert binding is not None
    return binding.action if isinstance(binding.action, str) else binding.action(state)


def rows(state: dict) -> dict[str, dict[str, str]]:
    return {s.title: {r.label: r.value for r in s.rows} for s in SYSTEM.screen(state).sections}


def test_the_button_map() -> None:
    assert [(b.button, b.hold, b.label) for b in SYSTEM.bindings] == [
        ("A", False, "Attack"), ("B", False, "Research / d10"), ("C", False, "End turn"),
        ("D", False, "Undo"), ("D", True, "Redo")]
    state = new_game()
    assert press(state, "D") == "undo"
    assert press(state, "D", hold=True) == "redo"
    assert press(state, "C") == {"type": "end_turn"}


def test_a_attacks_the_declared_target_and_b_rolls_a_single_d10() -> None:
    state = new_game()
    assert press(state, "B") == {"type": "roll", "expr": "1d10"}
    state, _ = act(state, {"type": "declare_target", "target": "Mars"})
    action = press(state, "A")
    assert action == {"type": "attack"}
    assert dice_for(SYSTEM, state, SYSTEM.validate_action(action)) == "2d10"
    state, _ = act(state, {**action, "faces": [9, 2]})
    assert state["worlds"]["Mars"]["on_board"] == 1


def test_b_rolls_the_chosen_research_and_both_a_and_b_roll_a_waiting_follow_up() -> None:
    state = play_to(enhanced_game(), "Venus")
    state, _ = act(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    assert press(state, "B") == {"type": "research"}
    assert dice_for(SYSTEM, state, SYSTEM.validate_action(press(state, "B"))) == "1d10"
    state, result = act(state, {"type": "research", "faces": [5]})
    assert result["acquired"] is True
    assert press(state, "B") == {"type": "roll", "expr": "1d10"}  # nothing chosen any more
    state, _ = act(state, {"type": "end_turn"})
    state = play_to(state, "Venus")
    state, _ = act(state, {"type": "attack", "target": "Mars", "faces": [7]})
    assert press(state, "A") == press(state, "B") == {"type": "follow_up_roll"}
    assert SYSTEM.screen(state).alert == "Roll the teleport die (B)"


def test_buttons_do_nothing_after_a_win() -> None:
    state = new_game()
    state["winners"] = [0]
    assert press(state, "A") is None and press(state, "B") is None and press(state, "C") is None


def test_the_screen_shows_population_earth_ships_zap_turn_and_roll() -> None:
    state = new_game()
    state, _ = act(state, {"type": "collect", "area": "China", "count": 4})
    state, _ = act(state, {"type": "play_zap", "world": "Venus"})
    screen = SYSTEM.screen(state)
    assert screen.status == "R1 Pluto: Collect"
    shown = rows(state)
    assert shown["Population (win 34)"] == {"Venus": "0/34", "Mars": "0/34", "Pluto": "4/34"}
    assert shown["Earth (97 left)"]["China"] == "23"
    assert shown["Earth (97 left)"]["Australia + 2 others*"] == "20"
    assert shown["Ships"] == {"Venus": "2 out, 3 reserve", "Mars": "2 out, 3 reserve", "Pluto": "5 out, 0 reserve"}
    assert shown["Zap deck/hand/discard"]["Venus"] == "D9 H2 X1"
    population = screen.sections[0].rows
    assert population[2].bar == (4, 34) and population[2].accent
    assert json.dumps(screen.to_dict())


def test_the_last_roll_shows_hits_and_the_verdict() -> None:
    state, _ = act(new_game(), {"type": "attack", "target": "Venus", "faces": [3, 8]})
    roll = SYSTEM.screen(state).roll
    assert roll.faces == (3, 8) and roll.hits == (False, True)
    assert roll.verdict == "Venus's spaceship destroyed"
    state["last_roll"] = {"expr": "1d10", "rolls": [7], "kept": [7], "successes": None, "total": 7}
    assert SYSTEM.screen(state).roll.verdict == "total 7"


def test_infected_population_and_team_status() -> None:
    state = play_to(new_game(players=["Pluto", "Titan", "Venus"], version="Enhanced"), "Titan")
    state, _ = act(state, {"type": "infect", "area": "Europe", "count": 3})
    assert rows(state)["Earth (101 left)"]["Europe"] == "13 +3 inf"
    teams = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Pluto", "Titan"]}]
    assert SYSTEM.screen(new_game(players=teams)).status == "R1 Pluto (Al): choose action"


def test_alerts_setup_warning_then_the_draw_prompt() -> None:
    state = new_game()
    assert "players confirm" in SYSTEM.screen(state).alert
    state, _ = act(state, {"type": "end_turn"})
    assert SYSTEM.screen(state).alert == "Venus's turn: Venus holds three Zap cards"
    state, _ = act(state, {"type": "move"})
    assert SYSTEM.screen(state).alert is None
