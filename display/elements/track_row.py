"""Neighbouring tracks as numbers side by side, "Health 2/8   Defense 4/8": the last resort for tracks.

The layout makes these for one try at the tightest level, so they are measured each time, never cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tableside.core.screen import KeyFigure, Track
from tableside.display.canvas import Box, Canvas, line_h
from tableside.display.elements import figure
from tableside.display.elements.base import Kind
from tableside.display.elements.track import value_text


@dataclass(frozen=True)
class TrackRow:
    tracks: tuple[Track, ...]
    kind: str = field(default="track_row", init=False)

    @property
    def priority(self) -> int:
        return min(t.priority for t in self.tracks)


def _figures(row: TrackRow) -> list[KeyFigure]:
    return [KeyFigure(t.label, value_text(t), priority=t.priority, tone=t.tone) for t in row.tracks]


def _size(c: Canvas, row: TrackRow, w: int) -> int:
    """The biggest value size (class minimum for key figures, else text) at which the row fits whole;
    0 if it does not and a track on it could be dropped instead (only priority 1 is ever cut)."""
    figures = _figures(row)
    for size in sorted({c.m.figure_min, c.m.text}, reverse=True):
        if sum(figure.line_need(c, f, size) for f in figures) + figure.line_gap(c) * (len(figures) - 1) <= w:
            return size
    return c.m.text if all(t.priority <= 1 for t in row.tracks) else 0


def measure(c: Canvas, row: TrackRow, w: int, level: int) -> int:
    size = _size(c, row, w)
    return line_h(c, size) + c.m.pad if size else 1 << 30


def draw(c: Canvas, row: TrackRow, x: int, y: int, w: int, level: int) -> list[tuple[Track, Box]]:
    """The tracks on one line like key figures; each track keeps its own box."""
    boxes = figure.draw_line(c, _figures(row), x, y, w, _size(c, row, w))
    return list(zip(row.tracks, boxes, strict=True))


KIND = Kind("track_row", measure, draw, cached=False)
