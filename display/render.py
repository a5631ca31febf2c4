"""Pure renderer: a system's Screen -> a PIL image in the panel's own inks, laid out per panel class.

No I/O and no clock: the same Screen and Panel give the same pixels, so golden
PNGs can be reviewed. Three layouts share one engine, scaled per panel class:
small (pHAT), medium (wHAT, Impression 4"/5.7", Spectra 4") and large
(Impression/Spectra 7.3", Spectra 13.3"). Key figures go in a strip across the
top, as big as the strip allows (at least 40 px digits on the 7.3"); the other
elements flow in columns in the system's order. When something does not fit,
the elements first take tighter forms (inline tracks and dice, fewer lines, key
figures on one line, tracks as numbers side by side), then are dropped by the
screen's priority (largest number first), never drawn off the panel; every
text is cut to its room with an ellipsis.

Text is drawn without anti-aliasing in black, white or a full ink, so the
quantizer maps every pixel exactly (no dithered text, in any palette).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont
from tableside.core.screen import Bars, DiceGroup, Grid, KeyFigure, Screen, Text, Track
from tableside.display.join import JoinInfo, draw_qr, qr_matrix
from tableside.display.panels import BLACK, INK_RGB, WHITE, Panel
from tableside.display.text import clean, fit, font, largest, width, wrap

RGB = tuple[int, int, int]


# --- sizes per panel class ----------------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    """Pixel sizes for one panel: the class's base sizes times the panel's scale."""

    pad: int
    header: int
    title: int
    status: int
    text: int
    label: int
    figure: int  # preferred key-figure font size
    figure_min: int  # never smaller (7.3": 56 px font = 41 px digits)
    track: int  # track cell height
    die: int
    columns: int
    line: int  # one text line's height
    hint: bool  # room for the join hint in game layouts


_BASE = {
    #          pad header title status text label figure fmin track die  col-width
    "small": (2, 17, 13, 11, 11, 10, 24, 14, 11, 15, 9999),
    "medium": (5, 30, 21, 15, 15, 13, 42, 24, 20, 27, 560),
    "large": (8, 50, 32, 22, 22, 18, 66, 56, 32, 44, 700),
}
_BASE_SIZE = {"small": (212, 104), "medium": (400, 300), "large": (800, 480)}


def metrics(panel: Panel) -> Metrics:
    bw, bh = _BASE_SIZE[panel.size_class]
    s = min(panel.width / bw, panel.height / bh)
    pad, header, title, status, text, label, figure, fmin, track, die, col_w = _BASE[panel.size_class]

    def k(v: int) -> int:
        return max(1, round(v * s))

    columns = 1 if panel.size_class == "small" or panel.width < col_w else 2
    return Metrics(
        k(pad),
        k(header),
        k(title),
        k(status),
        k(text),
        k(label),
        k(figure),
        k(fmin),
        k(track),
        k(die),
        columns,
        k(text) + max(2, k(text) // 4),
        panel.size_class != "small",
    )


# --- inks ---------------------------------------------------------------------------------------


class Inks:
    """Which of the panel's inks draws each tone, and what is readable on top of it."""

    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        has = panel.has
        self.alert = INK_RGB["red"] if has("red") else INK_RGB["yellow"] if has("yellow") else BLACK
        self.accent = INK_RGB["blue"] if has("blue") else self.alert
        # Text must stay readable on white: yellow is a fill, never a text ink.
        self.alert_text = INK_RGB["red"] if has("red") else BLACK
        self.accent_text = INK_RGB["blue"] if has("blue") else self.alert_text
        order = ("red", "blue", "green", "orange", "yellow", "black")
        self.players = [INK_RGB[i] if i == "black" or has(i) else None for i in order]
        self.players = [c for c in self.players if c is not None]
        if len(self.players) < 4:  # pHAT/wHAT: one colour is not a player colour, all players in black
            self.players = [BLACK]

    def fill(self, tone: str) -> RGB:
        return self.alert if tone == "alert" else self.accent if tone == "accent" else BLACK

    def text(self, tone: str) -> RGB:
        return self.alert_text if tone == "alert" else self.accent_text if tone == "accent" else BLACK

    @staticmethod
    def on(fill: RGB) -> RGB:
        """Text ink on a filled area: white on dark inks, black on yellow, orange and white."""
        light = (INK_RGB["yellow"], INK_RGB["orange"], WHITE)
        return BLACK if fill in light else WHITE

    def player(self, colour: int | None) -> RGB:
        if colour is None:
            return BLACK
        return self.players[colour % len(self.players)]


# --- drawing helpers ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TextRun:
    """One run of text as drawn: the string (cut with "…" if it had to be), where, in which font and ink.

    Tests read these to check that a figure is on the panel, whole and big enough.
    """

    text: str
    xy: tuple[int, int]
    ink: RGB
    font: ImageFont.FreeTypeFont = field(compare=False, repr=False)

    @property
    def size(self) -> int:
        return int(self.font.size)

    @property
    def box(self) -> tuple[int, int, int, int]:
        """The run's box on the panel as drawn (measured only when asked: drawing stays fast)."""
        x0, y0, x1, y1 = self.font.getbbox(self.text, mode="1")
        x, y = self.xy
        return (int(x + x0), int(y + y0), int(x + x1), int(y + y1))


class Canvas:
    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.m = metrics(panel)
        self.inks = Inks(panel)
        self.image = Image.new("RGB", panel.size, WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # no anti-aliasing: e-paper has only its inks
        self.runs: list[TextRun] = []
        self.track_label = 0  # the widest "label value" of the screen's tracks (inline tracks line up)
        self.heights: dict[tuple[int, int, int], int] = {}  # (element id, width, compactness) -> height
        self.memo: dict[tuple, object] = {}  # measurements repeated across the layouts tried

    def put(self, xy: tuple[int, int], s: str, fnt: ImageFont.FreeTypeFont, fill: RGB) -> None:
        """Draw ``s`` as it is at ``xy`` and remember the run."""
        if not s:
            return
        self.draw.text(xy, s, font=fnt, fill=fill)
        self.runs.append(TextRun(s, (int(xy[0]), int(xy[1])), fill, fnt))

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        fnt: ImageFont.FreeTypeFont,
        room: int,
        fill: RGB = BLACK,
        align: str = "left",
    ) -> int:
        """Draw ``text`` cut to ``room`` px; returns the width drawn."""
        s = fit(text, fnt, room)
        if not s:
            return 0
        w = width(s, fnt)
        x, y = xy
        if align == "right":
            x += room - w
        elif align == "center":
            x += (room - w) // 2
        self.put((x, y), s, fnt, fill)
        return w

    def rect(self, box: Sequence[int], fill: RGB | None = None, outline: RGB | None = None, w: int = 1) -> None:
        x0, y0, x1, y1 = box
        if x1 < x0 or y1 < y0:
            return
        self.draw.rectangle((x0, y0, x1, y1), fill=fill, outline=outline, width=w)


