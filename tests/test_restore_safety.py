"""Commands that cannot lose a game (issue 33): ``tableside restore /nope/typo.db`` said the database "is
healthy and has every entry of /nope/typo.db ... add --force", and with ``--force`` renamed the healthy
``tableside.db`` to ``tableside.db.damaged-1`` before the missing file was noticed, so the next serve opened
an empty table. A restore after a cut did not say how many acknowledged entries after the backup are gone."""

from __future__ import annotations

import sqlite3

import pytest

from tableside import cli
from tests.test_recovery import _crash_image, _entries


def _files(data) -> list[str]:
    return sorted(p.name for p in data.iterdir() if p.name != "serve.lock")  # the command's own lock


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_a_missing_backup_is_refused_before_anything_moves(tmp_path, capsys, force):
    data = _crash_image(tmp_path, before=3, after=2)
    db = data / "tableside.db"
    before, names = db.read_bytes(), _files(data)
    assert cli.main(["restore", str(tmp_path / "nope" / "typo.db"), "--data", str(data), *force]) == 1
    err = capsys.readouterr().err
    assert "does not exist" in err and "Nothing was changed" in err, err
    assert "--force" not in err and "healthy" not in err
    assert db.read_bytes() == before and _files(data) == names  # nothing renamed, nothing written


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"", "is not a database"), (b"hello, not sqlite\n" * 10, "is not a database"), (None, "not a Tableside")],
)
def test_a_file_that_is_no_tableside_backup_is_refused_with_force(tmp_path, capsys, content, words):
    data = _crash_image(tmp_path, before=3, after=2)
    other = tmp_path / "other.db"
    if content is None:
        conn = sqlite3.connect(other)
        conn.execute("CREATE TABLE notes (x)")
        conn.commit()
        conn.close()
    else:
        other.write_bytes(content)
    names = _files(data)
    assert cli.main(["restore", str(other), "--data", str(data), "--force"]) == 1
    assert words in capsys.readouterr().err and _files(data) == names


def test_a_folder_given_as_the_backup_is_refused(tmp_path, capsys):
    data = _crash_image(tmp_path, before=3, after=2)
    names = _files(data)
    assert cli.main(["restore", str(tmp_path), "--data", str(data), "--force"]) == 1
    assert "is not a file" in capsys.readouterr().err and _files(data) == names


def test_after_a_cut_restore_says_none_were_lost_when_all_came_back(tmp_path, capsys):
    data = _crash_image(tmp_path)  # 59 in the backup, 8 acknowledged after it
    db = data / "tableside.db"
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size - 3 * 4096)
    assert cli.main(["restore", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "re-applied 8 newer entries" in out and "0 acknowledged entries after tableside-000001.db" in out, out
    assert _entries(db) == 67


def test_after_a_cut_restore_says_how_many_acknowledged_entries_it_could_not_bring_back(tmp_path, capsys):
    data = _crash_image(tmp_path)  # 59 in the backup, 8 acknowledged after it: the game's head says 67
    db = data / "tableside.db"
    conn = sqlite3.connect(db)
    sid = conn.execute("SELECT id FROM sessions").fetchone()[0]
    conn.execute("INSERT OR REPLACE INTO heads (session_id, version, state) VALUES (?, 67, '{}')", [sid])
    conn.execute("DELETE FROM log WHERE seq > 62")  # the last 5 entries' rows are gone; the head remembers 67
    conn.commit()
    conn.close()
    assert cli.main(["restore", "--data", str(data), "--force"]) == 0
    out = capsys.readouterr().out
    assert "re-applied 3 newer entries" in out, out
    assert "5 acknowledged entries after tableside-000001.db could not be brought back" in out, out
    assert _entries(db) == 62
