"""``tableside serve``: build every part once, wire them, serve the panel.

Hardware is chosen here at start-up: an Inky board and the Pi's GPIO when
found, else the virtual display and gpiozero's MockFactory, and it says which.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from tableside.backup import Backups, DamagedDatabase, check_database, damaged_message
from tableside.config import cookie_secret, data_dir, join_code, load_config
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.display import RefreshScheduler, open_display
from tableside.display.join import JoinInfo
from tableside.faults import Faults
from tableside.frames import FrameSource
from tableside.lock import FolderLock
from tableside.pi import Appliance
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

log = logging.getLogger("tableside")


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

    display, display_note = open_display("virtual" if args.simulate else cfg.display, args.panel or cfg.panel, folder,
                                         model=cfg.model, refresh_seconds=None if cfg.simulate_refresh else 0.0)
    pi = Appliance(cfg, table, broker, faults, simulate=args.simulate)

    def join() -> JoinInfo | None:
        """The join link on the panel: the LAN address or HOSTNAME.local once there is one."""
        if not pi.address.online:
            return None
        try:
            return JoinInfo(pi.address.url, code)
        except ValueError:
            return None

    frames = FrameSource(table, display.panel, join, join_seconds=cfg.join_seconds, overlay=pi.controls.overlay,
                         waiting=lambda: pi.join_text(code))
    worker = RefreshScheduler(display, frames.image, min_interval=cfg.min_interval, next_change=frames.next_change,
                              faults=faults, settle=0.2)
    pi.redraw = worker.request

    def show_join() -> None:
        frames.show_join()
        worker.request()

    pi.controls.show_join = show_join  # a button hold the game leaves free shows the join screen
    table.subscribe(frames.changed)
    table.subscribe(worker.request)
    buttons = pi.buttons

    def hardware() -> dict:
        return {"display": display.name, "display_note": display_note, "panel": display.panel.id,
                "display_error": worker.error, **pi.status()}

    services = Services(
        table=table, join_code=code, frame_png=worker.png, press=pi.press, broker=broker, hardware=hardware,
        secret=cookie_secret(folder), names=cfg.names,
    )
    app = create_app(services)

    from tableside.webui.server import make_server  # waitress with appliance limits, never Flask's dev server

    server = make_server(app, broker, cfg.limits, host, port)
    actual_port = server.effective_port
    lock.describe(f"serving on port {actual_port}")
    pi.watch_address(int(actual_port), host)
    frames.show_join()  # at start the panel says how to join
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
