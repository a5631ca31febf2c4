"""The e-paper behind one small interface: ``panel`` and ``show(image)``.

``VirtualDisplay`` keeps the frame as PNG (served at /display.png and written to
the data folder); ``InkyDisplay`` drives a real Pimoroni board through the inky
library, imported only here and only when asked for. ``DisplayWorker`` keeps
the slow refresh (8-30 s on e-paper) off the action path: it only ever draws
the newest state and skips the ones in between.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PIL import Image
from tableside.display.panels import PANELS, Panel, get_panel
from tableside.display.render import to_panel_image, to_png

log = logging.getLogger(__name__)


class Display(Protocol):
    panel: Panel
    name: str

    def show(self, image: Image.Image) -> None: ...


class VirtualDisplay:
    """The simulated panel: the last frame as PNG, optionally mirrored to a file."""

    name = "virtual"

    def __init__(self, panel: Panel, path: Path | None = None) -> None:
        self.panel = panel
        self.path = path
        self.frames = 0
        self.png: bytes | None = None

    def show(self, image: Image.Image) -> None:
        self.png = to_png(image, self.panel)
        self.frames += 1
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_bytes(self.png)
            os.replace(tmp, self.path)


class InkyDisplay:
    """A real Inky board. ``driver`` is an inky driver object (``set_image``, ``show``)."""

    name = "inky"

    def __init__(self, driver: Any, panel: Panel) -> None:
        self.driver = driver
        self.panel = panel

    def show(self, image: Image.Image) -> None:
        self.driver.set_image(to_panel_image(image, self.panel))
        self.driver.show()


def panel_for_inky(driver: Any) -> Panel:
    """Match a detected inky driver to our panel table by resolution and colour."""
    width, height = driver.resolution if hasattr(driver, "resolution") else (driver.width, driver.height)
    colour = getattr(driver, "colour", "") or ""
    for panel in PANELS.values():
        if panel.size == (width, height) and (colour in panel.id or "impression" in panel.id):
            return panel
    for panel in PANELS.values():
        if panel.size == (width, height):
            return panel
    raise ValueError(f"no panel layout for a {width}x{height} {colour} board")


def open_display(kind: str, panel_id: str | None, data_dir: Path) -> tuple[Display, str]:
    """The display to use and a sentence saying why (printed at start-up).

    ``kind`` is "virtual", "inky" (fail if absent) or "auto" (inky if detected,
    else virtual, and say so).
    """
    virtual_path = data_dir / "display.png"
    if kind == "virtual":
        panel = get_panel(panel_id or "what-red")
        return VirtualDisplay(panel, virtual_path), f"virtual display ({panel.name})"
    try:
        from inky.auto import auto  # lazy: hardware library, ~85 ms to import

        driver = auto()
        panel = get_panel(panel_id) if panel_id else panel_for_inky(driver)
        return InkyDisplay(driver, panel), f"Inky display ({panel.name})"
    except Exception as exc:  # ImportError, RuntimeError("No EEPROM detected!") ...
        if kind == "inky":
            raise RuntimeError(f"no Inky display: {exc}") from exc
        panel = get_panel(panel_id or "what-red")
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return VirtualDisplay(panel, virtual_path), f"no Inky found ({reason}): simulating the {panel.name}"


class DisplayWorker:
    """Draws the newest frame on the display in a background thread."""

    def __init__(self, display: Display, frame: Callable[[], Image.Image], faults: Any = None) -> None:
        self.display = display
        self.frame = frame
        self.faults = faults  # tableside.faults.Faults: the doctor and GET /api/hardware see failures
        self._wake = threading.Condition()
        self._pending = False
        self._stop = False
        self.shown = 0
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name="display", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self.request()

    def request(self, _event: dict | None = None) -> None:
        with self._wake:
            self._pending = True
            self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._stop:
                    self._wake.wait()
                if self._stop:
                    return
                self._pending = False
            try:
                self.display.show(self.frame())
                self.shown += 1
                if self.error is not None and self.faults is not None:
                    self.faults.clear("display")
                self.error = None
            except BaseException as exc:  # gpiodevice raises SystemExit: a thread would drop it silently
                self.error = f"{type(exc).__name__}: {exc}"
                log.error("display refresh failed", exc_info=exc)
                if self.faults is not None:
                    self.faults.report("display", exc, fix="run 'tableside doctor' (a pin still held by SPI "
                                       "needs the spi0-0cs overlay and a reboot)")
