"""Damaged data, every table (issue 33): each file below still passes ``quick_check``, yet a broken
``heads.state`` or ``sessions.options`` row stopped the server (a traceback, or only "Expecting property
name enclosed in double quotes" naming no file and offering no backup), a broken newest ``result`` made
the view and the moment answer 422 for good, and broken snapshots or an ``initial_state`` of null gave
500s on the chart and on undo. Now every case: the table starts, the game opens (read-only where a row
the game needs is damaged, saying so in words), no request answers 500, and the doctor names the row
and the newest good backup."""

from __future__ import annotations

import random
import sqlite3

import pytest
from tableside.core.store import Store
from tableside.core.table import Table

from tableside.backup import Backups
from tableside.doctor_data import check_data
from tests import toysystem
from tests.httpapi import AUTH, phone

GARBAGE = {"bad": "{bad", "null": "null", "list": "[]", "number": "42", "text": '"x"', "blob": b"\xff\x00\xfe"}


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])


def _game(path) -> tuple[str, int]:
    """A played game: 207 entries (checkpoints at 100 and 200, an undo and a redo), its head stored when
    another game was played, then back on the table. Returns its id and version."""
    table = _table(path)
    table.create_session("toy", {"limit": 10**6})
    sid = table.view()["id"]
    for i in range(150):
        table.act({"type": "roll_d6", "n": 2} if i % 2 else {"type": "add", "points": 1})
    table.undo()
    table.redo()
    for i in range(55):
        table.act({"type": "roll_d6", "n": 2} if i % 2 else {"type": "add", "points": 1})
    table.create_session("toy", {"limit": 10**6})  # the first game's head is stored
    table.activate(sid)
    version = table.view()["version"]
    assert version == 207 and table.view()["readonly"] is None, table.view()["readonly"]
    table.store.close()
    return sid, version


# (table, column, which row, garbage): 32 damaged rows, each in a file that passes quick_check
CASES = [
    *[("sessions", "options", "game", g) for g in ("bad", "null", "list", "number", "blob")],
    *[("sessions", "initial_state", "game", g) for g in ("bad", "null", "list", "text", "blob")],
    *[("heads", "state", "game", g) for g in ("bad", "null", "list", "blob")],
    *[("snapshots", "state", "v0", g) for g in ("bad", "null")],
    *[("snapshots", "state", "v100", g) for g in ("bad", "list")],
    *[("snapshots", "state", "newest", g) for g in ("bad", "null")],
    *[("log", "result", "newest", g) for g in ("bad", "blob")],
    *[("log", "action", "middle", g) for g in ("bad", "list")],
    *[("log", "rolls", "newest rolled", g) for g in ("bad", "text")],
    ("log", "private", "newest rolled", "bad"),
    ("log", "kind", "middle", "text"),
    ("log", "target", "undo", "text"),
    ("log", "seat", "newest", "blob"),
    ("log", "type", "newest", "blob"),
    ("log", "row", "middle", "gone"),
]
assert len(CASES) == 32

ROWS = {
    "game": "WHERE {id} = :sid",
    "v0": "WHERE session_id = :sid AND version = 0",
    "v100": "WHERE session_id = :sid AND version = 100",
    "newest": "WHERE session_id = :sid AND {key} = (SELECT MAX({key}) FROM {table} WHERE session_id = :sid)",
    "middle": "WHERE session_id = :sid AND seq = 120",
    "undo": "WHERE session_id = :sid AND kind = 'undo'",
    "newest rolled": "WHERE session_id = :sid AND seq = (SELECT MAX(seq) FROM log WHERE session_id = :sid "
    "AND rolls != '[]')",
}


def _damage(path, sid: str, table: str, column: str, row: str, garbage: str) -> None:
    key = "version" if table == "snapshots" else "seq"
    where = ROWS[row].format(key=key, table=table, id="id" if table == "sessions" else "session_id")
    conn = sqlite3.connect(path)
    if garbage == "gone":
        changed = conn.execute(f"DELETE FROM {table} {where}", {"sid": sid}).rowcount
    else:
        value = GARBAGE[garbage]
        changed = conn.execute(f"UPDATE {table} SET {column} = :v {where}", {"sid": sid, "v": value}).rowcount
    assert changed == 1, (table, column, row)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    conn.close()


