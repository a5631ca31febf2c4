"""Shared helpers for the VENOM Assault tests: the core's flow, without the core.

Every helper goes options -> initial_state -> validate_action -> dice_for -> apply,
with the dice faces passed in by the test, as the session core would.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tableside.core.systems.venom import SYSTEM


def new_game(players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    raw = {"players": players or ["Ann", "Bob", "Cy"], **options}
    return SYSTEM.initial_state(SYSTEM.validate_options(raw))


def act(state: dict[str, Any], raw: dict[str, Any], faces: list[int] | None = None, typed: bool = False):
    """One action as the core runs it; checks the dice expression matches the faces given.

    ``typed=True`` stands for faces a player typed in, which may be wrong on purpose.
    """
    action = SYSTEM.validate_action(raw)
    expr = SYSTEM.dice_for(state, action)
    if faces is not None:
        if expr is not None and not typed:
            count = int(re.fullmatch(r"(\d+)d6", expr).group(1))
            assert count == len(faces), f"{expr} but {len(faces)} faces given"
        action["faces"] = faces
    before = json.dumps(state, sort_keys=True)
    new_state, result = SYSTEM.apply(state, action)
    assert json.dumps(state, sort_keys=True) == before, "apply must not mutate its input"
    json.dumps(new_state)  # JSON-serialisable, no tuples or Fractions
    assert isinstance(result["summary"], str) and result["summary"]
    return new_state, result


def started(players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """A game in the Event Phase of Round 1; the first player is Commander unless given."""
    names = players or ["Ann", "Bob", "Cy"]
    options.setdefault("commander", names[0])
    return new_game(names, **options)


def to_phase(state: dict[str, Any], phase: str) -> dict[str, Any]:
    """Press C until ``phase``, drawing an All Is Quiet / other Event on the way if needed."""
    for _ in range(12):
        if state["phase"] == phase:
            return state
        if state["phase"] == "Event" and not state["event_drawn_this_phase"]:
            kind = "all_is_quiet" if state["event_deck"].get("all_is_quiet") else "freedom_squadron"
            state, _ = act(state, {"type": "draw_event", "kind": kind})
        state, _ = act(state, {"type": "next_phase"})
    raise AssertionError(f"never reached {phase}")


def attacking(health: int, defense: int, dice: int, support: int = 2, **options: Any) -> dict[str, Any]:
    """Tactical Phase with a VENOM Leader chosen and ``dice`` Combat Dice allocated."""
    state = to_phase(started(**options), "Tactical")
    state, _ = act(state, {"type": "choose_leader", "name": "Vipress", "zone": "VENOM Mountain Defense",
                           "health": health, "defense": defense, "support": support})
    if dice:
        state, _ = act(state, {"type": "allocate_dice", "combat_value": dice})
    return state


def test_helpers_follow_the_core_flow():
    state = attacking(health=3, defense=4, dice=5)
    assert state["phase"] == "Tactical"
    assert SYSTEM.dice_for(state, SYSTEM.validate_action({"type": "combat_roll"})) == "5d6"
