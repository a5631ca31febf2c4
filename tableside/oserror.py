"""The words for an operating-system error: the path, what went wrong and what to do, never a bare
``[Errno N]``. A module of its own, below both ``tableside.config`` and ``tableside.preflight``, so
neither imports the other.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


def user_name() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


def owner_of(path: Path) -> str | None:
    """The user who owns ``path`` or the nearest folder above it that exists."""
    for candidate in (path, *path.parents):
        try:
            uid = candidate.stat().st_uid
        except OSError:
            continue
        try:
            import pwd

            return pwd.getpwuid(uid).pw_name
        except (ImportError, KeyError):
            return str(uid)
    return None


def describe_os_error(exc: OSError, what: str = "") -> str:
    """An operating-system error in words, with the fix: the path, what went wrong, what to do."""
    path = Path(exc.filename) if exc.filename else None
    place = f"{what} {path}" if what and path else str(path) if path else what or "a file"
    code = exc.errno
    if code in (errno.EACCES, errno.EPERM):
        owner = owner_of(path) if path else None
        me = user_name()
        whose = f" (it belongs to {owner})" if owner and owner != me else ""
        fix = f"run as {owner}, " if owner and owner != me else ""
        return (
            f"{place}: user {me} may not write or read it{whose}: {fix}give this user the folder "
            f"(sudo chown -R {me} {path}), or use --data with a folder "
            "of your own"
        )
    if code == errno.EROFS:
        return f"{place} is on a read-only disk: use --data with a folder on a disk that can be written"
    if code in (errno.EEXIST, errno.ENOTDIR):
        return (
            f"{place}: a file is in the way where a folder is needed: move the file, or use --data with another folder"
        )
    if code == errno.ENOSPC:
        return f"{place}: the disk is full: free some space (an SD card: old backups, logs) and start again"
    if code == errno.ENOENT:
        return f"{place} does not exist"
    if code == errno.EPIPE:
        return "the program reading the output went away"
    reason = exc.strerror or type(exc).__name__
    return f"{place}: {reason[:1].lower()}{reason[1:]}"
