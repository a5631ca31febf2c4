"""What ``tableside serve`` and the other commands check before anything starts, and the words for an
operating-system error: every failure names the problem and the fix, never a bare ``[Errno N]``.

Checked before the data folder is touched: the listening address, the smart dice extra that
``[dice] kind = "bluetooth"`` needs, and every action named in ``[buttons] map``. Then the data folder
itself: made if missing, and written to once, so a file in its place, a read-only disk or another
user's folder is said in words with what to do.
"""

from __future__ import annotations

import errno
import ipaddress
import re
import socket
from pathlib import Path

from tableside.config import Config, ConfigError
from tableside.oserror import describe_os_error, owner_of, user_name

HOST_NAME = re.compile(
    r"(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)
HOST_FIX = "use 0.0.0.0 (every network), 127.0.0.1 (this machine only) or one of this machine's addresses"


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be listened on (not an address, or a name that resolves to nothing), or None."""
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if not HOST_NAME.fullmatch(host):
        return f"{host!r} is not an address or a host name"
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        return f"{host!r} is not a name this machine can resolve"
    return None


def check_host(host: str, where: str = "--host") -> None:
    problem = host_problem(host)
    if problem:
        raise ConfigError(f"{where}: {problem}: {HOST_FIX}")


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a folder above it that this user may not enter
        return False


def data_folder_ready(folder: Path) -> None:
    """Make the data folder if missing and prove it can be written, or say why not and what to do."""
    probe = folder / ".tableside-write-check"
    try:
        if folder.exists() and not folder.is_dir():
            raise ConfigError(
                f"the data folder {folder} is a file, not a folder: use --data with a folder (it is made if missing), "
                "or move the file"
            )
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(_folder_problem(folder, exc)) from None


def _folder_problem(folder: Path, exc: OSError) -> str:
    """Why the data folder cannot be used, said of the folder (not of the file that showed it), with the fix."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        me, owner = user_name(), owner_of(folder)
        there = next((p for p in (folder, *folder.parents) if _exists(p)), folder)
        whose = f" ({'it' if there == folder else f'the folder above it, {there},'} belongs to {owner})"
        run_as = f"run tableside as {owner}, or " if owner and owner != me else ""
        return (
            f"the data folder {folder} cannot be written by user {me}{whose if owner else ''}: {run_as}give it to "
            f"{me} with: sudo mkdir -p {folder} && sudo chown -R {me} {folder}; or use --data with a folder of your own"
        )
    if exc.errno == errno.EROFS:
        return (
            f"the data folder {folder} is on a read-only disk: use --data with a folder on a disk that can be "
            "written (or mount this one read-write)"
        )
    return f"the data folder {folder} cannot be used: {describe_os_error(exc)}"


def check_dice_extra(cfg: Config, config_path: str | None) -> None:
    """``[dice] kind = "bluetooth"`` needs bleak and godice (the ``dice`` extra): said now, not by a scan later."""
    if cfg.dice != "bluetooth":
        return
    import importlib.util
    import sys

    def installed(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a blocked or half-removed package
            return False

    missing = [name for name in ("bleak", "godice") if not installed(name)]
    if missing:
        from tableside.config import line_of

        text = Path(config_path).read_text() if config_path else ""
        line = line_of(text, "dice", "kind")
        where = f"config file {config_path}" + (f" line {line}" if line else "")
        raise ConfigError(
            f'{where}: [dice] kind = "bluetooth" needs the smart dice extra, and {" and ".join(missing)} '
            f"{'is' if len(missing) == 1 else 'are'} not installed in {sys.prefix}: install it from the source folder "
            f"with {sys.prefix}/bin/pip install -e '.[dice]' (on a Pi, sudo systemd/install.sh does), "
            'or set kind = "auto" (Bluetooth only when it is there) or "none"'
        )


def check_button_map(cfg: Config, config_path: str | None) -> None:
    """Every action named in ``[buttons] map`` is an action of some game system (or a special target)."""
    from tableside.config import MAP_TARGETS, line_of

    named = {gesture: target for gesture, target in cfg.button_map.items() if target not in MAP_TARGETS}
    if not named:
        return
    import difflib

    from tableside.core.systems import all_systems

    actions: dict[str, list[str]] = {}
    for system in all_systems():
        for action in system.all_actions():
            actions.setdefault(action, []).append(system.id)
    for gesture, target in named.items():
        if target in actions:
            continue
        text = Path(config_path).read_text() if config_path else ""
        line = line_of(text, "buttons", "map")
        where = f"config file {config_path}" + (f" line {line}" if line else "")
        close = difflib.get_close_matches(target, [*MAP_TARGETS, *actions], n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(
            f"{where}: [buttons] map: {gesture} = {target!r} is not an action of any game system{hint}; use one of "
            f"{', '.join(MAP_TARGETS)}, or an action type a system lists (GET /api/systems, docs/systems/)"
        )
