"""Loss somebody is told about (issue #18, finding 11): restore re-applies what the damaged file still
holds, refuses a healthy database without --force, start refuses a database older than its newest
backup, and the one-server lock cannot be defeated by deleting a file."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess

import pytest
from tableside.core.store import Store
from tableside.core.table import Table

from tableside import cli
from tableside.backup import Backups, check_database
from tableside.lock import FolderBusy, FolderLock
from tests import toysystem
from tests.live import Process


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(2), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])


def _crash_image(tmp_path, before: int = 59, after: int = 8):
    """``data/tableside.db`` (and its journal) as a kill -9 leaves them: ``before`` entries in the newest
    backup, ``after`` more acknowledged since. Returns the data folder."""
    live = tmp_path / "live"
    live.mkdir()
    db = live / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(before):
        table.act({"type": "roll_d6", "n": 3})
    table.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = tmp_path / "data"
    data.mkdir()
    Backups(db, folder=data / "backups").make()
    for _ in range(after):
        table.act({"type": "roll_d6", "n": 3})
    shutil.copyfile(db, data / "tableside.db")
    shutil.copyfile(f"{db}-wal", data / "tableside.db-wal")
    table.store.close()
    return data


def _entries(db) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]
    finally:
        conn.close()


def test_restore_re_applies_every_readable_entry_of_a_truncated_file_newer_than_the_backup(tmp_path, capsys):
    # It lost everything since the newest backup (8 of 67 acknowledged actions).
    data = _crash_image(tmp_path)
    db = data / "tableside.db"
    with open(db, "r+b") as f:  # the card cut the file short
        f.truncate(db.stat().st_size - 3 * 4096)
    assert check_database(db) is not None
    assert cli.main(["restore", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "re-applied 8 newer entries from the old file" in out and "damaged-1" in out
    assert check_database(db) is None and _entries(db) == 67
    table = _table(db)  # opens playable at entry 67, and replays from its log (the suite-wide check)
    assert table.view()["version"] == 67 and table.view()["readonly"] is None
    assert len(table.view()["state"]["rolls"]) == 67
    table.store.close()


def test_restore_refuses_a_healthy_database_without_force(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    table.act({"type": "add", "points": 1})
    Backups(db).make()
    table.act({"type": "add", "points": 1})
    table.close()
    before = db.read_bytes()
    assert cli.main(["restore", "--data", str(data)]) == 1
    assert "is healthy" in capsys.readouterr().err and db.read_bytes() == before
    assert cli.main(["restore", "--data", str(data), "--force"]) == 0
    assert _entries(db) == 2  # the backup's one entry, and the newer one re-applied from the old file
    assert (data / "tableside.db.damaged-1").exists()


def test_start_refuses_a_database_older_than_its_newest_backup(tmp_path):
    # The journal deleted mid-game and then a kill -9: the server started with no game and said nothing.
    data = _crash_image(tmp_path, before=10, after=5)
    (data / "tableside.db-wal").unlink()  # the journal, with the five newest entries, is gone
    (data / "backups" / "tableside-000001.db").rename(data / "backups" / "tableside-000002.db")
    db = data / "tableside.db"
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM log WHERE seq > 4")  # and the file itself is older than the backup
    conn.commit()
    conn.close()
    server = Process(data)
    out = subprocess.run(server.argv(), capture_output=True, text=True, env=server.env, timeout=30)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "older than its newest backup" in out.stderr and "4 of the backup's 10 entries" in out.stderr
    assert "tableside restore" in out.stderr and "tableside-000002.db" in out.stderr
    # ... and restore puts the backup back, keeping what the file had
    assert cli.main(["restore", "--data", str(data)]) == 0
    assert _entries(db) == 10


def test_a_deleted_game_does_not_make_the_database_look_older_than_its_backup(tmp_path):
    from tableside.backup import missing_entries

    db = tmp_path / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    old = table.view()["id"]
    table.act({"type": "add", "points": 1})
    table.create_session("toy", {"limit": 10**6})
    backup = Backups(db).make()
    assert missing_entries(db, backup) == []
    table.delete_session(old)
    assert missing_entries(db, backup) == []
    table.store.close()


def test_deleting_serve_lock_does_not_let_a_second_server_in(tmp_path):
    # Deleting serve.lock let a second server run on the same folder.
    first = FolderLock(tmp_path).acquire("serving on port 8080")
    (tmp_path / "serve.lock").unlink()
    with pytest.raises(FolderBusy, match="in use by another tableside serve"):
        FolderLock(tmp_path).acquire()
    first.release()
    FolderLock(tmp_path).acquire().release()


def test_a_journal_deleted_mid_game_loses_nothing_at_a_crash_and_is_reported(tmp_path):
    # The WAL deleted mid-game and then a kill -9: all 97 acknowledged actions were gone, silently.
    db = tmp_path / "live" / "tableside.db"
    table = _table(db)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(20):
        table.act({"type": "add", "points": 1})
    (tmp_path / "live" / "tableside.db-wal").unlink()
    for _ in range(3):
        table.act({"type": "add", "points": 1})
    crash = tmp_path / "crash"  # what a kill -9 leaves now: the files as they are, the process gone
    crash.mkdir()
    for name in ("tableside.db", "tableside.db-wal"):
        if (db.parent / name).exists():
            shutil.copyfile(db.parent / name, crash / name)
    assert _entries(crash / "tableside.db") == 23
    assert "journal file" in (table.check_journal() or "") and table.check_journal() is None
    (tmp_path / "live" / "tableside.db-wal").unlink()  # and while idle: the watch rescues it
    assert "deleted" in (table.check_journal() or "")
    table.act({"type": "add", "points": 1})
    assert (tmp_path / "live" / "tableside.db-wal").exists()
    table.store.close()
