"""``tableside serve``: build every part once, wire them, serve the panel.

The table, its data and the web panel come first; the hardware (an Inky
board and the Pi's GPIO when found, else the virtual display and gpiozero's
MockFactory, and it says which) comes up right after, on its own thread
(``tableside.hardware``), so a phone can join while the e-paper warms up.
"""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import os
import signal
import socket
import sqlite3
import threading

from tableside import announce, preflight, service, storage
from tableside.backup import (
    Backups,
    DamagedDatabase,
    check_database,
    damaged_message,
    missing_entries,
    older_message,
)
from tableside.config import Config, ConfigError, cookie_secret, data_dir, join_code, load_config
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.faults import Faults
from tableside.hardware import Hardware, forget_start_failure, say_start_failed
from tableside.lock import FolderLock
from tableside.network import current
from tableside.smartdice import DiceStarting
from tableside.storage import StorageFault
from tableside.webui.app import Services, create_app
from tableside.webui.auth import join_key
from tableside.webui.games import new_games_for
from tableside.webui.rounds import told_by
from tableside.webui.server import make_server  # asyncio + h11 with appliance limits, never Flask's dev server
from tableside.webui.stream import Broker

log = logging.getLogger("tableside")


def run_serve(args: argparse.Namespace) -> int:
    service.setup_logging()  # with journal priorities when stderr is the journal (journalctl -p err)
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        say_start_failed(Config(), args, data_dir(args.data, None), args.port or Config().port, exc)
        raise
    folder = data_dir(args.data, cfg.data)
    try:
        host = args.host or cfg.host
        preflight.check_host(host, "--host" if args.host else f"config file {args.config}: [server] host")
        preflight.check_dice_extra(cfg, args.config)
        preflight.check_button_map(cfg, args.config)
        return _checked_serve(args, cfg, folder)
    except Exception as exc:  # the e-paper says the table did not start, never the last game as if live
        say_start_failed(cfg, args, folder, cfg.port if args.port is None else args.port, exc)
        raise


def _checked_serve(args: argparse.Namespace, cfg, folder) -> int:
    trouble = storage.problem(folder)  # before anything is written: a full card is not a damaged database
    if trouble is not None:
        raise StorageFault(str(trouble))
    try:
        return _run_serve(args, cfg, folder)
    except (OSError, sqlite3.Error) as exc:
        if not storage.is_storage_error(exc):
            raise
        trouble = storage.problem(folder)  # it filled up (or went read-only) while starting
        raise StorageFault(
            str(trouble)
            if trouble
            else f"the data folder {folder} could not be written ({_said(exc)}); the games are safe"
        ) from exc


def _said(exc: BaseException) -> str:
    """An error in words: an OSError without its bare ``[Errno N]`` (preflight.describe_os_error)."""
    return preflight.describe_os_error(exc) if isinstance(exc, OSError) else str(exc)


def _run_serve(args: argparse.Namespace, cfg, folder) -> int:
    preflight.data_folder_ready(folder)  # a file in its place, another user's folder: said with the fix
    host = args.host or cfg.host
    port = cfg.port if args.port is None else args.port
    code = join_code(folder)
    lock = FolderLock(folder).acquire()  # before the database is opened: one server per folder
    try:
        db_path = folder / "tableside.db"
        from tableside.backup import hash_backup_tokens, remove_stale_temps
        from tableside.private import tighten

        remove_stale_temps(db_path)  # a backup killed mid-copy: no one else holds the folder now
        hash_backup_tokens(db_path)  # backups made before seat tokens were hashed keep none in clear
        tighten(folder)  # 0700/0600 also for what an older version or a shell's restore left
        problem = check_database(db_path)  # PRAGMA quick_check; a damaged file is named, never overwritten
        if problem is not None:
            raise DamagedDatabase(damaged_message(db_path, problem, Backups(db_path)))
        newest = next(iter(Backups(db_path).list()), None)
        missing = missing_entries(db_path, newest) if newest is not None and db_path.exists() else []
        if missing:  # e.g. the journal file was lost: starting would hide that entries are gone
            raise DamagedDatabase(older_message(db_path, newest, missing))
        return _serve(args, cfg, folder, host, port, code, lock)
    finally:
        lock.release()


