"""The soft clock per seat (#34): optional (off by default), pausable, shown in the recap, never enforced.

Pure: the clock is told from the log. Its switches are log entries, the core's ``clock`` action (``on``,
``pause``, ``resume``, ``off``), which change no game state, so an undo takes a pause back like any move and a
restart reads the same times. The time between two entries is the seat's the table was waiting for after the
first (``GameSystem.pending``'s first prompt's seat: whose move it is), unless the clock was paused then; time
nobody's move is waited for is the table's. The recap's time per seat is the same count (``seat_times``).
Nothing is ever refused because of the clock.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tableside.core.fields import Choice, Field
from tableside.core.recorder import Context
from tableside.core.specs import ActionSpec

CLOCK = "clock"
SWITCHES = {
    "on": "Soft clock on",
    "pause": "Soft clock paused",
    "resume": "Soft clock running again",
    "off": "Soft clock off",
}
THE_TABLE = "The table"  # time while nobody's move is waited for


def _switch(state: Any, action: Mapping[str, Any], ctx: Context) -> tuple[Any, dict[str, Any]]:
    """The core's clock switch: logged (with when), the game's state left as it was."""
    return state, {"summary": SWITCHES[action["do"]], "clock": action["do"]}


CLOCK_SPEC = ActionSpec(
    CLOCK,
    "Soft clock",
    "Switch the soft clock per seat on or off, pause it or let it run again (a log entry: undo takes it back).",
    _switch,
    (Field("do", "pick", label="Clock", choices=tuple(Choice(k, v) for k, v in SWITCHES.items())),),
    group="Clock",
    example={"do": "pause"},
)


def _flags(flags: tuple[bool, bool], entry: Mapping[str, Any]) -> tuple[bool, bool]:
    """(on, paused) after ``entry``'s action, from (on, paused) before it."""
    action = entry.get("action") if isinstance(entry.get("action"), Mapping) else {}
    if action.get("type") != CLOCK:
        return flags
    on, paused = flags
    do = action.get("do")
    if do == "on":
        return True, False
    if do == "off":
        return False, False
    if do in ("pause", "resume"):
        return on, do == "pause"
    return flags


def _at(entry: Mapping[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(str(entry.get("at")))
    except ValueError:
        return None


class ClockFold:
    """The clock folded forward one log entry at a time (a long game is read once)."""

    def __init__(self) -> None:
        self.stack: list[tuple[bool, bool]] = []  # (on, paused) after each entry undo would take back next
        self.undone: list[Mapping[str, Any]] = []
        self.originals: dict[int, Mapping[str, Any]] = {}  # the clock switches, by seq (what a redo re-applies)
        self.seconds: dict[str, float] = {}
        self.at: datetime | None = None
        self.version = 0
        self.waiting: str | None = None  # the seat waited for after the last entry

    def flags(self) -> tuple[bool, bool]:
        return self.stack[-1] if self.stack else (False, False)

    def add(self, entry: Mapping[str, Any], waiting: str | None) -> None:
        """One log entry (``seq``, ``kind``, ``at``, ``action`` or ``target``) and the seat the table waits for
        after it."""
        flags = self.flags()
        at = _at(entry)
        if at and self.at and not flags[1]:
            who = self.waiting or THE_TABLE
            self.seconds[who] = self.seconds.get(who, 0.0) + max((at - self.at).total_seconds(), 0.0)
        kind, seq = entry.get("kind"), int(entry.get("seq") or 0)
        if kind == "action":
            if isinstance(entry.get("action"), Mapping) and entry["action"].get("type") == CLOCK:
                self.originals[seq] = entry
            self.stack.append(_flags(flags, entry))
            self.undone.clear()
        elif kind == "undo" and self.stack:
            self.stack.pop()
            self.undone.append(self.originals.get(entry.get("target"), {}))
        elif kind == "redo" and self.undone:
            self.stack.append(_flags(flags, self.undone.pop()))
        self.at, self.version, self.waiting = at or self.at, seq, waiting

    def told(self) -> dict[str, Any]:
        """``{"on", "paused", "seconds": {seat: seconds}, "running": the seat whose time runs now (None when off,
        paused, or nobody's move), "since": when it started running (the last entry's time)}``."""
        on, paused = self.flags()
        running = (self.waiting or None) if on and not paused else None
        return {
            "on": on,
            "paused": paused,
            "seconds": {k: round(v, 1) for k, v in self.seconds.items()},
            "running": running,
            "since": self.at.isoformat() if self.at and running else None,
        }


def seat_times(entries: Iterable[Mapping[str, Any]], waiting: Mapping[int, str | None]) -> dict[str, Any]:
    """The clock after ``entries`` (the log in order): ``ClockFold.told``. ``waiting``: version -> the seat the
    table waited for in the state after that entry."""
    fold = ClockFold()
    for e in entries:
        fold.add(e, waiting.get(int(e.get("seq") or 0)))
    return fold.told()


def waiting_seat(system: Any, state: Mapping[str, Any]) -> str | None:
    """The seat whose move the table waits for in ``state`` (the first prompt's), or None (the table's time)."""
    pending = system.pending(state)
    return pending[0].seat if pending and pending[0].seat else None


def clock_on(switches: Sequence[tuple[int, str]], applied: Sequence[tuple[int, int]]) -> bool:
    """Whether the clock is on: its newest "on" or "off" switch still applied (undo takes a switch back).
    ``switches``: (seq, what) in log order; ``applied``: the undo stack (original seq, version), in seq order,
    so each switch is looked up, not the whole stack walked."""
    for seq, what in reversed(switches):
        if what not in ("on", "off"):
            continue
        at = bisect_left(applied, seq, key=lambda a: a[0])
        if at < len(applied) and applied[at][0] == seq:
            return what == "on"
    return False
