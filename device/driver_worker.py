"""The render worker: a process of its own that draws the e-paper's frames and, for a real board, owns
its driver (SPI, GPIO) and shows them.

A render of the 13.3" panel takes seconds of CPU on a Pi Zero, and inky's drivers send their frames
byte by byte (the 7.3" 7-colour: 192,072 ``spidev.xfer`` calls, about 300 ms of CPU on a laptop core);
in the server's interpreter either held every request, button and LED callback behind the GIL
(issues 19 and 32). So the server keeps only the frames' PNGs and digests: the worker draws, keeps
the last few frames, and shows the one the server names. The board is found and set up in the
worker (``find_board``/``open_display``, the same choices as ever); the server gets its facts
(panel, pins) and a ``WorkerDisplay`` that sends the spec and waits for "done" or the fault's words.

The worker is spawned (never forked from a threaded server), niced, started once and reused; one
that dies is started again, opens the board again, and the death is logged and raised as a display
fault. A refresh runs on a thread of the worker, so frames for the phones are drawn meanwhile.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import queue
import signal
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from PIL import Image
from tableside.display.panels import Panel, get_panel

log = logging.getLogger(__name__)

KEEP_FRAMES = 4  # frames the worker keeps by digest: the one being shown and the newest few drawn
ALIVE_EVERY = 1.0  # seconds between checks that a worker in the middle of a refresh is still there


# -- in the worker process ---------------------------------------------------------------------------
_state: dict[str, Any] = {"board": None, "display": None, "done": None}
_frames: OrderedDict[str, Image.Image] = OrderedDict()
_frames_lock = threading.Lock()


def _keep(digest: str, image: Image.Image) -> None:
    with _frames_lock:
        _frames[digest] = image
        _frames.move_to_end(digest)
        while len(_frames) > KEEP_FRAMES:
            _frames.popitem(last=False)


def _frame_parts(
    spec: tuple, panel_id: str, image: bool = True
) -> tuple[bytes, tuple[int, int], list[int], bytes, str]:
    """In the worker: draw, quantize and encode one frame; kept by digest for a later ``show``.

    Returns it as bytes (picklable); with ``image=False`` the pixels stay here (the server of a real
    board needs only the PNG and the digest)."""
    from tableside.device.display import make_frame
    from tableside.display.render import draw

    panel = get_panel(panel_id)
    frame = make_frame(draw(spec, panel), panel)
    _keep(frame.digest, frame.image)
    raw = frame.image.tobytes() if image else b""
    return raw, frame.image.size, frame.image.getpalette() or [], frame.png, frame.digest


@dataclass(frozen=True)
class BoardFacts:
    """What the server needs of a board found in the worker: its panel, how it was found, its pins."""

    panel_id: str
    how: str
    module: str
    pin_uses: dict[int, str]
    busy_pin: int


def _find_here(model: str | None) -> BoardFacts:
    """In the worker: find the board (I2C only, no pin claimed) and keep it for ``_open_here``."""
    from tableside.device.display import find_board
    from tableside.device.pins import board_pins

    _state["board"] = _state["display"] = None
    board = find_board(model)
    _state["board"] = board
    return BoardFacts(
        board.panel.id,
        board.how,
        type(board.driver).__module__,
        board_pins(board.panel, board.driver),
        int(getattr(board.driver, "busy_pin", 17)),
    )


def _open_here(model: str | None) -> tuple[str, float, float]:
    """In the worker: set up the board found (claims SPI and GPIO); its panel id and refresh times."""
    from tableside.device.display import InkyDisplay

    board = _state["board"]
    if board is None:  # a worker started again: look for the board once more
        _find_here(model)
        board = _state["board"]
    if board.how != "detected":
        board.driver.setup()  # claims SPI and GPIO now, so a missing board is found at start-up
    display = InkyDisplay(board.driver, board.panel)
    _state["display"] = display
    return board.panel.id, display.refresh_seconds, display.longest_refresh


def _show_here(ticket: int, digest: str, spec: Any, panel_id: str, model: str | None) -> int:
    """In the worker: start showing frame ``digest`` (drawn again from ``spec`` if not kept) on a thread;
    its end goes to the done queue as (ticket, None) or (ticket, the exception). Returns this pid."""
    if _state["display"] is None:
        _open_here(model)
    with _frames_lock:
        image = _frames.get(digest)
    if image is None:  # drawn by a worker that died, or pushed out: draw it again
        _frame_parts(spec, panel_id, image=False)
        with _frames_lock:
            image = _frames[digest]
    threading.Thread(target=_refresh, args=(ticket, image), name="panel-refresh").start()  # never daemon:
    return os.getpid()  # the worker's exit waits for it (a refresh is never cut)


def _refresh(ticket: int, image: Image.Image) -> None:
    try:
        _state["display"].show(image)
        outcome: BaseException | None = None
    except BaseException as exc:  # gpiodevice raises SystemExit on a busy pin
        outcome = exc
    try:
        _state["done"].put((ticket, outcome))
    except Exception as exc:  # an exception that does not pickle: its words still reach the server
        _state["done"].put((ticket, RuntimeError(f"{type(outcome).__name__}: {outcome}; ({exc})")))


def _worker_start(server: int, done: Any = None) -> None:
    _state["done"] = done
    with contextlib.suppress(OSError):
        os.nice(10)  # the server's threads (phones, buttons, LED) first, even on one core
    # The worker answers through its pool, never by printing: it lets go of the server's stdout and
    # stderr, so whoever reads the server's output (a terminal, journald, a test) sees the end of it
    # when the server ends, not when the worker does.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    # The pool's queue never reaches end-of-file in the worker (it holds both ends), so a server killed
    # with SIGKILL would leave it waiting forever: it watches its parent and ends with it.
    # ``server`` is the pid the server passed in: a server killed while the worker was still starting
    # is noticed too (the worker's parent is then already someone else).
    threading.Thread(target=_end_with_parent, args=(server,), name="render-parent-watch", daemon=True).start()
    # A stop sent to the whole process group (systemd's default KillMode=control-group, Ctrl-C in a
    # terminal, `timeout`) is the server's to act on: it still draws its last frame through this
    # worker, then closes the pool (or the watch above ends the worker with it).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_with_parent(parent: int, every: float = 0.5) -> None:
    """In the render worker: exit as soon as the server that started it is gone."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


