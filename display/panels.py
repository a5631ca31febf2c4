"""The e-paper panels Tableside can drive: size and palette, from facts.md.

A palette lists the panel's ink colours in the order the inky driver indexes
them, so an image quantized to it can go straight to ``set_image``.
"""

from __future__ import annotations

from dataclasses import dataclass

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
RED = (200, 0, 0)
YELLOW = (230, 200, 0)
GREEN = (0, 150, 0)
BLUE = (0, 0, 200)
ORANGE = (230, 120, 0)


@dataclass(frozen=True)
class Panel:
    """An e-paper panel: its name, pixel size, inks (driver order) and accent ink."""

    id: str
    name: str
    width: int
    height: int
    palette: tuple[tuple[int, int, int], ...]
    accent: tuple[int, int, int]

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


_THREE = {"red": (WHITE, BLACK, RED), "yellow": (WHITE, BLACK, YELLOW), "black": (WHITE, BLACK)}
_SEVEN = (BLACK, WHITE, GREEN, BLUE, RED, YELLOW, ORANGE)
_SPECTRA = (BLACK, WHITE, YELLOW, RED, BLUE, GREEN)


def _three(id_: str, name: str, w: int, h: int, colour: str) -> Panel:
    palette = _THREE[colour]
    return Panel(id_, name, w, h, palette, palette[-1] if colour != "black" else BLACK)


PANELS: dict[str, Panel] = {
    p.id: p
    for p in (
        _three("phat-red", "Inky pHAT (red) 212x104", 212, 104, "red"),
        _three("phat-yellow", "Inky pHAT (yellow) 212x104", 212, 104, "yellow"),
        _three("phat-black", "Inky pHAT (black) 212x104", 212, 104, "black"),
        _three("phat-ssd1608-red", "Inky pHAT SSD1608 (red) 250x122", 250, 122, "red"),
        _three("what-red", "Inky wHAT (red) 400x300", 400, 300, "red"),
        _three("what-yellow", "Inky wHAT (yellow) 400x300", 400, 300, "yellow"),
        _three("what-black", "Inky wHAT (black) 400x300", 400, 300, "black"),
        Panel("impression-4", "Inky Impression 4\" 640x400", 640, 400, _SEVEN, RED),
        Panel("impression-5.7", "Inky Impression 5.7\" 600x448", 600, 448, _SEVEN, RED),
        Panel("impression-7.3", "Inky Impression 7.3\" 800x480", 800, 480, _SEVEN, RED),
        Panel("spectra-7.3", "Inky Impression 7.3\" Spectra 6 800x480", 800, 480, _SPECTRA, RED),
    )
}

DEFAULT_PANEL = "what-red"


def get_panel(panel_id: str) -> Panel:
    try:
        return PANELS[panel_id]
    except KeyError:
        raise ValueError(f"unknown panel {panel_id!r}; known: {', '.join(PANELS)}") from None
