"""core.replay: rebuilding a game from its log is linear whatever its undo/redo history (issue #18,
finding 6), and a damaged row is named, skipped where a whole log is read, never a 500 (finding 7)."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core import replay as replay_module
from tableside.core import system as system_module
from tableside.core.store import DamagedEntry, Store
from tableside.core.table import Table

from tests import toysystem


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(4), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])


def _game_with_pairs(path, pairs: int, actions: int = 40) -> tuple[str, dict, int]:
    table = _table(path)
    table.create_session("toy", {"limit": 10**6})
    for i in range(actions):
        table.act({"type": "add", "points": 1 + i % 3})
    for _ in range(pairs):
        table.undo()
        table.redo()
        table.act({"type": "add", "points": 2})
    sid, state, version = table.view()["id"], table.view()["state"], table.view()["version"]
    table.store.drop_snapshots(sid)  # the stored head and checkpoints gone, as after a damaged file
    table.store.close()  # no head stored: a crash
    return sid, state, version


@pytest.mark.parametrize("pairs", [0, 5, 10])
def test_reopening_without_stored_states_re_applies_each_entry_a_bounded_number_of_times(tmp_path, monkeypatch, pairs):
    # It doubled with each undo/redo pair (10 pairs in a 50,000-action game did not finish).
    sid, played, version = _game_with_pairs(tmp_path / "t.db", pairs)
    calls = [0]
    real = system_module.run_action

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    for module in (replay_module, __import__("tableside.core.table", fromlist=["x"])):
        if hasattr(module, "run_action"):
            monkeypatch.setattr(module, "run_action", counting)
    again = _table(tmp_path / "t.db")
    view = again.view()
    assert (view["version"], view["state"]) == (version, played) and view["readonly"] is None
    assert calls[0] <= 2 * version, f"{calls[0]} re-applications for {version} entries"
    again.store.close()


def test_a_replay_with_its_checkpoints_stored_keeps_no_state_of_its_own(tmp_path):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for i in range(250):
        table.act({"type": "add", "points": 1})
        if i % 40 == 0:
            table.undo()
    row = table.store.get_session(table.view()["id"])
    replay = replay_module.Replay(table.store, toysystem.SYSTEM, row)
    final = replay.forward(row["initial_state"], 0, table.view()["version"])
    assert final == table.current_state() and list(replay.memory) == [0]
    table.store.close()


def _damage(table: Table, seq: int, column: str = "action", value: str = '{"type": "add", "points": ') -> None:
    table.store.execute(f"UPDATE log SET {column} = ? WHERE seq = ?", [value, seq])


def test_a_damaged_row_is_skipped_and_named_by_log_export_and_luck(tmp_path):
    from tests.httpapi import AUTH, phone

    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(4):
        table.act({"type": "roll_d6", "n": 2})
    _damage(table, 2)
    _damage(table, 3, "rolls", "[[[")
    client = phone(table)
    log = client.get("/api/sessions/active/log", headers=AUTH)
    assert log.status_code == 200 and [e["seq"] for e in log.get_json()] == [1, 4]
    assert log.headers["X-Tableside-Damaged"] == "2,3"
    export = client.get("/api/sessions/active/export", headers=AUTH)
    assert export.status_code == 200
    body = export.get_json()
    assert [e["seq"] for e in body["log"]] == [1, 4] and [d["seq"] for d in body["damaged"]] == [2, 3]
    csv = client.get("/api/sessions/active/export?format=csv", headers=AUTH)
    assert csv.status_code == 200 and "damaged" in csv.get_data(as_text=True)
    luck = client.get("/api/panel/luck", headers=AUTH)
    assert luck.status_code == 200 and "entries 2, 3" in luck.get_json()["note"]
    assert sum(p["dice"] for p in luck.get_json()["players"]) == 4
    # an undo whose state must be rebuilt through the damaged rows is refused in words, never a 500
    table.act({"type": "add", "points": 1})
    r = client.post("/api/sessions/active/undo", json={}, headers=AUTH)
    assert r.status_code == 422 and "entry 2" in r.get_json()["error"], r.get_json()
    table.store.execute("DELETE FROM log")  # leave nothing broken for the suite-wide replay check
    table.store.close()


def test_undo_that_needs_a_damaged_row_after_a_clean_stop_is_refused_not_a_500(tmp_path):
    from tests.httpapi import AUTH, phone

    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(5):
        table.act({"type": "add", "points": 1})
    _damage(table, 5, "result", "{not json")
    table.close()  # a clean stop: the head is stored, so the game opens playable
    again = _table(tmp_path / "t.db")
    r = phone(again).post("/api/sessions/active/undo", json={}, headers=AUTH)
    assert r.status_code == 422 and "entry 5" in r.get_json()["error"] and "damaged" in r.get_json()["error"]
    again.store.execute("DELETE FROM log")
    again.store.close()


def test_every_shape_of_damage_reads_as_a_damaged_entry(tmp_path):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(3):
        table.act({"type": "add", "points": 1})
    sid = table.view()["id"]
    for column, value in [
        ("action", "{"),
        ("action", "[1]"),
        ("rolls", '{"a": 1}'),
        ("private", "7"),
        ("kind", "sideways"),
        ("result", json.dumps("text")),
    ]:
        good = table.store.execute(f"SELECT {column} FROM log WHERE seq = 2").fetchone()[0]
        _damage(table, 2, column, value)
        damaged: list[dict] = []
        assert [e["seq"] for e in table.store.entries(sid, damaged=damaged)] == [1, 3], column
        assert damaged[0]["seq"] == 2 and damaged[0]["problem"]
        with pytest.raises(DamagedEntry, match="entry 2"):
            list(table.store.entries(sid))
        _damage(table, 2, column, good)
    table.store.close()


def test_tableside_export_writes_every_readable_entry_and_exits_damaged(tmp_path, capsys):
    from tableside import cli

    table = _table(tmp_path / "tableside.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(4):
        table.act({"type": "add", "points": 1})
    _damage(table, 3)
    assert cli.main(["export", "--data", str(tmp_path)]) == cli.EXIT_DAMAGED == 3
    out, err = capsys.readouterr()
    assert [e["seq"] for e in json.loads(out)["log"]] == [1, 2, 4]
    assert "1 damaged log entry could not be read (3;" in err
    assert cli.main(["export", "--data", str(tmp_path), "--format", "csv"]) == 3
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 1 + 3 + 1 and rows[-1].startswith("3,damaged")
    table.store.execute("DELETE FROM log")
    table.store.close()
