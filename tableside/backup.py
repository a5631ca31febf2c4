"""Rotating backups of the table's database, and the way out when it is damaged.

An SD card can lose a file (a power cut mid-write on a worn card, a full card).
The log is the truth, so a copy of it is the game:

- **Backups** are made with SQLite's online backup API from a separate
  connection (WAL readers never block the table's writer), written to a
  temporary name, fsynced and renamed, so a backup on disk is always whole.
  One is made at the end of each round (the state's ``round`` goes up) and
  every ``every`` seconds of play, only when something changed and never more
  than once every ``at_most_every`` seconds (a minute: a guest ending rounds in
  a loop made 77 whole copies in 20 s, wear and stalls on an SD card); the
  newest ``keep`` are kept. Backups are
  numbered, not dated: a Pi without a clock boots with the wrong time.
- **At start-up** ``PRAGMA quick_check`` reads the file. A damaged file is
  never overwritten or deleted: ``serve`` stops with one line naming the file
  and the newest good backup, and ``tableside restore`` moves the damaged file
  aside (``tableside.db.damaged-N``) and puts that backup in its place.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tableside.core.words import plural

log = logging.getLogger(__name__)

PATTERN = re.compile(r"^tableside-(\d{6})\.db$")


class DamagedDatabase(RuntimeError):
    """The database failed its check; the message says which file and the way out."""


def check_database(path: Path) -> str | None:
    """None when ``path`` is missing or passes ``PRAGMA quick_check``, else what is wrong, in words."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if rows != [("ok",)]:
        return "; ".join(str(r[0]) for r in rows[:3])
    return None


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def describe(path: Path) -> str:
    """'3 sessions, 120 log entries', for a person choosing a backup."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            sessions = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
            entries = conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return f"unreadable ({exc})"
    return f"{plural(sessions, 'session')}, {plural(entries, 'log entry')}"


class Backups:
    """Numbered whole copies of the database in ``folder``; the newest ``keep`` are kept."""

    def __init__(
        self,
        db_path: Path,
        folder: Path | None = None,
        keep: int = 10,
        every: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
        at_most_every: float = 60.0,
        on_error: Callable[[str | None], None] | None = None,
    ) -> None:
        self.db_path = Path(db_path)
        self.folder = Path(folder) if folder else self.db_path.parent / "backups"
        self.keep = keep
        self.every = every
        self.at_most_every = at_most_every
        self.on_error = on_error  # told each failure (and None when backups work again): the doctor, /api/hardware
        self.clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._changes = 0
        self._round: int | None = None
        self._round_ended = False
        self._last = clock()
        self.made = 0
        self.error: str | None = None

    # -- the copies -----------------------------------------------------------------
    def list(self) -> list[Path]:
        """Backups, newest first."""
        if not self.folder.is_dir():
            return []
        found = [(int(m.group(1)), p) for p in self.folder.iterdir() if (m := PATTERN.match(p.name))]
        return [p for _, p in sorted(found, reverse=True)]

    def newest_good(self) -> Path | None:
        for path in self.list():
            if check_database(path) is None:
                return path
        return None

    def make(self) -> Path:
        """One backup now, whole or not at all; returns its path."""
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            existing = self.list()
            number = int(PATTERN.match(existing[0].name).group(1)) + 1 if existing else 1  # type: ignore[union-attr]
            final = self.folder / f"tableside-{number:06d}.db"
            tmp = self.folder / f".tableside-{number:06d}.db.tmp"
            src = sqlite3.connect(str(self.db_path))
            dst = sqlite3.connect(str(tmp))
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dst.close()
                src.close()
            os.chmod(tmp, 0o600)  # private whatever the umask (tableside.private)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, final)
            _fsync_dir(self.folder)
            for old in self.list()[self.keep :]:
                with contextlib.suppress(OSError):
                    old.unlink()
            self.made += 1
            return final

    # -- when ---------------------------------------------------------------------------
    def changed(self, new_session: bool = False) -> None:
        """A change was committed (cheap: the table calls this holding its lock)."""
        self._changes += 1
        if new_session:
            self._round = None

    def observe(self, state: dict | None) -> None:
        """Look at the state: a ``round`` that went up means a round ended."""
        marker = state.get("round") if isinstance(state, dict) else None
        if not isinstance(marker, int) or isinstance(marker, bool):
            return
        if self._round is not None and marker > self._round:
            self._round_ended = True
        self._round = marker

    def due(self) -> bool:
        """Something changed, ``at_most_every`` seconds passed since the last backup, and a round ended
        or ``every`` seconds passed."""
        if self._changes == 0:
            return False
        since = self.clock() - self._last
        return since >= self.at_most_every and (self._round_ended or since >= self.every)

    def run_once(self) -> Path | None:
        """Make a backup if one is due (the background thread calls this)."""
        if not self.due():
            return None
        self._changes, self._round_ended, self._last = 0, False, self.clock()
        try:
            path = self.make()
        except (OSError, sqlite3.Error) as exc:  # a full card must not stop the game
            self.error = f"{type(exc).__name__}: {exc}"
            log.error("backup failed: %s", self.error)
            if self.on_error is not None:
                self.on_error(self.error)
            return None
        if self.error is not None and self.on_error is not None:
            self.on_error(None)
        self.error = None
        log.info("backup %s", path.name)
        return path

    def start(
        self, state_of: Callable[[], dict | None], watch: Callable[[], object] | None = None
    ) -> Callable[[dict], None]:
        """Start the background thread; returns the listener to subscribe to the table. ``watch()`` runs
        on the thread every few seconds (the table's journal check)."""

        def loop() -> None:
            while not self._stop.is_set():
                self._wake.wait(timeout=min(self.every, self.at_most_every, 5.0 if watch else 60.0))
                self._wake.clear()
                if self._stop.is_set():
                    return
                if watch is not None:
                    try:
                        watch()
                    except Exception:
                        log.exception("the journal check failed")
                self.run_once()

        self._thread = threading.Thread(target=loop, name="backups", daemon=True)
        self._thread.start()

        def listener(event: dict) -> None:
            """Count the change and look at the round here; wake the thread only when a backup is due
            (waking it on every action made each action wait for a thread switch)."""
            if event.get("kind") in ("change", "session"):
                self.changed(new_session=event.get("kind") == "session")
                with contextlib.suppress(Exception):
                    self.observe(state_of())
                if self.due():
                    self._wake.set()

        return listener

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def damaged_message(db_path: Path, problem: str, backups: Backups) -> str:
    """One line: which file, what is wrong, and the way out."""
    good = backups.newest_good()
    head = f"the database {db_path} is damaged ({problem}); it was not changed"
    if good is None:
        return (
            f"{head}. No good backup was found in {backups.folder}: move the file away to start with an "
            "empty table (keep it: it may still be repaired with 'sqlite3 .recover')"
        )
    return (
        f"{head}. The newest good backup is {good} ({describe(good)}): run 'tableside restore' to put it in "
        f"place (the damaged file is kept beside it as {db_path.name}.damaged-N)"
    )


def check_backup(backup: Path) -> str | None:
    """None when ``backup`` is a readable, whole Tableside database, else why not, in words. Asked before
    anything is moved: a mistyped path once renamed the healthy database away and started an empty table."""
    backup = Path(backup)
    if not backup.exists():
        return f"the backup {backup} does not exist (check the path: 'ls {backup.parent}' lists the folder)"
    if not backup.is_file():
        return f"the backup {backup} is not a file"
    try:
        with open(backup, "rb") as f:
            header = f.read(16)
    except OSError as exc:
        from tableside.oserror import describe_os_error

        return f"the backup {backup} cannot be read: {describe_os_error(exc)}"
    if header != b"SQLite format 3\0":
        return f"the backup {backup} is not a database (a Tableside backup is a tableside-NNNNNN.db file)"
    problem = check_database(backup)
    if problem is not None:
        return f"the backup {backup} is damaged ({problem}); choose another"
    try:
        conn = _open_ro(backup)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return f"the backup {backup} cannot be read ({exc})"
    if not {"sessions", "log"} <= tables:
        return f"the backup {backup} is an SQLite file but not a Tableside database (it has no games or log)"
    return None


def restore(db_path: Path, backup: Path) -> Path:
    """Put ``backup`` in place of ``db_path``; the old file (and its WAL) is moved aside, never deleted.

    Returns where the old file went (or the db path itself when there was none). Nothing is touched
    unless the backup is a readable Tableside database.
    """
    problem = check_backup(backup)
    if problem is not None:
        raise DamagedDatabase(f"{problem}. Nothing was changed")
    aside = db_path
    if db_path.exists():
        n = 1
        while (db_path.parent / f"{db_path.name}.damaged-{n}").exists():
            n += 1
        aside = db_path.parent / f"{db_path.name}.damaged-{n}"
        os.replace(db_path, aside)
        for suffix in ("-wal", "-shm"):
            side = db_path.parent / (db_path.name + suffix)
            if side.exists():
                os.replace(side, aside.parent / (aside.name + suffix))
    tmp = db_path.parent / f".{db_path.name}.restoring"
    shutil.copyfile(backup, tmp)
    os.chmod(tmp, 0o600)  # private whatever the shell's umask (a restore from a shell left it 644)
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, db_path)
    _fsync_dir(db_path.parent)
    return aside


