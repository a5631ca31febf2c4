"""Bars: one bar per player against a common threshold (population against the win threshold).

Tighter forms: text-sized rows become label-sized (1), two columns of bars where there is
width (2), no title line (3); the threshold stays on every bar.
"""

from __future__ import annotations

from tableside.core.screen import Bars
from tableside.display.canvas import Canvas, draw_bar, label_line, line_h
from tableside.display.elements.base import Kind
from tableside.display.panels import BLACK, WHITE
from tableside.display.text import font, ink_width, width


def _row_h(c: Canvas, compact: int) -> int:
    return line_h(c, c.m.label if compact else c.m.text)


def _split(e: Bars, w: int, compact: int) -> int:
    """How many side-by-side columns of bars: two on the tightest level when there is width for it."""
    return 2 if compact >= 2 and len(e.bars) > 2 and w >= 140 else 1


def _titled(e: Bars, compact: int) -> bool:
    """The last resort (level 3) drops the title line; the threshold line stays on every bar."""
    return compact < 3 or not e.bars


def measure(c: Canvas, e: Bars, w: int, compact: int = 0) -> int:
    rows = -(-len(e.bars) // _split(e, w, compact))
    title = line_h(c, c.m.label) if _titled(e, compact) else 0
    return title + rows * _row_h(c, compact) + c.m.pad


def draw(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int = 0) -> None:
    if _titled(e, compact):
        right = f"wins at {e.threshold}" if e.threshold is not None else ""
        label_line(c, x, y, w, e.title, right, e.tone)
        y += line_h(c, c.m.label)
    split = _split(e, w, compact)
    if split > 1:  # two columns of bars, each a narrower Bars without a title line
        half = (w - c.m.pad * 2) // 2
        per = -(-len(e.bars) // 2)
        for k in range(2):
            part = Bars("", e.bars[k * per : (k + 1) * per], e.threshold, e.priority, e.tone)
            _draw_rows(c, part, x + k * (half + c.m.pad * 2), y, half, compact, e)
        return
    _draw_rows(c, e, x, y, w, compact, e)


def _draw_rows(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int, whole: Bars) -> None:
    size = c.m.label if compact else c.m.text
    f, fb = font(size), font(size, "bold")
    row = _row_h(c, compact)
    top = max([b.maximum for b in whole.bars] + [e.threshold or 0] + [b.value for b in whole.bars] + [1])
    mark = max(3, size // 4) + 2 if any(b.note == "turn" for b in whole.bars) else 0  # whose-turn column
    name_w = min(w * 2 // 5, max(ink_width(b.label, fb) for b in e.bars) + c.m.pad + size // 2 + mark) if e.bars else 0
    num_w = max([width(str(b.value), fb) for b in e.bars] + [0]) + c.m.pad
    bar_w = w - name_w - num_w - c.m.pad
    bh = max(4, row - max(3, row // 3))
    for b in e.bars:
        ink = c.inks.player(b.colour)
        coloured = len(c.inks.players) > 1 and any(bar.colour is not None for bar in whole.bars)
        sw = size // 2 if coloured else -2
        if coloured and b.colour is not None:
            c.rect((x + mark, y + (row - sw) // 2 - 1, x + mark + sw - 1, y + (row - sw) // 2 + sw - 2), fill=ink)
        turn = b.note == "turn"
        if turn:  # whose turn: an accent bar down the left edge and the name in bold
            c.rect((x, y + 1, x + mark - 3, y + row - 2), fill=c.inks.accent)
        c.text(
            (x + mark + sw + 2, y),
            b.label,
            fb if turn else f,
            name_w - mark - sw - 2 - c.m.pad // 2,
            fill=c.inks.accent_text if turn else BLACK,
            rule="clauses",
        )
        bx = x + name_w
        win = e.threshold is not None and b.value >= e.threshold
        draw_bar(c, bx, y + (row - bh) // 2 - 1, bar_w, bh, b.value, top, ink if ink != WHITE else BLACK, e.threshold)
        c.text((bx + bar_w + c.m.pad, y), str(b.value), fb, num_w - c.m.pad, fill=c.inks.alert_text if win else BLACK)
        y += row


def natural_width(c: Canvas, e: Bars) -> int:
    """The race reads across the whole panel: bars of the main element (priority 1) span the columns."""
    return c.panel.width if e.priority <= 1 else 0


KIND = Kind("bars", measure, draw, natural_width=natural_width)
