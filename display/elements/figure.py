"""Key figures: the numbers the table reads from across the room, in a strip across the top.

As big as the strip allows: boxes with large values, in steps down to the class minimum,
then one line of values ("Capture 50% (5 dice)   Round 4"), then one line of text-sized
values, cut to share the line only when every figure on it may never be dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageFont
from tableside.core.screen import KeyFigure
from tableside.display.canvas import Box, Canvas, cap, line_h, top
from tableside.display.panels import BLACK
from tableside.display.text import clean, fit, font, largest, width


@dataclass(frozen=True)
class Style:
    """How the key figures are drawn: boxes with values up to ``size`` px, or one line with ``size`` px values."""

    line: bool
    size: int
    cut: bool = False  # the last resort: figures that cannot be dropped may be cut to share the line


@dataclass(frozen=True)
class Strip:
    rows: int
    per_row: int
    size: int
    line: bool = False


def styles(c: Canvas) -> list[Style]:
    """From the roomiest to the tightest: big boxes, smaller boxes down to the class minimum, one line of
    big values, one line of text-sized values (cut to fit only when every figure on it is priority 1)."""
    m = c.m
    out = [Style(False, m.figure)]
    size = m.figure * 6 // 7
    while size > m.figure_min + 2:  # a few steps down to the class minimum, each about 15 % smaller
        out.append(Style(False, size))
        size = size * 6 // 7
    out.append(Style(False, m.figure_min))
    if m.figure_min > m.text:
        out.append(Style(True, m.figure_min))
    return [*out, Style(True, m.text), Style(True, m.text, cut=True)]


def _strip(c: Canvas, figures: list[KeyFigure], w: int, style: Style) -> Strip | None:
    """Where the figures go in ``w`` px in ``style``, or None if they cannot fit."""
    if not figures:
        return Strip(0, 0, 0)
    if style.line:
        whole = sum(line_need(c, f, style.size) for f in figures) + line_gap(c) * (len(figures) - 1) <= w
        if whole or (style.cut and all(f.priority <= 1 for f in figures)):
            return Strip(1, len(figures), style.size, line=True)
        return None
    biggest = style.size
    gap = c.m.pad
    numbers = [f for f in figures if _numeric(f)] or figures
    for rows in (1, 2):
        per_row = -(-len(figures) // rows)
        box_w = (w - gap * (per_row - 1)) // per_row
        size = min(largest(_text(f), box_w - 2 * c.m.pad, 10_000, biggest, c.m.figure_min).size for f in numbers)
        # Numbers must fit whole at the size (at least the class minimum); a word ("High Wins") may shrink.
        fits = all(width(_text(f), font(size, "bold")) <= box_w - 2 * c.m.pad for f in figures if _numeric(f))
        # A word ("not captured") may shrink to body size, never be cut; the label may shrink a quarter.
        words = all(
            width(_text(f), font(min(size, c.m.text), "bold")) <= box_w - 2 * c.m.pad
            for f in figures
            if not _numeric(f)
        )
        fl = font(max(7, c.m.label * 3 // 4))
        labels = all(width(f.label, fl) <= box_w - 2 * c.m.pad for f in figures)
        if fits and words and labels:
            return Strip(rows, per_row, size)
    return None


def _line_fonts(c: Canvas, size: int) -> tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]:
    """(label, value, unit) fonts of a figure drawn on one line."""
    return font(c.m.label), font(size, "bold"), font(min(size, max(c.m.label, size // 2)), "bold")


def line_gap(c: Canvas) -> int:
    return c.m.pad * 4


def line_need(c: Canvas, f: KeyFigure, size: int) -> int:
    """Width of "label value unit" on one line, whole."""
    key = ("need", f.label, f.value, f.unit, size)
    if key not in c.memo:
        fl, fv, fu = _line_fonts(c, size)
        label = width(f.label, fl) + c.m.pad if f.label else 0
        c.memo[key] = label + width(f.value, fv) + (width(" " + f.unit.strip(), fu) if f.unit else 0)
    return c.memo[key]  # type: ignore[return-value]


def _numeric(f: KeyFigure) -> bool:
    return any(ch.isdigit() for ch in f.value)


def _text(f: KeyFigure) -> str:
    return f.value + (" " + f.unit if f.unit else "")


def _height(c: Canvas, size: int, line: bool = False) -> int:
    if line:
        return line_h(c, size)
    f = font(size, "bold")
    return line_h(c, c.m.label) + cap(f) + c.m.pad * 2


def draw(c: Canvas, figures: list[KeyFigure], x: int, y: int, w: int, strip: Strip) -> list[Box]:
    """Draw the key figures; returns each one's box."""
    per_row, size = strip.per_row, strip.size
    if strip.line:
        return draw_line(c, figures, x, y, w, size)
    gap = c.m.pad
    box_w = (w - gap * (per_row - 1)) // per_row
    h = _height(c, size)
    fl = font(c.m.label)
    fv = font(size, "bold")
    fu = font(max(c.m.label, size // 3), "bold")
    boxes = []
    for i, fig in enumerate(figures):
        row, col = divmod(i, per_row)
        bx, by = x + col * (box_w + gap), y + row * (h + gap)
        boxes.append((bx, by, bx + box_w, by + h))
        c.rect((bx, by, bx + box_w - 1, by + h - 1), outline=BLACK, w=1)
        if fig.tone == "alert":  # a figure that needs attention: a thick frame in the alert ink
            c.rect((bx, by, bx + box_w - 1, by + h - 1), outline=c.inks.alert, w=max(2, c.m.pad // 2))
        flf = largest(fig.label, box_w - 2 * c.m.pad, 10_000, fl.size, max(7, fl.size * 3 // 4), "regular")
        ly = by + c.m.pad // 2 + (fl.size - flf.size)
        c.text((bx + c.m.pad, ly), fig.label, flf, box_w - 2 * c.m.pad)
        under = ly + flf.getbbox(clean(fig.label) or "0")[3]  # the label's lowest ink ("p" of "Capture")
        vy = by + line_h(c, c.m.label) + c.m.pad // 2
        fv = (
            font(size, "bold")
            if _numeric(fig)
            else largest(_text(fig), box_w - 2 * c.m.pad, 10_000, size, min(size, c.m.label), "bold")
        )
        base = vy + cap(font(size, "bold"))  # words that had to shrink stand on the numbers' baseline
        lift = 0
        while not _numeric(fig):  # a word's descender ("not captured") stays inside the box: lift it, or shrink it
            ink = fv.getbbox(fit(fig.value, fv, box_w - 2 * c.m.pad) or "0")
            below = ink[3] + top(fv) - cap(fv)
            above = -(ink[1] + top(fv))  # an ascender over the capitals ("l" of "allocate"): clear of the label
            lift = max(0, min(base + below - (by + h - 2), base - cap(fv) - max(vy, under + above + 1)))
            clear = base - lift - cap(fv) - above > under
            if (base - lift + below <= by + h - 2 and clear) or fv.size <= min(size, c.m.text):
                break
            fv = font(fv.size - 1, "bold")
        vy = base - lift - cap(fv)
        value = fit(fig.value, fv, box_w - 2 * c.m.pad)
        vw = width(value, fv)
        unit = fit(" " + fig.unit, fu, box_w - 2 * c.m.pad - vw) if fig.unit else ""
        uw = width(unit, fu) if unit else 0
        vx = bx + (box_w - vw - uw) // 2
        c.put((vx, vy + top(fv)), value, fv, c.inks.text(fig.tone))
        if unit:
            c.put((vx + vw, vy + cap(fv) - cap(fu) + top(fu)), unit, fu, BLACK)
    return boxes


def draw_line(c: Canvas, figures: list[KeyFigure], x: int, y: int, w: int, size: int) -> list[Box]:
    """All figures on one line, "Capture 50% (5 dice)   Round 4": labels small, values bold, on one baseline.

    Each figure gets its whole width and the spare room is shared out. When they cannot all be whole (only
    figures that may never be dropped), the values stay whole and labels that no longer fit are left out;
    if even the values do not fit, each figure gets a share in proportion, cut with "…".
    """
    fl, fv, fu = _line_fonts(c, size)
    gap = line_gap(c)
    needs = [line_need(c, f, size) for f in figures]
    room = w - gap * (len(figures) - 1)
    labels = [width(f.label, fl) + c.m.pad if f.label else 0 for f in figures]
    values = [n - lw for n, lw in zip(needs, labels, strict=True)]
    if sum(needs) > room and sum(values) <= room:  # every value whole: labels in order while they fit whole
        left = room - sum(values)
        for i, lw in enumerate(labels):
            if lw > left:
                needs[i], labels[i] = values[i], 0
            else:
                left -= lw
    if sum(needs) <= room:
        spare = (room - sum(needs)) // len(figures)
        shares = [n + spare for n in needs]
    else:
        shares = [max(1, room * n // max(1, sum(needs))) for n in needs]
    h = line_h(c, size)
    base = y + fv.getmetrics()[0]  # the common baseline
    boxes = []
    bx = x
    for i, (fig, share) in enumerate(zip(figures, shares, strict=True)):
        unit = (" " + fig.unit.strip()) if fig.unit else ""
        value = fit(fig.value, fv, share)
        vw = width(value, fv)
        unit = fit(unit, fu, share - vw) if unit else ""
        uw = width(unit, fu) if unit else 0
        label_w = (
            c.text((bx, base - fl.getmetrics()[0]), fig.label, fl, share - vw - uw - c.m.pad)
            if labels[i] or sum(needs) > room
            else 0
        )
        vx = bx + (label_w + c.m.pad if label_w else 0)
        c.put((vx, y), value, fv, c.inks.text(fig.tone))
        if unit:
            c.put((vx + vw, base - fu.getmetrics()[0]), unit, fu, BLACK)
        boxes.append((bx, y, bx + share, y + h))
        bx += share + gap
    return boxes


def strip_top(c: Canvas, figures: list[KeyFigure], w: int, h: int, style: Style) -> tuple[Strip, int] | None:
    """The key figures' strip in ``style`` and the height it takes, or None if it does not fit ``h``."""
    key = ("strip", tuple(id(f) for f in figures), w, h, style)
    if key not in c.memo:
        strip = _strip(c, figures, w, style)
        found = None
        if strip is not None:
            m, rows = c.m, strip.rows
            height = rows * _height(c, strip.size, strip.line) + max(0, rows - 1) * m.pad + (m.pad if rows else 0)
            found = (strip, height) if height <= h else None
        c.memo[key] = found
    return c.memo[key]  # type: ignore[return-value]
