"""The canvas every element draws on: sizes per panel class, inks, and the drawing primitives they share.

Pure: a Canvas is a white image of the panel's size plus the measurements the
layout reuses while it tries layouts. Text is drawn without anti-aliasing in
black, white or a full ink, so the quantizer maps every pixel exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont
from tableside.core.screen import PLAYER_INKS
from tableside.display.panels import BLACK, INK_RGB, LEGIBLE_MM, WHITE, Panel
from tableside.display.text import clean, fit, font, legible_size, shorten, width

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


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
    # The smallest type the scores and the prompt take: LEGIBLE_MM tall (``text.text_height``) on a panel whose
    # glass is known (``Panel.pitch_mm``: the wHAT, the 7.3"); 0 elsewhere (no floor).
    legible: int = 0


_BASE = {
    #          pad header title status text label figure fmin track die  col-width
    "small": (2, 17, 13, 11, 11, 10, 24, 14, 11, 15, 9999),
    "medium": (5, 30, 21, 15, 15, 13, 42, 24, 20, 27, 560),
    "large": (8, 50, 32, 22, 22, 18, 66, 56, 32, 44, 700),
}
_BASE_SIZE = {"small": (212, 104), "medium": (400, 300), "large": (800, 480)}


def metrics(panel: Panel) -> Metrics:
    """The panel's sizes: its class's base sizes scaled to its pixels (one column below the class's width)."""
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
        legible_size(math.ceil(LEGIBLE_MM / panel.pitch_mm - 1e-6)) if panel.pitch_mm else 0,
    )


# --- inks ---------------------------------------------------------------------------------------


# A colour the panel lacks is drawn in the first of these it has, chosen so players stay apart. Purple: orange
# (the nearest), or green, only where the panel lacks red or blue (else ``PURPLE_MIX``, below).
# Orange, the fourth seat's colour: black on a Spectra board, which only a
# sixth seat uses, so five seats keep five inks (the fallback by index gave yellow, the fifth seat's).
STAND_INS: dict[str, tuple[str, ...]] = {"purple": ("orange", "green"), "orange": ("black",)}
# Purple on a panel with red and blue inks but no purple (every colour board): fills (bars, swatches) in red and
# blue pixels alternating, an ordered pattern that reads as purple from across the table; never a text ink
# (names and numbers stay solid). Not an ink: ``Canvas.rect`` draws the pattern where it is the fill.
PURPLE_MIX: tuple[int, int, int] = (128, 0, 128)


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
        self.shared: dict[int, RGB] = {}  # this screen's colours, once ``share`` has seen them
        self.mix = has("red") and has("blue") and len(self.players) > 1  # purple as a red and blue pattern

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
        """A player's colour (``core.screen.PLAYER_INKS``) in the panel's own ink when it has it, so a player
        looks the same here as on the phone; else its stand-in (``STAND_INS``); else the next player ink.
        On a screen whose colours were ``share``d, a stand-in another player's own ink already draws is not used."""
        if colour is None:
            return BLACK
        if colour in self.shared:
            return self.shared[colour]
        if len(self.players) > 1:
            name = PLAYER_INKS[colour % len(PLAYER_INKS)]
            if name == "purple" and self.mix:
                return PURPLE_MIX
            for ink in (name, *STAND_INS.get(name, ())):
                if INK_RGB.get(ink) in self.players:
                    return INK_RGB[ink]
        return self.players[colour % len(self.players)]

    def share(self, used: Iterable[int]) -> None:
        """The player colours of one screen, each in an ink of its own where the panel has enough: a colour the
        panel has keeps its ink; one it lacks takes its stand-in, or else an ink no player on the screen uses
        (VNM's purple Venus is green on a Spectra board, but not beside green Earth: then a free ink)."""
        self.shared = {}
        if len(self.players) < 2:
            return
        used = sorted(set(used))
        own = {c: INK_RGB.get(PLAYER_INKS[c % len(PLAYER_INKS)]) for c in used}
        own = {c: ink for c, ink in own.items() if ink is not None and ink in self.players}
        taken = set(own.values())
        for colour in used:
            if colour in own:
                self.shared[colour] = own[colour]
                continue
            name = PLAYER_INKS[colour % len(PLAYER_INKS)]
            if name == "purple" and self.mix:  # its own pattern: takes no ink from another player
                self.shared[colour] = PURPLE_MIX
                continue
            free = [INK_RGB[i] for i in STAND_INS.get(name, ()) if INK_RGB.get(i) in self.players]
            free += self.players
            ink = next((i for i in free if i not in taken), self.player(colour))
            self.shared[colour] = ink
            taken.add(ink)


