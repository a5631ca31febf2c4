"""One ``tableside serve`` per data folder, held with an OS file lock.

Two servers on one SQLite file both accept actions and interleave their
histories (replay then fails). ``flock`` is released by the kernel when the
process ends in any way (``kill -9``, power cut), so a stale lock never
blocks a restart; the lock file only records who holds it, for the message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "serve.lock"


class FolderBusy(RuntimeError):
    """Another server holds the data folder (exit 1 with this message)."""


class FolderLock:
    """An exclusive, non-blocking lock on ``folder/serve.lock``."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self, holder: str = "") -> FolderLock:
        """Take the lock or raise ``FolderBusy`` naming the other server."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 512, 0).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise FolderBusy(
                f"the data folder {self.path.parent} is in use by another tableside serve ({other}); "
                "stop that one first (on a Pi: sudo systemctl stop tableside) or use --data for another folder"
            ) from None
        self._fd = fd
        self.describe(holder)
        return self

    def describe(self, holder: str) -> None:
        """Record who holds the lock (pid, address) for a second server's message."""
        if self._fd is None:
            return
        text = f"pid {os.getpid()}" + (f", {holder}" if holder else "")
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, text.encode() + b"\n", 0)

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
