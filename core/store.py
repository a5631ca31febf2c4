"""The SQLite file that holds every session: the action log is the truth.

One row per log entry (an action, an undo or a redo), numbered by a sequence
per session, never by the clock: a Pi without network or real-time clock
boots with the wrong time and its clock may jump. An entry is one INSERT,
atomic on its own, so an action costs what a bare insert costs; every
``CHECKPOINT_EVERY`` entries and at each undo the state is stored beside the
entry in the same transaction, and a session's newest state is stored as its
head when it stops being played (another game is started, the server stops).
Reopening re-applies at most a checkpoint's worth of entries. Checkpoints and
heads are a cache that ``core.table`` can always rebuild from the log.

Durability: WAL with ``synchronous=FULL`` on every connection, so a committed
entry survives ``kill -9`` and a power cut. The store is not thread-safe on
its own; ``core.table.Table`` serialises every call behind one lock.

The migrations below (sqlite-utils, imported only when one is due) write the schema and
``PRAGMA user_version`` how many are applied: a restart mid-game imports none of it.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
from collections.abc import Container, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tableside.core.errors import Conflict, RuleError, TablesideError
from tableside.core.migrations import MIGRATIONS
from tableside.core.people import PeopleRecords, seat_people
from tableside.core.rowcheck import decoded_object, first_damaged, latest_good_state, newer_schema, session_row
from tableside.core.text import N_
from tableside.core.tokens import token_hash

MIGRATION_SET = "tableside"  # the set's name in sqlite-utils' own record, kept by files from before user_version
SCHEMA = Path(__file__).with_name("schema.sql")


def _migrate(conn: sqlite3.Connection) -> None:
    """A new file gets the whole schema at once; an older one the migrations it lacks, each in one transaction
    with its version (sqlite-utils imported only then: with numpy beside it, most of a second on a Pi Zero)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version >= len(MIGRATIONS):
        return
    if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
        return _create(conn)
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    if version == 0:  # written before user_version: sqlite-utils' Migrations recorded what was applied
        record = sqlite_utils.Migrations(MIGRATION_SET)
        for step in MIGRATIONS:
            record()(step)
        pending = {m.name for m in record.pending(db)}
        version = next((i for i, step in enumerate(MIGRATIONS) if step.__name__ in pending), len(MIGRATIONS))
    for number in range(version + 1, len(MIGRATIONS) + 1):
        with db.atomic():
            MIGRATIONS[number - 1](db)
            conn.execute(f"PRAGMA user_version = {number}")
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")  # also a file whose every step sqlite-utils recorded
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # no journal frame keeps what a step rewrote (clear tokens)


def _create(conn: sqlite3.Connection) -> None:
    """``schema.sql`` (what the migrations build) and its version, in one transaction."""
    try:
        conn.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA.read_text()}\nPRAGMA user_version = {len(MIGRATIONS)};\nCOMMIT;")
    except BaseException:
        conn.rollback()  # sqlite3's own: nothing when no transaction is open
        raise


# A snapshot every this many entries (and at every undo): replay from one is at most this long.
CHECKPOINT_EVERY = 100


class DiskFull(TablesideError):
    """SQLite could not write (disk or database full): nothing was saved; the table goes on when space returns."""

    status = 409


