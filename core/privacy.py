"""What a request may see of the game: the one place that decides it.

A log entry, a state, a result and the rolls of an action are shown to the seat
they are private to (a Venus 2140 scene pool, the toy's hand) and, to everyone
else, only as their public summary. Every route that returns game data (view,
log, export, luck, chart, undo/redo answers, refusals, e-paper frames) reads it
through the functions here, so a new route cannot leak by forgetting a check:
``tests/test_privacy_sweep.py`` calls every route of the app after a private roll
and looks for the faces.

``seat`` is the seat the request holds, or None: the shared table view (the
e-paper, a phone with no seat, a saved game that is not on the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The columns of a log entry anyone may read (the seat's own private entries show every one).
ENTRY_FIELDS = ("seq", "kind", "type", "action", "target", "source", "seat", "at", "result", "rolls")


def may_see(private: Mapping[str, Any] | None, seat: str | None) -> bool:
    """Whether ``seat`` may read what an entry marked ``private`` holds (its faces, action and result)."""
    return not private or private.get("seat") == seat


# What a private entry's result shows everyone besides its public summary: which button asked for it is no secret
# (every phone says "Button A: GM rolled 6 dice ...", as the button was pressed at the table).
PUBLIC_RESULT = ("button",)


def public_summary(private: Mapping[str, Any], value: Mapping[str, Any] | None = None) -> dict:
    """The result everyone else reads of a private entry: its public summary, and the button that asked for it
    (from ``value``, the full result), nothing else."""
    out: dict[str, Any] = {"summary": str(private.get("summary") or "a private move")}
    for key in PUBLIC_RESULT:
        if isinstance(value, Mapping) and isinstance(value.get(key), str):
            out[key] = value[key]
    return out


def entry(e: Mapping[str, Any], seat: str | None) -> dict:
    """A log entry as ``seat`` may read it: another seat's private entry keeps only its public summary
    (no action details, no rolls) and says ``"private": true``."""
    out = {k: e.get(k) for k in ENTRY_FIELDS}
    private = e.get("private")
    if not may_see(private, seat):
        out.update(action=None, rolls=[], result=public_summary(private, e.get("result")))  # type: ignore[arg-type]
        out["private"] = True
    return out


def result(value: Mapping[str, Any], private: Mapping[str, Any] | None, seat: str | None) -> dict:
    """The result of an action, undo or redo as ``seat`` may read it in the answer to its request."""
    return dict(value) if may_see(private, seat) else public_summary(private, value)  # type: ignore[arg-type]


def rolls(recorded: list[dict], private: Mapping[str, Any] | None, seat: str | None) -> list[dict]:
    """The rolls of an action as ``seat`` may read them: none of another seat's private dice."""
    return list(recorded) if may_see(private, seat) else []


def state(system: Any, value: dict, seat: str | None) -> dict:
    """A game state as ``seat`` may see it: the system's own ``redact`` (pools become counts)."""
    return system.redact(value, seat)
