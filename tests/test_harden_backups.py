"""Backups and damaged databases (issue 13): a restored backup holds every action up to it,
a damaged file is named at start-up with the newest good backup and never overwritten."""

from __future__ import annotations

import random
import sqlite3
import subprocess

import pytest
from tableside.core.store import Store
from tableside.core.table import Table

from tableside.backup import Backups, check_database, damaged_message, restore
from tests import toysystem
from tests.handclock import Clock
from tests.live import Process


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(2), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])


def _damage(path) -> None:
    """Overwrite the middle of the file, as a worn SD card might."""
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 3, len(data) // 3 + 4096):
        data[i] = 0x55
    data[0:16] = b"garbage garbage!"
    path.write_bytes(bytes(data))


def test_a_restored_backup_holds_every_action_up_to_it(tmp_path):
    db = tmp_path / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    for i in range(7):
        table.act({"type": "roll_d6", "n": 1 + i % 3})
    backups = Backups(db, keep=3)
    made = backups.make()
    log_then = table.log()
    state_then = table.store.snapshot(table.view()["id"], 7)
    for _ in range(5):
        table.act({"type": "add", "points": 1})
    table.store.close()

    aside = restore(db, made)
    assert aside.name == "tableside.db.damaged-1" and aside.exists()  # the old file is kept
    again = _table(db)
    assert again.view()["version"] == 7 and again.log() == log_then
    assert again.store.snapshot(again.view()["id"], 7) == state_then
    again.store.close()


def test_backups_rotate_and_each_is_whole(tmp_path):
    db = tmp_path / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    backups = Backups(db, keep=3)
    for _ in range(5):
        table.act({"type": "add", "points": 1})
        backups.make()
    names = [p.name for p in backups.list()]
    assert names == ["tableside-000005.db", "tableside-000004.db", "tableside-000003.db"]
    assert all(check_database(p) is None for p in backups.list())
    assert not list(backups.folder.glob(".*tmp"))
    versions = [sqlite3.connect(p).execute("SELECT MAX(seq) FROM log").fetchone()[0] for p in backups.list()]
    assert versions == [5, 4, 3]
    table.store.close()


def test_a_backup_at_each_rounds_end_and_every_few_minutes(tmp_path):
    db = tmp_path / "tableside.db"
    _table(db).store.close()
    clock = Clock(now=0.0)
    backups = Backups(db, every=300, clock=clock)
    assert backups.run_once() is None  # nothing played: nothing to save
    backups.changed()
    backups.observe({"round": 1})
    assert backups.run_once() is None  # a change, but the round goes on and it is not yet time
    backups.changed()
    backups.observe({"round": 2})  # the round ended, but the last backup (start-up) was just now
    assert backups.run_once() is None
    clock.now += 60
    assert backups.run_once() is not None
    backups.changed()
    clock.now += 299
    assert backups.run_once() is None
    clock.now += 2  # five minutes of play
    assert backups.run_once() is not None
    assert backups.made == 2


def test_rounds_ended_in_a_loop_make_at_most_one_backup_a_minute_and_none_without_a_change(tmp_path):
    # finding 9 (#18): a guest ending rounds in a loop made 77 whole backups in 20 s
    db = tmp_path / "tableside.db"
    _table(db).store.close()
    clock = Clock(now=0.0)
    backups = Backups(db, every=300, clock=clock)
    made = []
    for r in range(1, 2001):  # 2,000 rounds over 200 s
        clock.now += 0.1
        backups.changed()
        backups.observe({"round": r})
        made.append(backups.run_once())
    assert sum(p is not None for p in made) == 3  # at 60, 120 and 180 s
    clock.now += 1000
    assert backups.run_once() is not None  # the last changes, once
    clock.now += 1000
    assert backups.run_once() is None  # nothing changed since


def test_quick_check_names_the_damage_and_the_newest_good_backup(tmp_path):
    db = tmp_path / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    table.act({"type": "add", "points": 1})
    backups = Backups(db)
    good = backups.make()
    table.store.close()
    assert check_database(db) is None
    _damage(db)
    problem = check_database(db)
    assert problem
    message = damaged_message(db, problem, backups)
    assert str(db) in message and str(good) in message and "tableside restore" in message
    assert "\n" not in message


def test_serve_refuses_a_damaged_database_and_restore_brings_the_backup_back(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(3):
        table.act({"type": "add", "points": 2})
    Backups(db).make()
    table.store.close()
    _damage(db)
    damaged = db.read_bytes()

    server = Process(data)
    out = subprocess.run(server.argv(), capture_output=True, text=True, env=server.env, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert str(db) in out.stderr and "tableside-000001.db" in out.stderr and "tableside restore" in out.stderr
    assert db.read_bytes() == damaged  # never overwritten

    argv = [server.argv()[0], "restore", "--data", str(data)]
    done = subprocess.run(argv, capture_output=True, text=True, env=server.env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tableside-000001.db" in done.stdout and "damaged-1" in done.stdout
    assert (data / "tableside.db.damaged-1").read_bytes() == damaged
    assert check_database(db) is None
    restored = sqlite3.connect(db)
    assert restored.execute("SELECT MAX(seq) FROM log").fetchone()[0] == 3
    restored.close()


def test_restore_refuses_while_the_table_is_running(tmp_path):
    server = Process(tmp_path / "data").start()
    try:
        argv = [server.argv()[0], "restore", "--data", str(server.data)]
        done = subprocess.run(argv, capture_output=True, text=True, env=server.env, timeout=60)
        assert done.returncode != 0 and "in use by another tableside serve" in done.stderr
    finally:
        server.stop()


@pytest.mark.parametrize("full_at", [1, 3])
def test_a_full_disk_says_so_saves_nothing_and_the_table_goes_on(tmp_path, full_at):
    table = _table(tmp_path / "tableside.db")
    table.create_session("toy", {"limit": 10**6})
    for _ in range(full_at):
        table.act({"type": "roll_d6", "n": 2})
    conn = table.store.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
    before = table.view()
    filler = {"type": "roll_d6", "n": 3}
    errors = []
    for _ in range(40):  # until a write needs a new page
        try:
            table.act(filler)
        except Exception as exc:
            errors.append(exc)
            break
    assert errors, "the database never filled up"
    exc = errors[0]
    assert getattr(exc, "status", None) == 409 and exc.message.startswith("disk full: the action was not saved")
    version = table.view()["version"]
    assert [e["seq"] for e in table.log()] == list(range(1, version + 1))  # nothing half-written
    conn.execute("PRAGMA max_page_count = 1073741823")  # space returns
    out = table.act({"type": "add", "points": 1})
    assert out["version"] == version + 1 and before["id"] == table.view()["id"]
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(Exception, match="disk full: the new game was not saved"):
        for _ in range(400):
            table.create_session("toy", {"limit": 10**6}, "a long game name " * 3)
    table.store.close()
