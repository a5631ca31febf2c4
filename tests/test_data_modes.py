"""The data folder is private (issue 33): a plain ``tableside serve`` under umask 022 wrote the database,
backups and archive as 644 in a 755 folder, a restore from a shell left the database 644, and a kill
during a backup left an 11-16 MB temp file in ``backups/`` for good. Now: the folder 0700 and every file
0600 after serve and after restore, whatever the umask; the killed backup's temp file goes at the start."""

from __future__ import annotations

import contextlib
import os
import random
import stat
import subprocess
import time

from tableside.core.store import Store
from tableside.core.table import Table

from tableside.backup import Backups
from tests.live import Process


def _table(path) -> Table:
    table = Table(Store(path), rng=random.Random(1))
    table.create_session("vnm", {})
    return table


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _modes(folder) -> dict[str, int]:
    out = {".": stat.S_IMODE(folder.stat().st_mode)}
    for path in folder.rglob("*"):
        if path.name != "serve.lock":  # made 0600 by the lock itself
            out[str(path.relative_to(folder))] = stat.S_IMODE(path.lstat().st_mode)
    return out


def _open_folder(tmp_path):
    """A data folder as an older Tableside left it under umask 022: everything readable by everyone."""
    data = tmp_path / "data"
    with umask(0o022):
        data.mkdir()
        table = _table(data / "tableside.db")
        Backups(data / "tableside.db").make()
        table.store.close()
        for path in (data / "backups", data / "archive"):
            path.mkdir(exist_ok=True)
            path.chmod(0o755)
        (data / "archive" / "game-1.json").write_text("{}")
        (data / "display.png").write_bytes(b"\x89PNG")
        stale = data / "backups" / ".tableside-000002.db.tmp"
        stale.write_bytes(b"\0" * 4096)  # a backup killed mid-copy
        for path in data.rglob("*"):
            if path.is_file():
                path.chmod(0o644)
        data.chmod(0o755)
    return data, stale


def test_serve_under_umask_022_leaves_the_folder_0700_and_every_file_0600(tmp_path):
    data, stale = _open_folder(tmp_path)
    server = Process(data)
    with umask(0o022):
        server.start()
    try:
        assert server.request("GET", "/api/sessions/active")[0] == 200
        deadline = time.monotonic() + 30
        while not (data / "tableside.db-wal").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
    modes = _modes(data)
    assert not stale.exists(), "the killed backup's temp file is still there"
    assert "tableside.db" in modes and "backups/tableside-000001.db" in modes
    wrong = {name: oct(mode) for name, mode in modes.items() if mode != (0o700 if (data / name).is_dir() else 0o600)}
    assert not wrong, wrong


def test_a_restore_from_a_shell_under_umask_022_leaves_the_database_0600(tmp_path):
    data, _ = _open_folder(tmp_path)
    server = Process(data)
    argv = [server.argv()[0], "restore", "--data", str(data), "--force"]
    with umask(0o022):
        done = subprocess.run(argv, capture_output=True, text=True, env=server.env, timeout=60)
    assert done.returncode == 0, done.stderr
    for name in ("tableside.db", "tableside.db.damaged-1"):
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(data.stat().st_mode) == 0o700


def test_a_backup_is_0600_whatever_the_umask(tmp_path):
    with umask(0o022):
        table = _table(tmp_path / "tableside.db")
        made = Backups(tmp_path / "tableside.db").make()
        table.store.close()
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
