"""Storage faults said for what they are (issue 32): a full SD card at start is "full, the games are safe",
not a damaged database to move away; a read-only card is said as read-only with its fix, never "chown".

The faults are made the way they happen: a small tmpfs filled up by another program (``dd`` until
ENOSPC; SQLite then cannot make the WAL's ``-shm`` file and answers "disk I/O error"), and a mount
remounted read-only (what the kernel does to an SD card after an error). Mounting needs root: the
tests skip, saying so, where it is refused.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tableside.core.store import Store

from tableside import storage
from tableside.doctor import check_data, run_doctor


def _mount(where: Path, size_mb: int) -> None:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(where)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'}): needs root")


@pytest.fixture
def card(tmp_path):
    """A 40 MB 'SD card' holding a data folder with a table's database in it."""
    where = tmp_path / "card"
    _mount(where, 40)
    folder = where / "tableside"
    folder.mkdir()
    Store(folder / "tableside.db").close()
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> None:
    """Another program fills the card (dd until the card says ENOSPC)."""
    with open(folder.parent / "big.log", "wb") as out, contextlib.suppress(OSError):
        block = b"\0" * (1 << 20)
        while True:
            out.write(block)
            out.flush()


def serve(folder: Path) -> subprocess.CompletedProcess:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "TABLESIDE_JOIN_CODE": "PLAY42"}
    return subprocess.run(
        [sys.executable, "-m", "tableside", "serve", "--simulate", "--data", str(folder), "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_a_full_card_at_start_is_said_as_full_and_the_doctor_agrees(card, capsys):
    fill(card)
    started = serve(card)
    assert started.returncode != 0
    said = started.stderr.strip().splitlines()[-1]
    assert "the SD card is full: free at least" in said and "the games are safe" in said
    assert "damaged" not in said and "move the file" not in said
    assert (card / "tableside.db").exists()
    checks = check_data(card)
    bad = [c for c in checks if not c.ok]
    assert len(bad) == 1 and bad[0].text.startswith("the SD card is full: free at least")
    assert "damaged" not in " ".join(c.text + c.fix for c in checks) and "move" not in bad[0].fix
    assert run_doctor(str(card)) == 1  # off a Pi too: the card is checked on any machine
    out = capsys.readouterr().out
    assert "FIX  the SD card is full" in out


def test_a_read_only_card_is_said_as_read_only_with_its_fix(card):
    subprocess.run(["mount", "-o", "remount,ro", str(card.parent)], check=True)
    problem = storage.problem(card)
    assert problem is not None and problem.kind == "read-only"
    started = serve(card)
    assert started.returncode != 0
    said = started.stderr.strip().splitlines()[-1]
    assert f"the data folder {card} is on a read-only file system" in said and "sudo reboot" in said
    assert "chown" not in said and "damaged" not in said
    checks = check_data(card)
    bad = [c for c in checks if not c.ok]
    assert len(bad) == 1 and "read-only file system" in bad[0].text
    assert "chown" not in bad[0].fix and "reboot" in bad[0].fix


def test_room_enough_is_no_problem_and_the_need_grows_with_the_database(tmp_path):
    assert storage.problem(tmp_path) is None
    (tmp_path / "tableside.db").write_bytes(b"\0" * 3_000_000)
    assert storage.needed_mb(tmp_path) == storage.MIN_FREE_MB + 3
    assert storage.problem(tmp_path / "not" / "made" / "yet") is None  # judged on the card it will be on
