"""Tracks: a marker on a numbered track (Health 1-8, the Event Track), as numbered boxes, a scale or a bar.

Roomy: a title line ("Health   3/8") over the scale. Compact: the label and value in a
column on the left, the scale beside them on one row; every inline track on a screen
gets the same label column, so their scales line up.
"""

from __future__ import annotations

from collections.abc import Iterable

from tableside.core.screen import Element, Track
from tableside.display.canvas import Canvas, Inks, cap, draw_bar, label_line, line_h, top
from tableside.display.elements.base import Kind
from tableside.display.panels import BLACK
from tableside.display.text import fit, font, ink_width, largest, width


def value_text(e: Track) -> str:
    """ "3/8" on a track from 0 or 1, else "5 (3-12)"."""
    lo, hi = int(e.minimum), int(e.maximum)
    return f"{e.value}/{hi}" if lo in (0, 1) else f"{e.value} ({lo}-{hi})"


def _label_need(c: Canvas, e: Track) -> int:
    """Width of "label  value" drawn beside an inline track."""
    f = font(c.m.label, "bold")
    return ink_width(e.label, f) + c.m.pad * 2 + width(value_text(e), f)


def prepare(c: Canvas, elements: Iterable[Element]) -> None:
    """Note the screen's widest inline label, so the scales of all its inline tracks line up."""
    c.track_label = max((_label_need(c, e) for e in elements if isinstance(e, Track)), default=0)


def _most(c: Canvas, e: Track, w: int) -> int:
    """The widest the inline label column may be: two fifths of the row, or half of it for a short scale whose
    boxes stay at least as wide as they are tall beside it ("Event Track 1/5" and its six boxes on a pHAT)."""
    cells = int(e.maximum) - int(e.minimum) + 1
    short = e.style != "bar" and 0 < cells <= 10 and (w - w // 2) // cells >= c.m.track
    return w // 2 if short else w * 2 // 5


def _label_w(c: Canvas, e: Track, w: int) -> int:
    """The label column of an inline track: the screen's widest (so scales line up), at most ``_most``."""
    return min(_most(c, e, w), max(c.track_label, _label_need(c, e)))


def _inline_fits(c: Canvas, e: Track, w: int) -> bool:
    """Whether the inline form's label column ("Health 3/8") holds the label whole in its room (``_most``)."""
    return _label_need(c, e) + c.m.pad <= _most(c, e, w)


def measure(c: Canvas, e: Track, w: int, compact: int = 0) -> int:
    # Inline: "Health 3/8" beside the scale, one row, the label whole. Where it is not whole there, the track
    # has no tighter form and keeps its roomy one (base.Kind: a kind with fewer forms ignores the level), so
    # a track on a pHAT ("Event Track 1/5") never stops the others from taking their tighter forms.
    if compact and _inline_fits(c, e, w):
        return max(line_h(c, c.m.label), c.m.track) + (6 if e.threshold is not None else 0) + c.m.pad
    return line_h(c, c.m.label) + c.m.track + c.m.pad


def draw(c: Canvas, e: Track, x: int, y: int, w: int, compact: int = 0) -> None:
    h = c.m.track
    if compact and _inline_fits(c, e, w):  # the label and value in a column on the left, the scale in the rest
        h = max(h, line_h(c, c.m.label))  # as tall as the label beside it: room for the numbers
        row = measure(c, e, w, compact) - c.m.pad
        lw = _label_w(c, e, w)
        y0 = y + (row - h) // 2
        f = font(c.m.label, "bold")
        ty = y0 + (h - cap(f)) // 2 + top(f)
        value = value_text(e)
        vw = width(fit(value, f, lw - c.m.pad), f)
        c.text((x, ty), e.label, f, lw - vw - c.m.pad * 2, fill=c.inks.text(e.tone))
        c.text((x + lw - c.m.pad - vw, ty), value, f, vw, fill=c.inks.text(e.tone))
        _draw_scale(c, e, x + lw, y0, w - lw, h)
        return
    label_line(c, x, y, w, e.label, value_text(e), e.tone)
    _draw_scale(c, e, x, y + line_h(c, c.m.label), w, h)


def _draw_scale(c: Canvas, e: Track, x: int, y: int, w: int, h: int) -> None:
    """The track's numbered boxes (or a bar for a long one), ``h`` px tall."""
    lo, hi = int(e.minimum), int(e.maximum)
    span = hi - lo
    fill = c.inks.fill(e.tone if e.tone != "normal" else "accent")
    if e.style == "bar" or span <= 0 or span > 40:
        draw_bar(c, x, y, w, h, e.value - lo, max(1, span), fill, None if e.threshold is None else e.threshold - lo)
        return
    n = span + 1
    cell = w // n
    x0 = x + (w - cell * n) // 2
    nf = largest(str(hi), cell - 4, h - 4, max(8, h * 3 // 5), 7, "bold")
    show_numbers = width(str(hi), nf) <= cell - 3 and cap(nf) <= h - 4
    for i in range(n):
        v = lo + i
        bx = x0 + i * cell
        box = (bx, y, bx + cell - (2 if cell > 8 else 1), y + h - 1)
        on = v <= e.value if e.style == "boxes" else v == e.value
        if on:
            c.rect(box, fill=fill)
        else:
            c.rect(box, outline=BLACK, w=2 if e.style == "boxes" and h > 16 else 1)
        if show_numbers and (cell >= 10):
            ink = Inks.on(fill) if on else BLACK
            s = str(v)
            tw = width(s, nf)
            c.put((box[0] + (box[2] - box[0] - tw) // 2 + 1, y + (h - cap(nf)) // 2 + top(nf)), s, nf, ink)
        if v in e.marks:  # a marked space: a notch under the box
            m = max(1, min(h // 6, c.m.pad - 1))
            cx = (box[0] + box[2]) // 2
            c.draw.polygon([(cx - m, y + h + m + 1), (cx + m, y + h + m + 1), (cx, y + h)], fill=BLACK)
        if e.threshold is not None and v == e.threshold:
            c.rect((box[0] - 2, y - 3, box[0] - 1, y + h + 2), fill=c.inks.alert_text)


KIND = Kind("track", measure, draw)