def remove_stale_temps(db_path: Path) -> list[Path]:
    """Remove the temporary files a killed backup, restore or recovery left (an 11-16 MB
    ``backups/.tableside-NNNNNN.db.tmp`` each); called at start holding the folder's lock, so none is in
    use. Returns what was removed."""
    db_path = Path(db_path)
    found = [
        *(db_path.parent / "backups").glob(".tableside-*.db.tmp*"),
        *db_path.parent.glob(f".{db_path.name}.restoring*"),
        *db_path.parent.glob(f".{db_path.name}.recovering*"),
    ]
    removed = []
    for path in found:
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def hash_backup_tokens(db_path: Path) -> list[Path]:
    """Rewrite the clear seat tokens that backups made before tokens were hashed still hold (#33), so no
    copy in ``backups/`` lets whoever reads it sit at a seat; called at start holding the folder's lock. A
    backup that cannot be read or written is left as it is (the doctor names a damaged one). Returns the
    backups rewritten."""
    from tableside.core.tokens import hash_clear_tokens

    rewritten = []
    for path in Backups(db_path).list():
        try:
            conn = sqlite3.connect(str(path), isolation_level=None)
            try:
                if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'seat_claims'").fetchone():
                    continue
                conn.execute("BEGIN IMMEDIATE")
                if hash_clear_tokens(conn):
                    rewritten.append(path)
                conn.execute("COMMIT")
            finally:
                conn.close()
        except sqlite3.Error as exc:
            log.warning("the seat tokens of %s were not hashed: %s", path, exc)
    return rewritten


