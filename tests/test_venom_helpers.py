"""Shared helpers for the VENOM Assault tests: the core's flow, without the core.

Every helper goes options -> initial_state -> run_action, with the dice faces
typed in by the test, as the session core would.
"""

from __future__ import annotations

from typing import Any

from tableside.core.systems.venom import SYSTEM

from tests.dicehelp import dice_for, play


def new_game(players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    raw = {"players": players or ["Ann", "Bob", "Cy"], **options}
    return SYSTEM.start(SYSTEM.validate_options(raw))


def act(state: dict[str, Any], raw: dict[str, Any], faces: list[int] | None = None, typed: bool = False):
    """One action as the core runs it, with ``faces`` typed in (``typed`` kept for old call sites)."""
    return play(SYSTEM, state, raw, faces)


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


def table_to_phase(table, phase: str) -> dict[str, Any]:
    """The same walk through a ``Table`` (as a phone would); the state it stopped at, after 12 steps at most."""
    state = table.view()["state"]
    for _ in range(12):
        if state["phase"] == phase:
            break
        if state["phase"] == "Event" and not state["event_drawn_this_phase"]:
            kind = "all_is_quiet" if state["event_deck"].get("all_is_quiet") else "freedom_squadron"
            state = table.act({"type": "draw_event", "kind": kind})["state"]
        state = table.act({"type": "next_phase"})["state"]
    return state


def attacking(health: int, defense: int, dice: int, support: int = 2, **options: Any) -> dict[str, Any]:
    """Tactical Phase with a VENOM Leader chosen and ``dice`` Combat Dice allocated."""
    state = to_phase(started(**options), "Tactical")
    state, _ = act(
        state,
        {
            "type": "choose_leader",
            "name": "Vipress",
            "zone": "VENOM Mountain Defense",
            "health": health,
            "defense": defense,
            "support": support,
        },
    )
    if dice:
        state, _ = act(state, {"type": "allocate_dice", "combat_value": dice})
    return state


def test_helpers_follow_the_core_flow():
    state = attacking(health=3, defense=4, dice=5)
    assert state["phase"] == "Tactical"
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "combat_roll"})) == "5d6"