def _listen(app, broker: Broker, cfg, host: str, port: int):
    """The listening server, or a ConfigError saying which port or address failed and what to do."""
    try:
        return make_server(app, broker, cfg.limits, host, port)
    except ValueError as exc:  # waitress: "Invalid host/port specified." (a name that stopped resolving)
        raise ConfigError(f"cannot listen on {host}: {exc} {preflight.HOST_FIX} with --host or [server] host") from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {port} is already in use on {host} (another tableside serve, or another program): stop it, "
                f"or choose another port with --port N (or [server] port in the config file)"
            ) from None
        if exc.errno == errno.EACCES:
            raise ConfigError(
                f"port {port} needs root on this system: choose a port from 1024 up with --port N "
                f"(tableside never runs as root)"
            ) from None
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(exc, socket.gaierror):
            raise ConfigError(
                f"cannot listen on {host}: it is not an address of this machine; use 0.0.0.0 (every network) "
                f"or 127.0.0.1 (this machine only) with --host or [server] host"
            ) from None
        raise


def _serve(args: argparse.Namespace, cfg, folder, host: str, port: int, code: str, lock: FolderLock) -> int:
    # Start-up builds many objects and frees few: the CLI turned collections off before importing; they
    # are turned on and the start-up heap frozen once serving, so later collections skip it. benchmarks/: pi-sized.
    store = Store(folder / "tableside.db")
    table = Table(store)
    new_games_for(table).per_minute = cfg.limits.new_games_per_minute
    broker = Broker(max_streams=cfg.limits.max_streams)
    table.subscribe(broker.publish)
    faults = Faults(folder)
    faults.reset()  # the file holds this run's errors: the doctor reports what is wrong now

    def backup_failed(error: str | None) -> None:
        if error is None:
            faults.clear("backups")
        else:
            faults.report("backups", error, fix="free space on the SD card; 'tableside doctor' checks the data folder")

    def journal() -> None:
        why = table.check_journal()
        if why:
            faults.report("database", why, fix="find what deletes files in the data folder")

    # at each round's end and every 5 minutes of play (at most once a minute), 10 kept; the journal watched
    backups = Backups(store.path, on_error=backup_failed)
    table.subscribe(backups.start(table.current_state, watch=journal))
    faults.subscribe(
        lambda component, record: broker.publish({"kind": "hardware", "component": component, "error": record})
    )
    secret = cookie_secret(folder)
    hardware = Hardware(
        cfg,
        args,
        table,
        broker,
        faults,
        folder,
        code,
        say=lambda line: print(line, flush=True),
        join_key=join_key(secret, code),
    )
    services = Services(
        table=table,
        join_code=code,
        frame_png=hardware.png,
        press=hardware.press,
        confirm=hardware.confirm,
        broker=broker,
        hardware=hardware.status,
        secret=secret,
        names=cfg.names,
    )
    restart_asked = threading.Event()

    def restart() -> None:  # systemd's Restart=on-failure brings the service back (tableside.service)
        restart_asked.set()
        server.stop_soon()

    from tableside.settings import TableSettings

    # Settings from the phone (#32): the restart is offered only where something will start the table again.
    services.settings = TableSettings(
        args.config, folder, restart if os.environ.get("INVOCATION_ID") else None, board=hardware.fitted_board
    )
    if cfg.dice != "none":  # opened on the hardware thread, after the first answer; "starting" until then
        starting = services.dice = DiceStarting()
        services.hardware = lambda: _with_dice(hardware.status(), services.dice)

        def open_smart_dice() -> None:
            dice = None
            try:
                dice = _smart_dice(cfg, args, folder, table, broker, faults, hardware, services)
            finally:  # a request waiting for the dice is answered whatever happened
                starting.opened(dice)

        hardware.also_start(open_smart_dice)
    app = create_app(services)
    hardware.round_end = told_by(app, table)  # the e-paper tells a round's end from the phones' history book
    server = _listen(app, broker, cfg, host, port)
    actual_port = int(server.effective_port)
    lock.describe(f"serving on port {actual_port}")

    where = current(actual_port, host)
    if where.urls:
        also = f" (also {', '.join(where.urls[1:])})" if len(where.urls) > 1 else ""
        print(f"Tableside is serving on {where.urls[0]}{also}", flush=True)
        print(f"Join code: {code}   (phones: {where.url}join?code={code})", flush=True)
    else:
        print(
            f"Tableside is serving on port {actual_port}, but this machine has no network address yet: "
            f"the join screen shows it once Wi-Fi connects",
            flush=True,
        )
        print(f"Join code: {code}", flush=True)
    print(f"Data: {folder}", flush=True)
    from tableside.webui.owner import first_pin

    answered = threading.Event()  # set by the first answer: what waits for it starts then
    pin = first_pin(folder, after=answered)  # never on the e-paper, which guests read; only its hash is kept
    if pin is not None:
        print(
            f"Owner PIN: {pin}   (opens the phone's Settings page; shown once: 'tableside owner-pin' makes a new one)",
            flush=True,
        )
    else:
        print("Owner PIN: set ('tableside owner-pin' makes a new one if it is lost)", flush=True)
    # "Tableside on HOSTNAME" over mDNS (_http._tcp), on a thread of its own: phones and scanners list it
    announcement = announce.start(cfg.announce, host, actual_port, say=lambda line: print(line, flush=True))

    @app.after_request
    def _first_answer(response):
        answered.set()
        return response

    forget_start_failure(folder)
    # the e-paper and buttons come up once the panel has answered (or a second on), on a thread of their own
    hardware.start(actual_port, host, after=answered)
    threading.Thread(target=_know_every_system, args=(table, answered), name="systems", daemon=True).start()

    def stop(_signum, _frame):  # run() returns once every connection is closed
        service.notify("STOPPING=1")
        server.stop_soon()

    signal.signal(signal.SIGTERM, stop)
    gc.enable()
    gc.freeze()
    interval = service.watchdog_interval()
    watchdog = service.Watchdog(actual_port, host, interval) if interval else None
    service.notify("READY=1")  # the socket listens: a phone's request waits in its queue, never refused
    if watchdog is not None:
        watchdog.start()
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        if watchdog is not None:
            watchdog.stop()
        if announcement is not None:
            announcement.stop()  # a goodbye: phones drop the entry at once
        broker.close()
        server.close_all()
        backups.stop()
        hardware.stop()  # waits for a start still under way: the smart dice are open or never will be
        if services.dice is not None:
            services.dice.close()
        table.close()
    if restart_asked.is_set():
        log.warning("restarting, as the Settings page asked: systemd starts the service again")
        return RESTART_EXIT
    return 0


