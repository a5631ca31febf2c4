"""Seat tokens stored as hashes (issue 33): the data file kept every seat token in clear, so anyone who
could read the file (or a backup of it) could sit at any held seat. Now the file keeps only each token's
SHA-256; an older file is rewritten in place on upgrade, so a phone that held a seat still holds it."""

from __future__ import annotations

import sqlite3

from tableside.core.store import MIGRATIONS, Store
from tableside.core.table import Table
from tableside.core.tokens import token_hash

from tableside.backup import Backups
from tests.httpapi import AUTH, phone
from tests.live import Process
from tests.test_damaged_rows import _table

SEAT = "X-Tableside-Seat"
OLD_VERSION = 4  # the schema version of the files the code before this change wrote


def _file_bytes(db) -> bytes:
    """The database file and whatever its journal holds, as another local user could read them."""
    return b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def _seat_of(client, token: str):
    r = client.get("/api/sessions/active", headers={**AUTH, SEAT: token})
    return r.status_code, (r.get_json() or {}).get("seat")


def test_a_seat_claimed_over_http_leaves_no_clear_token_in_the_file_or_its_journal(tmp_path):
    db = tmp_path / "tableside.db"
    table = _table(db)
    try:
        table.create_session("toy", {"limit": 10**6})
        client = phone(table)
        r = client.post("/api/sessions/active/seats", json={"seat": "Ann"}, headers=AUTH)
        assert r.status_code == 200, r.get_json()
        token = r.get_json()["token"]
        assert len(token) >= 20
        assert token.encode() not in _file_bytes(db)  # the file is still open: the journal holds the claim
        assert token_hash(token).encode() in _file_bytes(db)
        assert _seat_of(client, token) == (200, "Ann")
        kept = table.store.conn.execute("SELECT token FROM seat_claims").fetchall()
        assert kept == [(token_hash(token),)]
    finally:
        table.store.close()
    assert token.encode() not in _file_bytes(db)


def _old_file(db, token: str, table=None, seat: str = "Ann") -> str:
    """A file as the code before this change left it: schema version 4, ``seat``'s token in clear in
    ``seat_claims`` (the INSERT the old ``Store.claim_seat`` made). Returns the game's id."""
    if table is None:
        table = _table(db)
        table.create_session("toy", {"limit": 10**6})
    sid = table.view()["id"]
    table.store.close()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(
        "INSERT INTO seat_claims (session_id, seat, token, at) VALUES (?, ?, ?, '2026-12-06T20:00:00+00:00')",
        [sid, seat, token],
    )
    conn.execute(f"PRAGMA user_version = {OLD_VERSION}")
    conn.close()
    assert token.encode() in _file_bytes(db)
    return sid


def test_an_older_file_is_upgraded_in_place_and_its_phone_keeps_its_seat(tmp_path):
    db = tmp_path / "tableside.db"
    token = "oldPhoneToken-Ann-0123456789abcdef"
    _old_file(db, token)

    table = _table(db)  # the upgrade
    try:
        assert table.store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert token.encode() not in _file_bytes(db)  # not in a freed cell, an index page or the journal
        client = phone(table)
        assert _seat_of(client, token) == (200, "Ann")  # the phone that held Ann still does
        again = client.post("/api/sessions/active/seats", json={"seat": "Ann"}, headers={**AUTH, SEAT: token})
        assert again.status_code == 200 and again.get_json()["token"] == token  # its own seat, asked again
        taken = phone(table).post("/api/sessions/active/seats", json={"seat": "Ann"}, headers=AUTH)
        assert taken.status_code == 409  # still held: another phone cannot just take it
    finally:
        table.store.close()
    assert token.encode() not in _file_bytes(db)


def test_a_wrong_token_gets_no_seat_nor_does_what_the_file_holds(tmp_path):
    """Whoever reads the file (or a backup) learns only what ``seat_claims`` holds: sent as a seat token it
    must sit nowhere, as any other wrong token, after a claim over HTTP and in an upgraded older file."""
    db = tmp_path / "tableside.db"
    token = "oldPhoneToken-Ann-0123456789abcdef"
    _old_file(db, token)
    table = _table(db)
    try:
        client = phone(table)
        r = client.post("/api/sessions/active/seats", json={"seat": "Bob"}, headers=AUTH)
        assert r.status_code == 200, r.get_json()
        bob = r.get_json()["token"]
        in_file = [t for (t,) in sqlite3.connect(db).execute("SELECT token FROM seat_claims").fetchall()]
        assert len(in_file) == 2
        for wrong in (*in_file, token[:-1] + "g", bob.upper(), "x" * 100):
            status, seat = _seat_of(client, wrong)
            assert status == 409 and seat is None, (wrong, status, seat)
            r = client.post("/api/sessions/active/seats/release", json={}, headers={**AUTH, SEAT: wrong})
            assert r.status_code != 200, wrong
            r = client.post("/api/sessions/active/seats", json={"seat": "Ann"}, headers={**AUTH, SEAT: wrong})
            assert r.status_code == 409, wrong  # not Ann's phone asking again: Ann is held
        assert _seat_of(client, token) == (200, "Ann")  # the wrong ones released nothing
        assert _seat_of(client, bob) == (200, "Bob")
    finally:
        table.store.close()


def test_a_backup_carries_no_clear_token(tmp_path):
    db = tmp_path / "tableside.db"
    table = _table(db)
    try:
        sid = table.create_session("toy", {"limit": 10**6})["id"]
        token = phone(table).post("/api/sessions/active/seats", json={"seat": "Bob"}, headers=AUTH).get_json()["token"]
        backup = Backups(db, tmp_path / "backups").make()
    finally:
        table.store.close()
    assert token.encode() not in backup.read_bytes()
    restored = Store(backup)  # a restore of it: the phone keeps Bob
    try:
        assert restored.seat_of_token(token) == (sid, "Bob")
        assert restored.seat_of_token(token_hash(token)) is None
    finally:
        restored.close()


def test_serve_rewrites_the_backups_made_before_and_a_restored_one_keeps_the_phones_seat(tmp_path):
    """Backups made by the code before hold the clear tokens too: the next ``tableside serve`` rewrites them
    (and the database), and a restore of such a backup still seats the phone (a hash is not hashed again)."""
    data = tmp_path / "data"
    data.mkdir()
    db = data / "tableside.db"
    token = "oldPhoneToken-Shred-0123456789abcd"
    table = Table(Store(db))
    table.create_session("vnm", {})
    seat = table.seats_now()[1][0].name
    sid = _old_file(db, token, table, seat)
    old_backup = Backups(db).make()  # what the old code's backups copied
    assert token.encode() in old_backup.read_bytes()

    server = Process(data)
    server.start()
    try:
        status, view = server.request("GET", "/api/sessions/active", headers={SEAT: token})
        assert status == 200 and view["seat"] == seat
        status, _ = server.request("GET", "/api/sessions/active", headers={SEAT: token_hash(token)})
        assert status == 409
    finally:
        server.stop()
    for path in (db, old_backup):
        assert token.encode() not in _file_bytes(path), path
    restored = Store(old_backup)  # what a restore of it opens, upgraded by the migrations it lacks
    try:
        assert restored.seat_of_token(token) == (sid, seat)
    finally:
        restored.close()
