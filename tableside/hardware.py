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

import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from tableside.config import Config
from tableside.core.errors import TablesideError
from tableside.faults import Faults

log = logging.getLogger("tableside")

PRESS_WAIT = 30.0  # seconds a phone press at start-up waits for the buttons to exist


class StillStarting(TablesideError):
    """The buttons are not up yet (a few seconds after start on a Pi Zero)."""

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
    ) -> None:
        self.cfg, self.args, self.table, self.broker, self.faults = cfg, args, table, broker, faults
        self.folder, self.code, self.say = folder, code, say
        self.display: Any = None
        self.display_note = "the display is starting"
        self.worker: Any = None
        self.pi: Any = None
        self.keys: Any = None
        self.ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._lock = threading.Lock()
        # More prompts for the e-paper after the buttons' own (the smart dice: "waiting for 3 d10").
        self.overlays: list[Callable[[], dict[str, Any] | None]] = []

    # -- start and stop ------------------------------------------------------------------------
    def start(self, port: int, host: str) -> None:
        """Bring everything up on a thread of its own; returns at once."""
        self._thread = threading.Thread(target=self._start, args=(port, host), name="hardware-start", daemon=True)
        self._thread.start()

    def _start(self, port: int, host: str) -> None:
        try:
            self._bring_up(port, host)
        except Exception as exc:  # the panel keeps working without the e-paper or the buttons
            log.exception("starting the display and buttons failed")
            self.faults.report(
                "display" if self.display is None else "buttons",
                exc,
                fix="run 'tableside doctor' for what is connected and how it is set up",
            )
            self.say(f"Hardware: ERROR {type(exc).__name__}: {exc}; the phone panel still works")
        finally:
            self.ready.set()

    def _bring_up(self, port: int, host: str) -> None:
        from tableside.device.display import RefreshScheduler, open_display
        from tableside.display.join import JoinInfo
        from tableside.frames import FrameSource
        from tableside.pi import Appliance

        cfg, args = self.cfg, self.args
        display, note = open_display(
            "virtual" if args.simulate else cfg.display,
            args.panel or cfg.panel,
            self.folder,
            model=cfg.model,
            refresh_seconds=None if cfg.simulate_refresh else 0.0,
        )
        with self._lock:
            self.display, self.display_note = display, note
        pi = Appliance(cfg, self.table, self.broker, self.faults, simulate=args.simulate)
        code = self.code

        def join() -> JoinInfo | None:
            """The join link on the panel: the LAN address or HOSTNAME.local once there is one."""
            if not pi.address.online:
                return None
            try:
                return JoinInfo(pi.address.url, code)
            except ValueError:
                return None

        frames = FrameSource(
            self.table,
            display.panel,
            join,
            join_seconds=cfg.join_seconds,
            overlay=lambda: pi.controls.overlay() or next(filter(None, (o() for o in self.overlays)), None),
            waiting=lambda: pi.join_text(code),
        )
        worker = RefreshScheduler(
            display,
            frames.image,
            min_interval=cfg.min_interval,
            next_change=frames.next_change,
            faults=self.faults,
            settle=0.2,
            on_frame=lambda: self.broker.publish({"kind": "frame"}),
        )
        pi.redraw = worker.request

        def show_join() -> None:
            frames.show_join()
            worker.request()

        pi.controls.show_join = show_join  # a button hold the game leaves free shows the join screen
        self.table.subscribe(frames.changed)
        self.table.subscribe(worker.request)
        pi.watch_address(port, host)
        frames.show_join()  # at start the panel says how to join
        with self._lock:
            if self._stopping:  # stopped while starting: undo what was built
                pi.close()
                return
            self.pi, self.worker = pi, worker
        worker.start()
        if pi.buttons.simulated and sys.stdin.isatty():
            from tableside.keys import KeyReader

            self.keys = KeyReader(pi.buttons)
            self.keys.start()
        self.broker.publish({"kind": "hardware", "component": "start", "error": None})  # phones re-read the status
        self.say(f"Display: {note}")
        self.say(f"Buttons: {pi.buttons_note}" + ("; keys a/b/c/d press, A/B/C/D hold" if self.keys else ""))

    def stop(self) -> None:
        """Stop in reverse order; waits (bounded) for a start still under way so nothing is left half-built."""
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            self._stopping = True
            keys, worker, pi = self.keys, self.worker, self.pi
        if keys:
            keys.stop()
        if worker:
            worker.stop()
        if pi:
            pi.close()

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

    def status(self) -> dict[str, Any]:
        """``GET /api/hardware``: the display and buttons, or that they are still starting."""
        with self._lock:
            display, note, worker, pi = self.display, self.display_note, self.worker, self.pi
        out: dict[str, Any] = {
            "display": display.name if display is not None else "starting",
            "display_note": note,
            "panel": display.panel.id if display is not None else None,
            "display_error": worker.error if worker is not None else None,
        }
        if pi is not None:
            return {**out, **pi.status()}
        return {
            **out,
            "buttons": "starting",
            "buttons_note": "the buttons are starting",
            "errors": self.faults.snapshot(),
        }
