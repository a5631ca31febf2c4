"""The e-paper behind one small interface (``panel``, ``show(frame)``) and the refresh scheduler.

``VirtualDisplay`` keeps the frame as PNG (mirrored to the data folder) and
takes as long as the real board would (``panel.refresh_seconds``; tests pass a
shorter time or their own ``sleep``). ``InkyDisplay`` drives a Pimoroni board
through the inky library, imported only here and only when asked for; the
board's panel is chosen by the driver's class, never by resolution alone.

``RefreshScheduler`` keeps rendering and refreshing off the button and web
paths: a change only sets a flag. One thread renders the newest state (fast)
and keeps it for ``/display.png``; another sends frames to the panel (slow,
8-30 s): the newest frame wins, a frame identical to the one on the panel is
never sent again, refreshes are at least ``min_interval`` apart, and ``stop``
lets a refresh in progress finish (up to its expected time) instead of cutting it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image
from tableside.device.inky_board import (  # noqa: F401  (re-exported: one place to import the display from)
    INKY_LONGEST_WAIT,
    BusyNeverReady,
    InkyDisplay,
    driver_for_model,
    longest_refresh,
    panel_for_driver,
)
from tableside.display.panels import DEFAULT_PANEL, Panel, get_panel
from tableside.display.quantize import to_panel_image

log = logging.getLogger(__name__)


class Display(Protocol):
    panel: Panel
    name: str

    def show(self, image: Image.Image) -> None: ...


class VirtualDisplay:
    """The simulated panel: the last frame as PNG, optionally mirrored to a file, with the board's delay."""

    name = "virtual"

    def __init__(
        self,
        panel: Panel,
        path: Path | None = None,
        refresh_seconds: float | None = None,
        sleep: Callable[[float], Any] | None = None,
    ) -> None:
        self.panel = panel
        self.path = path
        self.refresh_seconds = panel.refresh_seconds if refresh_seconds is None else refresh_seconds
        self._cut = threading.Event()
        self._sleep = sleep if sleep is not None else self._cut.wait
        self.frames = 0
        self.png: bytes | None = None

    def abandon(self) -> None:
        """Cut a simulated refresh short (at shutdown): unlike real ink, nothing is harmed."""
        self._cut.set()

    def show(self, image: Image.Image) -> None:
        frame = to_panel_image(image, self.panel)
        if self.refresh_seconds > 0:
            self._sleep(self.refresh_seconds)  # the ink takes this long on the real board
        buf = io.BytesIO()
        frame.save(buf, format="PNG")
        self.png = buf.getvalue()
        self.frames += 1
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_bytes(self.png)
            os.replace(tmp, self.path)


@dataclass
class Board:
    """An Inky board found but not set up yet: its driver object claims no pin until ``setup()``."""

    driver: Any
    panel: Panel
    how: str  # "detected" (its EEPROM) or "named by display.model"


def find_board(model: str | None = None) -> Board:
    """The Inky board named by ``display.model``, else the one whose EEPROM answers; raises when none.

    Only I2C is read: the pins stay free, so they can be checked against the
    buttons' (``pins.resolve_pins``) before anything is claimed. With a render worker set for the
    driver (``drive_in``), the board is looked for there and its driver stays there.
    """
    worker = _driver_process.get("worker")
    if worker is not None:
        return worker.find_board(model)
    if model:
        panel = get_panel(model)
        return Board(driver_for_model(panel), panel, "named by display.model")
    from inky.auto import auto  # lazy: hardware library, ~85 ms to import

    said = io.StringIO()  # inky prints while probing ("No EEPROM detected! ..."): the log keeps it, not the terminal
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            driver = auto()
    finally:
        if said.getvalue().strip():
            log.debug("inky said: %s", said.getvalue().strip())
    return Board(driver, panel_for_driver(driver), "detected")


_driver_process: dict[str, Any] = {}  # "worker": the FrameWorker (device/driver_worker.py)


def drive_in(worker: Any) -> None:
    """Boards found from now on are found, set up and driven by ``worker`` (None: in this process).

    The server sets its render worker here, so SPI and GPIO traffic never runs in its own interpreter;
    ``tableside doctor`` and a failed start's error frame drive the board where they run."""
    if worker is None:
        _driver_process.pop("worker", None)
    else:
        _driver_process["worker"] = worker


