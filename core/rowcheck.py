"""Damaged rows found before they are needed: a file can pass ``PRAGMA quick_check`` and still hold a
row whose JSON or columns were damaged on the card (a torn write, a bad sector rewritten). The log is
the truth, so its first damaged row is found at opening (in SQLite, without decoding 100,000 entries
in Python) and the game opens read-only just before it; heads and checkpoints are a cache, so a damaged
one is passed over and the game is rebuilt from the log. Raw SQL for ``core.store``; no other I/O."""

from __future__ import annotations

import functools
import json
import sqlite3
from typing import Any


def decoded_object(text: Any) -> dict | None:
    """A stored JSON object (a state, a setup), or None when the row no longer reads as one."""
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeError:
            return None
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def session_row(row: dict) -> dict:
    """A ``sessions`` row with its setup and first state decoded. A damaged one is None (the first state)
    or {} (the setup) and named in ``damaged``, so the table still starts and says which."""
    out = dict(row)
    damaged = []
    for column in ("options", "initial_state"):
        value = decoded_object(out.get(column))
        if value is None:
            damaged.append(column)
        out[column] = value if value is not None or column == "initial_state" else {}
    if damaged:
        out["damaged"] = tuple(damaged)
    return out


def latest_good_state(conn: sqlite3.Connection, session_id: str, upto: int) -> tuple[int, dict]:
    """The newest stored state at or before ``upto`` that still reads (the head or a checkpoint); a
    damaged one is passed over. LookupError when none reads."""
    head = conn.execute(
        "SELECT version, state FROM heads WHERE session_id = ? AND version <= ?", [session_id, upto]
    ).fetchone()
    best = None
    if head is not None and (state := decoded_object(head[1])) is not None:
        best = (int(head[0]), state)
    cursor = conn.execute(
        "SELECT version, state FROM snapshots WHERE session_id = ? AND version <= ? ORDER BY version DESC",
        [session_id, upto],
    )
    try:
        for version, text in cursor:
            if best is not None and best[0] >= version:
                break
            if (state := decoded_object(text)) is not None:
                best = (int(version), state)
                break
    finally:
        cursor.close()
    if best is None:
        raise LookupError(f"session {session_id} has no stored state at or before {upto} that reads")
    return best


def _json(column: str, shape: str, words: str, optional: bool, only: str = "") -> str:
    """CASE arms, in order (SQLite evaluates them in order: json_type never sees malformed text)."""
    empty = f"{column} IS NULL OR {column} = '' OR " if optional else f"{column} IS NULL OR "
    return (
        f"WHEN NOT ({empty}typeof({column}) = 'text') THEN 'its {words} is not text' "
        f"WHEN {column} IS NOT NULL AND {column} != '' AND NOT json_valid({column}) THEN 'its {words} is not JSON' "
        f"WHEN {column} IS NOT NULL AND {column} != '' AND json_type({column}) != '{shape}'{only} "
        f"THEN 'its {words} is not an {shape}' "
    )


_PROBLEM = (
    "CASE WHEN kind IS NULL OR kind NOT IN ('action', 'undo', 'redo') THEN 'its kind is not an action, undo or redo' "
    "WHEN kind != 'action' AND typeof(target) != 'integer' THEN 'the ' || kind || ' names no entry' "
    "WHEN kind = 'action' AND (action IS NULL OR typeof(action) != 'text') THEN 'its action is missing' "
    + _json("action", "object", "action", False, " AND kind = 'action'")
    + _json("result", "object", "result", False)
    + _json("rolls", "array", "rolls", True)
    + _json("private", "object", "privacy mark", True)
    + "WHEN typeof(seat) NOT IN ('text', 'null') THEN 'its seat is not a name' "
    "WHEN typeof(type) != 'text' THEN 'its type is not a name' ELSE NULL END"
)
_FIRST_DAMAGED = (
    f"SELECT seq, problem FROM (SELECT seq, {_PROBLEM} AS problem FROM log WHERE session_id = ? AND seq <= ?) "
    "WHERE problem IS NOT NULL ORDER BY seq LIMIT 1"
)
_FIRST_GAP = (
    "SELECT seq FROM log AS l WHERE session_id = ? AND seq <= ? AND seq > 1 AND NOT EXISTS "
    "(SELECT 1 FROM log WHERE session_id = l.session_id AND seq = l.seq - 1) ORDER BY seq LIMIT 1"
)


