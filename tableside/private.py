"""The data folder is private: the folder 0700 and every file 0600, whatever the umask.

A plain ``tableside serve`` under the usual umask 022 wrote the database, backups and archive as 644 in
a 755 folder, and a restore run from a shell left the database 644: any local user could read the games
(and ``display.png``, which shows the join code). Every command narrows its own umask (the service's
UMask stays as it is, only narrowed), and a start tightens what an older version left behind.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def narrow_umask() -> None:
    """Files this process (and its render worker) creates are its user's only: umask | 077."""
    os.umask(os.umask(0o077) | 0o077)


def _ours(path: Path) -> bool:
    try:
        return path.lstat().st_uid == os.geteuid()
    except OSError:
        return False


def tighten(folder: Path) -> None:
    """Make ``folder`` 0700 and every file and folder in it (backups/, archive/, exports) 0700/0600. Only
    what this user owns, never through a symbolic link; a file it cannot change is left as it is."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink() or not _ours(folder):
        return
    with contextlib.suppress(OSError):
        folder.chmod(FOLDER_MODE)
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            path = Path(root) / name
            if not path.is_symlink() and _ours(path):
                with contextlib.suppress(OSError):
                    path.chmod(FOLDER_MODE)
        for name in files:
            path = Path(root) / name
            if not path.is_symlink() and _ours(path):
                with contextlib.suppress(OSError):
                    path.chmod(FILE_MODE)