def drives_in() -> Any:
    """The render worker boards are driven by, or None."""
    return _driver_process.get("worker")


def open_display(
    kind: str,
    panel_id: str | None,
    data_dir: Path,
    model: str | None = None,
    refresh_seconds: float | None = None,
    board: Board | None = None,
) -> tuple[Display, str]:
    """The display to use and a sentence saying why (printed at start-up).

    ``kind`` is "virtual", "inky" (fail if absent) or "auto" (inky if detected,
    else virtual, and say so). ``model`` names the board (a panel id) when it
    has no EEPROM; ``panel_id`` picks the simulated panel; ``board`` is one
    ``find_board`` found already.
    """
    virtual_path = data_dir / "display.png"
    if kind == "virtual":
        panel = get_panel(panel_id or model or DEFAULT_PANEL)
        return VirtualDisplay(panel, virtual_path, refresh_seconds), f"virtual display ({panel.name})"
    said = io.StringIO()  # the inky library prints while probing ("No EEPROM detected! ..."): kept for the log
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            board = board or find_board(model)
            in_worker = getattr(board.driver, "open_in_worker", None)  # device/driver_worker.RemoteDriver
            if in_worker is not None:  # found by the render worker: it sets the board up and drives it
                display: Display = in_worker()
            else:
                if board.how != "detected":
                    board.driver.setup()  # claims SPI and GPIO now, so a missing board is found at start-up
                display = InkyDisplay(board.driver, board.panel)
        panel = board.panel
        return display, f"Inky display ({panel.name}, {board.how})"
    except (Exception, SystemExit) as exc:  # ImportError, RuntimeError("No EEPROM detected!"), gpiodevice's exit
        if kind == "inky":
            raise RuntimeError(f"no Inky display: {exc}") from exc
        panel = get_panel(panel_id or model or DEFAULT_PANEL)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        log.debug("no Inky: %s %s", reason, said.getvalue().strip())  # tableside doctor says why, on a Pi
        note = f"no Inky found: showing the display on the phone and in display.png (simulated {panel.name})"
        return VirtualDisplay(panel, virtual_path, refresh_seconds), note


@dataclass(frozen=True)
class Frame:
    """One rendered frame: the panel image, its PNG, a digest of its ink indices and what it shows.

    ``image`` is None for a frame whose pixels stay in the render worker (a real board's: the worker
    shows it by ``digest``, or draws ``spec`` again)."""

    image: Image.Image | None
    png: bytes
    digest: str
    spec: Any = None


def make_frame(image: Image.Image, panel: Panel) -> Frame:
    indexed = to_panel_image(image, panel)
    buf = io.BytesIO()
    indexed.save(buf, format="PNG")
    return Frame(indexed, buf.getvalue(), hashlib.sha256(indexed.tobytes()).hexdigest())


GAP = 0.1  # seconds without a change that let a table that keeps changing be drawn (``settle_wait``)


def settle_wait(now: float, first: float, last: float, settle: float, cap: float, gap: float = GAP) -> float:
    """Seconds a render asked for at ``first`` still waits at ``now`` (0: draw now); ``last`` is the newest change.

    It waits for ``settle`` seconds without a change (a burst of presses lands as one frame). A table that
    keeps changing is drawn once ``cap`` seconds have passed, at the first ``gap`` after a change: then
    the phones have re-read that change, and the render (most of a core for tens of milliseconds, more
    on a Pi) is done before the next one; drawn at any moment it would land on their reads. Past twice
    ``cap`` it draws whatever comes."""
    quiet = now - last
    if quiet >= settle or now >= first + 2 * cap:
        return 0.0
    if now < first + cap:
        return min(settle - quiet, first + cap - now)
    return max(0.0, min(min(gap, settle) - quiet, first + 2 * cap - now))


