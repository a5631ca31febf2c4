"""When each action is available: the phase, the trick waiting for its bonuses, the tie for furthest behind.

Each check returns the reason in words, or None; the core refuses an action with that reason.
"""

from __future__ import annotations

from tableside.core.system import State
from tableside.core.systems.vegas.setup import GAME_OVER, ROUND_OVER, ROUND_START, SETUP, TRICKS


def tie_open(state: State) -> bool:
    """Two or more tie for furthest behind at the start of a round and none is chosen yet."""
    return state["phase"] == ROUND_START and state["chosen"] is None


def round_can_start(state: State, seat: str | None) -> str | None:
    if state["phase"] == SETUP:
        waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
        return f"waiting for the setup increases of {', '.join(waiting)}" if waiting else None
    if state["phase"] == ROUND_OVER:
        return None
    if state["phase"] == GAME_OVER:
        return f"the game is over after {state['rounds']} rounds"
    return f"round {state['round']} is still being played ({state['phase']})"


def tie_open_reason(state: State, seat: str | None) -> str | None:
    return None if tie_open(state) else "nobody ties for furthest behind right now"


def trick_to_play(state: State, seat: str | None) -> str | None:
    if state["phase"] != TRICKS:
        return f"only while tricks are played; now: {state['phase']}"
    if state["trick"] is not None:
        return "the last trick's bonuses are still open: take or decline them, or press A to go on"
    return None


def trick_open(state: State, seat: str | None) -> str | None:
    if state["phase"] == TRICKS and state["trick"] is not None:
        return None
    return "no trick is waiting for its bonuses"