# --- the canvas ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextRun:
    """One run of text as drawn: the string (cut with "…" if it had to be), where, in which font and ink.

    Tests read these to check that a figure is on the panel, whole and big enough.
    """

    text: str
    xy: tuple[int, int]
    ink: RGB
    font: ImageFont.FreeTypeFont = field(compare=False, repr=False)
    # The text the caller asked for and the room it was given (x0, y0, x1, y1; y spans the panel when the
    # caller gave only a width): tests measure the run against them (tests/test_display_text_fit.py).
    asked: str = field(default="", compare=False, repr=False)
    room: Box | None = field(default=None, compare=False, repr=False)
    rule: str = field(default="", compare=False, repr=False)  # the abbreviation rule it may follow (text.FORMS)

    @property
    def size(self) -> int:
        return int(self.font.size)

    @property
    def box(self) -> Box:
        """The run's box on the panel as drawn (measured only when asked: drawing stays fast)."""
        x0, y0, x1, y1 = self.font.getbbox(self.text, mode="1")
        x, y = self.xy
        return (int(x + x0), int(y + y0), int(x + x1), int(y + y1))


class Canvas:
    """The panel's image, its sizes and inks, every text run drawn, and measurements the layout reuses."""

    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.m = metrics(panel)
        self.inks = Inks(panel)
        self.image = Image.new("RGB", panel.size, WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # no anti-aliasing: e-paper has only its inks
        self.runs: list[TextRun] = []
        self.prompt_size = 0  # the prompt's type size (no body text is drawn bigger)
        self.tightest = 0  # the most compact level an element of the body was drawn at (0: all roomy)
        self.prompt_quarters = 5  # the prompt's biggest type on a medium or large panel, in quarters of the title's
        self.lost: list[str] = []  # texts asked for that had no room at all (nothing drawn)
        self.track_label = 0  # the widest "label value" of the screen's tracks (inline tracks line up)
        self.heights: dict[tuple[int, int, int], int] = {}  # (element id, width, compactness) -> height
        self.memo: dict[tuple, object] = {}  # measurements repeated across the layouts tried
        self.die_size: dict[int, int] = {}  # (dice group id) -> its die size, where the moment's dice grew
        self.grid_size: dict[int, int] = {}  # (grid id) -> its rows' type size, where the scores grew
        self.grid_grew = 0  # px the grids that grew took
        self.loose: set[int] = set()  # priority-1 texts that fit nowhere whole: they may take a shorter form

    def put(
        self,
        xy: tuple[int, int],
        s: str,
        fnt: ImageFont.FreeTypeFont,
        fill: RGB,
        asked: str | None = None,
        room: Box | None = None,
        rule: str = "",
    ) -> None:
        """Draw ``s`` as it is at ``xy`` and remember the run (with what was asked for and its room)."""
        if not s:
            return
        self.draw.text(xy, s, font=fnt, fill=fill)
        self.runs.append(TextRun(s, (int(xy[0]), int(xy[1])), fill, fnt, s if asked is None else asked, room, rule))

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        fnt: ImageFont.FreeTypeFont,
        room: int,
        fill: RGB = BLACK,
        align: str = "left",
        rule: str = "",
        asked: str | None = None,
    ) -> int:
        """Draw ``text`` in ``room`` px; returns the width drawn.

        With a ``rule`` (``text.FORMS``) a text too wide takes its longest shorter form that fits whole;
        otherwise, and when no form fits, it is cut with "…" (tests/test_display_text_fit.py fails on that).
        ``asked``: the whole text a caller's own shorter form stands for (recorded for that test).
        """
        s = (shorten(text, fnt, room, rule) or fit(text, fnt, room)) if rule else fit(text, fnt, room)
        ink = self.draw.textbbox((0, 0), s, font=fnt)[2] if s else 0
        if s and ink > room:  # a glyph's ink reaches past its advance ("f", "y"): fit the ink, not the advance
            less = room - (ink - width(s, fnt))
            s = (shorten(text, fnt, less, rule) or fit(text, fnt, less)) if rule else fit(text, fnt, less)
        if not s:
            if str(text).strip():
                self.lost.append(str(text))
            return 0
        w = width(s, fnt)
        x0, _y0, x1, _y1 = self.draw.textbbox((0, 0), s, font=fnt)
        x, y = xy
        box = (int(x), 0, int(x + room), self.panel.height)
        left, right = min(0, x0), max(w, x1)  # the ink, overhangs included ("V", "J", "f")
        if align == "right":
            x += room - right
        elif align == "center":
            x += (room - (right - left)) // 2 - left
        else:
            x -= left
        self.put((x, y), s, fnt, fill, asked=clean(text if asked is None else asked), room=box, rule=rule)
        return w

    def rect(self, box: Sequence[int], fill: RGB | None = None, outline: RGB | None = None, w: int = 1) -> None:
        x0, y0, x1, y1 = box
        if x1 < x0 or y1 < y0:
            return
        if fill == PURPLE_MIX:  # the ordered red and blue pattern, aligned to the panel's pixels
            crop = (max(0, x0), max(0, y0), min(self.panel.width, x1 + 1), min(self.panel.height, y1 + 1))
            if crop[2] > crop[0] and crop[3] > crop[1]:
                self.image.paste(_mixed(self.panel.size).crop(crop), crop[:2])
            fill = None
        self.draw.rectangle((x0, y0, x1, y1), fill=fill, outline=outline, width=w)

    def dashes(self, box: Sequence[int], fill: RGB) -> None:
        """``box`` filled in dashes along its longer side (2 px on, 2 off): whose turn follows, beside the
        solid mark of whose turn it is, readable at any ink and size."""
        x0, y0, x1, y1 = box
        down = y1 - y0 >= x1 - x0
        for at in range(y0 if down else x0, (y1 if down else x1) + 1, 4):
            end = min(at + 1, y1 if down else x1)
            self.rect((x0, at, x1, end) if down else (at, y0, end, y1), fill=fill)


