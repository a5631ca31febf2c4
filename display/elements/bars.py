"""Bars: one bar per player against a common threshold (population against the win threshold).

Tighter forms: text-sized rows become label-sized (1), two columns of bars where there is
width (2), no title line (3); the threshold stays on every bar.
"""

from __future__ import annotations

from tableside.core.screen import Bar, Bars
from tableside.display.canvas import Canvas, draw_bar, label_line, line_h, read_size
from tableside.display.elements.base import Kind
from tableside.display.panels import BLACK, WHITE
from tableside.display.text import font, ink_width, short_names, width


def _size(c: Canvas, e: Bars, compact: int) -> int:
    """The rows' type: text-sized, label-sized when compact; never under the 4 mm floor for the race (priority 1)."""
    return read_size(c, e.priority, c.m.label if compact else c.m.text)


def _row_h(c: Canvas, e: Bars, compact: int) -> int:
    return line_h(c, _size(c, e, compact))


def _split(e: Bars, w: int, compact: int) -> int:
    """How many side-by-side columns of bars: two on the tightest level when there is width for it."""
    return 2 if compact >= 2 and len(e.bars) > 2 and w >= 140 else 1


def _titled(e: Bars, compact: int) -> bool:
    """The last resort (level 3) drops the title line; the threshold line stays on every bar."""
    return compact < 3 or not e.bars


def measure(c: Canvas, e: Bars, w: int, compact: int = 0) -> int:
    rows = -(-len(e.bars) // _split(e, w, compact))
    title = line_h(c, c.m.label) if _titled(e, compact) else 0
    return title + rows * _row_h(c, e, compact) + c.m.pad


def draw(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int = 0) -> None:
    if _titled(e, compact):
        right = f"wins at {e.threshold}" if e.threshold is not None else ""
        label_line(c, x, y, w, e.title, right, e.tone)
        y += line_h(c, c.m.label)
    split = _split(e, w, compact)
    if split > 1:  # two columns of bars, each a narrower Bars without a title line
        half = (w - c.m.pad * 2) // 2
        per = -(-len(e.bars) // 2)
        parts = [Bars("", e.bars[k * per : (k + 1) * per], e.threshold, e.priority, e.tone) for k in range(2)]
        short = any(_needs_short(c, part, half, compact, e) for part in parts)
        for k, part in enumerate(parts):
            _draw_rows(c, part, x + k * (half + c.m.pad * 2), y, half, compact, e, short)
        return
    _draw_rows(c, e, x, y, w, compact, e, _needs_short(c, e, w, compact, e))


def _label(b: Bar, short: bool) -> str:
    return short_names(b.label) if short else b.label


def _columns(c: Canvas, e: Bars, w: int, compact: int, whole: Bars, short: bool = False) -> tuple[int, int, int, int]:
    """(whose-turn column, swatch, name column, room for a name) of ``e``'s rows in ``w`` px, the name
    column as wide as the names drawn (their ``short`` forms: the bars get the rest), at most 2/5."""
    size = _size(c, whole, compact)
    fb = font(size, "bold")
    mark = max(3, size // 4) + 2 if any(b.note in ("turn", "next") for b in whole.bars) else 0  # whose-turn column
    widest = max((ink_width(_label(b, short), fb) for b in e.bars), default=0)
    most = w // 2 if e is not whole else w * 2 // 5  # a column of the two (a pHAT's bars) is narrow already
    name_w = min(most, widest + c.m.pad + size // 2 + mark) if e.bars else 0
    coloured = len(c.inks.players) > 1 and any(bar.colour is not None for bar in whole.bars)
    sw = size // 2 if coloured else -2
    return mark, sw, name_w, name_w - mark - sw - 2 - c.m.pad // 2


def _needs_short(c: Canvas, e: Bars, w: int, compact: int, whole: Bars) -> bool:
    """Whether a name of ``e`` (the one whose turn it is, in bold) does not fit whole: then every row
    takes the short form ("Alexandra", "Bob"; docs/display.md), so the rows read alike."""
    size = _size(c, whole, compact)
    f, fb = font(size), font(size, "bold")
    room = _columns(c, e, w, compact, whole)[3]
    return any(ink_width(b.label, fb if b.note == "turn" else f) > room for b in e.bars)


def _draw_rows(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int, whole: Bars, short: bool) -> None:
    size = _size(c, whole, compact)
    f, fb = font(size), font(size, "bold")
    row = _row_h(c, whole, compact)
    top = max([b.maximum for b in whole.bars] + [e.threshold or 0] + [b.value for b in whole.bars] + [1])
    mark, sw, name_w, room = _columns(c, e, w, compact, whole, short)
    num_w = max([width(str(b.value), fb) for b in e.bars] + [0]) + c.m.pad
    bar_w = w - name_w - num_w - c.m.pad
    bh = max(4, row - max(3, row // 3))
    coloured = sw > 0
    first = y
    for b in e.bars:
        ink = c.inks.player(b.colour)
        if coloured and b.colour is not None:
            c.rect((x + mark, y + (row - sw) // 2 - 1, x + mark + sw - 1, y + (row - sw) // 2 + sw - 2), fill=ink)
        turn = b.note == "turn"
        if turn:  # whose turn: an accent bar down the left edge and the name in bold
            c.rect((x, y + 1, x + mark - 3, y + row - 2), fill=c.inks.accent)
        elif b.note == "next":  # whose turn follows: the same bar in dashes
            c.dashes((x, y + 1, x + mark - 3, y + row - 2), c.inks.accent)
        c.text(
            (x + mark + sw + 2, y),
            _label(b, short),
            fb if turn else f,
            room,
            fill=c.inks.accent_text if turn else BLACK,
            rule="clauses",
            asked=b.label,
        )
        bx = x + name_w
        win = e.threshold is not None and b.value >= e.threshold
        by = y + (row - bh) // 2 - 1
        # The threshold mark joins the rows' bars into one line; on the first row it starts at the row's top,
        # clear of the title line above ("wins at 34": the mark crossed its last digit).
        above = 3 if y > first else by - first
        draw_bar(c, bx, by, bar_w, bh, b.value, top, ink if ink != WHITE else BLACK, e.threshold, above)
        c.text((bx + bar_w + c.m.pad, y), str(b.value), fb, num_w - c.m.pad, fill=c.inks.alert_text if win else BLACK)
        y += row


def natural_width(c: Canvas, e: Bars) -> int:
    """The race reads across the whole panel: bars of the main element (priority 1) span the columns."""
    return c.panel.width if e.priority <= 1 else 0


KIND = Kind("bars", measure, draw, natural_width=natural_width)