# -- entries the backup does not have -----------------------------------------------------------
def _open_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def _last_seqs(conn: sqlite3.Connection) -> dict[str, int]:
    """session id -> its newest log entry, for every session the file still lists."""
    out: dict[str, int] = {}
    for (sid,) in conn.execute("SELECT id FROM sessions").fetchall():
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = ?", [sid]).fetchone()
        out[sid] = int(row[0])
    return out


def _deleted(conn: sqlite3.Connection) -> set[str]:
    """Sessions deleted on purpose (``Store.delete_session`` notes each in ``meta``)."""
    try:
        rows = conn.execute("SELECT key FROM meta WHERE key LIKE 'deleted:%'").fetchall()
    except sqlite3.DatabaseError:
        return set()
    return {key.split(":", 1)[1] for (key,) in rows}


def missing_entries(db_path: Path, backup: Path) -> list[str]:
    """What ``backup`` holds that ``db_path`` does not (games, or entries at their end), in words; empty
    when the database has everything its newest backup has. A database that lost its journal file
    (``-wal``) after a crash is older than its backup: starting on it would hide the loss."""
    try:
        db, bk = _open_ro(db_path), _open_ro(backup)
        try:
            have, had, gone = _last_seqs(db), _last_seqs(bk), _deleted(db)
        finally:
            db.close()
            bk.close()
    except sqlite3.DatabaseError:
        return []  # a damaged file is reported by check_database
    out = []
    for sid, last in had.items():
        if sid in gone:
            continue
        if sid not in have:
            out.append(f"game {sid} ({plural(last, 'entry')}) is missing")
        elif have[sid] < last:
            out.append(f"game {sid} has {have[sid]} of the backup's {plural(last, 'entry')}")
    return out


def older_message(db_path: Path, backup: Path, missing: list[str]) -> str:
    """One line: the database has lost entries its newest backup has, and the way out."""
    shown = "; ".join(missing[:3]) + (f"; and {len(missing) - 3} more" if len(missing) > 3 else "")
    return (
        f"the database {db_path} is older than its newest backup {backup} ({shown}): entries are missing "
        "(its journal file may have been lost). It was not changed. Run 'tableside restore' to put the backup "
        "in place and re-apply every newer entry the database still has (it is kept beside it)"
    )


_LOG_COLUMNS = ("session_id", "seq", "kind", "type", "action", "target", "source", "at", "result", "seat", "rolls")


