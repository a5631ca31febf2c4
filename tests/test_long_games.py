"""Long games (issue 13): snapshots are checkpoints, the head state is one row, reopen and
undo read at most a checkpoint's worth of entries, and replay from the log alone is a
single pass. Random walks of actions, undos and redos check every path against the
states the table reported while playing."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core import replay as replay_module
from tableside.core import store as store_module
from tableside.core.store import Store
from tableside.core.table import Table

from tests import toysystem


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(4), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])


def _canon(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


@pytest.fixture
def small_checkpoints(monkeypatch):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(replay_module, "CHECKPOINT_EVERY", 4)


def _walk(table: Table, rng: random.Random, steps: int) -> dict[int, str]:
    """Play randomly; returns the state the table reported at each version."""
    seen = {0: _canon(table.view()["state"])}
    for _ in range(steps):
        move = rng.random()
        try:
            if move < 0.5:
                out = table.act({"type": "roll_d6", "n": rng.randint(1, 3)})
            elif move < 0.65:
                out = table.act({"type": "add", "points": rng.randint(1, 3)})
            elif move < 0.85:
                out = table.undo()
            else:
                out = table.redo()
        except Exception as exc:  # nothing to undo/redo, or over the limit: a clean refusal
            assert getattr(exc, "status", None) == 422, exc
            continue
        seen[out["version"]] = _canon(out["state"])
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_undo_redo_reopen_and_replay_agree_with_play(tmp_path, small_checkpoints, seed):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    session = table.view()["id"]
    rng = random.Random(seed)
    seen = _walk(table, rng, 60)
    version = table.view()["version"]
    # Undo goes back through states seen in play, whatever checkpoint it starts from.
    for _ in range(8):
        before = table.view()["version"]
        try:
            out = table.undo()
        except Exception:
            break
        assert _canon(out["state"]) in seen.values(), f"undo at {before} made a state never seen in play"
        assert out["version"] == before + 1
        seen[out["version"]] = _canon(out["state"])
    version = table.view()["version"]
    shown = _canon(table.view()["state"])  # what a phone sees (redacted)
    raw = _canon(table.state_of(session))  # the state in memory, as play made it
    states = table.states(session)  # the history chart's fold: one state per version, the last the same
    assert len(states) == version + 1 and _canon(states[-1]) == raw
    table.close()  # the head is stored

    again = _table(tmp_path / "t.db")  # reopen: the head row
    assert again.view()["version"] == version and _canon(again.view()["state"]) == shown
    assert _canon(again.replay(session)) == raw  # from the log alone
    again.store.drop_snapshots(session)  # no stored state at all: reopen replays the log
    again.store.close()
    third = _table(tmp_path / "t.db")
    assert _canon(third.view()["state"]) == shown
    third.store.close()


def test_snapshots_are_checkpoints_and_the_head_is_stored_when_the_game_is_put_away(tmp_path, small_checkpoints):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(42):
        table.act({"type": "add", "points": 1})
    table.undo()
    db = table.store
    session = table.view()["id"]
    versions = [
        r[0]
        for r in db.execute("SELECT version FROM snapshots WHERE session_id = ? ORDER BY version", [session]).fetchall()
    ]
    assert versions == [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 43]  # every 4th, and the undo (43)
    table.act({"type": "add", "points": 1})  # version 44: a checkpoint again
    table.act({"type": "add", "points": 2})  # version 45: the log only
    assert db.execute("SELECT COUNT(*) FROM heads WHERE session_id = ?", [session]).fetchone() == (0,)
    table.create_session("toy", {"limit": 10**6})  # the first game is put away: its head is stored
    assert db.execute("SELECT version FROM heads WHERE session_id = ?", [session]).fetchall() == [(45,)]
    assert table.state_of(session)["score"] == 44
    table.close()
    again = _table(tmp_path / "t.db")  # closing stored the second game's head too
    assert again.store.execute("SELECT COUNT(*) FROM heads").fetchone() == (2,)
    again.activate(session)
    assert again.view()["state"]["score"] == 44 and again.view()["version"] == 45
    again.store.close()


def test_a_game_cut_off_by_a_crash_reopens_from_its_checkpoint_and_log(tmp_path, small_checkpoints):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    seen = [table.act({"type": "roll_d6", "n": 2})["state"] for _ in range(7)]
    table.store.close()  # no head stored: as after kill -9 or a power cut
    again = _table(tmp_path / "t.db")
    assert again.view()["version"] == 7
    assert _canon(again.view()["state"]) == _canon(seen[-1])  # checkpoint 4, then entries 5-7 re-applied
    assert _canon(again.undo()["state"]) == _canon(seen[-2])
    again.store.close()


def test_one_append_is_one_insert_like_a_bare_insert(tmp_path):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    table.act({"type": "add", "points": 1})
    statements: list[str] = []
    table.store.conn.set_trace_callback(statements.append)
    table.act({"type": "add", "points": 1})
    table.store.conn.set_trace_callback(None)
    writes = [s for s in statements if not s.lstrip().upper().startswith("SELECT")]
    assert not any("sqlite_master" in s or "SAVEPOINT" in s.upper() for s in statements), statements
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("INSERT INTO LOG"), writes
    table.store.close()


def test_the_log_is_served_in_pages(tmp_path):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(30):
        table.act({"type": "add", "points": 1})
    assert [e["seq"] for e in table.log(since=27)] == [28, 29, 30]
    assert table.log(since=30) == []
    table.store.close()


def test_a_log_that_no_longer_replays_opens_read_only_at_its_last_good_entry(tmp_path):
    table = _table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 10**6})
    session = table.view()["id"]
    for _ in range(7):
        table.act({"type": "add", "points": 1})
    table.store.execute("UPDATE log SET action = ? WHERE seq = 5", ['{"type": "nonsense"}'])  # damaged
    table.store.close()  # no head stored (a crash): reopening must re-apply entries 1-7
    again = _table(tmp_path / "t.db")  # starts, rather than failing the whole server
    view = again.view()
    # finding 7 (#18): it opened "as it was at version 0"; now at entry 4, the last good one
    assert view["version"] == 4 and view["state"]["score"] == 4
    assert "entry 5" in view["readonly"] and "damaged" in view["readonly"] and "version 4" in view["readonly"]
    with pytest.raises(Exception, match="entry 5"):
        again.act({"type": "add", "points": 1})
    assert again.view()["version"] == 4
    again.store.execute("DELETE FROM log WHERE session_id = ?", [session])  # leave nothing broken behind
    again.store.close()