READS = [
    ("GET", "/api/sessions/active"),
    ("GET", "/api/sessions/active/moment"),
    ("GET", "/api/sessions/active/log"),
    ("GET", "/api/sessions/active/log?limit=5"),
    ("GET", "/api/sessions"),
    ("GET", "/api/panel/chart.svg"),
    ("GET", "/api/panel/luck"),
    ("GET", "/api/panel/sessions"),
    ("GET", "/api/rolls"),
    ("POST", "/api/sessions/active/undo"),
    ("POST", "/api/sessions/active/redo"),
    ("POST", "/api/sessions/active/actions"),
]


@pytest.mark.parametrize(("table", "column", "row", "garbage"), CASES, ids=["-".join(c) for c in CASES])
def test_a_damaged_row_starts_the_table_opens_the_game_and_never_answers_500(tmp_path, table, column, row, garbage):
    db = tmp_path / "tableside.db"
    sid, version = _game(db)
    Backups(db).make()
    _damage(db, sid, table, column, row, garbage)

    doctor = [f"{c.text} {c.fix}" for c in check_data(tmp_path)]
    named = [line for line in doctor if sid in line and "damaged" in line]
    assert named, doctor  # the doctor names the damaged row
    if table in ("sessions", "log") and column != "initial_state":
        assert str(tmp_path / "backups" / "tableside-000001.db") in named[0], named  # and the newest good backup

    played = _table(db)  # the table starts
    try:
        client = phone(played)
        view = client.get("/api/sessions/active", headers=AUTH)
        assert view.status_code == 200, view.get_json()
        view = view.get_json()
        assert view["id"] == sid and isinstance(view["state"], dict)
        if view["readonly"] is None:  # only a damaged cache (a head, a checkpoint): the log rebuilds the game
            assert table in ("heads", "snapshots") or (table, column) == ("sessions", "initial_state"), view
            assert view["version"] == version, "a damaged cache must not lose an entry"
        else:
            assert "damaged" in view["readonly"], view["readonly"]
            moment = client.get("/api/sessions/active/moment", headers=AUTH)
            assert moment.status_code == 200 and view["readonly"] in moment.get_data(as_text=True)  # in words
        statuses = {}
        for method, path in READS:
            body = {"type": "add", "points": 1} if path.endswith("/actions") else None
            r = client.open(path, method=method, json=body, headers=AUTH)
            statuses[f"{method} {path}"] = r.status_code
        assert 500 not in statuses.values(), {k: v for k, v in statuses.items() if v == 500}
    finally:
        played.store.close()


@pytest.mark.parametrize(("table", "column"), [("heads", "state"), ("sessions", "options")])
def test_a_real_serve_starts_on_a_damaged_row_and_shows_the_game(tmp_path, table, column):
    """The issue's first two cases through a real ``tableside serve``: it stopped with a traceback."""
    from tests.live import Process

    data = tmp_path / "data"
    data.mkdir()
    played = Table(Store(data / "tableside.db"), rng=random.Random(1))
    played.create_session("vnm", {})
    sid = played.view()["id"]
    played.act({"type": "declare_target", "target": "Mars"})
    played.create_session("vnm", {})  # the first game's head is stored
    played.activate(sid)
    played.store.close()
    _damage(data / "tableside.db", sid, table, column, "game", "bad")
    server = Process(data).start()
    try:
        status, view = server.request("GET", "/api/sessions/active")
        assert status == 200 and view["id"] == sid and view["version"] == 1, view
        if table == "sessions":
            assert "setup (its options) is damaged" in view["readonly"] and "tableside restore" in view["readonly"]
        else:
            assert view["readonly"] is None  # a damaged cache: rebuilt from the log, still playable
        for path in ("/api/sessions/active/moment", "/api/panel/chart.svg", "/api/sessions"):
            assert server.request("GET", path)[0] == 200, path
    finally:
        out = server.stop()
    assert "Traceback" not in out, out
