"""The schema's steps, in order: ``PRAGMA user_version`` N means the first N are applied (``core.store``).

Each is a function of an sqlite-utils ``Database``, run only to upgrade an older file (a new file is made from
``schema.sql`` at once, which ``tests/test_store_schema.py`` keeps equal to what these build).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tableside.core.people import PEOPLE_SCHEMA
from tableside.core.tokens import hash_clear_tokens

if TYPE_CHECKING:
    from sqlite_utils import Database


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


def m002_seats_and_rolls(db: Database) -> None:
    """Interface v2: who acted (seat), every recorded roll, private entries, rules version, seat claims."""
    db["log"].add_column("seat", str)
    db["log"].add_column("rolls", str)
    db["log"].add_column("private", str)
    db["sessions"].add_column("rules_version", int, not_null_default=1)
    db["seat_claims"].create({"session_id": str, "seat": str, "token": str, "at": str}, pk=("session_id", "seat"))
    db["seat_claims"].create_index(["token"], unique=True)


def m003_heads(db: Database) -> None:
    """Long games: the newest state of each session in one row (replaced on every change), so the
    log rows stay small and snapshots become checkpoints every ``CHECKPOINT_EVERY`` entries."""
    db.execute("CREATE TABLE heads (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, state TEXT NOT NULL)")


def m004_people(db: Database) -> None:
    """Players across game nights (#34): a person per name, each game's seats as people, the games left out of
    the stats, and each game's stats summary (a cache, remade when its game's version changes). The games
    saved before it get their people when the Stats page first reads them (``webui.stats``)."""
    for sql in PEOPLE_SCHEMA:
        db.execute(sql)


def m005_seat_token_hashes(db: Database) -> None:
    """#33: the seat tokens held are kept as their hashes (``core.tokens``), rewritten in place so every phone
    that holds a seat keeps it, with the freed clear text zeroed (``core.store._migrate`` then empties the
    journal), so the upgraded file keeps no token a copy could use."""
    hash_clear_tokens(db)


MIGRATIONS = (
    m001_initial,
    m002_seats_and_rolls,
    m003_heads,
    m004_people,
    m005_seat_token_hashes,
)  # in order: user_version N = the first N applied
