"""The roll on the table: the newest roll of the game, as the log recorded it, while it is current.

Every roll goes into its log entry once (``core.recorder.Dice``), with how it reads on the table
(``ctx.dice.mark``: a mark per die and a verdict in words) and what it belongs to (the system's
``roll_belongs_to(state)`` just after the roll: the turn, the trick, the exchange). The core keeps
the newest such entry beside the state, never in it, and hands it to the views and the screen
while the game is still in what it belongs to; a roll private to a seat (a Venus 2140 scene pool)
reaches only that seat. So what the table shows is the log's faces, a free roll changes no game
state, and no system keeps its own copy of a roll.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tableside.core import dice, privacy
from tableside.core.screen import DiceGroup, Die, Tone


def scope_key(value: Any) -> Any:
    """``roll_belongs_to``'s value as it reads back from the log (JSON: tuples become lists)."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class TableRoll:
    """One log entry's rolls: who rolled them, to whom they are private, what they belong to."""

    seq: int
    records: tuple[dict[str, Any], ...]
    seat: str | None = None
    private: Mapping[str, Any] | None = None  # the entry's privacy: {"seat", "summary"}

    @classmethod
    def of_entry(cls, seq: int, rolls: Sequence[Mapping[str, Any]], seat: Any, private: Any) -> TableRoll | None:
        """The roll of a log entry (None when it rolled nothing)."""
        if not rolls:
            return None
        return cls(seq, tuple(dict(r) for r in rolls), seat, dict(private) if isinstance(private, Mapping) else None)

    @property
    def last(self) -> dict[str, Any]:
        return self.records[-1]

    @property
    def belongs_to(self) -> Any:
        return self.last.get("belongs_to")

    def current(self, belongs_to_now: Any) -> bool:
        """Whether the game is still in what the roll belongs to (a roll logged before the roll
        was a core concept says nothing about it: not current)."""
        return "belongs_to" in self.last and self.last["belongs_to"] == scope_key(belongs_to_now)

    def visible_to(self, seat: str | None) -> bool:
        """Like the log: a private roll is its seat's alone (the e-paper, seat None, never shows it)."""
        return privacy.may_see(self.private, seat)

    def faces(self) -> list[int]:
        """The newest roll's faces, exactly as logged."""
        return list(self.last["rolls"])

    def describe(self) -> dict[str, Any]:
        """The view's ``roll``: every roll of the entry, each with its marks and verdict."""
        return {
            "seq": self.seq,
            "seat": self.seat,
            "private": self.private is not None,
            "belongs_to": self.belongs_to,
            "rolls": [_reading(r) for r in self.records],
        }

    def group(self, priority: int = 2, tone: Tone | None = None) -> DiceGroup:
        """The newest roll as the screen draws it: its label, a die per logged face with its mark,
        the verdict. ``tone`` defaults to accent when a die hit."""
        read = _reading(self.last)
        marks = read["marks"]
        if tone is None:
            tone = "accent" if "hit" in marks else "normal"
        return DiceGroup(
            read["label"],
            tuple(Die(face, mark) for face, mark in zip(read["rolls"], marks, strict=True)),
            verdict=read["verdict"],
            sides=_sides(read["expr"]),
            priority=priority,
            tone=tone,
        )


def _reading(record: Mapping[str, Any]) -> dict[str, Any]:
    """A logged roll with its marks (one per face, "" where the system said none) and its verdict
    (the system's words, else the successes or the total)."""
    faces = list(record.get("rolls") or [])
    marks = list(record.get("marks") or [])
    marks = (marks + [""] * len(faces))[: len(faces)]
    verdict = record.get("verdict")
    if verdict is None:
        successes = record.get("successes")
        verdict = f"{successes} successes" if successes is not None else f"total {record.get('total', sum(faces))}"
    return {
        "label": str(record.get("shown") or record.get("label") or record.get("expr") or "Roll"),
        "expr": str(record.get("expr") or ""),
        "rolls": faces,
        "marks": marks,
        "verdict": verdict,
    }


def _sides(expr: str) -> int:
    try:
        return dice.parse(expr).sides
    except dice.DiceError:
        return 6