RESTART_EXIT = 75  # EX_TEMPFAIL: a failure to systemd, so Restart=on-failure starts the service again


def _know_every_system(table: Table, answered: threading.Event, within: float = 1.0) -> None:
    """Import every game system once the panel has answered (or ``within`` seconds on), off the phones' path:
    the page's first request (``GET /api/systems``) otherwise waits for it, 200 ms on a PC, more on a Pi."""
    answered.wait(within)
    try:
        table.systems()
    except Exception:  # a phone's own request says it in words; this one only saves it the wait
        log.exception("reading the game systems failed")


def _with_dice(status: dict, dice) -> dict:
    """``GET /api/hardware`` with the smart dice's part (none once opening found no dice or failed)."""
    return {**status, "smart_dice": dice.hardware()} if dice is not None else status


def _smart_dice(cfg, args, folder, table, broker, faults, hardware, services):
    """Smart dice per ``[dice] kind`` (docs/smart-dice.md) in ``services.dice`` and returned, or None; says
    which, like the display and buttons. Runs on the hardware thread: the phones re-read the dice then."""
    from tableside.smartdice import open_dice

    def away(text: str) -> None:
        if text.endswith(" is back"):
            faults.clear("dice")
            log.info("smart dice: %s", text)
        else:
            faults.report("dice", text, fix="bring the die closer, wake it (roll it) or charge it")

    def waiting_changed() -> None:  # what waits for dice is on the e-paper too
        broker.publish({"kind": "dice"})
        hardware.redraw()

    try:
        dice, note = open_dice(
            cfg,
            args.simulate,
            folder,
            table,
            on_change=lambda: broker.publish({"kind": "dice"}),
            on_wait_change=waiting_changed,
            report=away,
        )
    except Exception as exc:  # the table plays on without smart dice, and says why
        log.exception("starting the smart dice failed")
        faults.report("dice", exc, fix="run 'tableside doctor'")
        services.dice = None
        hardware.say(f"Smart dice: ERROR {type(exc).__name__}: {exc}")
        broker.publish({"kind": "dice"})
        return None
    if dice is not None:
        hardware.overlays.append(dice.feed.overlay)
        # A die that lands while the buttons ask for faces finishes that roll (docs/smart-dice.md).
        dice.feed.from_buttons = lambda: hardware.pi.controls.hand_to_dice() if hardware.pi is not None else None
    services.dice = dice
    hardware.say(f"Smart dice: {note}")
    broker.publish({"kind": "dice"})  # a dice page open since "starting" reads them now
    return dice
