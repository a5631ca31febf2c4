"""``tableside serve``: build every part once, wire them, serve the panel.

Hardware is chosen here at start-up: an Inky board and the Pi's GPIO when
found, else the virtual display and gpiozero's MockFactory, and it says which.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import threading
from typing import Any

from tableside.config import cookie_secret, data_dir, join_code, load_config
from tableside.core.errors import TablesideError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import ButtonPanel, default_factory, mock_factory
from tableside.device.display import DisplayWorker, open_display
from tableside.display.render import placeholder_screen, render, to_png
from tableside.lock import FolderLock
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

log = logging.getLogger("tableside")


class Frames:
    """The current e-paper frame, rendered once per (session, version)."""

    def __init__(self, table: Table, panel) -> None:
        self.table = table
        self.panel = panel
        self._lock = threading.Lock()
        self._key: Any = None
        self._png = b""

    def image(self):
        if not self.table.has_active():
            return render(placeholder_screen("Start a game on the phone panel"), self.panel)
        return render(self.table.screen(), self.panel)

    def png(self) -> bytes:
        with self._lock:
            key = self.table.position()
            if key != self._key or not self._png:
                self._png, self._key = to_png(self.image(), self.panel), key
            return self._png


def lan_addresses() -> list[str]:
    """This machine's addresses, for the URL to print (no traffic is sent)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = info[4][0]
            if not addr.startswith("127.") and addr not in found:
                found.append(addr)
    except OSError:
        pass
    return found


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)
    cfg = load_config(args.config)
    folder = data_dir(args.data)
    folder.mkdir(parents=True, exist_ok=True)
    host = args.host or cfg.host
    port = cfg.port if args.port is None else args.port
    code = join_code(folder)
    lock = FolderLock(folder).acquire()  # before the database is opened: one server per folder
    try:
        return _serve(args, cfg, folder, host, port, code, lock)
    finally:
        lock.release()


def _serve(args: argparse.Namespace, cfg, folder, host: str, port: int, code: str, lock: FolderLock) -> int:
    store = Store(folder / "tableside.db")
    table = Table(store)
    broker = Broker(max_streams=cfg.limits.max_streams)
    table.subscribe(broker.publish)

    display, display_note = open_display("virtual" if args.simulate else cfg.display, args.panel or cfg.panel, folder)
    frames = Frames(table, display.panel)
    worker = DisplayWorker(display, frames.image)
    table.subscribe(worker.request)

    if args.simulate:
        factory, buttons_note = mock_factory(), "virtual buttons (gpiozero MockFactory)"
    else:
        try:
            factory, buttons_note = default_factory(), "GPIO buttons"
        except Exception as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            factory, buttons_note = mock_factory(), f"no GPIO found ({reason}): virtual buttons"

    def on_button(label: str, hold: bool) -> dict:
        try:
            return table.press(label, hold, source="button")
        except TablesideError as exc:
            broker.publish({"kind": "rejected", "message": exc.message})
            raise

    buttons = ButtonPanel(on_button, factory, cfg.buttons, hold_time=cfg.hold_time)

    def press(label: str, hold: bool) -> dict:
        if buttons.simulated:
            return buttons.simulate(label, hold)
        return table.press(label, hold, source="phone")

    hardware = {
        "display": display.name,
        "display_note": display_note,
        "panel": display.panel.id,
        "buttons": "mock" if buttons.simulated else "gpio",
        "buttons_note": buttons_note,
    }
    services = Services(
        table=table, join_code=code, frame_png=frames.png, press=press, broker=broker, hardware=hardware,
        secret=cookie_secret(folder), names=cfg.names,
    )
    app = create_app(services)

    from tableside.webui.server import make_server  # waitress with appliance limits, never Flask's dev server

    server = make_server(app, broker, cfg.limits, host, port)
    actual_port = server.effective_port
    lock.describe(f"serving on port {actual_port}")
    worker.start()
    keys = None
    if buttons.simulated and sys.stdin.isatty():
        from tableside.keys import KeyReader

        keys = KeyReader(buttons)
        keys.start()

    shown = ["127.0.0.1"] if host in ("127.0.0.1", "localhost") else (lan_addresses() or ["127.0.0.1"])
    print(f"Tableside is serving on http://{shown[0]}:{actual_port}/", flush=True)
    print(f"Join code: {code}   (phones: http://{shown[0]}:{actual_port}/join?code={code})", flush=True)
    print(f"Display: {display_note}", flush=True)
    print(f"Buttons: {buttons_note}" + ("; keys a/b/c/d press, A/B/C/D hold" if keys else ""), flush=True)
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
        worker.stop()
        buttons.close()
        store.close()
    return 0