def first_damaged(conn: sqlite3.Connection, session_id: str, upto: int) -> tuple[int, str] | None:
    """(seq, what is wrong) of the first log row up to ``upto`` that no longer reads, or that a gap
    before it left without its predecessor; None when the whole log reads."""
    found = conn.execute(_FIRST_DAMAGED, [session_id, upto]).fetchone()
    first = (int(found[0]), str(found[1])) if found else None
    low, high, count = conn.execute(
        "SELECT MIN(seq), MAX(seq), COUNT(*) FROM log WHERE session_id = ? AND seq <= ?", [session_id, upto]
    ).fetchone()
    gap, missing = None, 0
    if count and low != 1:
        gap, missing = (low,), 1
    elif count and high != count:  # a row is missing somewhere: find the first (an index walk)
        gap = conn.execute(_FIRST_GAP, [session_id, upto]).fetchone()
        missing = int(gap[0]) - 1 if gap else 0
    if gap is not None and (first is None or missing < first[0]):
        first = (missing, "it is missing from the log")
    return first


def damaged_rows(conn: sqlite3.Connection, limit: int = 10) -> tuple[list[str], bool]:
    """Every damaged row of the file in words (at most ``limit``), and whether one of them is the truth
    (a setup or a log entry: the game opens read-only) rather than a cache the log rebuilds."""
    found: list[str] = []
    truth = False
    ids = [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY ordinal")]
    for sid in ids:
        options, initial = conn.execute(
            "SELECT CASE WHEN typeof(options) != 'text' THEN 1 WHEN NOT json_valid(options) THEN 1 "
            "WHEN json_type(options) != 'object' THEN 1 ELSE 0 END, CASE WHEN typeof(initial_state) != 'text' "
            "THEN 1 WHEN NOT json_valid(initial_state) THEN 1 WHEN json_type(initial_state) != 'object' THEN 1 "
            "ELSE 0 END FROM sessions WHERE id = ?",
            [sid],
        ).fetchone()
        if options:
            truth = True
            found.append(f"game {sid}: its setup (sessions.options) is damaged: it opens read-only")
        if initial:
            found.append(f"game {sid}: its first state (sessions.initial_state) is damaged: version 0's copy is used")
        upto = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = ?", [sid]).fetchone()[0]
        entry = first_damaged(conn, sid, int(upto))
        if entry is not None:
            truth = True
            found.append(
                f"game {sid}: log entry {entry[0]} is damaged ({entry[1]}): it opens read-only at version "
                f"{entry[0] - 1}"
            )
    for table in ("heads", "snapshots"):
        rows = conn.execute(
            f"SELECT session_id, version FROM {table} WHERE CASE WHEN typeof(state) != 'text' THEN 1 "
            "WHEN NOT json_valid(state) THEN 1 WHEN json_type(state) != 'object' THEN 1 ELSE 0 END "
            "ORDER BY session_id, version LIMIT ?",
            [limit],
        ).fetchall()
        for sid, version in rows:
            found.append(f"game {sid}: the stored state at version {version} ({table}) is damaged: the log rebuilds it")
    return found[:limit], truth


@functools.cache
def _known_columns(schema_sql: str) -> dict[str, frozenset[str]]:
    """Each table's columns as this Tableside's schema makes them (an in-memory file, once)."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(schema_sql)
        tables = [r[0] for r in mem.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: frozenset(r[1] for r in mem.execute(f'PRAGMA table_info("{t}")')) for t in tables}
    finally:
        mem.close()


NEWER_FIX = "update Tableside to play on ('tableside export' still writes every game)"


def newer_schema(conn: sqlite3.Connection, known: int, schema_sql: str) -> str | None:
    """Why this file is from a newer Tableside (a migration this one lacks, or a column it must fill in
    and does not know), or None. Such a file opens read-only: writing to it refused every action with
    "another writer changed this game first (NOT NULL constraint failed ...)"."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > known:
        return (
            f"this database was written by a newer Tableside (its schema version is {version}, this Tableside "
            f"knows {known}): games are shown read-only and nothing is written; {NEWER_FIX}"
        )
    for table, columns in _known_columns(schema_sql).items():
        for _cid, name, _type, notnull, default, pk in conn.execute(f'PRAGMA table_info("{table}")'):
            if name not in columns and notnull and default is None and not pk:
                return (
                    f"this database was written by a newer Tableside (its {table} rows need a {name}, which this "
                    f"Tableside does not know): games are shown read-only and nothing is written; {NEWER_FIX}"
                )
    return None
