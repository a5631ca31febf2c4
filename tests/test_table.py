"""The session core: log, replay, undo/redo, versions, reopen after close."""

from __future__ import annotations

import random

import pytest
from tableside.core.errors import BadRequest, Conflict, NotFound, RuleError
from tableside.core.store import Store
from tableside.core.table import Table

from tests import toysystem
from tests.toysystem import SYSTEM


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "tableside.db"


def make_table(path, seed=1):
    return Table(Store(path), rng=random.Random(seed), systems=toysystem.get)


@pytest.fixture
def table(db_path):
    t = make_table(db_path)
    t.create_session("toy", {"limit": 100})
    return t


def test_actions_append_to_the_log_with_source_time_and_result(table):
    out = table.act({"type": "add", "points": 5}, source="phone")
    assert out["version"] == 1 and out["state"]["score"] == 5
    (entry,) = table.log()
    assert entry["seq"] == 1 and entry["source"] == "phone" and entry["at"]
    assert entry["result"]["summary"] == "+5 -> 5"


def test_dice_faces_are_in_the_log_and_the_state_replays_from_them(table, db_path):
    out = table.act({"type": "roll_d6", "n": 3}, source="button")
    faces = table.log()[-1]["rolls"][0]["rolls"]
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)
    assert out["state"]["score"] == sum(faces)
    assert SYSTEM.redact(table.replay(table.view()["id"]), None) == out["state"]


def test_typed_in_faces_replace_the_random_roll(table):
    out = table.act({"type": "roll_d6", "n": 2, "faces": [6, 1]})
    assert out["result"]["faces"] == [6, 1]
    with pytest.raises(RuleError, match="face 7 is not on a d6"):
        table.act({"type": "roll_d6", "n": 2, "faces": [7, 1]})
    assert table.view()["version"] == 1


def test_a_refused_action_changes_nothing(table):
    table.act({"type": "add", "points": 50})
    table.act({"type": "add", "points": 50})
    with pytest.raises(RuleError, match="may not pass 100"):
        table.act({"type": "add", "points": 1})
    with pytest.raises(RuleError, match="at most 50"):
        table.act({"type": "add", "points": 51})
    with pytest.raises(RuleError, match="unknown action 'fly'"):
        table.act({"type": "fly"})
    with pytest.raises(BadRequest, match="'Points' is required"):
        table.act({"type": "add"})
    assert table.view()["version"] == 2 and len(table.log()) == 2


def test_a_bug_in_the_rules_is_a_clear_refusal_not_a_crash(table):
    with pytest.raises(RuleError, match="ZeroDivisionError"):
        table.act({"type": "boom"})
    assert table.view()["version"] == 0


def test_undo_and_redo_are_log_entries_and_redo_keeps_the_faces(table):
    table.act({"type": "add", "points": 2})
    rolled = table.act({"type": "roll_d6", "n": 4})
    faces = rolled["result"]["faces"]
    undone = table.undo()
    assert undone["state"]["score"] == 2 and undone["version"] == 3
    redone = table.redo()
    assert redone["state"] == rolled["state"] and redone["version"] == 4
    assert redone["result"]["faces"] == faces
    kinds = [e["kind"] for e in table.log()]
    assert kinds == ["action", "action", "undo", "redo"]


def test_undo_walks_back_through_redone_actions(table):
    for p in (1, 2, 3):
        table.act({"type": "add", "points": p})
    table.undo(), table.undo()
    table.redo()
    assert table.view()["state"]["score"] == 3
    table.undo()
    assert table.view()["state"]["score"] == 1
    table.undo()
    assert table.view()["state"]["score"] == 0
    with pytest.raises(RuleError, match="nothing to undo"):
        table.undo()


def test_a_new_action_clears_redo(table):
    table.act({"type": "add", "points": 1})
    table.undo()
    table.act({"type": "add", "points": 7})
    with pytest.raises(RuleError, match="nothing to redo"):
        table.redo()