# -- in the server ------------------------------------------------------------------------------------
class WorkerDied(RuntimeError):
    """The render worker ended (killed, out of memory) while the server waited for it."""


class FrameWorker:
    """The server's handle on the render worker: frames drawn there, and a board's driver run there."""

    def __init__(self) -> None:
        self._pool: Any = None
        self._done: Any = None
        self._lock = threading.Lock()
        self._tickets = itertools.count(1)
        self.pid: int | None = None
        self.restarts = 0  # workers started again after one died (the log says each)

    def _executor(self) -> Any:
        with self._lock:
            if self._pool is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                context = multiprocessing.get_context("spawn")
                self._done = context.Queue()
                self._pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=context, initializer=_worker_start, initargs=(os.getpid(), self._done)
                )
                future = self._pool.submit(os.getpid)  # starts the process now; its pid is known once it runs
                future.add_done_callback(lambda done: setattr(self, "pid", None if done.exception() else done.result()))
            return self._pool

    def call(self, fn: Any, *args: Any, again: bool = False) -> Any:
        """``fn(*args)`` in the worker; ``again``: a worker that died is started again and asked once more."""
        from concurrent.futures.process import BrokenProcessPool

        pool = self._executor()
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:  # the worker died (out of memory?): a new one takes the call
            self._lost(pool)
            if not again:
                raise
        return self._executor().submit(fn, *args).result()

    def _lost(self, pool: Any) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
                self.restarts += 1
                log.error("the render worker (pid %s) died; a new one is started for the next frame", self.pid)

    def start(self) -> None:
        """Start the process now (its imports take a while on a Pi) rather than at the first frame."""
        self._executor()

    def frame(self, spec: tuple, panel: Panel, image: bool = True) -> Any:
        """Draw one frame there; ``image=False`` leaves its pixels in the worker (a board's frames)."""
        from tableside.device.display import Frame

        raw, size, palette, png, digest = self.call(_frame_parts, spec, panel.id, image, again=True)
        picture = None
        if image:
            picture = Image.frombytes("P", size, raw)
            picture.putpalette(palette)
        return Frame(picture, png, digest, spec)

    def find_board(self, model: str | None) -> Any:
        """The board on the header, found by the worker (``display.find_board`` there)."""
        from tableside.device.display import Board

        facts = self.call(_find_here, model)
        return Board(RemoteDriver(self, facts, model), get_panel(facts.panel_id), facts.how)

    def show(self, digest: str, spec: Any, panel: Panel, model: str | None) -> int:
        """Show frame ``digest`` on the board and wait until the driver is done; the driver's exception
        is raised here with its own words. A worker that died is started again and tried once more."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self._show_once(digest, spec, panel, model)
        except (BrokenProcessPool, WorkerDied) as exc:
            log.error("the render worker died during a refresh (%s); a new one opens the board and shows it", exc)
            return self._show_once(digest, spec, panel, model)

    def _show_once(self, digest: str, spec: Any, panel: Panel, model: str | None) -> int:
        ticket = next(self._tickets)
        pool = self._executor()
        done = self._done
        pid = self.call(_show_here, ticket, digest, spec, panel.id, model)
        probe = None
        while True:
            try:
                got, outcome = done.get(timeout=ALIVE_EVERY)
            except queue.Empty:  # a real refresh: 8-65 s; is the worker still there?
                if probe is not None and probe.done():
                    if probe.exception() is not None:
                        self._lost(pool)
                        raise WorkerDied(f"the render worker (pid {pid}) ended during the refresh") from None
                    probe = None
                if probe is None:
                    try:
                        probe = pool.submit(os.getpid)
                    except RuntimeError as exc:  # broken or shut down
                        self._lost(pool)
                        raise WorkerDied(f"the render worker (pid {pid}) ended during the refresh: {exc}") from None
                continue
            if got != ticket:
                continue  # the end of a refresh the server stopped waiting for
            if outcome is not None:
                raise outcome
            return pid

    def close(self) -> None:
        """Let the worker go: a refresh it is running still ends (its thread is waited for)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class RemoteDriver:
    """The server's view of a driver that lives in the worker: its pins (for the buttons' check), no I/O."""

    def __init__(self, worker: FrameWorker, facts: BoardFacts, model: str | None) -> None:
        self.worker = worker
        self.facts = facts
        self.model = model
        self.module = facts.module
        self.pin_uses = dict(facts.pin_uses)
        self.busy_pin = facts.busy_pin

    def open_in_worker(self) -> WorkerDisplay:
        """Set the board up in the worker (claims SPI and GPIO there): the display the server draws on."""
        panel_id, refresh, longest = self.worker.call(_open_here, self.model)
        return WorkerDisplay(self, get_panel(panel_id), refresh, longest)


