"""``tableside serve``: build every part once, wire them, serve the panel.

Hardware is chosen here at start-up: an Inky board and the Pi's GPIO when
found, else the virtual display and gpiozero's MockFactory, and it says which.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from typing import Any

from tableside.backup import Backups, DamagedDatabase, check_database, damaged_message
from tableside.config import cookie_secret, data_dir, join_code, load_config
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.display import DisplayWorker, open_display
from tableside.display.render import placeholder_screen, render, to_png
from tableside.faults import Faults
from tableside.lock import FolderLock
from tableside.pi import Appliance
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

log = logging.getLogger("tableside")


class Frames:
    """The current e-paper frame: drawn by the display thread, served to ``GET /display.png``.

    The render (and its PNG) happens on the display thread only: ``png()`` hands
    out the newest frame that thread made, so a phone asking for the picture
    never waits for a render (on a Pi Zero a render costs more than an action).
    The display thread waits ``settle`` seconds after a change and runs at a
    lower priority, so the phones' re-fetches after a change go first. Without a
    display thread (tests), ``png()`` renders on demand.
    """

    def __init__(self, table: Table, panel, overlay=None, join=None, settle: float = 0.0) -> None:
        self.table = table
        self.panel = panel
        self.overlay = overlay or (lambda: None)  # the buttons' own prompt (shutdown, dice entry)
        self.join = join or (lambda: "Start a game on the phone panel")  # the address, once there is one
        self.settle = settle
        self._lock = threading.Lock()
        self._key: Any = None
        self._png = b""
        self._drawn_by_thread = False
        self._niced = False

    def image(self):
        from tableside.pi import prompt_screen

        prompt = self.overlay()
        if prompt is not None:
            return render(prompt_screen(prompt), self.panel)
        if not self.table.has_active():
            return render(placeholder_screen(self.join()), self.panel)
        return render(self.table.screen(), self.panel)

    def _now(self) -> Any:
        return (self.table.position(), repr(self.overlay()), self.join())

    def draw(self):
        """The display thread's frame source: render once, keep the PNG for the phones."""
        if not self._niced:
            self._niced = True
            with contextlib.suppress(OSError, AttributeError):  # Linux: a thread has its own nice value
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        if self.settle:
            time.sleep(self.settle)
        key = self._now()
        image = self.image()
        png = to_png(image, self.panel)
        with self._lock:
            self._png, self._key, self._drawn_by_thread = png, key, True
        return image

    def png(self) -> bytes:
        with self._lock:
            if self._png and (self._drawn_by_thread or self._key == self._now()):
                return self._png
            key = self._now()
            self._png, self._key = to_png(self.image(), self.panel), key
            return self._png


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)
    cfg = load_config(args.config)
    folder = data_dir(args.data, cfg.data)
    folder.mkdir(parents=True, exist_ok=True)
    host = args.host or cfg.host
    port = cfg.port if args.port is None else args.port
    code = join_code(folder)
    lock = FolderLock(folder).acquire()  # before the database is opened: one server per folder
    try:
        db_path = folder / "tableside.db"
        problem = check_database(db_path)  # PRAGMA quick_check; a damaged file is named, never overwritten
        if problem is not None:
            raise DamagedDatabase(damaged_message(db_path, problem, Backups(db_path)))
        return _serve(args, cfg, folder, host, port, code, lock)
    finally:
        lock.release()


def _serve(args: argparse.Namespace, cfg, folder, host: str, port: int, code: str, lock: FolderLock) -> int:
    store = Store(folder / "tableside.db")
    table = Table(store)
    broker = Broker(max_streams=cfg.limits.max_streams)
    table.subscribe(broker.publish)
    backups = Backups(store.path)  # at each round's end and every 5 minutes of play, 10 kept
    table.subscribe(backups.start(lambda: table.view()["state"] if table.has_active() else None))

    faults = Faults(folder)
    faults.reset()  # the file holds this run's errors: the doctor reports what is wrong now
    faults.subscribe(lambda component, record: broker.publish({"kind": "hardware", "component": component,
                                                               "error": record}))

    display, display_note = open_display("virtual" if args.simulate else cfg.display, args.panel or cfg.panel, folder)
    pi = Appliance(cfg, table, broker, faults, simulate=args.simulate)
    frames = Frames(table, display.panel, overlay=pi.controls.overlay, join=lambda: pi.join_text(code), settle=0.2)
    worker = DisplayWorker(display, frames.draw, faults=faults)
    pi.redraw = worker.request
    table.subscribe(worker.request)
    buttons = pi.buttons

    def hardware() -> dict:
        return {"display": display.name, "display_note": display_note, "panel": display.panel.id,
                "display_error": worker.error, **pi.status()}

    services = Services(
        table=table, join_code=code, frame_png=frames.png, press=pi.press, broker=broker, hardware=hardware,
        secret=cookie_secret(folder), names=cfg.names,
    )
    app = create_app(services)

    from tableside.webui.server import make_server  # waitress with appliance limits, never Flask's dev server

    server = make_server(app, broker, cfg.limits, host, port)
    actual_port = server.effective_port
    lock.describe(f"serving on port {actual_port}")
    pi.watch_address(int(actual_port), host)
    worker.start()
    keys = None
    if buttons.simulated and sys.stdin.isatty():
        from tableside.keys import KeyReader

        keys = KeyReader(buttons)
        keys.start()

    where = pi.address
    if where.urls:
        also = f" (also {', '.join(where.urls[1:])})" if len(where.urls) > 1 else ""
        print(f"Tableside is serving on {where.urls[0]}{also}", flush=True)
        print(f"Join code: {code}   (phones: {where.url}join?code={code})", flush=True)
    else:
        print(f"Tableside is serving on port {actual_port}, but this machine has no network address yet: "
              f"the join screen shows it once Wi-Fi connects", flush=True)
        print(f"Join code: {code}", flush=True)
    print(f"Display: {display_note}", flush=True)
    print(f"Buttons: {pi.buttons_note}" + ("; keys a/b/c/d press, A/B/C/D hold" if keys else ""), flush=True)
    print(f"Data: {folder}", flush=True)

    def stop(_signum, _frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        broker.close()
        if keys:
            keys.stop()
        server.close_all()
        backups.stop()
        worker.stop()
        pi.close()
        store.close()
    return 0