@lru_cache(maxsize=8)
def _mixed(size: tuple[int, int]) -> Image.Image:
    """A panel-sized checkerboard of the red and blue inks (``PURPLE_MIX``), made once per panel size."""
    w, h = size
    red, blue = bytes(INK_RGB["red"]), bytes(INK_RGB["blue"])
    even = ((red + blue) * (w // 2 + 1))[: w * 3]
    odd = ((blue + red) * (w // 2 + 1))[: w * 3]
    return Image.frombytes("RGB", size, ((even + odd) * (h // 2 + 1))[: w * h * 3])


# --- primitives the elements share --------------------------------------------------------------


def top(fnt: ImageFont.FreeTypeFont) -> int:
    """Offset that puts the font's digits/capitals at the top of a box (drop the ascender gap)."""
    return -fnt.getbbox("H0")[1]


def cap(fnt: ImageFont.FreeTypeFont) -> int:
    """Height of the font's digits and capitals."""
    box = fnt.getbbox("H0")
    return box[3] - box[1]


def read_size(c: Canvas, priority: int, size: int) -> int:
    """``size``, or the panel's 4 mm floor (``Metrics.legible``) for what the table reads mid-turn (priority 1:
    the scores, the exchange on the table): on a wHAT or a 7.3" no tighter form draws those smaller."""
    return max(size, c.m.legible) if priority <= 1 else size


def line_h(c: Canvas, size: int) -> int:
    """One line of ``size`` px text with its leading."""
    return size + max(2, size // 4)


def label_line(
    c: Canvas, x: int, y: int, w: int, label: str, right: str, tone: str = "normal", size: int | None = None
) -> None:
    """An element's title line: the label on the left, ``right`` (a value, a threshold) on the right."""
    f = font(size or c.m.label, "bold")
    rw = width(right, f) if right else 0
    if rw and width(label, f) + c.m.pad * 2 + rw > w:  # the label first; the right-hand note only whole
        rw = 0
    c.text((x, y), label, f, w - rw - (c.m.pad if rw else 0), fill=c.inks.text(tone), rule="clauses")
    if rw:
        c.text((x + w - rw, y), right, f, rw, fill=c.inks.text(tone))


def draw_bar(
    c: Canvas,
    x: int,
    y: int,
    w: int,
    h: int,
    value: float,
    maximum: float,
    fill: RGB,
    threshold: float | None,
    above: int = 3,
) -> None:
    """A framed bar filled to ``value`` of ``maximum``, with the threshold as a mark across it, reaching 2 px
    below the bar and ``above`` px above it (less under a title line: the mark never touches its text)."""
    c.rect((x, y, x + w - 1, y + h - 1), outline=BLACK)
    if maximum > 0 and value > 0:
        filled = int((w - 2) * min(value, maximum) / maximum)
        if filled > 0:
            c.rect((x + 1, y + 1, x + filled, y + h - 2), fill=fill)
    if threshold is not None and maximum > 0:
        tx = x + int((w - 1) * min(threshold, maximum) / maximum)
        c.rect((tx - 1, y - max(0, above), tx, y + h + 2), fill=c.inks.alert_text)
