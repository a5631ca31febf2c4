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

from tableside.config import data_dir, join_code, load_config
from tableside.core.errors import TablesideError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import ButtonPanel, default_factory, mock_factory
from tableside.device.display import RefreshScheduler, open_display
from tableside.display.join import JoinInfo
from tableside.frames import FrameSource
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

log = logging.getLogger("tableside")


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


def _join_info(address: str, port: int, code: str) -> JoinInfo | None:
    """The join link for the panel: the LAN address, else HOSTNAME.local (never loopback)."""
    url = f"http://{address}:{port}"
    if address.startswith("127.") or address == "localhost":
        url = f"http://{socket.gethostname()}.local:{port}"
    try:
        return JoinInfo(url, code)
    except ValueError:
        return None


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)
    cfg = load_config(args.config)
    folder = data_dir(args.data)
    folder.mkdir(parents=True, exist_ok=True)
    host = args.host or cfg.host
    port = cfg.port if args.port is None else args.port
    code = join_code(folder)

    store = Store(folder / "tableside.db")
    table = Table(store)
    broker = Broker()
    table.subscribe(broker.publish)

    display, display_note = open_display("virtual" if args.simulate else cfg.display, args.panel or cfg.panel, folder,
                                         model=cfg.model, refresh_seconds=None if cfg.simulate_refresh else 0.0)
    frames = FrameSource(table, display.panel, None, join_seconds=cfg.join_seconds)
    worker = RefreshScheduler(display, frames.image, min_interval=cfg.min_interval, next_change=frames.next_change)
    table.subscribe(frames.changed)
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
        if hold and not table.has_bound(label, hold):  # an unbound hold shows how to join
            frames.show_join()
            worker.request()
            return {"summary": "the join screen is on the panel"}
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
        table=table, join_code=code, frame_png=worker.png, press=press, broker=broker, hardware=hardware
    )
    app = create_app(services)

    from waitress import create_server  # production WSGI server, never Flask's dev server

    server = create_server(app, host=host, port=port, threads=cfg.threads, channel_timeout=60)
    actual_port = server.effective_port
    shown = ["127.0.0.1"] if host in ("127.0.0.1", "localhost") else (lan_addresses() or ["127.0.0.1"])
    frames.set_join(_join_info(shown[0], actual_port, code))
    frames.show_join()  # at start the panel says how to join
    worker.start()
    keys = None
    if buttons.simulated and sys.stdin.isatty():
        from tableside.keys import KeyReader

        keys = KeyReader(buttons)
        keys.start()

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
        server.close()
        worker.stop()
        buttons.close()
        store.close()
    return 0
