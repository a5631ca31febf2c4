"""``tableside doctor``: the data folder, the database, the port and the last errors ``tableside serve``
kept; all only looked at (the database read-only), on any machine."""

import errno
import json
import os
import pwd
import re
import socket
import urllib.request
from pathlib import Path

from tableside import faults as faults_file
from tableside import storage
from tableside.config import Config
from tableside.doctor_pi import Check

# -- the data folder, the database and the port ----------------------------------------------------------------


def check_data(folder: Path, service_user: str | None = None) -> list[Check]:
    """The folder and the database, only looked at: the doctor never creates the folder it was asked about."""
    from tableside.backup import Backups, check_database, damaged_message

    me = pwd.getpwuid(os.getuid()).pw_name
    trouble = storage.problem(folder)  # a full or read-only card first: no chown, no "move the file" helps
    if not folder.exists():
        made = Check(True, f"data folder {folder} does not exist yet: 'tableside serve' makes it at the first start")
        return [made] if trouble is None else [made, Check(False, trouble.message, trouble.fix)]
    if not folder.is_dir():
        return [Check(False, f"data folder {folder} is not a folder", "point [server] data (or --data) at a folder")]
    owner = _owner(folder)
    if trouble is not None:
        checks = [Check(False, trouble.message, trouble.fix)]
    elif service_user and owner != service_user:
        checks = [
            Check(
                False,
                f"data folder {folder} belongs to {owner}, not to the service's user {service_user}",
                f"sudo chown -R {service_user} {folder}",
            )
        ]
    elif os.access(folder, os.W_OK | os.X_OK):
        checks = [Check(True, f"data folder {folder} is writable")]
    elif service_user and me != service_user:
        checks = [Check(True, f"data folder {folder} belongs to the service's user {service_user}")]
    else:
        checks = [
            Check(
                False,
                f"data folder {folder} is not writable by {me} (it belongs to {owner})",
                f"sudo chown -R {me} {folder} (or use --data)",
            )
        ]
    db = folder / "tableside.db"
    if not db.exists():
        return checks
    if not os.access(db, os.R_OK):
        return [*checks, Check(True, f"{db} belongs to {_owner(db)}: run the doctor as that user to check it")]
    problem = check_database(db)  # read-only: PRAGMA quick_check on a mode=ro connection
    if problem is not None and trouble is not None:  # a full card answers "disk I/O error": not damage
        return [*checks, Check(True, f"the database {db} could not be checked on a {trouble.kind} card ({problem})")]
    if problem is None:
        return [*checks, Check(True, f"the database {db} passes SQLite's quick check"), *_rows_check(db)]
    message = damaged_message(db, problem, Backups(db))
    head, _, way_out = message.partition(". ")
    return [*checks, Check(False, head, way_out or "move the file away to start an empty table")]


def _rows_check(db: Path) -> list[Check]:
    """Rows damaged inside a file that passes quick_check (core.rowcheck): named, with the newest good backup."""
    import sqlite3

    from tableside.backup import Backups, describe
    from tableside.core.rowcheck import damaged_rows, newer_schema
    from tableside.core.store import MIGRATIONS, SCHEMA

    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            newer = newer_schema(conn, len(MIGRATIONS), SCHEMA.read_text())
            found, truth = damaged_rows(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return [Check(False, f"the rows of {db} could not be read ({exc})", "run 'tableside restore'")]
    if newer:
        return [Check(False, f"{db}: {newer.split(': ')[0]}", newer.split("; ", 1)[-1])]
    if not found:
        return []
    good = Backups(db).newest_good()
    backup = f"the newest good backup is {good} ({describe(good)})" if good else "no good backup was found"
    words = "; ".join(found)
    if not truth:
        return [Check(True, f"damaged cached states in {db}, rebuilt from the log: {words}")]
    return [
        Check(
            False,
            f"damaged rows in {db} (the file itself passes the quick check): {words}",
            f"{backup}: 'tableside restore' puts it in place and re-applies every readable newer entry"
            if good
            else f"{backup}: 'tableside export' writes every readable entry",
        )
    ]


def _owner(path: Path) -> str:
    try:
        return pwd.getpwuid(path.stat().st_uid).pw_name
    except (KeyError, OSError):
        return "another user"


def check_port(cfg: Config) -> Check:
    port = cfg.port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("0.0.0.0" if cfg.host in ("", "0.0.0.0") else cfg.host, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                return Check(
                    False,
                    f"cannot listen on port {port} ({exc.strerror})",
                    "ports below 1024 need root: keep the default 8080",
                )
            if _is_tableside(port):
                return Check(True, f"port {port}: Tableside is already serving there")
            return Check(
                False,
                f"port {port} is used by another program",
                f"stop it ('sudo ss -ltnp sport = :{port}' names it) or set [server] port in the config",
            )
    return Check(True, f"port {port} is free")


def _is_tableside(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return json.loads(response.read(1000)) == {"ok": True}
    except Exception:
        return False


SELF = re.compile(r"(run )?'?tableside doctor'?( for [^;,.]*)?")


def check_last_errors(folder: Path) -> list[Check]:
    """The last display, button and pin errors the running (or last) ``tableside serve`` kept."""
    errors = faults_file.read(folder)
    if not errors:
        return [Check(True, "no display or button errors recorded by tableside serve")]
    out = []
    for name, record in sorted(errors.items()):
        fix = str(record.get("fix") or "")
        if "tableside doctor" in fix:  # an older server's advice: the doctor is already running
            fix = SELF.sub("", fix).strip(" ;,()") or ""
        out.append(
            Check(
                False,
                f"last {name} error (x{record.get('count', 1)}): {record.get('error', '?')}",
                fix or "see 'journalctl -u tableside' for what led to it",
            )
        )
    return out
