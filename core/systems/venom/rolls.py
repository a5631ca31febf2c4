"""The last roll, as one typed record: what the recorder rolled, a mark per die, and whose Turn it was.

Every roll a VENOM Assault action makes (the Commander roll-off, the Combat
Dice, a re-roll, a single die) is kept in ``state["last_roll"]`` as a
``RollRecord``: the recorder's own record (label, expression, faces, total),
one mark per die (``hit``/``miss`` against the Defense Track, ``kept`` for the
roll-off's highest) and the Round and Turn it belongs to, so the screen shows a
roll only during the Turn it was made in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tableside.core.dice import RollResult


@dataclass(frozen=True)
class RollRecord:
    """One roll as the table saw it; stored as a plain dict in the state."""

    label: str
    expr: str
    rolls: tuple[int, ...]
    total: int
    marks: tuple[str, ...] = ()
    successes: int | None = None
    round: int = 0
    turn: int = 0

    @classmethod
    def of(cls, result: RollResult, label: str, state: Mapping[str, Any], marks: Sequence[str] = ()) -> RollRecord:
        """The record of ``result`` (rolled under ``label``) in the Turn ``state`` is in."""
        rolls = tuple(result.rolls)
        successes = sum(1 for m in marks if m == "hit") if "hit" in marks or "miss" in marks else None
        return cls(
            label,
            result.expr,
            rolls,
            result.total,
            tuple(marks),
            successes,
            int(state.get("round") or 0),
            int(state.get("turn") or 0),
        )

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RollRecord:
        """A stored record, or the core's free roll (which carries no Turn until ``stamp``)."""
        rolls = tuple(raw.get("rolls") or ())
        return cls(
            str(raw.get("label") or raw.get("expr") or "Roll"),
            str(raw.get("expr") or ""),
            rolls,
            int(raw.get("total") if raw.get("total") is not None else sum(rolls)),
            tuple(raw.get("marks") or ()),
            raw.get("successes"),
            int(raw.get("round") or 0),
            int(raw.get("turn") or 0),
        )

    def to_dict(self) -> dict[str, Any]:
        # Field by field, not dataclasses.asdict: this runs on every action and replay step, and asdict's
        # recursive deep copy was a third of the replay time.
        return {
            "label": self.label,
            "expr": self.expr,
            "rolls": list(self.rolls),
            "total": self.total,
            "marks": list(self.marks),
            "successes": self.successes,
            "round": self.round,
            "turn": self.turn,
        }

    def belongs_to(self, state: Mapping[str, Any]) -> bool:
        """Was this roll made in the current Turn (or during setup, for the roll-off)?"""
        return self.turn == int(state.get("turn") or 0)


def stamp(state: dict[str, Any]) -> None:
    """Give a roll without a Turn (the core's free roll) the current Round and Turn."""
    raw = state.get("last_roll")
    if raw and "turn" not in raw:
        state["last_roll"] = {
            **RollRecord.from_dict(raw).to_dict(),
            "round": int(state.get("round") or 0),
            "turn": int(state.get("turn") or 0),
        }


def hit_marks(values: Sequence[int], autos: Sequence[bool], defense: int) -> list[str]:
    """``hit`` for each die meeting the Defense Track (or an Automatic Success), else ``miss``."""
    return ["hit" if auto or value >= defense else "miss" for value, auto in zip(values, autos, strict=True)]
