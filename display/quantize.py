"""Frames in the panel's own inks: mode "P", exactly one palette entry per ink, in driver order.

The renderer draws only the panel's ink colours (no anti-aliasing), so this is
an exact mapping, never a dither. The inky drivers take the indices as they are
(pHAT, wHAT, SSD1608/1683, uc8159, ac073tc1a) or re-quantize against their own
pure palette without dithering only when the palette holds exactly their number
of colours (Spectra 6, jd79661/jd79668, ssd2683): hence exactly N entries.
"""

from __future__ import annotations

from PIL import Image
from tableside.display.panels import Panel


def _palette_image(colours: tuple[tuple[int, int, int], ...]) -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for rgb in colours for v in rgb], rawmode="RGB")
    return pal


def _indexed(image: Image.Image, panel: Panel, colours: tuple[tuple[int, int, int], ...]) -> Image.Image:
    if image.mode == "P" and image.getpalette() == [v for rgb in colours for v in rgb]:
        return image
    rgb = image.convert("RGB")
    preview = _palette_image(panel.palette)
    indexed = rgb.quantize(palette=preview, dither=Image.Dither.NONE)
    if colours != panel.palette:
        indexed.putpalette([v for c in colours for v in c], rawmode="RGB")
    return indexed


def to_panel_image(image: Image.Image, panel: Panel) -> Image.Image:
    """The frame as a "P" image with the panel's preview colours (PNG, golden images)."""
    return _indexed(image, panel, panel.palette)


def to_driver_image(image: Image.Image, panel: Panel) -> Image.Image:
    """The frame as a "P" image the panel's inky driver shows exactly as drawn."""
    indexed = to_panel_image(image, panel)
    out = indexed.copy()
    out.putpalette([v for rgb in panel.driver_palette() for v in rgb], rawmode="RGB")
    return out