def recover_newer(damaged: Path, restored: Path) -> dict[str, int]:
    """Copy every readable entry of ``damaged`` that ``restored`` (a backup just put in place) lacks, in
    order per game, stopping at the first row that cannot be read (a log must have no gaps). Games the
    backup does not have are copied too when their row reads. Returns session id -> entries recovered."""
    from tableside.core.store import decode_entry

    copy = _readable_copy(damaged)
    try:
        src = _open_ro(copy)
    except sqlite3.DatabaseError:
        _remove(copy)
        return {}
    dst = sqlite3.connect(str(restored), isolation_level=None)
    recovered: dict[str, int] = {}
    try:
        try:
            ids = [r[0] for r in src.execute("SELECT id FROM sessions").fetchall()]
        except sqlite3.DatabaseError:
            ids = []
        have = _last_seqs(dst)
        columns = ", ".join(_LOG_COLUMNS) + ", private"
        dst.execute("BEGIN IMMEDIATE")
        for sid in ids:
            try:
                if sid not in have:
                    session = src.execute("SELECT * FROM sessions WHERE id = ?", [sid]).fetchone()
                    names = [d[0] for d in src.execute("SELECT * FROM sessions LIMIT 0").description]
                    row = dict(zip(names, session, strict=True))
                    row["ordinal"] = dst.execute("SELECT COALESCE(MAX(ordinal), 0) + 1 FROM sessions").fetchone()[0]
                    dst.execute(
                        f"INSERT INTO sessions ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                        list(row.values()),
                    )
                    dst.execute(
                        "INSERT INTO snapshots (session_id, version, state) VALUES (?, 0, ?)",
                        [sid, row["initial_state"]],
                    )
                    have[sid] = 0
            except (sqlite3.DatabaseError, TypeError, ValueError):
                continue  # the game's own row is unreadable: its entries cannot be placed
            seq = have[sid] + 1
            while True:
                try:
                    values = src.execute(f"SELECT {columns} FROM log WHERE session_id = ? AND seq = ?", [sid, seq])
                    values = values.fetchone()
                except sqlite3.DatabaseError:
                    break
                if values is None:
                    break
                try:
                    decode_entry(dict(zip((*_LOG_COLUMNS, "private"), values, strict=True)))
                except ValueError:
                    break
                dst.execute(f"INSERT INTO log ({columns}) VALUES ({', '.join('?' * len(values))})", list(values))
                recovered[sid] = recovered.get(sid, 0) + 1
                seq += 1
        dst.execute("COMMIT")
    finally:
        src.close()
        dst.close()
        _remove(copy)
    return {sid: n for sid, n in recovered.items() if n}


def unrecovered(old: Path, restored: Path) -> int | None:
    """How many acknowledged entries the old file knew of (its newest entry, or the version its game heads
    and checkpoints reached) that ``restored`` does not hold after the restore; None when the old file cannot tell."""
    copy = _readable_copy(old)
    known: dict[str, int] = {}
    try:
        conn = _open_ro(copy)
        try:
            gone = _deleted(conn)
            for sql in (
                "SELECT session_id, MAX(seq) FROM log GROUP BY session_id",
                "SELECT session_id, version FROM heads",
                "SELECT session_id, MAX(version) FROM snapshots GROUP BY session_id",
            ):
                with contextlib.suppress(sqlite3.DatabaseError):
                    for sid, last in conn.execute(sql).fetchall():
                        if sid not in gone and isinstance(last, int):
                            known[sid] = max(known.get(sid, 0), last)
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None
    finally:
        _remove(copy)
    if not known:
        return None
    dst = _open_ro(restored)
    try:
        have = {
            sid: int(n) for sid, n in dst.execute("SELECT session_id, MAX(seq) FROM log GROUP BY session_id").fetchall()
        }
    finally:
        dst.close()
    return sum(max(0, last - have.get(sid, 0)) for sid, last in known.items())


def _readable_copy(damaged: Path) -> Path:
    """A copy of a damaged file (and its journal) that SQLite can read row by row: a truncated file is
    padded back to the size its header gives, so the pages still there read and only the lost ones fail
    (as cut short, not one row of it reads)."""
    copy = damaged.parent / f".{damaged.name}.recovering"
    shutil.copyfile(damaged, copy)
    wal = damaged.parent / (damaged.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, copy.parent / (copy.name + "-wal"))
    with open(copy, "r+b") as f:
        header = f.read(100)
        if len(header) == 100 and header.startswith(b"SQLite format 3\0"):
            page_size = int.from_bytes(header[16:18], "big")
            page_size = 65536 if page_size == 1 else page_size
            pages = int.from_bytes(header[28:32], "big")
            f.seek(0, os.SEEK_END)
            if pages and f.tell() < pages * page_size:
                f.truncate(pages * page_size)
    return copy


def _remove(copy: Path) -> None:
    for path in (copy, copy.parent / (copy.name + "-wal"), copy.parent / (copy.name + "-shm")):
        with contextlib.suppress(OSError):
            path.unlink()
