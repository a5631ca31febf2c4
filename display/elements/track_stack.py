"""Neighbouring tracks on the same scale, one above the other in one column: "Health" over "Defense".

Two tracks the table reads together (a VENOM Leader's Health and Defense, 1-8 each) must never be
split across the columns with another element between them: the layout places such a run as one
unit, its scales the same width so the marks line up cell under cell. Made for one layout try at a
time, so it is measured each time, never cached (like ``track_row``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tableside.core.screen import Track
from tableside.display.canvas import Box, Canvas
from tableside.display.elements import track
from tableside.display.elements.base import Kind


@dataclass(frozen=True)
class TrackStack:
    tracks: tuple[Track, ...]
    kind: str = field(default="track_stack", init=False)

    @property
    def priority(self) -> int:
        return min(t.priority for t in self.tracks)


def same_scale(a: Track, b: Track) -> bool:
    """Whether two tracks share their numbers and style, so their marks read cell under cell."""
    return (a.minimum, a.maximum, a.style) == (b.minimum, b.maximum, b.style)


def measure(c: Canvas, stack: TrackStack, w: int, level: int) -> int:
    return sum(track.KIND.height(c, t, w, level) for t in stack.tracks)


def draw(c: Canvas, stack: TrackStack, x: int, y: int, w: int, level: int) -> list[tuple[Track, Box]]:
    """Each track in turn, one under the other; each keeps its own box."""
    out: list[tuple[Track, Box]] = []
    for t in stack.tracks:
        out.extend(track.KIND.place(c, t, x, y, w, level))
        y += track.KIND.height(c, t, w, level)  # its own padding below it: closer than two elements
    return out


KIND = Kind("track_stack", measure, draw, cached=False)
