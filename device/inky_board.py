"""The Inky boards themselves: each driver's longest refresh wait, the display that drives one (and says
when its BUSY line never went ready), and which Tableside panel a detected driver object is.

Kept apart from ``display`` (the display interface and the refresh scheduler); the inky library is
imported only inside functions, when asked for.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from PIL import Image
from tableside.display.panels import PANELS, Panel
from tableside.display.quantize import to_driver_image

# The longest busy wait of each inky driver's refresh (inky 2.6.0 from PyPI, as installed: ``_update``'s
# ``_busy_wait``/``_refresh_wait`` after the refresh command). A healthy refresh ends within it; a stop that
# cut it short can latch the 13.3" in a fault only removing power clears (inky_el133uf1.py).
INKY_LONGEST_WAIT = {
    "inky.inky": 30.0,  # pHAT/wHAT: _busy_wait() default
    "inky.inky_ssd1608": 5.0,
    "inky.inky_ssd1683": 30.0,
    "inky.inky_jd79661": 40.0,
    "inky.inky_jd79668": 40.0,
    "inky.inky_ssd2683": 40.0,
    "inky.inky_uc8159": 32.0,
    "inky.inky_ac073tc1a": 45.0,  # "41 seconds in testing"
    "inky.inky_e640": 40.0,
    "inky.inky_e673": 32.0,
    "inky.inky_el133uf1": 65.0,  # _refresh_wait(65.0)
}
REFRESH_MARGIN = 5.0  # the power-on/off waits around the refresh and the frame's SPI transfer


def longest_refresh(panel: Panel) -> float:
    """Seconds a refresh of ``panel`` may take by its driver's own waits (the stop path waits this long)."""
    return INKY_LONGEST_WAIT.get(panel.driver.module, max(INKY_LONGEST_WAIT.values())) + REFRESH_MARGIN


class InkyDisplay:
    """A real Inky board. ``driver`` is an inky driver object (``set_image``, ``show``)."""

    name = "inky"

    def __init__(self, driver: Any, panel: Panel) -> None:
        self.driver = driver
        self.panel = panel
        self.refresh_seconds = panel.refresh_seconds
        self.longest_refresh = longest_refresh(panel)
        self._ran_out: list[str] = []
        for name in ("_busy_wait", "_refresh_wait"):  # the driver's own waits, timed: did BUSY ever go ready?
            original = getattr(driver, name, None)
            if callable(original):
                setattr(driver, name, self._timed(name, original))

    def _timed(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        import inspect

        try:
            default = inspect.signature(original).parameters["timeout"].default
        except (KeyError, TypeError, ValueError):
            return original

        def wait(timeout: float = default, *args: Any, **kwargs: Any) -> Any:
            start = time.monotonic()
            try:
                return original(timeout, *args, **kwargs)
            finally:
                # A wait that ran its whole timeout never saw the panel ready: inky's e673/e640 then sleep
                # the timeout without a word, the others only warn. Either way the frame may not be shown.
                if timeout >= 5.0 and time.monotonic() - start >= timeout - 0.01:
                    self._ran_out.append(f"{name}({timeout:g} s)")

        return wait

    def show(self, image: Image.Image) -> None:
        # Always a "P" frame with exactly the driver's inks in its order: the driver
        # uses the indices as they are (no dithering, no Pillow 13 RGB convert bug).
        self._ran_out.clear()
        self.driver.set_image(to_driver_image(image, self.panel))
        self.driver.show()
        if self._ran_out:
            raise BusyNeverReady(
                f"the panel's BUSY line (GPIO{getattr(self.driver, 'busy_pin', 17)}) never went ready: the driver "
                f"waited out {', '.join(self._ran_out)}, so the frame may not be on the panel"
            )


class BusyNeverReady(RuntimeError):
    """A refresh whose BUSY wait ran out: a display fault, never a successful refresh."""


def _driver_table() -> list[tuple[type, str | None, str]]:
    """(inky driver class, colour or None, panel id) in the order to test them (subclasses first)."""
    from inky.inky import Inky as ThreeColour
    from inky.inky_ac073tc1a import Inky as AC073TC1A
    from inky.inky_e640 import Inky as E640
    from inky.inky_e673 import Inky as E673
    from inky.inky_el133uf1 import Inky as EL133UF1
    from inky.inky_jd79661 import Inky as JD79661
    from inky.inky_jd79668 import Inky as JD79668
    from inky.inky_ssd1608 import Inky as SSD1608
    from inky.inky_ssd1683 import Inky as SSD1683
    from inky.inky_ssd2683 import Inky as SSD2683
    from inky.inky_uc8159 import Inky as UC8159

    return [
        (E673, None, "spectra-7.3"),
        (EL133UF1, None, "spectra-13.3"),
        (E640, None, "spectra-4"),
        (AC073TC1A, None, "impression-7.3"),
        (UC8159, None, "impression-"),  # 4" or 5.7": the resolution picks within the class
        (JD79661, None, "phat-jd79661"),
        (JD79668, None, "what-jd79668"),
        (SSD2683, None, "what-ssd2683"),
        (SSD1608, "colour", "phat-ssd1608-"),
        (SSD1683, "colour", "what-ssd1683-"),
        (ThreeColour, "colour", ""),  # InkyPHAT / InkyWHAT: pHAT or wHAT by resolution
    ]


def panel_for_driver(driver: Any) -> Panel:
    """The panel for a detected inky driver object: by its class first, then size and ink within it."""
    size = tuple(getattr(driver, "resolution", None) or (driver.width, driver.height))
    colour = str(getattr(driver, "colour", "") or "")
    for cls, by_colour, prefix in _driver_table():
        if not isinstance(driver, cls):
            continue
        candidates = [
            p
            for p in PANELS.values()
            if p.id.startswith(prefix) and p.size == size and p.driver.module == cls.__module__
        ]
        if by_colour:
            candidates = [p for p in candidates if p.inks[-1] == colour or (colour == "black" and len(p.inks) == 2)]
        if len(candidates) == 1:
            return candidates[0]
        raise ValueError(
            f"an inky {cls.__module__} board of {size[0]}x{size[1]} ({colour or 'multi'}) "
            "has no Tableside layout; set display.model in the config"
        )
    raise ValueError(f"unknown inky driver {type(driver).__module__}.{type(driver).__name__}; set display.model")


def driver_for_model(panel: Panel, **handles: Any) -> Any:
    """Build the inky driver named by ``display.model`` (boards without an EEPROM to detect)."""
    module = importlib.import_module(panel.driver.module)
    return getattr(module, panel.driver.cls)(**panel.driver.kwargs, **handles)
