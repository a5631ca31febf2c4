"""The screen model: what a system wants shown, independent of panel size or medium.

A system's ``screen(state)`` returns a ``Screen`` built from a few primitives a
renderer knows how to draw at any size: key figures (numbers that must be big),
tracks (range and marks), bars against a threshold, grids (players x tracks),
dice groups with a mark per die, and plain text. Every element carries a
``priority`` (1 = never dropped; larger numbers are dropped first when a small
panel runs out of room) and a ``tone`` (``normal``, ``accent`` or ``alert``)
that the renderer maps onto the inks the panel has. ``colour`` is a player's
colour index into ``PLAYER_INKS`` (red, blue, green, orange, yellow, black, purple), never
an RGB value: the panel decides what it can show (the phone all seven; the e-paper its inks, a colour it
lacks as a stand-in that keeps players apart, purple as red and blue pixels alternating on a colour board;
display.canvas.Inks.share).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from tableside.core.text import N_

# A player colour index names one of these; the phone draws each, the e-paper the inks it has.
PLAYER_INKS = ("red", "blue", "green", "orange", "yellow", "black", "purple")

Tone = Literal["normal", "accent", "alert"]
DIE_MARKS = ("", "hit", "miss", "tossed", "committed", "captured", "kept", "stake", "rolled_in")


@dataclass(frozen=True)
class KeyFigure:
    """A number the table reads from across the room: drawn as large as the panel allows."""

    label: str
    value: str
    unit: str = ""
    priority: int = 1
    tone: Tone = "normal"
    fix: str = ""  # the tracked number it shows (a phone taps it to correct it); "": none
    kind: str = field(default="figure", init=False)


@dataclass(frozen=True)
class Track:
    """A marker on a numbered track, e.g. Health 1-8 (``scale``) or the Event Track (``boxes``)."""

    label: str
    value: int
    minimum: int
    maximum: int
    style: Literal["scale", "boxes", "bar"] = "scale"
    threshold: int | None = None
    marks: tuple[int, ...] = ()
    priority: int = 2
    tone: Tone = "normal"
    fix: str = ""  # the tracked number it shows (a phone taps it to correct it); "": none
    kind: str = field(default="track", init=False)


@dataclass(frozen=True)
class Bar:
    """One player's bar in ``Bars``, in the player's colour (a docstring: without one, dataclass builds one
    from the signature at import, a cost paid before the panel's first answer)."""

    label: str
    value: int
    maximum: int
    colour: int | None = None
    note: str = ""  # "turn": whose turn it is; "next": whose turn follows (mark_next)


@dataclass(frozen=True)
class Bars:
    """One bar per player against a common threshold (population against the win threshold)."""

    title: str
    bars: tuple[Bar, ...]
    threshold: int | None = None
    priority: int = 2
    tone: Tone = "normal"
    kind: str = field(default="bars", init=False)


@dataclass(frozen=True)
class GridRow:
    """One row of a ``Grid``: a cell per column; ``highlight`` marks whose turn it is, ``next`` whose follows."""

    label: str
    cells: tuple[str, ...]
    highlight: bool = False
    colour: int | None = None
    fix: tuple[str, ...] = ()  # per cell, the tracked number it shows ("": none): a phone taps it to correct it
    next: bool = False  # whose turn follows, where the rules give an order (mark_next)


@dataclass(frozen=True)
class Grid:
    """Rows by columns, e.g. players x tracks on the Venusian Vegas boards.

    ``held``: the cells count things each row holds (Venusian Vegas's modifier tokens), so a panel short of
    room may list each row's non-zero columns on a line ("Bob Gm Ins×2") rather than drop the grid; a grid
    that is not ``held`` reads by its first column (the score) when it must be short, or by its first
    ``score_columns`` columns where their cells say what they count ("7 dice", "1 book": Venus 2140's pools).
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[GridRow, ...]
    priority: int = 3
    tone: Tone = "normal"
    held: bool = False
    score_columns: int = 1
    kind: str = field(default="grid", init=False)


@dataclass(frozen=True)
class Die:
    """One die of a ``DiceGroup``: its face and its mark (one of ``DIE_MARKS``, checked when built)."""

    face: int
    mark: str = ""

    def __post_init__(self) -> None:
        if self.mark not in DIE_MARKS:
            raise ValueError(f"unknown die mark {self.mark!r}")


@dataclass(frozen=True)
class DiceGroup:
    """Dice drawn as faces, each with a mark (hit, tossed, captured, ...) and one verdict."""

    label: str
    dice: tuple[Die, ...]
    verdict: str = ""
    sides: int = 6
    priority: int = 2
    tone: Tone = "normal"
    kind: str = field(default="dice", init=False)


@dataclass(frozen=True)
class Text:
    """A line of plain text; the first thing a small panel leaves out."""

    text: str
    priority: int = 4
    tone: Tone = "normal"
    kind: str = field(default="text", init=False)


Element = KeyFigure | Track | Bars | Grid | DiceGroup | Text


@dataclass(frozen=True)
class Outcome:
    """How the game ended, once its rules end it: ``label`` ("Winner", "Medal of Honor"), the winners, and
    the final ``scores`` (name, score) in ranking order; the phones lead with it (webui/static/js/recap.js)."""

    label: str
    winners: tuple[str, ...]
    scores: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Screen:
    """A system's view of its state. ``prompt`` is what the table waits for now. ``players``: the players' names
    as the screen's texts write them, so a panel too small for them can shorten each one the same way in every
    text (docs/display.md, "Names on a small panel")."""

    title: str
    status: str = ""
    elements: tuple[Element, ...] = ()
    alert: str | None = None
    prompt: str | None = None
    players: tuple[str, ...] = ()
    result: Outcome | None = None  # set only when the game is over (core/recap_screen.py)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON, field by field: ``dataclasses.asdict`` deep-copies every value and was
        most of the cost of a state read."""
        return _plain(self)

    def by_priority(self, keep: int) -> Screen:
        """The same screen with only elements of priority <= ``keep`` (for small panels)."""
        return replace(self, elements=tuple(e for e in self.elements if e.priority <= keep))


def mark_next(screen: Screen, seat: str, label: str) -> Screen:
    """``screen`` with whose turn follows marked where it marks whose turn it is (the row of a grid with a
    highlighted row, the bar beside the one whose ``note`` is "turn"), and named in its header ("· Bob (Mars) next"):
    the header may be too short to keep it, the mark stays. ``label``: the seat as the board names it."""
    names = {seat, label}
    marked: list[Element] = []
    for e in screen.elements:
        if isinstance(e, Bars) and any(b.note == "turn" for b in e.bars):
            e = replace(
                e, bars=tuple(replace(b, note=N_("next")) if b.label in names and not b.note else b for b in e.bars)
            )
        elif isinstance(e, Grid) and any(r.highlight for r in e.rows):
            e = replace(
                e, rows=tuple(replace(r, next=True) if r.label in names and not r.highlight else r for r in e.rows)
            )
        marked.append(e)
    # as every line names them; marked, so a German phone reads "· Bob (Mars) als Nächstes" (#38)
    status = (
        N_("{status} · {label} next", status=screen.status, label=label)
        if screen.status
        else N_("{label} next", label=label)
    )
    return replace(screen, elements=tuple(marked), status=status)


def _plain(value: Any) -> Any:
    """A screen element as dicts and lists (the dataclasses here hold only scalars, tuples and each other)."""
    names = _FIELD_NAMES.get(type(value))
    if names is None and hasattr(value, "__dataclass_fields__"):
        names = _FIELD_NAMES[type(value)] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if type(value) is tuple:
        return [_plain(item) for item in value]
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # in declaration order, as dataclasses.asdict gives them