def _top(fnt: ImageFont.FreeTypeFont) -> int:
    """Offset that puts the font's digits/capitals at the top of a box (drop the ascender gap)."""
    return -fnt.getbbox("H0")[1]


def _cap(fnt: ImageFont.FreeTypeFont) -> int:
    box = fnt.getbbox("H0")
    return box[3] - box[1]


# --- elements: measure and draw -----------------------------------------------------------------


def _label_line(
    c: Canvas, x: int, y: int, w: int, label: str, right: str, tone: str = "normal", size: int | None = None
) -> None:
    f = font(size or c.m.label, "bold")
    rw = width(fit(right, f, w // 2), f) if right else 0
    c.text((x, y), label, f, w - rw - (c.m.pad if rw else 0), fill=c.inks.text(tone))
    if right:
        c.text((x + w - rw, y), right, f, rw, fill=c.inks.text(tone))


def _line_h(c: Canvas, size: int) -> int:
    return size + max(2, size // 4)


def _track_value(e: Track) -> str:
    lo, hi = int(e.minimum), int(e.maximum)
    return f"{e.value}/{hi}" if lo in (0, 1) else f"{e.value} ({lo}-{hi})"


def _track_label_need(c: Canvas, e: Track) -> int:
    """Width of "label  value" drawn beside an inline track."""
    f = font(c.m.label, "bold")
    return width(e.label, f) + c.m.pad * 2 + width(_track_value(e), f)


def _track_label_w(c: Canvas, e: Track, w: int) -> int:
    """The label column of an inline track: the screen's widest (so scales line up), at most 2/5 of the row."""
    return min(w * 2 // 5, max(c.track_label, _track_label_need(c, e)))


def _track_h(c: Canvas, e: Track, w: int, compact: int = 0) -> int:
    if compact:  # inline: "Health 3/8" beside the scale, one row
        return max(_line_h(c, c.m.label), c.m.track) + (6 if e.threshold is not None else 0) + c.m.pad
    return _line_h(c, c.m.label) + c.m.track + c.m.pad


def _draw_track(c: Canvas, e: Track, x: int, y: int, w: int, compact: int = 0) -> None:
    h = c.m.track
    if compact:  # the label and value in a column on the left, the scale in the rest of the row
        h = max(h, _line_h(c, c.m.label))  # as tall as the label beside it: room for the numbers
        row = _track_h(c, e, w, compact) - c.m.pad
        lw = _track_label_w(c, e, w)
        top = y + (row - h) // 2
        f = font(c.m.label, "bold")
        ty = top + (h - _cap(f)) // 2 + _top(f)
        value = _track_value(e)
        vw = width(fit(value, f, lw - c.m.pad), f)
        c.text((x, ty), e.label, f, lw - vw - c.m.pad * 2, fill=c.inks.text(e.tone))
        c.text((x + lw - c.m.pad - vw, ty), value, f, vw, fill=c.inks.text(e.tone))
        _draw_scale(c, e, x + lw, top, w - lw, h)
        return
    _label_line(c, x, y, w, e.label, _track_value(e), e.tone)
    _draw_scale(c, e, x, y + _line_h(c, c.m.label), w, h)


def _draw_scale(c: Canvas, e: Track, x: int, y: int, w: int, h: int) -> None:
    """The track's numbered boxes (or a bar for a long one), ``h`` px tall."""
    lo, hi = int(e.minimum), int(e.maximum)
    span = hi - lo
    fill = c.inks.fill(e.tone if e.tone != "normal" else "accent")
    if e.style == "bar" or span <= 0 or span > 40:
        _draw_bar(c, x, y, w, h, e.value - lo, max(1, span), fill, None if e.threshold is None else e.threshold - lo)
        return
    n = span + 1
    cell = w // n
    x0 = x + (w - cell * n) // 2
    nf = largest(str(hi), cell - 4, h - 4, max(8, h * 3 // 5), 7, "bold")
    show_numbers = width(str(hi), nf) <= cell - 3 and _cap(nf) <= h - 4
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
            c.put((box[0] + (box[2] - box[0] - tw) // 2 + 1, y + (h - _cap(nf)) // 2 + _top(nf)), s, nf, ink)
        if v in e.marks:  # a marked space: a notch under the box
            m = max(1, min(h // 6, c.m.pad - 1))
            cx = (box[0] + box[2]) // 2
            c.draw.polygon([(cx - m, y + h + m + 1), (cx + m, y + h + m + 1), (cx, y + h)], fill=BLACK)
        if e.threshold is not None and v == e.threshold:
            c.rect((box[0] - 2, y - 3, box[0] - 1, y + h + 2), fill=c.inks.alert_text)


def _draw_bar(
    c: Canvas, x: int, y: int, w: int, h: int, value: float, maximum: float, fill: RGB, threshold: float | None
) -> None:
    c.rect((x, y, x + w - 1, y + h - 1), outline=BLACK)
    if maximum > 0 and value > 0:
        filled = int((w - 2) * min(value, maximum) / maximum)
        if filled > 0:
            c.rect((x + 1, y + 1, x + filled, y + h - 2), fill=fill)
    if threshold is not None and maximum > 0:
        tx = x + int((w - 1) * min(threshold, maximum) / maximum)
        c.rect((tx - 1, y - 3, tx, y + h + 2), fill=c.inks.alert_text)


def _bars_row_h(c: Canvas, compact: int) -> int:
    return _line_h(c, c.m.label if compact else c.m.text)


def _bars_split(e: Bars, w: int, compact: int) -> int:
    """How many side-by-side columns of bars: two on the tightest level when there is width for it."""
    return 2 if compact >= 2 and len(e.bars) > 2 and w >= 140 else 1


def _bars_titled(e: Bars, compact: int) -> bool:
    """The last resort (level 3) drops the title line; the threshold line stays on every bar."""
    return compact < 3 or not e.bars


def _bars_h(c: Canvas, e: Bars, w: int, compact: int = 0) -> int:
    rows = -(-len(e.bars) // _bars_split(e, w, compact))
    title = _line_h(c, c.m.label) if _bars_titled(e, compact) else 0
    return title + rows * _bars_row_h(c, compact) + c.m.pad


def _draw_bars(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int = 0) -> None:
    if _bars_titled(e, compact):
        right = f"wins at {e.threshold}" if e.threshold is not None else ""
        _label_line(c, x, y, w, e.title, right, e.tone)
        y += _line_h(c, c.m.label)
    split = _bars_split(e, w, compact)
    if split > 1:  # two columns of bars, each a narrower Bars without a title line
        half = (w - c.m.pad * 2) // 2
        per = -(-len(e.bars) // 2)
        for k in range(2):
            part = Bars("", e.bars[k * per : (k + 1) * per], e.threshold, e.priority, e.tone)
            _draw_bar_rows(c, part, x + k * (half + c.m.pad * 2), y, half, compact, e)
        return
    _draw_bar_rows(c, e, x, y, w, compact, e)


def _draw_bar_rows(c: Canvas, e: Bars, x: int, y: int, w: int, compact: int, whole: Bars) -> None:
    size = c.m.label if compact else c.m.text
    f, fb = font(size), font(size, "bold")
    row = _bars_row_h(c, compact)
    top = max([b.maximum for b in whole.bars] + [e.threshold or 0] + [b.value for b in whole.bars] + [1])
    name_w = (
        min(w * 2 // 5, max(width(fit(b.label, f, w * 2 // 5), f) for b in e.bars) + c.m.pad + size // 2)
        if e.bars
        else 0
    )
    num_w = max([width(str(b.value), fb) for b in e.bars] + [0]) + c.m.pad
    bar_w = w - name_w - num_w - c.m.pad
    bh = max(4, row - max(3, row // 3))
    for b in e.bars:
        ink = c.inks.player(b.colour)
        coloured = len(c.inks.players) > 1 and any(bar.colour is not None for bar in whole.bars)
        sw = size // 2 if coloured else -2
        if coloured and b.colour is not None:
            c.rect((x, y + (row - sw) // 2 - 1, x + sw - 1, y + (row - sw) // 2 + sw - 2), fill=ink)
        c.text((x + sw + 2, y), b.label, f, name_w - sw - 2 - c.m.pad // 2)
        bx = x + name_w
        win = e.threshold is not None and b.value >= e.threshold
        _draw_bar(c, bx, y + (row - bh) // 2 - 1, bar_w, bh, b.value, top, ink if ink != WHITE else BLACK, e.threshold)
        c.text((bx + bar_w + c.m.pad, y), str(b.value), fb, num_w - c.m.pad, fill=c.inks.alert_text if win else BLACK)
        y += row


def _grid_h(c: Canvas, e: Grid, w: int, compact: int = 0) -> int:
    row = _line_h(c, c.m.label if compact else c.m.text)
    header = _line_h(c, c.m.label) if any(e.columns) else 0
    title = _line_h(c, c.m.label) if e.title and compact < 2 else 0  # the tightest level drops the title
    return title + header + len(e.rows) * row + c.m.pad


def _grid_widths(c: Canvas, e: Grid, size: int, w: int) -> tuple[int, int, bool]:
    """(widest cell or heading, room the row labels need, whether rows carry a mark)."""
    fb, fh = font(size, "bold"), font(c.m.label)
    widest = max(
        [width(fit(cell, fb, w // 3), fb) for r in e.rows for cell in r.cells]
        + [width("00", fb)]
        + [width(col, fh) for col in e.columns]
    )  # a column's heading is read too
    marks = any(r.highlight for r in e.rows) or (len(c.inks.players) > 1 and any(r.colour is not None for r in e.rows))
    sw = size // 2 if marks else 0
    label_need = (
        max([width(fit(r.label, fb, w // 2), fb) for r in e.rows] + [0]) + (2 * sw + 3 if marks else 0) + c.m.pad
    )
    return widest, label_need, marks


def _grid_natural_width(c: Canvas, e: Grid) -> int:
    widest, label_need, _marks = _grid_widths(c, e, c.m.text, c.panel.width)
    return label_need + max(1, len(e.columns)) * (widest + c.m.pad * 2)


def _draw_grid(c: Canvas, e: Grid, x: int, y: int, w: int, compact: int = 0) -> None:
    if e.title and compact < 2:
        _label_line(c, x, y, w, e.title, "", e.tone)
        y += _line_h(c, c.m.label)
    size = c.m.label if compact else c.m.text
    f, fb, fh = font(size), font(size, "bold"), font(c.m.label)
    row = _line_h(c, size)
    ncol = max(1, len(e.columns))
    widest, label_need, marks = _grid_widths(c, e, size, w)
    sw = size // 2 if marks else 0
    # Cells as wide as their widest entry, else what the row labels leave; never narrower than three digits
    # unless the row labels (the players' names) would be cut for it while the entries still fit.
    leave = (w - label_need) // ncol
    values = max([width(cell, fb) for r in e.rows for cell in r.cells] + [0]) + c.m.pad
    cell_w = max(min(widest + c.m.pad * 2, leave), min(w // (ncol + 1), width("000", fb), max(values, leave)))
    if ncol == 1 and not any(e.columns):  # label: value rows, the value takes what the label leaves
        label_need = max([width(fit(r.label, fb, w // 2), fb) for r in e.rows] + [0]) + 2 * sw + c.m.pad * 2
        cell_w = max(w // 3, w - label_need)
    label_w = w - cell_w * ncol
    align = "right" if ncol == 1 and not any(e.columns) else "center"
    if any(e.columns):
        for j, col in enumerate(e.columns):
            c.text((x + label_w + j * cell_w, y), col, fh, cell_w - 2, align="center")
        y += _line_h(c, c.m.label)
        c.rect((x, y - 2, x + w - 1, y - 2), fill=BLACK)
    for r in e.rows:
        ink = c.inks.player(r.colour)
        fr = fb if r.highlight else f
        if r.highlight:  # whose turn: a bar in the accent ink down the left edge, bold row
            c.rect((x, y + 1, x + max(2, sw // 2), y + row - 2), fill=c.inks.accent)
        if r.colour is not None and len(c.inks.players) > 1:  # a swatch only where players have colours
            c.rect((x + sw, y + (row - sw) // 2 - 1, x + 2 * sw - 1, y + (row - sw) // 2 + sw - 2), fill=ink)
        lx = x + (2 * sw + 3 if marks else 0)
        room = label_w
        if align == "right" and r.cells:  # the label may use whatever its own value leaves
            room = w - width(fit(r.cells[0], fr, cell_w - 2), fr) - c.m.pad * 2
        c.text((lx, y), r.label, fr, room - (lx - x) - c.m.pad // 2)
        for j, cell in enumerate(r.cells[:ncol]):
            c.text((x + label_w + j * cell_w, y), cell, fr, cell_w - 2, align=align)
        y += row


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def _dice_layout(c: Canvas, e: DiceGroup, w: int) -> tuple[int, int, int]:
    """(die size, dice per row, rows): shrink the dice before wrapping, at most two rows."""
    n = max(1, len(e.dice))
    size = c.m.die
    gap = max(2, size // 6)
    while size > max(10, c.m.die // 2) and n * (size + gap) > w:
        size -= 1
        gap = max(2, size // 6)
    per_row = max(1, (w + gap) // (size + gap))
    rows = min(2, -(-n // per_row))
    return size, per_row, rows


def _dice_inline(c: Canvas, e: DiceGroup, w: int) -> tuple[int, int, int] | None:
    """(die size, label room, verdict room) for label, dice and verdict on one row; None if the dice need more.

    The dice stay whole, then the verdict (the outcome); the label takes what is left, or is left out when
    that is less than a few characters.
    """
    n = len(e.dice)
    if not n:
        return None
    size, per_row, _rows = _dice_layout(c, e, w)
    if per_row < n:
        return None
    f = font(c.m.label, "bold")
    rest = w - n * (size + max(2, size // 6)) - c.m.pad * 2
    need_l = width(e.label, f) if e.label else 0
    need_v = width(e.verdict, f) if e.verdict else 0
    if rest < min(need_l + need_v, c.m.label * 3):
        return None
    verdict = min(need_v, rest)
    label = rest - verdict
    if label < min(need_l, c.m.label * 4):
        label = 0
    return size, label, verdict


def _dice_h(c: Canvas, e: DiceGroup, w: int, compact: int = 0) -> int:
    inline = _dice_inline(c, e, w) if compact else None
    if inline is not None:
        return max(_line_h(c, c.m.label), inline[0]) + c.m.pad
    size, _per, rows = _dice_layout(c, e, w)
    gap = max(2, size // 6)
    return _line_h(c, c.m.label) + rows * (size + gap) + c.m.pad


def _draw_dice_inline(c: Canvas, e: DiceGroup, x: int, y: int, w: int, size: int, label_w: int, verdict_w: int) -> None:
    """One row: the label, the dice, the verdict."""
    f = font(c.m.label, "bold")
    row = max(_line_h(c, c.m.label), size)
    ty = y + (row - _cap(f)) // 2 + _top(f)
    used = c.text((x, ty), e.label, f, label_w) if label_w > 0 else 0
    dx = x + (used + c.m.pad if used else 0)
    gap = max(2, size // 6)
    for die in e.dice:
        _draw_die(c, dx, y + (row - size) // 2, size, die.face, die.mark, e.sides)
        dx += size + gap
    if e.verdict and verdict_w > 0:
        c.text(
            (dx + c.m.pad - gap, ty),
            e.verdict,
            f,
            verdict_w,
            fill=c.inks.text(e.tone if e.tone != "normal" else "accent"),
        )


def _draw_die(c: Canvas, x: int, y: int, size: int, face: int, mark: str, sides: int) -> None:
    filled = mark in ("hit", "captured", "kept")
    fill = c.inks.fill("accent") if mark in ("hit", "kept") else BLACK if mark in ("captured", "stake") else None
    if mark == "stake":
        filled = True
    box = (x, y, x + size - 1, y + size - 1)
    r = max(2, size // 6)
    if filled:
        c.draw.rounded_rectangle(box, radius=r, fill=fill, outline=BLACK, width=1)
    else:
        c.draw.rounded_rectangle(box, radius=r, outline=BLACK, width=2 if size > 20 else 1)
    if mark == "committed":  # set aside: a second, inner border
        inset = max(3, size // 8)
        c.draw.rounded_rectangle(
            (x + inset, y + inset, x + size - 1 - inset, y + size - 1 - inset), radius=max(1, r // 2), outline=BLACK
        )
    ink = Inks.on(fill) if filled and fill is not None else BLACK
    if sides == 6 and 1 <= face <= 6 and size >= 14:
        pr = max(1, size // 11)
        for px, py in _PIPS[face]:
            cx, cy = x + round(px * (size - 1)), y + round(py * (size - 1))
            c.draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=ink)
    else:
        f = largest(str(face), size - 6, size - 6, size * 3 // 5, 7, "bold")
        s = str(face)
        c.put((x + (size - width(s, f)) // 2, y + (size - _cap(f)) // 2 + _top(f)), s, f, ink)
    if mark in ("tossed", "miss") and mark == "tossed":  # tossed: struck through
        c.draw.line((x + 2, y + size - 3, x + size - 3, y + 2), fill=c.inks.alert_text, width=max(2, size // 12))
    if mark == "rolled_in":  # a die that rolled in (exploded): a corner notch
        k = max(4, size // 4)
        c.draw.polygon([(x + size - 1 - k, y), (x + size - 1, y), (x + size - 1, y + k)], fill=c.inks.fill("accent"))


def _draw_dice(c: Canvas, e: DiceGroup, x: int, y: int, w: int, compact: int = 0) -> None:
    inline = _dice_inline(c, e, w) if compact else None
    if inline is not None:
        _draw_dice_inline(c, e, x, y, w, *inline)
        return
    size, per_row, rows = _dice_layout(c, e, w)
    gap = max(2, size // 6)
    f = font(c.m.label, "bold")
    verdict_ink = c.inks.text(e.tone if e.tone != "normal" else "accent")
    shown = e.dice[: per_row * rows]
    used = min(len(shown), per_row) * (size + gap)
    beside = w - used - c.m.pad
    verdict_lines = (
        wrap(e.verdict, f, beside, max(1, min(2, (size + c.m.pad) // _line_h(c, c.m.label))))
        if e.verdict and rows == 1 and beside >= max(w // 4, c.m.label * 4)
        else []
    )
    label_room = w
    if e.verdict and not verdict_lines:  # no room beside the dice: on the label line
        vw = min(width(e.verdict, f), w * 3 // 5)
        c.text((x + w - vw, y), e.verdict, f, vw, fill=verdict_ink)
        label_room = w - vw - c.m.pad
    c.text((x, y), e.label, f, label_room)
    y += _line_h(c, c.m.label)
    for i, line in enumerate(verdict_lines):
        top = y + (size - len(verdict_lines) * _line_h(c, c.m.label)) // 2 + i * _line_h(c, c.m.label)
        c.text((x + used + c.m.pad, top), line, f, beside, fill=verdict_ink)
    for i, die in enumerate(shown):
        row, col = divmod(i, per_row)
        if len(shown) < len(e.dice) and i == len(shown) - 1:  # no room for all: say how many more
            more = f"+{len(e.dice) - i}"
            c.text((x + col * (size + gap), y + row * (size + gap) + (size - c.m.label) // 2), more, f, size)
            break
        _draw_die(c, x + col * (size + gap), y + row * (size + gap), size, die.face, die.mark, e.sides)


def _text_h(c: Canvas, e: Text, w: int, lines: int = 3) -> int:
    n = len(wrap(e.text, font(c.m.text), w, lines))
    return n * c.m.line + c.m.pad // 2


def _draw_text(c: Canvas, e: Text, x: int, y: int, w: int, lines: int = 3) -> None:
    f = font(c.m.text, "bold" if e.tone != "normal" else "regular")
    for line in wrap(e.text, f, w, lines):
        c.text((x, y), line, f, w, fill=c.inks.text(e.tone))
        y += c.m.line


# --- key figures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    """How the key figures are drawn: boxes with values up to ``size`` px, or one line with ``size`` px values."""

    line: bool
    size: int
    cut: bool = False  # the last resort: figures that cannot be dropped may be cut to share the line


@dataclass(frozen=True)
class _Strip:
    rows: int
    per_row: int
    size: int
    line: bool = False


def _styles(c: Canvas) -> list[_Style]:
    """From the roomiest to the tightest: big boxes, smaller boxes down to the class minimum, one line of
    big values, one line of text-sized values (cut to fit only when every figure on it is priority 1)."""
    m = c.m
    out = [_Style(False, m.figure)]
    size = m.figure * 6 // 7
    while size > m.figure_min + 2:  # a few steps down to the class minimum, each about 15 % smaller
        out.append(_Style(False, size))
        size = size * 6 // 7
    out.append(_Style(False, m.figure_min))
    if m.figure_min > m.text:
        out.append(_Style(True, m.figure_min))
    return [*out, _Style(True, m.text), _Style(True, m.text, cut=True)]


def _figure_strip(c: Canvas, figures: list[KeyFigure], w: int, style: _Style) -> _Strip | None:
    """Where the figures go in ``w`` px in ``style``, or None if they cannot fit."""
    if not figures:
        return _Strip(0, 0, 0)
    if style.line:
        whole = sum(_line_need(c, f, style.size) for f in figures) + _line_gap(c) * (len(figures) - 1) <= w
        if whole or (style.cut and all(f.priority <= 1 for f in figures)):
            return _Strip(1, len(figures), style.size, line=True)
        return None
    cap = style.size
    gap = c.m.pad
    numbers = [f for f in figures if _numeric(f)] or figures
    for rows in (1, 2):
        per_row = -(-len(figures) // rows)
        box_w = (w - gap * (per_row - 1)) // per_row
        size = min(largest(_figure_text(f), box_w - 2 * c.m.pad, 10_000, cap, c.m.figure_min).size for f in numbers)
        # Numbers must fit whole at the size (at least the class minimum); a word ("High Wins") may shrink.
        fits = all(width(_figure_text(f), font(size, "bold")) <= box_w - 2 * c.m.pad for f in figures if _numeric(f))
        if fits:
            return _Strip(rows, per_row, size)
    return None


def _line_fonts(c: Canvas, size: int) -> tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]:
    """(label, value, unit) fonts of a figure drawn on one line."""
    return font(c.m.label), font(size, "bold"), font(min(size, max(c.m.label, size // 2)), "bold")


def _line_gap(c: Canvas) -> int:
    return c.m.pad * 4


def _line_need(c: Canvas, f: KeyFigure, size: int) -> int:
    """Width of "label value unit" on one line, whole."""
    key = ("need", f.label, f.value, f.unit, size)
    if key not in c.memo:
        fl, fv, fu = _line_fonts(c, size)
        label = width(f.label, fl) + c.m.pad if f.label else 0
        c.memo[key] = label + width(f.value, fv) + (width(" " + f.unit.strip(), fu) if f.unit else 0)
    return c.memo[key]  # type: ignore[return-value]


def _numeric(f: KeyFigure) -> bool:
    return any(ch.isdigit() for ch in f.value)


def _figure_text(f: KeyFigure) -> str:
    return f.value + (" " + f.unit if f.unit else "")


def _figure_h(c: Canvas, size: int, line: bool = False) -> int:
    if line:
        return _line_h(c, size)
    f = font(size, "bold")
    return _line_h(c, c.m.label) + _cap(f) + c.m.pad * 2


def _draw_figures(
    c: Canvas, figures: list[KeyFigure], x: int, y: int, w: int, strip: _Strip
) -> list[tuple[int, int, int, int]]:
    """Draw the key figures; returns each one's box."""
    per_row, size = strip.per_row, strip.size
    if strip.line:
        return _draw_figure_line(c, figures, x, y, w, size)
    gap = c.m.pad
    box_w = (w - gap * (per_row - 1)) // per_row
    h = _figure_h(c, size)
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
        c.text((bx + c.m.pad, by + c.m.pad // 2 + (fl.size - flf.size)), fig.label, flf, box_w - 2 * c.m.pad)
        vy = by + _line_h(c, c.m.label) + c.m.pad // 2
        fv = (
            font(size, "bold")
            if _numeric(fig)
            else largest(_figure_text(fig), box_w - 2 * c.m.pad, 10_000, size, min(size, c.m.text), "bold")
        )
        base = vy + _cap(font(size, "bold"))  # words that had to shrink stand on the numbers' baseline
        lift = 0
        while not _numeric(fig):  # a word's descender ("not captured") stays inside the box: lift it, or shrink it
            below = fv.getbbox(fit(fig.value, fv, box_w - 2 * c.m.pad) or "0")[3] + _top(fv) - _cap(fv)
            lift = max(0, min(base + below - (by + h - 2), base - _cap(fv) - vy))
            if base - lift + below <= by + h - 2 or fv.size <= min(size, c.m.text):
                break
            fv = font(fv.size - 1, "bold")
        vy = base - lift - _cap(fv)
        value = fit(fig.value, fv, box_w - 2 * c.m.pad)
        vw = width(value, fv)
        unit = fit(" " + fig.unit, fu, box_w - 2 * c.m.pad - vw) if fig.unit else ""
        uw = width(unit, fu) if unit else 0
        vx = bx + (box_w - vw - uw) // 2
        c.put((vx, vy + _top(fv)), value, fv, c.inks.text(fig.tone))
        if unit:
            c.put((vx + vw, vy + _cap(fv) - _cap(fu) + _top(fu)), unit, fu, BLACK)
    return boxes


def _draw_figure_line(
    c: Canvas, figures: list[KeyFigure], x: int, y: int, w: int, size: int
) -> list[tuple[int, int, int, int]]:
    """All figures on one line, "Capture 50% (5 dice)   Round 4": labels small, values bold, on one baseline.

    Each figure gets its whole width and the spare room is shared out. When they cannot all be whole (only
    figures that may never be dropped), the values stay whole and labels that no longer fit are left out;
    if even the values do not fit, each figure gets a share in proportion, cut with "…".
    """
    fl, fv, fu = _line_fonts(c, size)
    gap = _line_gap(c)
    needs = [_line_need(c, f, size) for f in figures]
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
    h = _line_h(c, size)
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


# --- the body: choose elements by priority, flow them in columns --------------------------------

Element = KeyFigure | Track | Bars | Grid | DiceGroup | Text


def _measure(c: Canvas, e: Element, w: int, compact: int) -> int:
    if isinstance(e, Track):
        return _track_h(c, e, w, compact)
    if isinstance(e, Bars):
        return _bars_h(c, e, w, compact)
    if isinstance(e, Grid):
        return _grid_h(c, e, w, compact)
    if isinstance(e, DiceGroup):
        return _dice_h(c, e, w, compact)
    if isinstance(e, Text):
        return _text_h(c, e, w, 3 - min(2, int(compact)))
    return 0


def _draw(c: Canvas, e: Element, x: int, y: int, w: int, compact: int) -> None:
    if isinstance(e, Track):
        _draw_track(c, e, x, y, w, compact)
    elif isinstance(e, Bars):
        _draw_bars(c, e, x, y, w, compact)
    elif isinstance(e, Grid):
        _draw_grid(c, e, x, y, w, compact)
    elif isinstance(e, DiceGroup):
        _draw_dice(c, e, x, y, w, compact)
    elif isinstance(e, Text):
        _draw_text(c, e, x, y, w, 3 - min(2, int(compact)))


@dataclass
class _Plan:
    figures: list[KeyFigure]
    strip: _Strip
    placed: list[tuple[Element | _TrackRow, int, int, int, int]]  # element, column, y offset, width, level


LEVELS = (0, 1, 2, 3)  # compactness: 0 roomy; 1 inline tracks and dice, smaller rows; 2 one-line texts; 3 no titles


@dataclass(frozen=True)
class _TrackRow:
    """Neighbouring tracks as numbers side by side, "Health 2/8   Defense 4/8": the last resort for tracks."""

    tracks: tuple[Track, ...]

    @property
    def priority(self) -> int:
        return min(t.priority for t in self.tracks)


def _pair_tracks(others: list[Element]) -> list[Element | _TrackRow]:
    """Runs of two or more neighbouring tracks become one row each."""
    out: list[Element | _TrackRow] = []
    run: list[Track] = []
    for e in [*others, None]:
        if isinstance(e, Track):
            run.append(e)
            continue
        if len(run) > 1:
            out.append(_TrackRow(tuple(run)))
        else:
            out.extend(run)
        run = []
        if e is not None:
            out.append(e)
    return out


def _track_figures(row: _TrackRow) -> list[KeyFigure]:
    return [KeyFigure(t.label, _track_value(t), priority=t.priority, tone=t.tone) for t in row.tracks]


def _track_row_size(c: Canvas, row: _TrackRow, w: int) -> int:
    """The biggest value size (class minimum for key figures, else text) at which the row fits whole;
    0 if it does not and a track on it could be dropped instead (only priority 1 is ever cut)."""
    figures = _track_figures(row)
    for size in sorted({c.m.figure_min, c.m.text}, reverse=True):
        if sum(_line_need(c, f, size) for f in figures) + _line_gap(c) * (len(figures) - 1) <= w:
            return size
    return c.m.text if all(t.priority <= 1 for t in row.tracks) else 0


def _track_row_h(c: Canvas, row: _TrackRow, w: int) -> int:
    size = _track_row_size(c, row, w)
    return _line_h(c, size) + c.m.pad if size else 1 << 30


def _wide(c: Canvas, e: Element, col_w: int) -> bool:
    """A grid wider than one column spans them all (players x tracks reads across)."""
    return isinstance(e, Grid) and _grid_natural_width(c, e) > col_w


def _strip_top(c: Canvas, figures: list[KeyFigure], w: int, h: int, style: _Style) -> tuple[_Strip, int] | None:
    """The key figures' strip in ``style`` and the height it takes, or None if it does not fit ``h``."""
    key = ("strip", tuple(id(f) for f in figures), w, h, style)
    if key not in c.memo:
        strip = _figure_strip(c, figures, w, style)
        found = None
        if strip is not None:
            m, rows = c.m, strip.rows
            top = rows * _figure_h(c, strip.size, strip.line) + max(0, rows - 1) * m.pad + (m.pad if rows else 0)
            found = (strip, top) if top <= h else None
        c.memo[key] = found
    return c.memo[key]  # type: ignore[return-value]


def _plan(c: Canvas, chosen: list[Element], w: int, h: int, style: _Style, floor: int = 0) -> _Plan | None:
    """Place ``chosen`` in the screen's order, each at compactness ``floor`` or tighter; None if it overflows."""
    m = c.m
    figures = [e for e in chosen if isinstance(e, KeyFigure)]
    fits = _strip_top(c, figures, w, h, style)
    if fits is None:
        return None
    strip, top = fits
    others: list[Element | _TrackRow] = [e for e in chosen if not isinstance(e, KeyFigure)]
    if floor >= LEVELS[-1]:
        others = _pair_tracks(others)
    cols = m.columns if len(others) > 1 else 1
    col_w = (w - m.pad * 2 * (cols - 1)) // cols
    placed: list[tuple[Element | _TrackRow, int, int, int, int]] = []
    col, y = 0, top
    for e in others:
        span = cols if (cols > 1 and col == 0 and y == top and _wide(c, e, col_w)) else 1
        ew = col_w * span + m.pad * 2 * (span - 1)
        spot = _fit_level(c, e, ew, h - y, floor)
        if spot is not None and spot[0] > floor and span == 1 and col + 1 < cols:
            there = _fit_level(c, e, ew, h - top, floor)  # roomier at the top of the next column?
            if there is not None and there[0] < spot[0]:
                spot = None
        if spot is None:  # the next column, from the top
            if col + 1 >= cols:
                return None
            col, y = col + 1, top
            spot = _fit_level(c, e, ew, h - y, floor)
            if spot is None:
                return None
        level, eh = spot
        placed.append((e, col, y, ew, level))
        y += eh + m.pad
        if span > 1:  # the columns start below an element that spans them
            col, top = 0, y
    return _Plan(figures, strip, placed)


def _fit_level(c: Canvas, e: Element, w: int, room: int, floor: int = 0) -> tuple[int, int] | None:
    """The roomiest compactness (``floor`` or tighter) at which ``e`` fits ``room`` px, with its height."""
    if isinstance(e, _TrackRow):  # made for one plan: measured, not cached
        eh = _track_row_h(c, e, w)
        return (LEVELS[-1], eh) if eh <= room else None
    for level in LEVELS[floor:]:
        key = (id(e), w, level)
        eh = c.heights.get(key)
        if eh is None:
            eh = c.heights[key] = _measure(c, e, w, level)
        if eh <= room:
            return level, eh
    return None


def _squeezes(plan: _Plan, before: _Plan) -> bool:
    """Whether ``plan`` draws an element of ``before`` more compactly than ``before`` did."""
    was = {id(e): level for e, _col, _y, _w, level in before.placed}
    return any(level > was.get(id(e), level) for e, _col, _y, _w, level in plan.placed)


def _choose(c: Canvas, elements: Sequence[Element], w: int, h: int) -> _Plan:
    """Keep the most important elements that fit: add them by priority, keep each one that still fits.

    Key figures start as big as their strip allows and the other elements as roomy as they can be.
    To find room, an element of priority 1 or 2 may make every element more compact (inline tracks and
    dice, fewer text lines, smaller rows); only one of priority 1 may also shrink the key figures, down
    to one line. A less important element is added only where it squeezes nothing already kept.
    Priority 1 is what players need mid-turn: it is dropped only when it cannot fit at all.
    """
    ranked = sorted(range(len(elements)), key=lambda i: (elements[i].priority, i))
    keep: set[int] = set()
    styles = _styles(c)
    best = _Plan([], _Strip(0, 0, 0), [])
    style, floor = 0, 0
    for i in ranked:
        trial = keep | {i}
        chosen = [elements[j] for j in sorted(trial)]
        priority = elements[i].priority
        found = None
        figures = [e for e in chosen if isinstance(e, KeyFigure)]
        for s in range(style, len(styles)) if priority <= 1 else (style,):
            if _strip_top(c, figures, w, h, styles[s]) is None:
                continue  # the figures alone do not fit in this style: no compactness can help
            for f in range(floor, len(LEVELS)) if priority <= 2 else (floor,):
                plan = _plan(c, chosen, w, h, styles[s], f)
                if plan is not None and (priority <= 2 or not _squeezes(plan, best)):
                    found = (plan, s, f)
                    break
            if found:
                break
        if found:
            best, style, floor = found
            keep = trial
    return best


# --- the frame ----------------------------------------------------------------------------------


def _header(c: Canvas, title: str, status: str) -> int:
    m, w = c.m, c.panel.width
    c.rect((0, 0, w - 1, m.header - 1), fill=BLACK)
    ft = font(m.title, "bold" if c.panel.size_class != "small" else "condensed")
    fs = font(m.status)
    ty = (m.header - _cap(ft)) // 2 + _top(ft)
    room = w - 2 * m.pad
    gap = m.pad * 3
    need_t, need_s = width(clean(title), ft), width(clean(status), fs) if status else 0
    if need_t + gap + need_s <= room:
        title_room, status_room = need_t, need_s
    else:  # the title wins; the status keeps what is left, if that is worth drawing
        title_room = min(need_t, max(room - need_s - gap, room - gap - m.status * 5))
        status_room = room - title_room - gap
        if status_room < m.status * 3:
            title_room, status_room = room, 0
    if title_room < need_t:  # a smaller title before an ellipsis
        ft = largest(
            title,
            title_room,
            10_000,
            ft.size,
            max(7, ft.size * 3 // 4),
            "bold" if c.panel.size_class != "small" else "condensed",
        )
        ty = (m.header - _cap(ft)) // 2 + _top(ft)
    c.text((m.pad, ty), title, ft, title_room, fill=WHITE)
    if status and status_room > 0:
        c.text(
            (w - m.pad - status_room, (m.header - _cap(fs)) // 2 + _top(fs)),
            status,
            fs,
            status_room,
            fill=WHITE,
            align="right",
        )
    return m.header


def _band(c: Canvas, y: int, text: str, tone: str, lines: int) -> int:
    """A full-width band (alert) with white or black text: returns its height."""
    m, w = c.m, c.panel.width
    f = font(m.text, "bold")
    rows = wrap(text, f, w - 2 * m.pad, lines)
    h = len(rows) * m.line + m.pad
    fill = c.inks.fill(tone)
    c.rect((0, y, w - 1, y + h - 1), fill=fill)
    for i, row in enumerate(rows):
        c.text((m.pad, y + m.pad // 2 + i * m.line), row, f, w - 2 * m.pad, fill=Inks.on(fill))
    return h


def _prompt(c: Canvas, y: int, text: str) -> int:
    m, w = c.m, c.panel.width
    f = font(m.text, "bold")
    arrow = "▶ "
    aw = width(arrow, f)
    c.put((m.pad, y + m.pad // 2), arrow, f, c.inks.accent_text)
    c.text((m.pad + aw, y + m.pad // 2), text, f, w - 2 * m.pad - aw)
    h = m.line + m.pad
    c.rect((m.pad, y + h - 1, w - m.pad - 1, y + h - 1), fill=BLACK)
    return h


def join_hint(join: JoinInfo) -> str:
    return f"Join: {join.display_url} · code {join.code}"


@dataclass(frozen=True)
class Layout:
    """Where each element of a screen went (pixel boxes), which were left out, the key figures' type size."""

    kept: tuple[tuple[Element, tuple[int, int, int, int]], ...]
    dropped: tuple[Element, ...]
    figure_size: int  # the key figures' value size in px (boxes or, on a crowded panel, one line)
    body: tuple[int, int, int, int]
    texts: tuple[TextRun, ...] = ()  # every run of text drawn, in order


def render(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> Image.Image:
    """Draw ``screen`` for ``panel``: header, alert, prompt, key figures, elements; a join hint if room."""
    return render_layout(screen, panel, join)[0]


def render_layout(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> tuple[Image.Image, Layout]:
    """``render`` and the layout it chose (for tests and the phone's preview)."""
    c = Canvas(panel)
    m = c.m
    w, h = panel.width, panel.height
    y = _header(c, screen.title, screen.status)
    if screen.alert:
        y += _band(c, y, screen.alert, "alert", 1 if panel.size_class == "small" else 2)
    if screen.prompt:
        y += _prompt(c, y, screen.prompt)
    bottom = h
    if join is not None and m.hint:
        fh = font(m.label)
        bottom = h - _line_h(c, m.label) - m.pad // 2
        c.rect((0, bottom, w - 1, bottom), fill=BLACK)
        c.text((m.pad, bottom + m.pad // 2 + 1), join_hint(join), fh, w - 2 * m.pad, align="right")
        bottom -= m.pad // 2
    y += m.pad
    body_w = w - 2 * m.pad
    elements = list(screen.elements)
    c.track_label = max((_track_label_need(c, e) for e in elements if isinstance(e, Track)), default=0)
    plan = _choose(c, elements, body_w, bottom - y)
    kept: list[tuple[Element, tuple[int, int, int, int]]] = []
    if plan.strip.rows:
        boxes = _draw_figures(c, plan.figures, m.pad, y, body_w, plan.strip)
        kept.extend(zip(plan.figures, boxes, strict=True))
    cols = max([col for _e, col, _y, _w, _c in plan.placed] + [0]) + 1
    ncols = m.columns if len(plan.placed) > 1 else 1
    col_w = (body_w - m.pad * 2 * (ncols - 1)) // ncols
    for e, col, ey, ew, compact in plan.placed:
        x = m.pad + col * (col_w + m.pad * 2)
        if isinstance(e, _TrackRow):
            boxes = _draw_figure_line(c, _track_figures(e), x, y + ey, ew, _track_row_size(c, e, ew))
            kept.extend(zip(e.tracks, boxes, strict=True))
            continue
        _draw(c, e, x, y + ey, ew, compact)
        kept.append((e, (x, y + ey, x + ew, y + ey + c.heights[(id(e), ew, compact)])))
    for col in range(1, cols):  # a rule between columns, from the column's first element down
        x = m.pad + col * (col_w + m.pad * 2) - m.pad
        top = y + min(ey for _e, ecol, ey, _w, _c in plan.placed if ecol == col)
        c.rect((x, top, x, bottom - m.pad), fill=BLACK)
    kept_ids = {id(e) for e, _box in kept}
    dropped = tuple(e for e in elements if id(e) not in kept_ids)
    return c.image, Layout(tuple(kept), dropped, plan.strip.size, (m.pad, y, w - m.pad, bottom), tuple(c.runs))


# --- the join screen ----------------------------------------------------------------------------


def render_join(panel: Panel, join: JoinInfo, note: str = "", title: str = "Join the table") -> Image.Image:
    """The join screen: a QR code of the join link, the panel URL and the join code, big."""
    c = Canvas(panel)
    m = c.m
    w, h = panel.width, panel.height
    small = panel.size_class == "small"
    top = 0 if small else _header(c, title, "Tableside")
    matrix = qr_matrix(join.link)
    n = len(matrix)
    quiet = 2 if small else 4
    room = min(h - top - 2 * m.pad, int(w * (0.45 if small else 0.5)))
    module = max(1, room // (n + 2 * quiet))
    qr_px = module * (n + 2 * quiet)
    qx, qy = m.pad, top + (h - top - qr_px) // 2
    draw_qr(c.draw, matrix, qx, qy, module, quiet)
    x = qx + qr_px + m.pad * 2
    tw = w - x - m.pad
    y = top + m.pad
    fl = font(m.label)
    ft = font(m.text)
    if small:
        lines: list[tuple[str, ImageFont.FreeTypeFont, RGB]] = [("Scan to join, or open", fl, BLACK)]
    else:
        lines = [("Scan with a phone camera,", ft, BLACK), ("or open in a browser:", ft, BLACK)]
    for s, f, ink in lines:
        c.text((x, y), s, f, tw, fill=ink)
        y += _line_h(c, f.size)
    fu = largest(join.display_url, tw, 10_000, m.text + (m.text // 2 if not small else 0), 7, "bold")
    c.text((x, y), join.display_url, fu, tw, fill=c.inks.accent_text)
    y += _line_h(c, fu.size) + m.pad
    c.text((x, y), "Join code", fl, tw)
    y += _line_h(c, fl.size)
    code_room_h = max(10, (h - y - m.pad) - (_line_h(c, m.text) * 2 if note and not small else 0))
    fc = largest(join.code, tw, code_room_h, m.figure, 10, "bold")
    c.draw.text((x, y + _top(fc)), fit(join.code, fc, tw), font=fc, fill=BLACK)
    y += _cap(fc) + m.pad * 2
    if note:
        for line in wrap(note, ft if not small else fl, tw, 2 if not small else 1):
            if y + m.line > h:
                break
            c.text((x, y), line, ft if not small else fl, tw, fill=c.inks.alert_text)
            y += m.line
    return c.image


def placeholder_screen(message: str) -> Screen:
    """What the panel shows with no active session and no join link known."""
    return Screen(title="Tableside", status="no game", elements=(Text(message),))