def _is_full(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_FULL or "full" in str(exc).lower()


_INSERT_ENTRY = (
    "INSERT INTO log (session_id, seq, kind, type, action, target, source, at, result, seat, rolls,"
    " private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


# One encoder, not one per call. Keys keep their order: a state read back (a checkpoint, an undo)
# iterates like the state in memory, so the screen lists a game's fleets in the same order after an
# undo and a redo (sorted keys put Mars before Venus; tests/test_conformance.py caught it).
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)


class DamagedEntry(RuleError):
    """A log row that no longer reads (its JSON or its columns were damaged on the card). Where a whole
    log is read (log, export, luck) it is skipped and named; where that one entry is needed (replay,
    undo) this refusal names it."""

    def __init__(self, seq: int, problem: str) -> None:
        super().__init__(
            f"entry {seq} of this game's log is damaged ({problem[:120]}); the entries around it are kept, "
            "and 'tableside export' writes every readable one"
        )
        self.seq = seq
        self.problem = problem


KINDS = ("action", "undo", "redo")


def _decode(row: dict, columns: tuple[str, ...]) -> dict:
    """A log row's JSON columns decoded, and its shape checked; ValueError names what is wrong."""
    if row.get("kind") not in KINDS:
        raise ValueError(f"kind {str(row.get('kind'))[:20]!r} is not an action, undo or redo")
    if row["kind"] != "action" and not isinstance(row.get("target"), int):
        raise ValueError(f"the {row['kind']} names no entry")
    if not isinstance(row.get("seat"), str | None) or not isinstance(row.get("type", ""), str):
        raise ValueError("its seat or its type is not a name")
    try:
        if "action" in columns:
            row["action"] = json.loads(row["action"]) if row["action"] is not None else None
            if row["kind"] == "action" and not isinstance(row["action"], dict):
                raise ValueError("its action is not an object")
        if "result" in columns:
            row["result"] = json.loads(row["result"]) if row["result"] is not None else {}
            if not isinstance(row["result"], dict):
                raise ValueError("its result is not an object")
        row["rolls"] = json.loads(row["rolls"]) if row.get("rolls") else []
        if not isinstance(row["rolls"], list) or not all(isinstance(r, dict) for r in row["rolls"]):
            raise ValueError("its rolls are not a list of rolls")
        if "private" in columns:
            row["private"] = json.loads(row["private"]) if row.get("private") else None
            if row["private"] is not None and not isinstance(row["private"], dict):
                raise ValueError("its privacy mark is not an object")
    except (TypeError, RecursionError, UnicodeError) as exc:
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at {exc.pos})") from None
    return row


_ENTRY_COLUMNS = ("action", "result", "rolls", "private")
_RECORDING_COLUMNS = ("action", "rolls")


def decode_entry(row: dict) -> dict:
    """A log row read straight from a file (a backup's recovery), decoded and checked as the log reads it."""
    return _decode(row, _ENTRY_COLUMNS)


