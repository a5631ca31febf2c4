"""The SQLite file that holds every session: the action log is the truth.

One row per log entry (an action, an undo or a redo), numbered by a sequence
per session, never by the clock: a Pi without network or real-time clock
boots with the wrong time and its clock may jump. Each entry is written in one
transaction together with a snapshot of the state it produced, so reload is
instant and undo restores an earlier snapshot; the snapshots are a cache that
``core.table`` can always rebuild by replaying the log.

Durability: WAL with ``synchronous=FULL`` on every connection, so a committed
entry survives ``kill -9`` and a power cut. The store is not thread-safe on
its own; ``core.table.Table`` serialises every call behind one lock.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Database

MIGRATIONS = sqlite_utils.Migrations("tableside")


@MIGRATIONS()
def m001_initial(db: Database) -> None:
    db["sessions"].create(
        {
            "id": str,
            "ordinal": int,
            "system": str,
            "name": str,
            "options": str,
            "initial_state": str,
            "created_at": str,
        },
        pk="id",
    )
    db["sessions"].create_index(["ordinal"], unique=True)
    db["log"].create(
        {
            "session_id": str,
            "seq": int,
            "kind": str,
            "type": str,
            "action": str,
            "target": int,
            "source": str,
            "at": str,
            "result": str,
        },
        pk=("session_id", "seq"),
        not_null={"session_id", "seq", "kind", "type"},
    )
    db["snapshots"].create({"session_id": str, "version": int, "state": str}, pk=("session_id", "version"))
    db["meta"].create({"key": str, "value": str}, pk="key")


@MIGRATIONS()
def m002_seats_and_rolls(db: Database) -> None:
    """Interface v2: who acted (seat), every recorded roll, private entries, rules version, seat claims."""
    db["log"].add_column("seat", str)
    db["log"].add_column("rolls", str)
    db["log"].add_column("private", str)
    db["sessions"].add_column("rules_version", int, not_null_default=1)
    db["seat_claims"].create({"session_id": str, "seat": str, "token": str, "at": str}, pk=("session_id", "seat"))
    db["seat_claims"].create_index(["token"], unique=True)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    """Sessions, their logs and snapshots in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self.db = Database(conn)
        self.db.enable_wal()
        # Per connection, so it must be set on every open (facts.md).
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        MIGRATIONS.apply(self.db)

    def close(self) -> None:
        self.db.close()

    # -- sessions ------------------------------------------------------------
    def create_session(
        self, system: str, options: dict, initial_state: dict, name: str, created_at: str, rules_version: int = 1
    ) -> dict:
        """Insert a session with its version-0 snapshot; returns its row."""
        with self.db.atomic():
            row = self.db.execute("SELECT COALESCE(MAX(ordinal), 0) + 1 FROM sessions").fetchone()
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
            self.db["sessions"].insert(session)
            self.db["snapshots"].insert({"session_id": session["id"], "version": 0, "state": _dumps(initial_state)})
        return self._session(session)

    def get_session(self, session_id: str) -> dict | None:
        rows = list(self.db["sessions"].rows_where("id = ?", [session_id]))
        return self._session(rows[0]) if rows else None

    def list_sessions(self) -> list[dict]:
        """All sessions, newest first, each with its current version."""
        sql = (
            "SELECT s.*, (SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = s.id) AS version "
            "FROM sessions s ORDER BY ordinal DESC"
        )
        return [self._session(dict(r)) for r in self.db.execute_returning_dicts(sql)]

    @staticmethod
    def _session(row: dict) -> dict:
        out = dict(row)
        out["options"] = json.loads(out["options"])
        out["initial_state"] = json.loads(out["initial_state"])
        return out

    # -- the log ---------------------------------------------------------------
    def append(self, session_id: str, entry: dict, state: dict) -> int:
        """Append one log entry and the state it produced, atomically; returns its seq.

        The primary key (session_id, seq) refuses a second writer's duplicate.
        """
        with self.db.atomic():
            seq = self.version(session_id) + 1
            self.db["log"].insert(
                {
                    "session_id": session_id,
                    "seq": seq,
                    "kind": entry["kind"],
                    "type": entry["type"],
                    "action": _dumps(entry.get("action")),
                    "target": entry.get("target"),
                    "source": entry.get("source", ""),
                    "at": entry.get("at", ""),
                    "result": _dumps(entry.get("result")),
                    "seat": entry.get("seat"),
                    "rolls": _dumps(entry.get("rolls") or []),
                    "private": _dumps(entry["private"]) if entry.get("private") else None,
                }
            )
            self.db["snapshots"].insert({"session_id": session_id, "version": seq, "state": _dumps(state)})
        return seq

    def version(self, session_id: str) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = ?", [session_id]).fetchone()
        return int(row[0])

    def entries(self, session_id: str, after: int = 0) -> Iterator[dict]:
        """Log entries in sequence order, decoded."""
        sql = "SELECT * FROM log WHERE session_id = ? AND seq > ? ORDER BY seq"
        for row in self.db.execute_returning_dicts(sql, [session_id, after]):
            row = dict(row)
            row["action"] = json.loads(row["action"])
            row["result"] = json.loads(row["result"])
            row["rolls"] = json.loads(row["rolls"]) if row.get("rolls") else []
            row["private"] = json.loads(row["private"]) if row.get("private") else None
            yield row

    def snapshot(self, session_id: str, version: int) -> dict | None:
        row = self.db.execute(
            "SELECT state FROM snapshots WHERE session_id = ? AND version = ?", [session_id, version]
        ).fetchone()
        return json.loads(row[0]) if row else None

    def drop_snapshots(self, session_id: str) -> None:
        """Forget the cache above version 0 (tests prove replay alone rebuilds it)."""
        with self.db.atomic():
            self.db.execute("DELETE FROM snapshots WHERE session_id = ? AND version > 0", [session_id])

    # -- seats -----------------------------------------------------------------
    def seat_claims(self, session_id: str) -> dict[str, str]:
        """seat name -> token, for the seats phones hold in this session."""
        rows = self.db.execute("SELECT seat, token FROM seat_claims WHERE session_id = ?", [session_id])
        return {seat: token for seat, token in rows.fetchall()}

    def claim_seat(self, session_id: str, seat: str, token: str, at: str) -> None:
        """Give ``seat`` to the phone holding ``token``; any earlier holder loses it."""
        with self.db.atomic():
            self.db.execute("DELETE FROM seat_claims WHERE session_id = ? AND seat = ?", [session_id, seat])
            self.db.execute("INSERT INTO seat_claims (session_id, seat, token, at) VALUES (?, ?, ?, ?)",
                            [session_id, seat, token, at])

    def seat_of_token(self, token: str) -> tuple[str, str] | None:
        """(session id, seat) held by ``token``, or None."""
        row = self.db.execute("SELECT session_id, seat FROM seat_claims WHERE token = ?", [token]).fetchone()
        return (row[0], row[1]) if row else None

    # -- table-wide settings -----------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.db.atomic():
            self.db["meta"].upsert({"key": key, "value": value}, pk="key")
