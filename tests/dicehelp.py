"""The core's flow for system tests, without a store: one action through ``run_action``."""

from __future__ import annotations

import json
from typing import Any

from tableside.core.errors import TablesideError
from tableside.core.recorder import NeedsDice
from tableside.core.system import GameSystem, Step, run_action


def play(system: GameSystem, state: dict, raw: dict, faces: Any = None, seat: str | None = None):
    """One action as the core runs it; ``faces`` (or ``raw["faces"]``) are typed-in physical dice.

    Checks that the input state is not mutated and the new state is plain JSON.
    """
    step = play_step(system, state, raw, faces, seat)
    return step.state, step.result


def play_step(system: GameSystem, state: dict, raw: dict, faces: Any = None, seat: str | None = None) -> Step:
    """``play``, returning the whole step: the state, the result and the log's roll records."""
    raw = dict(raw)
    if faces is None:
        faces = raw.pop("faces", None)
    else:
        raw.pop("faces", None)
    before = json.dumps(state, sort_keys=True)
    step = run_action(system, state, raw, faces=faces, seat=seat)
    assert json.dumps(state, sort_keys=True) == before, "apply must not mutate its input"
    json.dumps(step.state)
    assert isinstance(step.result["summary"], str) and step.result["summary"]
    return step


def dice_for(system: GameSystem, state: dict, raw: dict) -> str | None:
    """The first roll the action would make now (e.g. ``"5d6"``), or None if it rolls nothing or is refused."""
    raw = {k: v for k, v in raw.items() if k != "faces"}
    try:
        run_action(system, state, raw, faces=[])
    except NeedsDice as exc:
        return exc.needs_dice[0]["expr"]
    except TablesideError:
        return None
    return None