class RefreshScheduler:
    """Renders the newest state off the request paths and refreshes the panel without waste.

    ``render()`` returns the image to show now; ``next_change()`` (optional)
    returns a monotonic time at which the picture changes by itself (the join
    screen timing out), or None.
    """

    def __init__(
        self,
        display: Display,
        render: Callable[[], Image.Image],
        min_interval: float = 0.0,
        next_change: Callable[[], float | None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        faults: Any = None,
        settle: float = 0.0,
        max_settle: float = 1.0,
        on_frame: Callable[[], None] | None = None,
        draw: Callable[[], Frame] | None = None,
    ) -> None:
        self.display = display
        # ``draw`` makes the whole frame (a FrameWorker in another process); else ``render`` here
        self.draw = draw if draw is not None else (lambda: make_frame(self.render(), self.display.panel))
        self.on_frame = on_frame  # a new picture was drawn (the phones' e-paper preview fetches it then)
        # A render waits until no change came for ``settle`` seconds (a burst of presses, the phones'
        # re-fetches); a table that keeps changing is drawn about once every ``max_settle`` seconds, just
        # after a change (``settle_wait``), not once per change (an e-paper shows one frame in seconds).
        self.settle = settle
        self.max_settle = max(settle, max_settle)
        self._last_request = 0.0
        self.faults = faults  # tableside.faults.Faults: the doctor and GET /api/hardware see failures
        self.render = render
        self.min_interval = min_interval
        self.next_change = next_change
        self.clock = clock
        self._lock = threading.Condition()
        self._dirty = False
        self._stop = False
        self._latest: Frame | None = None  # last rendered (served at /display.png)
        self._pending: Frame | None = None  # waiting for the panel
        self._on_panel: str | None = None  # digest of the frame the panel shows
        self._refreshing = False
        self._rendering = False
        self._last_refresh_end: float | None = None
        self._refresh_started: float | None = None
        self.renders = 0
        self.refreshes = 0
        self.skipped = 0
        self.error: str | None = None
        self._render_thread = threading.Thread(target=self._render_loop, name="display-render", daemon=True)
        self._refresh_thread = threading.Thread(target=self._refresh_loop, name="display-refresh", daemon=True)

    # -- called from anywhere (button, web, table events): never blocks on rendering
    def start(self) -> None:
        self._render_thread.start()
        self._refresh_thread.start()
        self.request()

    def request(self, _event: Any = None) -> None:
        """Something changed: render the newest state soon (cheap: sets a flag)."""
        with self._lock:
            self._last_request = time.monotonic()
            if self._dirty:  # the render thread already knows (it is settling): waking it again costs a switch
                return
            self._dirty = True
            self._lock.notify_all()

    def png(self) -> bytes:
        """The last rendered frame as PNG (b"" before the first render); never renders."""
        with self._lock:
            return self._latest.png if self._latest else b""

    @property
    def refreshing(self) -> bool:
        with self._lock:
            return self._refreshing

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is left to render or send (for tests and shutdown)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._dirty or self._rendering or self._pending is not None or self._refreshing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(min(left, 0.05))
        return True

    def stop(self) -> None:
        """Stop; a real panel's refresh in progress may finish (up to its expected time plus a margin)."""
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        self._render_thread.join(timeout=5)
        abandon = getattr(self.display, "abandon", None)
        if abandon is not None:  # the virtual panel: nothing to wait for
            abandon()
        # a real panel's refresh is never cut: wait as long as its driver itself would (INKY_LONGEST_WAIT)
        expected = getattr(self.display, "longest_refresh", None)
        if expected is None:
            expected = float(getattr(self.display, "refresh_seconds", 30.0)) * 1.5 + 2
        self._refresh_thread.join(timeout=expected)

    def can_show_within(self, seconds: float) -> bool:
        """Would a frame asked for now be on the panel within ``seconds``? A refresh under way ends first,
        then the rest between refreshes, then the panel's own full refresh (``refresh_seconds``)."""
        refresh = float(getattr(self.display, "refresh_seconds", 0.0))
        with self._lock:
            now = self.clock()
            busy = (
                max(0.0, self._refresh_started + refresh - now) if self._refreshing and self._refresh_started else 0.0
            )
            rest = max(0.0, self._rest_left())
        return self.settle + busy + rest + refresh <= seconds

    def finish(self, timeout: float) -> bool:
        """Draw what is asked for now at once (no rest between refreshes) and wait until it is on the panel:
        the last frame before a stop. False when it did not get there within ``timeout``."""
        with self._lock:
            self.min_interval = 0.0
            self.settle = 0.0
            self._lock.notify_all()  # a refresh resting between frames or a render settling goes now
        self.request()
        return self.wait_idle(timeout)

    # -- the render thread
    def _render_loop(self) -> None:
        with contextlib.suppress(OSError, AttributeError):  # Linux: a thread has its own nice value
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)  # phones and buttons first
        while True:
            with self._lock:
                while not self._dirty and not self._stop:
                    wake = self.next_change()
                    timeout = None if wake is None else max(0.0, wake - self.clock())
                    if timeout == 0.0:
                        break
                    self._lock.wait(timeout)
                if self._stop:
                    return
                if self.settle > 0:  # let a burst of changes land: one render for all of them
                    self._rendering = True
                    first = time.monotonic()
                    while not self._stop:
                        left = settle_wait(time.monotonic(), first, self._last_request, self.settle, self.max_settle)
                        if left <= 0:
                            break
                        self._lock.wait(left)
                    if self._stop:
                        return
                self._dirty = False
                self._rendering = True
            try:
                frame = self.draw()
            except BaseException as exc:  # a bad screen must not kill the display
                self._fail("render", exc)
                with self._lock:
                    self._rendering = False
                    self._lock.notify_all()
                continue
            with self._lock:
                self._rendering = False
                self.renders += 1
                news = self._latest is None or self._latest.digest != frame.digest
                self._latest = frame
                if frame.digest == self._on_panel and not self._refreshing:
                    self._pending = None  # back to what the panel already shows
                    self.skipped += 1
                else:
                    self._pending = frame  # the newest replaces any older pending frame
                self._lock.notify_all()
            if news and self.on_frame is not None:
                try:
                    self.on_frame()
                except Exception:  # a listener must not stop the display
                    log.exception("frame listener failed")

    # -- the refresh thread
    def _refresh_loop(self) -> None:
        while True:
            with self._lock:
                while not self._stop:
                    if self._pending is not None and self._pending.digest == self._on_panel:
                        self._pending = None  # already on the panel: never sent again
                        self.skipped += 1
                        self._lock.notify_all()
                    if self._pending is not None:
                        rest = self._rest_left()
                        if rest <= 0:
                            break
                        self._lock.wait(rest)
                    else:
                        self._lock.wait()
                if self._stop:
                    return
                frame, self._pending = self._pending, None
                assert frame is not None
                if frame.digest == self._on_panel:
                    self.skipped += 1  # identical frames are never sent
                    self._lock.notify_all()
                    continue
                self._refreshing = True
                self._refresh_started = self.clock()
            try:
                show_frame = getattr(self.display, "show_frame", None)
                if show_frame is not None:  # the render worker drives the board: it is told which frame
                    show_frame(frame)
                else:
                    self.display.show(frame.image)
                ok = True
            except BaseException as exc:  # gpiodevice raises SystemExit on a busy pin: keep the thread
                self._fail("refresh", exc)
                ok = False
            with self._lock:
                self._refreshing = False
                self._last_refresh_end = self.clock()
                if ok:
                    self._on_panel = frame.digest
                    self.refreshes += 1
                    if self.error is not None and self.faults is not None:
                        self.faults.clear("display")
                    self.error = None
                self._lock.notify_all()

    def _rest_left(self) -> float:
        if self._last_refresh_end is None or self.min_interval <= 0:
            return 0.0
        return self._last_refresh_end + self.min_interval - self.clock()

    def _fail(self, what: str, exc: BaseException) -> None:
        self.error = f"{what}: {type(exc).__name__}: {exc}"
        log.error("display %s failed", what, exc_info=exc)
        if self.faults is not None:
            self.faults.report(
                "display",
                exc,
                fix=(
                    "a pin still held by SPI needs dtoverlay=spi0-0cs in config.txt and a reboot; "
                    "otherwise check that the board sits on all 40 header pins"
                ),
            )
        if isinstance(exc, KeyboardInterrupt):
            raise exc