def test_stale_expected_version_is_a_conflict_and_changes_nothing(table):
    table.act({"type": "add", "points": 1}, expected_version=0)
    with pytest.raises(Conflict, match="version 1, not 0"):
        table.act({"type": "add", "points": 1}, expected_version=0)
    with pytest.raises(Conflict):
        table.undo(expected_version=5)
    with pytest.raises(BadRequest):
        table.act({"type": "add", "points": 1}, expected_version="1")
    assert table.view()["version"] == 1


def test_reopen_after_close_finds_the_same_session_and_stacks(db_path):
    t = make_table(db_path)
    sid = t.create_session("toy")["id"]
    for p in (1, 2, 3):
        t.act({"type": "add", "points": p})
    t.undo()
    t.store.close()
    again = make_table(db_path)
    view = again.view()
    assert (view["id"], view["version"], view["state"]["score"]) == (sid, 4, 3)
    again.redo()
    assert again.view()["state"]["score"] == 6


def test_replay_without_snapshots_gives_the_same_state(table):
    for n in range(1, 6):
        table.act({"type": "roll_d6", "n": n})
    table.undo()
    table.act({"type": "add", "points": 3})
    table.undo(), table.redo()
    sid = table.view()["id"]
    expected = table.view()["state"]
    table.store.drop_snapshots(sid)
    assert SYSTEM.redact(table.replay(sid), None) == expected
    table.undo()  # snapshot gone: undo must replay to find the earlier state
    assert table.view()["state"]["score"] == expected["score"] - 3


def test_several_sessions_one_active_newest_first(db_path):
    t = make_table(db_path)
    first = t.create_session("toy")["id"]
    t.act({"type": "add", "points": 4})
    second = t.create_session("toy")["id"]
    assert [s["id"] for s in t.sessions()] == [second, first]
    assert t.view()["id"] == second and t.view()["version"] == 0
    t.activate(first)
    assert t.view()["state"]["score"] == 4
    with pytest.raises(NotFound):
        t.activate("nope")


def test_order_comes_from_sequence_numbers_not_the_clock(db_path):
    times = iter([1_000_000_000, 10, 5, 2_000_000_000])  # a clock that jumps back and forth
    t = Table(Store(db_path), rng=random.Random(0), clock=lambda: next(times), systems=toysystem.get)
    t.create_session("toy")
    for p in (1, 2, 3):
        t.act({"type": "add", "points": p})
    assert [e["seq"] for e in t.log()] == [1, 2, 3]
    assert [e["action"]["points"] for e in t.log()] == [1, 2, 3]


def test_buttons_follow_the_system_map(table):
    table.press("B")
    assert table.view()["state"]["score"] == 1
    table.press("D")
    assert table.view()["state"]["score"] == 0
    table.press("D", hold=True)
    assert table.view()["state"]["score"] == 1
    with pytest.raises(RuleError, match="nothing to do"):
        table.press("C")
    with pytest.raises(RuleError, match="does nothing"):
        table.press("A", hold=True)


def test_free_roll_is_logged_in_the_active_session(table):
    out = table.roll("2d10cs>=8", faces=[0, 7])
    assert out["rolls"] == [10, 7] and out["successes"] == 1
    assert table.log()[-1]["type"] == "roll"


def test_no_active_session(db_path):
    t = make_table(db_path)
    with pytest.raises(NotFound):
        t.act({"type": "add", "points": 1})
    assert t.roll("1d6", faces=[3])["total"] == 3


def test_listeners_hear_every_change_and_a_broken_one_loses_nothing(table):
    heard = []
    table.subscribe(heard.append)
    table.subscribe(lambda e: 1 / 0)
    table.act({"type": "add", "points": 1})
    table.undo()
    assert [e["version"] for e in heard] == [1, 2]
    assert table.view()["version"] == 2
