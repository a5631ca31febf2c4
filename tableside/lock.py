"""One ``tableside serve`` per data folder, held with an OS file lock.

Two servers on one SQLite file both accept actions and interleave their
histories (replay then fails). ``flock`` is released by the kernel when the
process ends in any way (``kill -9``, power cut), so a stale lock never
blocks a restart. The lock is held on the data folder itself (a directory
descriptor), so deleting a file cannot defeat it; ``serve.lock`` only
records who holds it, for the message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "serve.lock"


class FolderBusy(RuntimeError):
    """Another server holds the data folder (exit 1 with this message)."""


class FolderLock:
    """An exclusive, non-blocking lock on the data folder (its holder described in ``serve.lock``)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._fd: int | None = None  # serve.lock: who holds the lock, for the message
        self._folder: int | None = None  # the folder's descriptor: what is locked

    def acquire(self, holder: str = "") -> FolderLock:
        """Take the lock or raise ``FolderBusy`` naming the other server."""
        folder = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(folder)
            try:
                other = self.path.read_text(errors="replace").strip() or "another process"
            except OSError:
                other = "another process"
            raise FolderBusy(
                f"the data folder {self.path.parent} is in use by another tableside serve ({other}); "
                "stop that one first (on a Pi: sudo systemctl stop tableside) or use --data for another folder"
            ) from None
        self._folder = folder
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
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
            os.close(self._fd)
            self._fd = None
        if self._folder is not None:
            fcntl.flock(self._folder, fcntl.LOCK_UN)
            os.close(self._folder)
            self._folder = None
