"""The data folder's card as it fails: full, or mounted read-only, said for what it is.

An SD card that filled up makes SQLite answer "database or disk is full" or,
opening a WAL database read-only without room for its ``-shm`` file, "disk I/O
error": neither is a damaged database, and moving the file away would not help
(it would hide the games). ``problem(folder)`` looks first, before anything is
written, so ``tableside serve`` and ``tableside doctor`` say "the SD card is
full" or "read-only" with the fix that works, and never advise moving a
database that is not damaged. Only looked at: nothing is created or written.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

MIN_FREE_MB = 32  # a backup copy of a young table, its WAL and the journal's next hours, with room to spare
FULL_FIX = (
    "delete what you do not need on the card ('sudo apt clean', 'sudo journalctl --vacuum-size=50M', old files "
    "in your home folder), then start again ('sudo systemctl restart tableside')"
)
READ_ONLY_FIX = (
    "reboot the Pi ('sudo reboot'): the kernel mounts a card read-only after an error to protect it; if it is "
    "still read-only, turn off the overlay file system in 'sudo raspi-config' (Performance Options), and if it "
    "keeps happening the card is failing: copy the data folder to a new card"
)


class StorageFault(RuntimeError):
    """``tableside serve`` cannot start on this card: full or read-only, said with its fix."""


@dataclass(frozen=True)
class StorageProblem:
    """``kind`` is "full" or "read-only"; ``message`` and ``fix`` are for a person."""

    kind: str
    message: str
    fix: str

    def __str__(self) -> str:
        return f"{self.message}; {self.fix}"


def _existing(folder: Path) -> Path:
    """The folder, or its nearest ancestor that exists (a folder not made yet lives on that one's card)."""
    here = folder.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    return here


def needed_mb(folder: Path) -> int:
    """Free space a start needs: the minimum plus one more copy of the database (a backup is a copy)."""
    try:
        size = (folder / "tableside.db").stat().st_size
    except OSError:
        size = 0
    return MIN_FREE_MB + math.ceil(size / 1e6)


def problem(folder: Path) -> StorageProblem | None:
    """Why ``folder`` cannot keep a table's games now (full, read-only), or None."""
    where = _existing(folder)
    try:
        stat = os.statvfs(where)
    except OSError:
        return None  # an unreadable folder is the permission checks' to say
    if stat.f_flag & os.ST_RDONLY:
        return StorageProblem(
            "read-only",
            f"the data folder {folder} is on a read-only file system ({_mount_of(where)}): nothing can be saved; "
            "the games are safe",
            READ_ONLY_FIX,
        )
    free = stat.f_bavail * stat.f_frsize / 1e6
    need = needed_mb(folder)
    if free < need:
        short = max(1, math.ceil(need - free))
        return StorageProblem(
            "full",
            f"the SD card is full: free at least {short} MB (the data folder {folder} has {free:.1f} MB free, "
            f"a table needs {need} MB); the games are safe",
            FULL_FIX,
        )
    return None


def _mount_of(path: Path) -> str:
    """The mount point that holds ``path`` (for the message: '/' or '/home' tells a person which card)."""
    here = path.absolute()
    while not os.path.ismount(here) and here != here.parent:
        here = here.parent
    return f"mounted at {here}"


def is_storage_error(exc: BaseException) -> bool:
    """A write that failed because the card is full or read-only (SQLITE_FULL, ENOSPC, EROFS, SQLite's
    'disk I/O error' and 'readonly database')."""
    import errno
    import sqlite3

    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EROFS, errno.EDQUOT):
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.Error) and any(
        words in text for words in ("disk is full", "disk i/o error", "readonly database", "read-only")
    )
