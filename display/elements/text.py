"""Plain text: wrapped to its width, three lines when roomy, two at level 1, one from level 2 (cut with "…")."""

from __future__ import annotations

from tableside.core.screen import Text
from tableside.display.canvas import Canvas
from tableside.display.elements.base import Kind
from tableside.display.text import font, wrap


def _lines(compact: int) -> int:
    return 3 - min(2, int(compact))


def measure(c: Canvas, e: Text, w: int, compact: int = 0) -> int:
    n = len(wrap(e.text, font(c.m.text), w, _lines(compact)))
    return n * c.m.line + c.m.pad // 2


def draw(c: Canvas, e: Text, x: int, y: int, w: int, compact: int = 0) -> None:
    f = font(c.m.text, "bold" if e.tone != "normal" else "regular")
    for line in wrap(e.text, f, w, _lines(compact)):
        c.text((x, y), line, f, w, fill=c.inks.text(e.tone))
        y += c.m.line


KIND = Kind("text", measure, draw)
