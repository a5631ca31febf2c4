"""A database from a newer Tableside (issue 33): an extra migration or a NOT NULL column this Tableside
does not know started silently and then answered every action 409 "another writer changed this game
first (NOT NULL constraint failed ...)". Now it opens read-only, saying so, and nothing is written."""

from __future__ import annotations

import sqlite3

import pytest
from tableside.core.store import MIGRATIONS, Store

from tableside.doctor_data import check_data
from tests.httpapi import AUTH, phone
from tests.test_damaged_rows import _table


def _played(path) -> str:
    table = _table(path)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(3):
        table.act({"type": "add", "points": 1})
    sid = table.view()["id"]
    table.store.close()
    return sid


def _extra_migration(conn) -> None:
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")


def _not_null_column(conn) -> None:  # what a newer release's rebuilt table looks like
    conn.executescript(
        "DROP TABLE seat_claims; CREATE TABLE seat_claims (session_id TEXT, seat TEXT, token TEXT, at TEXT, "
        "pin TEXT NOT NULL, PRIMARY KEY (session_id, seat));"
    )


@pytest.mark.parametrize("newer", [_extra_migration, _not_null_column], ids=["user_version", "not-null-column"])
def test_a_newer_database_opens_read_only_saying_so(tmp_path, newer):
    db = tmp_path / "tableside.db"
    sid = _played(db)
    conn = sqlite3.connect(db)
    newer(conn)
    conn.commit()
    conn.close()
    before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM log").fetchone()[0]

    table = _table(db)  # the table starts
    try:
        client = phone(table)
        view = client.get("/api/sessions/active", headers=AUTH).get_json()
        assert view["id"] == sid and view["version"] == 3
        assert "newer Tableside" in view["readonly"] and "read-only" in view["readonly"], view["readonly"]
        acted = client.post("/api/sessions/active/actions", json={"type": "add", "points": 1}, headers=AUTH)
        assert acted.status_code in (409, 422) and "newer Tableside" in acted.get_json()["error"]
        assert "another writer" not in acted.get_json()["error"]
        made = client.post("/api/sessions", json={"system": "toy", "options": {"limit": 5}}, headers=AUTH)
        assert made.status_code in (409, 422) and "newer Tableside" in made.get_json()["error"], made.get_json()
        for path in ("/api/sessions/active/moment", "/api/panel/chart.svg", "/api/sessions/active/log"):
            assert client.get(path, headers=AUTH).status_code == 200, path
    finally:
        table.store.close()
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM log").fetchone()[0] == before  # nothing written
    doctor = [c for c in check_data(tmp_path) if "newer Tableside" in c.text]
    assert doctor and not doctor[0].ok and "update Tableside" in doctor[0].fix


def test_this_versions_own_file_is_not_newer(tmp_path):
    store = Store(tmp_path / "t.db")
    assert store.newer is None
    store.close()
