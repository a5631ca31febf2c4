"""The e-paper panels Tableside can drive, one entry per inky driver class and ink set.

Two 800x480 boards exist (the 7-colour ac073tc1a and the Spectra 6 E673), so a
panel is named by its driver, never by its resolution. A panel's ``inks`` list
the colours in the order the driver indexes them: a mode "P" frame whose
palette has exactly these entries goes to ``set_image`` untouched (no
re-dithering, and no Pillow 13 ``convert`` bug: docs/display.md).

``size_class`` picks the layout (small pHAT, medium wHAT/Impression 4"/5.7",
large 7.3"/13.3"); ``refresh_seconds`` is a full refresh on the real board,
which the virtual panel simulates and the scheduler waits for on stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

SizeClass = Literal["small", "medium", "large"]

# What each ink looks like in the PNG preview (/display.png, golden images).
INK_RGB: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (200, 20, 20),
    "yellow": (235, 200, 0),
    "green": (20, 140, 40),
    "blue": (30, 50, 200),
    "orange": (235, 120, 0),
}
# What the Spectra 6 and jd79661/jd79668 drivers expect in a "P" image's palette
# (their DESATURATED_PALETTE): they re-quantize to it, without dithering only
# when the palette holds exactly their number of colours.
PURE_RGB: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "yellow": (255, 255, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "orange": (255, 128, 0),
}

WHITE = INK_RGB["white"]
BLACK = INK_RGB["black"]


@dataclass(frozen=True)
class Driver:
    """How to build the inky driver for a board that has no EEPROM (``display.model``)."""

    module: str  # e.g. "inky.inky_e673"
    cls: str  # e.g. "Inky"
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Panel:
    """An e-paper board: name, pixel size, inks in driver order, layout class, refresh time."""

    id: str
    name: str
    width: int
    height: int
    inks: tuple[str, ...]
    size_class: SizeClass
    refresh_seconds: float
    driver: Driver
    pure_palette: bool = False  # the driver re-quantizes "P" frames against PURE_RGB
    # Millimetres per pixel of the active area, where the glass is known (``ACTIVE_AREA_MM``): the text the
    # table reads (scores, the prompt) is drawn at least ``LEGIBLE_MM`` tall there (``canvas.metrics``).
    pitch_mm: float | None = None

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def palette(self) -> tuple[tuple[int, int, int], ...]:
        """Preview colours, one per ink, in the driver's index order."""
        return tuple(INK_RGB[ink] for ink in self.inks)

    def driver_palette(self) -> tuple[tuple[int, int, int], ...]:
        """The palette the frame carries when handed to the driver."""
        table = PURE_RGB if self.pure_palette else INK_RGB
        return tuple(table[ink] for ink in self.inks)

    def has(self, ink: str) -> bool:
        return ink in self.inks

    @property
    def colours(self) -> tuple[str, ...]:
        """The inks other than black and white, accent first (red before yellow)."""
        order = ("red", "blue", "green", "orange", "yellow")
        return tuple(ink for ink in order if ink in self.inks)


def _three(id_: str, name: str, size: tuple[int, int], colour: str, size_class: SizeClass, drv: Driver) -> Panel:
    # inky.Inky, SSD1608 and SSD1683 index WHITE 0, BLACK 1, RED/YELLOW 2.
    inks = ("white", "black") if colour == "black" else ("white", "black", colour)
    seconds = 8.0 if colour == "black" else 15.0
    return Panel(id_, name, size[0], size[1], inks, size_class, seconds, drv)


def _phat(colour: str) -> Panel:
    return _three(
        f"phat-{colour}",
        f"Inky pHAT ({colour}) 212x104",
        (212, 104),
        colour,
        "small",
        Driver("inky.inky", "Inky", {"resolution": (212, 104), "colour": colour}),
    )


def _phat_ssd1608(colour: str) -> Panel:
    return _three(
        f"phat-ssd1608-{colour}",
        f"Inky pHAT SSD1608 ({colour}) 250x122",
        (250, 122),
        colour,
        "small",
        Driver("inky.inky_ssd1608", "Inky", {"resolution": (250, 122), "colour": colour}),
    )


def _what(colour: str) -> Panel:
    return _three(
        f"what-{colour}",
        f"Inky wHAT ({colour}) 400x300",
        (400, 300),
        colour,
        "medium",
        Driver("inky.inky", "Inky", {"resolution": (400, 300), "colour": colour}),
    )


