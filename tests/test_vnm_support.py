"""Helpers for the vnm tests: the same path the session core takes.

options -> initial_state -> validate_action -> dice_for -> apply, with the dice
faces passed in by the test (as a player typing in a physical roll would).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from tableside.core.errors import RuleError, TablesideError
from tableside.core.systems.vnm import SYSTEM

from tests.dicehelp import play, play_step

# Mars and Pluto with no Technology card names entered, so they may research either known Upgrade.
ENHANCED_TECH = {
    "Venus": {"defense_space": 7, "defense_land": 6, "defense_ocean": 8},
    "Mars": {"weapon_dice": 1, "defense_space": 7, "defense_land": 6, "defense_ocean": 8, "cards": []},
    "Pluto": {"weapon_dice": 1, "defense_space": 7, "defense_land": 6, "defense_ocean": 8, "cards": []},
}


def new_game(**options: Any) -> dict[str, Any]:
    return SYSTEM.start(SYSTEM.validate_options(options))


def enhanced_game(**options: Any) -> dict[str, Any]:
    """Venus, Mars, Pluto in the Enhanced game; Tech values are made-up test data, not card text."""
    return new_game(version="Enhanced", tech=copy.deepcopy(ENHANCED_TECH), **options)


def act(state: dict[str, Any], raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return play(SYSTEM, state, raw)


def rolled(state: dict[str, Any], raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """One action that rolls: the new state and the log's record of its newest roll (marks, verdict)."""
    step = play_step(SYSTEM, state, raw)
    return step.state, step.rolls[-1]


def refused(state: dict[str, Any], raw: dict[str, Any], *words: str, error: type[TablesideError] = RuleError) -> str:
    """The action is refused with a message naming the problem, and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        act(state, raw)
    assert state == before
    message = caught.value.message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def play_to(state: dict[str, Any], world: str) -> dict[str, Any]:
    """End turns until it is ``world``'s turn."""
    for _ in range(len(state["turn_order"])):
        if state["turn_order"][state["turn"]] == world:
            return state
        state, _ = act(state, {"type": "end_turn"})
    raise AssertionError(f"{world} never got a turn")


def collected(state: dict[str, Any], world: str, area: str, count: int) -> dict[str, Any]:
    """A position where ``world`` already holds ``count`` more units taken from ``area`` (chips conserved).

    Reaching a threshold by the rules takes many turns; the rules of each step have their own tests.
    """
    state = copy.deepcopy(state)
    source = next(a for a in state["land_areas"] if a["name"] == area)
    assert source["population"] >= count
    source["population"] -= count
    state["worlds"][world]["population"] += count
    assert not SYSTEM.laws(state)
    return state
