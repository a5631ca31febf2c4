"""The e-paper and the buttons, brought up in the background once the panel answers.

Phones wait for the web panel; nobody waits for an e-paper that takes seconds
to refresh anyway. So ``tableside serve`` opens the data, starts answering,
and only then builds the display (Pillow, the Inky driver), the pin factory
and buttons (gpiozero) and the address watch, here, on their own thread. On a
Pi Zero 2 W that halves the time until a phone can join (benchmarks/).

Until they are up, ``png()`` is empty (``/display.png`` says so), ``status()``
says "starting" and a press from the phone waits for the buttons (bounded).
A part that fails to start is reported like any hardware fault: the log, the
panel and ``tableside doctor``; the table goes on without it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from tableside.config import Config
from tableside.core.errors import Conflict, RuleError, TablesideError
from tableside.device.pins import pi_model
from tableside.faults import Faults, describe

log = logging.getLogger("tableside")

PRESS_WAIT = 30.0  # seconds a phone press at start-up waits for the buttons to exist
DISPLAY_RETRY = 30.0  # seconds before a display that failed is tried again; doubles up to the maximum
DISPLAY_RETRY_MAX = 300.0
DISPLAY_FIX = (
    "check that the board sits on all 40 header pins, that SPI and I2C are on and, for a board without an "
    "EEPROM, [display] model in the config; it is tried again by itself"
)


class StillStarting(TablesideError):
    """The buttons or the smart dice are not up yet (a few seconds after start on a Pi Zero)."""

    status = 503


class Hardware:
    """Display, refresh scheduler, pins, buttons, controls and address watch of one running table."""

    def __init__(
        self,
        cfg: Config,
        args: Any,
        table: Any,
        broker: Any,
        faults: Faults,
        folder: Any,
        code: str,
        say: Callable[[str], None] = print,
        join_key: str = "",
    ) -> None:
        self.cfg, self.args, self.table, self.broker, self.faults = cfg, args, table, broker, faults
        self.folder, self.code, self.say = folder, code, say
        self.join_key = join_key  # in the e-paper's QR code beside the code (webui.auth.join_key)
        self.display: Any = None
        self.display_note = "the display is starting"
        self.display_failed: str | None = None  # why the e-paper is not drawing (retried meanwhile)
        self.worker: Any = None
        self._frames: Any = None
        self.renderer: Any = None
        self._retry: threading.Thread | None = None
        self._stop_retry = threading.Event()
        self.pi: Any = None
        self.keys: Any = None
        self.ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._lock = threading.Lock()
        # More prompts for the e-paper after the buttons' own (the smart dice: "waiting for 3 d10").
        self.overlays: list[Callable[[], dict[str, Any] | None]] = []
        # The last round that ended, with its game (``webui.rounds.told_by``): the e-paper leads with it (#34).
        self.round_end: Callable[[], Any] = lambda: None
        self._parts: list[Callable[[], None]] = []  # also started on this thread, first (also_start)

    # -- start and stop ------------------------------------------------------------------------
    def start(self, port: int, host: str, after: threading.Event | None = None, within: float = 1.0) -> None:
        """Bring everything up on a thread of its own; returns at once.

        With ``after``, bring-up waits for it (the server has answered its first request) or ``within``
        seconds, whichever is first: on a Pi Zero's one slow core the phones' panel answers first, and
        the e-paper's first frame (seconds on any Inky) starts a moment later (benchmarks/pi_render.py).
        """
        self._thread = threading.Thread(
            target=self._start, args=(port, host, after, within), name="hardware-start", daemon=True
        )
        self._thread.start()

    def also_start(self, part: Callable[[], None]) -> None:
        """Start ``part`` on the hardware thread too, before the display and buttons (the smart dice:
        nothing a phone's first request needs). Call before ``start``; ``part`` reports its own failures."""
        self._parts.append(part)

    def _start(self, port: int, host: str, after: threading.Event | None = None, within: float = 1.0) -> None:
        if after is not None:
            after.wait(within)
        for part in self._parts:
            try:
                part()
            except Exception:  # a part says its own failures; this one did not: the rest still start
                log.exception("starting %s failed", getattr(part, "__name__", part))
        try:
            self._bring_up(port, host)
        except Exception as exc:  # the panel keeps working without the e-paper or the buttons
            log.exception("starting the display and buttons failed")
            self.faults.report(
                "buttons" if self.pi is None else "display",
                exc,
                fix="the error says what failed; 'journalctl -u tableside' has the whole story",
            )
            self.say(f"Hardware: ERROR {type(exc).__name__}: {exc}; the phone panel still works")
        finally:
            self.ready.set()

    def _bring_up(self, port: int, host: str) -> None:
        from tableside.device.display import drive_in, find_board
        from tableside.device.driver_worker import FrameWorker
        from tableside.device.pins import PinConflict, resolve_pins
        from tableside.pi import Appliance

        cfg, args = self.cfg, self.args
        kind = "virtual" if args.simulate else cfg.display
        self.renderer = FrameWorker()  # frames are drawn in a process of their own: never holds the server
        self.renderer.start()
        drive_in(self.renderer)  # a board's driver (SPI, GPIO) runs there too, never in the server (issue 32)
        # 1. Which board is on the header: its EEPROM over I2C (or display.model); no pin is claimed yet.
        board = None
        if kind != "virtual":
            try:
                board = find_board(cfg.model)
            except (Exception, SystemExit) as exc:  # no EEPROM, no inky library: open_display says so below
                log.debug("no Inky board found: %s", exc)  # the Display line says it, once
        # 2. The buttons' and LED's pins against that board's own, before either side claims one.
        buttons, conflict = dict(cfg.buttons), None
        if board is not None:
            try:
                buttons = resolve_pins(cfg, board.panel, board.driver)
            except PinConflict as clash:  # reported with the buttons: no pin is claimed, the phone's still work
                conflict = clash
        # 3. Buttons and LED: they never wait for (or fall with) the display.
        pi = Appliance(
            cfg, self.table, self.broker, self.faults, simulate=args.simulate, buttons=buttons, conflict=conflict
        )
        with self._lock:
            if self._stopping:
                pi.close()
                return
            self.pi = pi
        pi.redraw = lambda: self.worker.request() if self.worker is not None else None
        pi.on_recovered = lambda part: self.broker.publish({"kind": "hardware", "component": part, "error": None})
        pi.controls.show_join = self._show_join  # a button hold the game leaves free shows the join screen
        # a question with a deadline goes on the e-paper only if the panel can show it in time
        pi.controls.can_show = lambda seconds: self.worker is not None and self.worker.can_show_within(seconds)
        self.table.subscribe(lambda event: self._frames.changed(event) if self._frames is not None else None)
        self.table.subscribe(lambda event: self.worker.request(event) if self.worker is not None else None)
        pi.watch_address(port, host)
        if pi.buttons.simulated and sys.stdin.isatty():
            from tableside.keys import KeyReader

            self.keys = KeyReader(pi.buttons)
            self.keys.start()
        self.say(f"Buttons: {pi.buttons_note}" + ("; keys a/b/c/d press, A/B/C/D hold" if self.keys else ""))
        # 4. The display; one that fails is reported and tried again, and the phone preview goes on.
        self._open_display(kind, board)
        self.broker.publish({"kind": "hardware", "component": "start", "error": None})  # phones re-read the status

    def _open_display(self, kind: str, board: Any) -> bool:
        """Open the display and start drawing on it; on failure draw for the phone only and retry later."""
        from tableside.device import display as display_module

        cfg, args = self.cfg, self.args
        try:
            display, note = display_module.open_display(
                kind,
                args.panel or cfg.panel,
                self.folder,
                model=cfg.model,
                refresh_seconds=None if cfg.simulate_refresh else 0.0,
                board=board,
            )
            failed = None
        except (Exception, SystemExit) as exc:  # gpiodevice exits on a busy pin
            failed = describe(exc)
            panel = display_module.get_panel(args.panel or cfg.panel or cfg.model or display_module.DEFAULT_PANEL)
            display = display_module.VirtualDisplay(panel, None, 0.0)  # frames for the phone's preview only
            note = (
                f"ERROR the e-paper display failed: {failed}; trying again every {DISPLAY_RETRY:g} s "
                "(the phone preview and the buttons work meanwhile)"
            )
            self.faults.report("display", exc, fix=DISPLAY_FIX)
        else:
            if self.display_failed is not None:  # a retry found the board
                self.faults.clear("display")
        looking = failed is None and kind == "auto" and not args.simulate and display.name == "virtual" and pi_model()
        if looking:  # on a Pi, "auto" with no board answering: look again (a board seated late, I2C turned on)
            note += f"; looking for a board again every {DISPLAY_RETRY:g} s"
        self._start_pipeline(display, note, failed)
        self.say(f"Display: {note}")
        if failed is not None or looking:
            self._start_retry(kind)
        return failed is None

    def _start_pipeline(self, display: Any, note: str, failed: str | None) -> None:
        """Frames for ``display`` and the scheduler that draws them; replaces any earlier pair."""
        from tableside.device.display import RefreshScheduler
        from tableside.display.join import JoinInfo
        from tableside.frames import FrameSource

        pi, code, key = self.pi, self.code, self.join_key

        def join() -> JoinInfo | None:
            """The join link on the panel: the LAN address or HOSTNAME.local once there is one."""
            if not pi.address.online:
                return None
            try:
                return JoinInfo(pi.address.url, code, key)
            except ValueError:
                return None

        frames = FrameSource(
            self.table,
            display.panel,
            join,
            join_seconds=self.cfg.join_seconds,
            overlay=lambda: pi.controls.panel_overlay() or next(filter(None, (o() for o in self.overlays)), None),
            waiting=lambda: pi.join_text(code),
            round_end=lambda: self.round_end(),
        )
        worker = RefreshScheduler(
            display,
            frames.image,
            min_interval=self.cfg.min_interval,
            next_change=frames.next_change,
            faults=self.faults if failed is None else None,
            settle=0.3,  # longer than the phones' re-reads of a change take, shorter than a person notices
            on_frame=lambda: self.broker.publish({"kind": "frame"}),
            # a board driven by the worker is shown from the worker's own copy: only the PNG comes here
            draw=lambda: self.renderer.frame(frames.spec(), display.panel, image=not hasattr(display, "show_frame")),
        )
        frames.show_join()  # at start the panel says how to join
        worker.start()
        with self._lock:
            stopping = self._stopping
            if not stopping:
                old = self.worker
                self.display, self.display_note, self.display_failed = display, note, failed
                self._frames, self.worker = frames, worker
        if stopping:
            worker.stop()
        elif old is not None:
            old.stop()

    def _show_join(self) -> None:
        worker = self.worker
        if worker is not None and not worker.can_show_within(self.cfg.join_seconds):
            raise RuleError(  # it would appear after its time is up: the phone's join page has the code
                f"the e-paper cannot show the join screen within its {self.cfg.join_seconds:g} s: "
                "open the join page on a phone that has joined"
            )
        if self._frames is not None:
            self._frames.show_join()
        if self.worker is not None:
            self.worker.request()

    def _start_retry(self, kind: str) -> None:
        if self._retry is not None and self._retry.is_alive():
            return
        self._retry = threading.Thread(target=self._retry_loop, args=(kind,), name="display-retry", daemon=True)
        self._retry.start()

    def _retry_loop(self, kind: str) -> None:
        """Look for the board again now and then; when it answers, draw on it from then on."""
        from tableside.device.display import find_board

        wait = DISPLAY_RETRY
        while not self._stop_retry.wait(wait):
            try:
                board = find_board(self.cfg.model)
            except (Exception, SystemExit) as exc:
                with self._lock:
                    if self.display_failed is not None:  # failing still ("auto" looking for a board is no fault)
                        self.display_failed = describe(exc)
                wait = min(wait * 2, DISPLAY_RETRY_MAX)
                continue
            if self._open_display(kind, board):
                self.broker.publish({"kind": "hardware", "component": "display", "error": None})
                return
            wait = min(wait * 2, DISPLAY_RETRY_MAX)

    def stop(self) -> None:
        """Stop in reverse order; waits (bounded) for a start still under way so nothing is left half-built."""
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._stop_retry.set()
        with self._lock:
            self._stopping = True
            keys, worker, pi = self.keys, self.worker, self.pi
        if self._retry is not None:
            self._retry.join(timeout=10)
            worker = self.worker
        if keys:
            keys.stop()
        if worker and self._frames is not None:  # the e-paper keeps its picture unpowered: never a stale game
            self._frames.turn_off()
            display = self.display
            if hasattr(display, "abandon"):  # the simulated panel: its pretend refresh may be cut, real ink never
                display.abandon()
            longest = getattr(display, "longest_refresh", None) or getattr(display, "refresh_seconds", 0.0)
            if not worker.finish(2 * longest + 10):  # a refresh under way, then the "off" frame
                log.warning("the e-paper did not show that the table is off in time")
        if worker:
            worker.stop()
        if pi:
            pi.close()
        if self.renderer is not None:
            from tableside.device.display import drive_in, drives_in

            if drives_in() is self.renderer:
                drive_in(None)
            self.renderer.close()

    def redraw(self) -> None:
        """Draw the e-paper again soon (an overlay changed); nothing until the display is up."""
        worker = self.worker
        if worker is not None:
            worker.request()

    # -- what the web layer asks -----------------------------------------------------------------
    def png(self) -> bytes:
        """The last rendered frame (b"" until the display is up)."""
        worker = self.worker
        return worker.png() if worker is not None else b""

    def press(self, label: str, hold: bool) -> Any:
        """A button pressed on the phone; at start-up it waits for the buttons to exist."""
        if not self.ready.wait(PRESS_WAIT) or self.pi is None:
            raise StillStarting(
                "the buttons are not ready: "
                + (self.faults.snapshot().get("buttons", {}).get("error") or "still starting, try again")
            )
        return self.pi.press(label, hold)

    def fitted_board(self) -> tuple[Any, Any] | None:
        """The panel and inky driver (None: virtual) of the display driven now, for the Settings page's pin check."""
        display = self.display
        return (display.panel, getattr(display, "driver", None)) if display is not None else None

    def confirm(self, serial: Any) -> dict[str, Any]:
        """A phone's Confirm of the open shutdown question: no waiting (no question opens before the buttons)."""
        pi = self.pi
        if pi is None:
            raise Conflict("no shutdown question is open: the buttons are not running, so none was asked")
        return pi.confirm(serial)

    def status(self) -> dict[str, Any]:
        """``GET /api/hardware``: the display and buttons, or that they are still starting."""
        with self._lock:
            display, note, worker, pi = self.display, self.display_note, self.worker, self.pi
            failed = self.display_failed
        out: dict[str, Any] = {
            "display": "failed" if failed else display.name if display is not None else "starting",
            "display_note": note,
            "panel": display.panel.id if display is not None else None,
            "display_error": failed or (worker.error if worker is not None else None),
        }
        if pi is not None:
            return {**out, **pi.status()}
        return {
            **out,
            "buttons": "starting",
            "buttons_note": "the buttons are starting",
            "errors": self.faults.snapshot(),
        }


FAILED_MARK = "panel-shows-error"  # the digest of the start error on the panel: a restart loop draws it once


def say_start_failed(cfg: Config, args: Any, folder: Any, port: int, exc: BaseException) -> bool:
    """A start that failed says so on the e-paper when the panel can be driven (what failed, the fix, the
    address), so the last game is never left there looking live. True when a frame was drawn."""
    from tableside.device import display as display_module
    from tableside.frames import draw, failed_screen
    from tableside.network import current

    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    what, _, fix = message.partition("; ")
    kind = "virtual" if getattr(args, "simulate", False) else cfg.display
    if kind == "virtual":
        return False  # only the server shows a virtual panel, and it is not running
    try:
        display, _note = display_module.open_display(
            kind, getattr(args, "panel", None) or cfg.panel, folder, model=cfg.model, refresh_seconds=0.0
        )
        if not isinstance(display, display_module.InkyDisplay):
            return False  # no board answered: nothing to draw on
        screen = failed_screen(what.strip(), fix.strip(), current(port).url)
        frame = display_module.make_frame(draw(("screen", screen, None), display.panel), display.panel)
        marks = _marks(folder)
        for mark in marks:
            with contextlib.suppress(OSError):
                if mark.read_text() == frame.digest:
                    return False  # this very error is on the panel already (systemd restarting): spare the ink
        display.show(frame.image)
        for mark in marks:  # a full or read-only card: the unit's runtime folder (tmpfs) keeps it instead
            try:
                mark.write_text(frame.digest)
                break
            except OSError:
                continue
    except (Exception, SystemExit) as err:  # no panel to drive: the journal has the start error anyway
        log.debug("the start error could not be drawn on the e-paper: %s", describe(err))
        return False
    return True


def _marks(folder: Any) -> list[Any]:
    """Where the drawn error's digest is kept: the data folder, then systemd's RuntimeDirectory (/run)."""
    from pathlib import Path

    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return [folder / FAILED_MARK] + ([Path(runtime) / FAILED_MARK] if runtime else [])


def forget_start_failure(folder: Any) -> None:
    """A start that worked: the next failure is drawn again."""
    for mark in _marks(folder):
        with contextlib.suppress(OSError):
            mark.unlink()