def _what_ssd1683(colour: str) -> Panel:
    return _three(
        f"what-ssd1683-{colour}",
        f"Inky wHAT SSD1683 ({colour}) 400x300",
        (400, 300),
        colour,
        "medium",
        Driver("inky.inky_ssd1683", "Inky", {"resolution": (400, 300), "colour": colour}),
    )


def _board(
    id_: str,
    label: str,
    size: tuple[int, int],
    inks: tuple[str, ...],
    size_class: SizeClass,
    seconds: float,
    chip: str,
    pure: bool,
) -> Panel:
    """A board whose driver, ``inky.inky_<chip>.Inky``, is built with its resolution alone (a row of PANELS)."""
    name = f"Inky {label} {size[0]}x{size[1]}"
    drv = Driver(f"inky.inky_{chip}", "Inky", {"resolution": size})
    return Panel(id_, name, size[0], size[1], inks, size_class, seconds, drv, pure_palette=pure)


_SEVEN = ("black", "white", "green", "blue", "red", "yellow", "orange")  # uc8159 / ac073tc1a order
_SPECTRA = ("black", "white", "yellow", "red", "blue", "green")  # e640 / e673 / el133uf1 order
_FOUR = ("black", "white", "yellow", "red")  # jd79661 / jd79668 / ssd2683 order

LEGIBLE_MM = 4.0  # scores and the prompt, read across a table: at least this tall (#36)
# The active area (width, height in mm) of the glass behind a resolution, from the panel makers' datasheets:
# the 4.2" 400x300 of every wHAT 84.8 x 63.6 mm (0.212 mm a pixel), the 7.3" 800x480 of both Impression 7.3"
# boards 160.0 x 96.0 mm (0.2 mm a pixel). Other boards have no floor (the pHAT holds no 4 mm type; the
# Impression 4"/5.7" and the 13.3" draw their body bigger than the wHAT's already).
ACTIVE_AREA_MM: dict[tuple[int, int], tuple[float, float]] = {(400, 300): (84.8, 63.6), (800, 480): (160.0, 96.0)}


def _pitched(panel: Panel) -> Panel:
    area = ACTIVE_AREA_MM.get(panel.size)
    return replace(panel, pitch_mm=area[0] / panel.width) if area and panel.size_class != "small" else panel


PANELS: dict[str, Panel] = {
    p.id: _pitched(p)
    for p in (
        *(_phat(c) for c in ("red", "yellow", "black")),
        *(_phat_ssd1608(c) for c in ("red", "yellow", "black")),
        # _board rows: id, name (between "Inky " and " WxH"), size, inks, layout, full refresh in seconds, chip
        # (the driver is inky.inky_<chip>.Inky), and whether that driver re-quantizes "P" frames against PURE_RGB
        _board("phat-jd79661", "pHAT red/yellow (JD79661)", (250, 122), _FOUR, "small", 20.0, "jd79661", True),
        *(_what(c) for c in ("red", "yellow", "black")),
        *(_what_ssd1683(c) for c in ("red", "yellow", "black")),
        _board("what-jd79668", "wHAT red/yellow (JD79668)", (400, 300), _FOUR, "medium", 25.0, "jd79668", True),
        _board("what-ssd2683", "wHAT red/yellow (SSD2683)", (400, 300), _FOUR, "medium", 25.0, "ssd2683", True),
        _board("impression-4", 'Impression 4" 7-colour', (640, 400), _SEVEN, "medium", 30.0, "uc8159", False),
        _board("impression-5.7", 'Impression 5.7" 7-colour', (600, 448), _SEVEN, "medium", 30.0, "uc8159", False),
        _board("spectra-4", 'Impression 4" Spectra 6', (600, 400), _SPECTRA, "medium", 25.0, "e640", True),
        _board("impression-7.3", 'Impression 7.3" 7-colour', (800, 480), _SEVEN, "large", 30.0, "ac073tc1a", False),
        _board("spectra-7.3", 'Impression 7.3" Spectra 6', (800, 480), _SPECTRA, "large", 29.6, "e673", True),
        _board("spectra-13.3", 'Impression 13.3" Spectra 6', (1600, 1200), _SPECTRA, "large", 19.6, "el133uf1", True),
    )
}

DEFAULT_PANEL = "what-red"


def get_panel(panel_id: str) -> Panel:
    """The panel named ``panel_id`` (an id from PANELS), with the known ids in the error."""
    try:
        return PANELS[panel_id]
    except KeyError:
        raise ValueError(f"unknown panel {panel_id!r}; known: {', '.join(PANELS)}") from None