class WorkerDisplay:
    """A real Inky board driven by the render worker: ``show_frame`` names the frame, the worker shows it."""

    name = "inky"

    def __init__(self, driver: RemoteDriver, panel: Panel, refresh_seconds: float, longest_refresh: float) -> None:
        self.driver = driver
        self.panel = panel
        self.refresh_seconds = refresh_seconds
        self.longest_refresh = longest_refresh
        self.shown_by: int | None = None  # the pid of the process whose driver sent the last frame

    def show_frame(self, frame: Any) -> None:
        self.shown_by = self.driver.worker.show(frame.digest, frame.spec, self.panel, self.driver.model)

    def show(self, image: Image.Image) -> None:
        """A frame drawn here (not by the worker): drawn again there from nothing is impossible, so it is
        sent as it is (the start error frame); the usual path is ``show_frame``."""
        from tableside.device.display import make_frame

        frame = make_frame(image, self.panel)
        self.driver.worker.call(
            _keep_image, frame.digest, frame.image.tobytes(), frame.image.size, frame.image.getpalette()
        )
        self.shown_by = self.driver.worker.show(frame.digest, None, self.panel, self.driver.model)


def _keep_image(digest: str, raw: bytes, size: tuple[int, int], palette: list[int] | None) -> None:
    image = Image.frombytes("P", size, raw)
    if palette:
        image.putpalette(palette)
    _keep(digest, image)