class Store(PeopleRecords):
    """Sessions, their logs and snapshots in one SQLite file."""

    newer: str | None = None  # why the file is a newer Tableside's: nothing is written to it

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        # Per connection, so it must be set on every open (SQLite's PRAGMA synchronous).
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.rescued: str | None = None  # set when a deleted journal was rescued (``rescue_journal``)
        _migrate(self.conn)
        self.newer = newer_schema(self.conn, len(MIGRATIONS), SCHEMA.read_text())  # then read-only, saying so

    @classmethod
    def reader(cls, path: str | Path, immutable: bool = False) -> Store:
        """A read-only connection of its own to the same file, for heavy reads (chart, luck, export) that
        must not hold the table's lock: WAL lets it read while the table writes. One thread at a time.
        ``immutable`` only for a file nobody can write (a read-only disk): sqlite then needs no ``-shm``."""
        store = cls.__new__(cls)
        store.path = Path(path)
        mode = "ro&immutable=1" if immutable else "ro"
        store.conn = sqlite3.connect(
            f"file:{store.path}?mode={mode}", uri=True, check_same_thread=False, isolation_level=None
        )
        store.conn.execute("PRAGMA query_only=ON")
        return store

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """One write transaction: everything inside commits together or not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def journal_lost(self) -> bool:
        """True when the write-ahead journal (``-wal``) was deleted under the open file: every entry
        since the last checkpoint lives only in that deleted file and would vanish at a crash."""
        wal = self.path.with_name(self.path.name + "-wal")
        return not wal.exists() and self.path.exists()

    def rescue_journal(self) -> None:
        """Copy what the deleted journal holds into the database file (the connection still reads it),
        then reopen, so a new journal is made: nothing acknowledged is lost."""
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.rescued = f"the journal file of {self.path} was deleted under the running table"
        self.conn.close()
        self.conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")

    # -- sessions ------------------------------------------------------------
    def create_session(
        self,
        system: str,
        options: dict,
        initial_state: dict,
        name: str,
        created_at: str,
        rules_version: int = 1,
        players: Iterable[str] = (),
    ) -> dict:
        """Insert a session with its version-0 snapshot and the person at each of its ``players`` seats
        (found by name, else a new person); returns its row."""
        with self._write("the new game was not saved"), self.atomic():
            row = self.conn.execute("SELECT COALESCE(MAX(ordinal), 0) + 1 FROM sessions").fetchone()
            session = {
                "id": secrets.token_hex(4),
                "ordinal": row[0],
                "system": system,
                "name": name,
                "options": _dumps(options),
                "initial_state": _dumps(initial_state),
                "created_at": created_at,
                "rules_version": rules_version,
            }
            columns = ", ".join(session)
            self.conn.execute(
                f"INSERT INTO sessions ({columns}) VALUES ({', '.join('?' * len(session))})", list(session.values())
            )
            self.conn.execute(
                "INSERT INTO snapshots (session_id, version, state) VALUES (?, 0, ?)",
                [session["id"], _dumps(initial_state)],
            )
            seat_people(self.conn, session["id"], players)
        return self._session(session)

    def get_session(self, session_id: str) -> dict | None:
        rows = list(self._rows("SELECT * FROM sessions WHERE id = ?", [session_id]))
        row = self._session(rows[0]) if rows else None
        if row is not None and row["initial_state"] is None:  # damaged: version 0's checkpoint holds it too
            row["initial_state"] = self.snapshot(session_id, 0)
        return row

    def _rows(self, sql: str, params: list) -> Iterator[dict]:
        """Plain rows as dicts, one at a time (sqlite-utils' query wraps each read in a savepoint)."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for values in cursor:
            yield dict(zip(names, values, strict=True))

    def list_sessions(self, limit: int | None = None, offset: int = 0) -> list[dict]:
        """Sessions, newest first (``limit`` of them after ``offset``, or all), each with its current version."""
        sql = (
            "SELECT s.*, (SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = s.id) AS version "
            "FROM sessions s ORDER BY ordinal DESC LIMIT ? OFFSET ?"
        )
        return [self._session(r) for r in self._rows(sql, [-1 if limit is None else limit, offset])]

    def count_sessions(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])

    def delete_session(self, session_id: str) -> None:
        """Remove a session and everything of it (log, checkpoints, head, seat claims), in one transaction."""
        with self._write("the game was not deleted"), self.atomic():
            for table in ("log", "snapshots", "heads", "seat_claims", "players", "left_out", "game_stats"):
                self.conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [session_id])
            self.conn.execute("DELETE FROM sessions WHERE id = ?", [session_id])
            # noted, so a backup that still has it does not make this file look like it lost a game
            self.conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                [f"deleted:{session_id}", datetime.now(UTC).isoformat(timespec="seconds")],
            )

    _session = staticmethod(session_row)  # a damaged setup or first state is named, never a traceback

    # -- the log ---------------------------------------------------------------
    def append(self, session_id: str, seq: int, entry: dict, state: dict, checkpoint: bool = False) -> None:
        """Append log entry ``seq`` (the session's version + 1); atomic, nothing else written.

        One INSERT, a transaction of its own, like a bare insert. Every ``CHECKPOINT_EVERY``
        entries, or when ``checkpoint`` is true, the state it produced is stored in the same
        transaction. The primary key (session_id, seq) refuses a second writer's entry with
        a Conflict; a full disk raises ``DiskFull``. Either way nothing changes.
        """
        row = (
            session_id,
            seq,
            entry["kind"],
            entry["type"],
            _dumps(entry.get("action")),
            entry.get("target"),
            entry.get("source", ""),
            entry.get("at", ""),
            _dumps(entry.get("result")),
            entry.get("seat"),
            _dumps(entry.get("rolls") or []),
            _dumps(entry["private"]) if entry.get("private") else None,
        )
        with self._write("the action was not saved"):
            if not (checkpoint or seq % CHECKPOINT_EVERY == 0):
                self.conn.execute(_INSERT_ENTRY, row)
            else:
                with self.atomic():
                    self.conn.execute(_INSERT_ENTRY, row)
                    self.conn.execute(
                        "INSERT OR REPLACE INTO snapshots (session_id, version, state) VALUES (?, ?, ?)",
                        (session_id, seq, _dumps(state)),
                    )
        if self.journal_lost():  # acknowledged only once it is in a file that exists (a stat: ~1% of an append)
            self.rescue_journal()

    def save_head(self, session_id: str, version: int, state: dict) -> None:
        """Store ``state`` as the session's newest state (when it stops being played), so reopening it
        and listing saved games read one row. A cache: a stale or missing head is never used."""
        with self._write("the game's state was not cached"):
            self.conn.execute(
                "INSERT OR REPLACE INTO heads (session_id, version, state) VALUES (?, ?, ?)",
                (session_id, version, _dumps(state)),
            )

    @contextlib.contextmanager
    def _write(self, what: str) -> Iterator[None]:
        """Turn SQLite's "database or disk is full" into a clear refusal naming what was not saved."""
        if self.newer:
            raise Conflict(f"{what}: {self.newer}")
        try:
            yield
        except sqlite3.IntegrityError as exc:
            raise Conflict(
                N_(
                    "{what}: another writer changed this game first ({why}); reload and try again",
                    what=what,
                    why=str(exc),
                )
            ) from None
        except sqlite3.OperationalError as exc:
            if _is_full(exc):
                raise DiskFull(f"disk full: {what}; free some space on the table's SD card and try again") from None
            raise

    def version(self, session_id: str) -> int:
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = ?", [session_id]).fetchone()
        return int(row[0])

    def entries(
        self, session_id: str, after: int = 0, upto: int | None = None, damaged: list[dict] | None = None
    ) -> Iterator[dict]:
        """Log entries after ``after`` (up to ``upto``) in sequence order, decoded, one at a time.

        A row that no longer reads is skipped and added to ``damaged`` as ``{"seq", "problem"}``;
        without that list it raises ``DamagedEntry`` (a caller that needs every entry)."""
        sql = "SELECT * FROM log WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq"
        bound = upto if upto is not None else 2**62
        for row in self._rows(sql, [session_id, after, bound]):
            try:
                yield _decode(row, _ENTRY_COLUMNS)
            except ValueError as exc:
                if damaged is None:
                    raise DamagedEntry(int(row["seq"]), str(exc)) from None
                damaged.append({"seq": row["seq"], "problem": str(exc)})

    def recordings(self, session_id: str, after: int = 0, upto: int | None = None) -> Iterator[dict]:
        """What replay needs of each entry (seq, kind, target, seat, action, rolls): not its result,
        which a replay of 10,000 entries would otherwise decode for nothing. A damaged row raises
        ``DamagedEntry``: a replay cannot step over it."""
        sql = (
            "SELECT seq, kind, type, target, seat, action, rolls FROM log "
            "WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq"
        )
        bound = upto if upto is not None else 2**62
        for row in self._rows(sql, [session_id, after, bound]):
            try:
                yield _decode(row, _RECORDING_COLUMNS)
            except ValueError as exc:
                raise DamagedEntry(int(row["seq"]), str(exc)) from None

    def applied_at(self, session_id: str, target: int, before: int) -> int:
        """The version at which entry ``target`` was last (re)applied before entry ``before``: an undo at
        ``before`` returns to the state just before it."""
        row = self.conn.execute(
            "SELECT MAX(seq) FROM log WHERE session_id = ? AND seq < ? AND (seq = ? OR (kind = 'redo' AND target = ?))",
            [session_id, before, target, target],
        ).fetchone()
        if row[0] is None:
            raise DamagedEntry(before, f"it undoes entry {target}, which is not in the log")
        return int(row[0])

    def checkpoint_at(self, session_id: str, version: int) -> bool:
        """Whether a state is stored at exactly ``version`` (a checkpoint or the head)."""
        return (
            self.conn.execute(
                "SELECT 1 FROM snapshots WHERE session_id = ? AND version = ? UNION ALL "
                "SELECT 1 FROM heads WHERE session_id = ? AND version = ? LIMIT 1",
                [session_id, version, session_id, version],
            ).fetchone()
            is not None
        )

    def snapshot(self, session_id: str, version: int) -> dict | None:
        """The state at exactly ``version`` if it is stored (the head or a checkpoint), else None."""
        row = self.conn.execute(
            "SELECT state FROM heads WHERE session_id = ? AND version = ?", [session_id, version]
        ).fetchone()
        if row is None:
            row = self.conn.execute(
                "SELECT state FROM snapshots WHERE session_id = ? AND version = ?", [session_id, version]
            ).fetchone()
        return decoded_object(row[0]) if row else None  # a damaged cache row is no stored state

    def latest_snapshot(self, session_id: str, upto: int) -> tuple[int, dict]:
        """The newest stored state at or before ``upto`` that reads: (its version, the state)."""
        return latest_good_state(self.conn, session_id, upto)

    def first_damaged(self, session_id: str, upto: int) -> tuple[int, str] | None:
        """(seq, problem) of the first log row that no longer reads (core.rowcheck), or None."""
        return first_damaged(self.conn, session_id, upto)

    def entry(self, session_id: str, seq: int) -> dict | None:
        """One entry, decoded (``DamagedEntry`` if it no longer reads), or None."""
        return next(self.entries(session_id, after=seq - 1, upto=seq), None)

    def newest_rolled(self, session_id: str, among: Container[int]) -> dict | None:
        """The newest action ``among`` these seqs (the applied ones) that rolled dice: its seq, seat,
        rolls and privacy, or None. Reads back from the end, usually one row."""
        cursor = self.conn.execute(
            "SELECT seq, seat, rolls, private FROM log "
            "WHERE session_id = ? AND kind = 'action' AND rolls IS NOT NULL AND rolls != '[]' ORDER BY seq DESC",
            [session_id],
        )
        try:
            for seq, seat, rolls, private in cursor:
                if seq not in among:
                    continue
                try:
                    found = {
                        "seq": seq,
                        "seat": seat,
                        "rolls": json.loads(rolls),
                        "private": json.loads(private) if private else None,
                    }
                except ValueError:  # a damaged row: the table shows no roll rather than fail to open
                    return None
                if not isinstance(found["rolls"], list) or not all(isinstance(r, dict) for r in found["rolls"]):
                    return None
                return found
            return None
        finally:
            cursor.close()

    def clock_switches(self, session_id: str, after: int, upto: int) -> list[tuple[int, str]]:
        """(seq, what) of the soft clock's switches (``core.soft_clock``) after ``after`` up to ``upto``: the
        view says whether the clock is on without a phone asking (a range of the primary key, no JSON but these)."""
        out = []
        for seq, action in self.conn.execute(
            "SELECT seq, action FROM log WHERE session_id = ? AND seq > ? AND seq <= ? AND kind = 'action' "
            "AND type = 'clock' ORDER BY seq",
            [session_id, after, upto],
        ):
            try:
                what = json.loads(action).get("do")
            except (ValueError, AttributeError):  # a damaged row: no switch rather than fail to show the game
                continue
            out.append((int(seq), str(what)))
        return out

    def stack_rows(self, session_id: str, upto: int | None = None) -> list[tuple[int, str, int | None]]:
        """(seq, kind, target) of every entry: enough to rebuild undo/redo without decoding JSON."""
        bound = upto if upto is not None else 2**62
        return [
            (int(a), b, c)
            for a, b, c in self.conn.execute(
                "SELECT seq, kind, target FROM log WHERE session_id = ? AND seq <= ? ORDER BY seq",
                [session_id, bound],
            ).fetchall()
        ]

    def iter_stack_rows(self, session_id: str, upto: int) -> Iterator[tuple[int, str, int | None]]:
        """``stack_rows``, one at a time (a long game's replay must not hold 50,000 tuples)."""
        cursor = self.conn.execute(
            "SELECT seq, kind, target FROM log WHERE session_id = ? AND seq <= ? ORDER BY seq", [session_id, upto]
        )
        for seq, kind, target in cursor:
            yield int(seq), kind, target

    def has_undo(self, session_id: str, after: int, upto: int) -> bool:
        """Whether an undo was logged between ``after`` and ``upto``."""
        row = self.conn.execute(
            "SELECT 1 FROM log WHERE session_id = ? AND seq > ? AND seq <= ? AND kind = 'undo' LIMIT 1",
            [session_id, after, upto],
        ).fetchone()
        return row is not None

    def drop_snapshots(self, session_id: str) -> None:
        """Forget the cache above version 0 (tests prove replay alone rebuilds it)."""
        with self.atomic():
            self.conn.execute("DELETE FROM snapshots WHERE session_id = ? AND version > 0", [session_id])
            self.conn.execute("DELETE FROM heads WHERE session_id = ?", [session_id])

    # -- seats -----------------------------------------------------------------
    def seat_claims(self, session_id: str) -> dict[str, str]:
        """seat name -> the hash of its phone's token (``core.tokens``), for the seats phones hold in this
        session. The file keeps no clear token: the store hashes every token it is given."""
        rows = self.conn.execute("SELECT seat, token FROM seat_claims WHERE session_id = ?", [session_id])
        return {seat: token for seat, token in rows.fetchall()}

    def claim_seat(self, session_id: str, seat: str, token: str, at: str) -> None:
        """Give ``seat`` to the phone holding ``token`` (kept as its hash); any earlier holder loses it."""
        with self._write("the seat was not taken"), self.atomic():
            self.conn.execute("DELETE FROM seat_claims WHERE session_id = ? AND seat = ?", [session_id, seat])
            self.conn.execute(
                "INSERT INTO seat_claims (session_id, seat, token, at) VALUES (?, ?, ?, ?)",
                [session_id, seat, token_hash(token), at],
            )

    def release_seat(self, session_id: str, seat: str) -> None:
        """No phone holds ``seat`` any more."""
        with self._write("the seat was not released"), self.atomic():
            self.conn.execute("DELETE FROM seat_claims WHERE session_id = ? AND seat = ?", [session_id, seat])

    def carry_seats(self, from_session: str, to_session: str, seats: Iterable[str]) -> list[str]:
        """Move the claims on ``seats`` held in ``from_session`` to ``to_session``, where no phone holds
        that seat yet: the same phone (the same token) then sits at the seat of the same name. The seats
        moved, in the order given."""
        with self._write("the seats were not carried over"), self.atomic():
            held = self.seat_claims(from_session)
            taken = self.seat_claims(to_session)
            moved = [seat for seat in seats if seat in held and seat not in taken]
            for seat in moved:
                self.conn.execute(
                    "UPDATE seat_claims SET session_id = ? WHERE session_id = ? AND seat = ?",
                    [to_session, from_session, seat],
                )
        return moved

    def forget_token(self, token: str) -> None:
        """A phone gave up the seat ``token`` held, in whichever game (it took another one)."""
        with self._write("the seat was not released"), self.atomic():
            self.conn.execute("DELETE FROM seat_claims WHERE token = ?", [token_hash(token)])

    def seat_of_token(self, token: str) -> tuple[str, str] | None:
        """(session id, seat) held by ``token``, or None: looked up by its hash, never compared in clear."""
        row = self.conn.execute(
            "SELECT session_id, seat FROM seat_claims WHERE token = ?", [token_hash(token)]
        ).fetchone()
        return (row[0], row[1]) if row else None

    # -- table-wide settings -----------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._write("the setting was not saved"), self.atomic():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value])
