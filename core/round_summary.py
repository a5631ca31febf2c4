"""What changed in the round that just ended (#34), told from the log's states: pure functions, no I/O.

A round end is a moment: Vegas rounds, VNM rounds, VENOM turns and Venus 2140 conflicts each end with a short
summary of what changed, one line per player. The log is the truth: the summary is folded over the states the
log replays to (``core.replay``), an undo's state among them, so a round end that is undone is no longer told.
Each system says, in its ``state`` role module, which round is being played (``round_name``: the rulebook's
word, e.g. "Round 2", "Turn 3", "Conflict 1"; None between rounds or once the game is over) and the public
numbers of each player (``round_numbers``: e.g. ``{"Ann": {"VP": 4}}``); a system without them has nothing to
say. The numbers are read from the public view of each state (``core.privacy.state(system, state, None)``), so
a Venus 2140 pool or a Vegas hand never reaches a summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tableside.core import privacy

Numbers = dict[str, dict[str, int]]
MAX_LINES = 12  # players and table lines a summary lists
MAX_CHANGES = 6  # numbers a line names


def numbers_of(system: Any, state: Mapping[str, Any]) -> tuple[str | None, Numbers]:
    """(the round being played, each player's public numbers) of ``state``; (None, {}) where the system
    has no round hooks."""
    name = system.round_name(state)
    if name is None and system.role("state", "round_numbers") is None:
        return None, {}
    public = privacy.state(system, state, None)
    return name, system.round_numbers(public)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}"


def lines(before: Numbers, after: Numbers) -> list[dict[str, Any]]:
    """One line per player, in the order the system names them: each number that changed, signed ("VP +3,
    tokens \u22122"), or "no change"."""
    out = []
    for who, now in list(after.items())[:MAX_LINES]:
        was = before.get(who, {})
        changes = [
            {"label": label, "change": value - was.get(label, 0), "now": value}
            for label, value in now.items()
            if value != was.get(label, 0)
        ][:MAX_CHANGES]
        words = ", ".join(f"{c['label']} {_signed(c['change'])} (now {c['now']})" for c in changes)
        out.append({"name": who, "changes": changes, "text": f"{who}: {words or 'no change'}"})
    return out


class RoundFold:
    """The summary of the last round that ended, folded forward one state at a time (a state after an undo
    included), so a long game is read once and each new entry costs one step."""

    def __init__(self, system: Any, first: Mapping[str, Any]) -> None:
        self.system = system
        self.name, self.numbers = numbers_of(system, first)
        self.starts: dict[str, Numbers] = {} if self.name is None else {self.name: self.numbers}
        self.last: dict[str, Any] | None = None

    def add(self, seq: int, state: Mapping[str, Any]) -> None:
        """The state after log entry ``seq``."""
        name, numbers = numbers_of(self.system, state)
        if name != self.name:
            if self.name is not None:
                start = self.starts.get(self.name, {})
                self.last = {"round": self.name, "seq": seq, "lines": lines(start, numbers)}
            if name is not None and name not in self.starts:
                self.starts[name] = self.numbers
            if self.last is not None and name == self.last["round"]:
                self.last = None  # the round's end was undone: it is being played again
        self.name, self.numbers = name, numbers

    def summary(self) -> dict[str, Any] | None:
        """The last round that ended, as {"round", "seq" (the entry that ended it), "lines"}; None if none has."""
        return self.last


def last_round(system: Any, first: Mapping[str, Any], states: Iterable[tuple[int, Mapping[str, Any]]]) -> Any:
    """The summary of the last round that ended in ``states`` (``(seq, state after it)`` in log order, from
    ``first``, the game's starting state), or None."""
    fold = RoundFold(system, first)
    for seq, state in states:
        fold.add(seq, state)
    return fold.summary()
