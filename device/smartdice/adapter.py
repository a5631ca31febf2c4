"""Is there a Bluetooth adapter, is it on, may this user use it: read from /sys and the groups.

No D-Bus and no bleak: ``tableside doctor`` and the ``auto`` choice of ``serve`` ask these before
anything Bluetooth is loaded. ``root`` lets the tests point at a fake system.
"""

from __future__ import annotations

import grp
import os
import pwd
from pathlib import Path

SYS_BLUETOOTH = Path("sys/class/bluetooth")
SYS_RFKILL = Path("sys/class/rfkill")


def adapters(root: Path = Path("/")) -> list[str]:
    """The Bluetooth adapters the kernel knows (hci0, ...); none on most laptops in CI."""
    folder = root / SYS_BLUETOOTH
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("hci") and ":" not in p.name)


def blocked(root: Path = Path("/")) -> list[str]:
    """Bluetooth radios switched off by rfkill: "soft" (rfkill unblock fixes it) or "hard" (a switch)."""
    out = []
    folder = root / SYS_RFKILL
    if not folder.is_dir():
        return out
    for radio in sorted(folder.iterdir()):
        try:
            if (radio / "type").read_text().strip() != "bluetooth":
                continue
            soft = (radio / "soft").read_text().strip() == "1"
            hard = (radio / "hard").read_text().strip() == "1"
        except OSError:
            continue
        if hard:
            out.append("hard")
        elif soft:
            out.append("soft")
    return out


def may_use_bluez(user: str | None = None) -> bool:
    """BlueZ's D-Bus policy on Debian and Pi OS lets root and the 'bluetooth' group talk to it."""
    user = user or pwd.getpwuid(os.getuid()).pw_name
    if user == "root":
        return True
    try:
        group = grp.getgrnam("bluetooth")
    except KeyError:
        return False
    return user in group.gr_mem or pwd.getpwnam(user).pw_gid == group.gr_gid


def bleak_installed() -> bool:
    """The 'dice' extra is installed (looked up without importing bleak)."""
    import importlib.util

    return importlib.util.find_spec("bleak") is not None


def checks(root: Path = Path("/"), user: str | None = None) -> list[tuple[bool, str, str]]:
    """(ok, what, how to fix) for the doctor: adapter present, powered (not blocked), permissions, bleak."""
    found = adapters(root)
    if not found:
        return [
            (
                False,
                "smart dice: no Bluetooth adapter found",
                "a Pi Zero 2 W, 3, 4 or 5 has one built in; on another machine plug in a USB adapter, "
                'or set [dice] kind = "none"',
            )
        ]
    out = [(True, f"smart dice: Bluetooth adapter {', '.join(found)}", "")]
    off = blocked(root)
    if "hard" in off:
        out.append((False, "smart dice: the Bluetooth radio is switched off by a hardware switch", "switch it on"))
    elif off:
        out.append((False, "smart dice: Bluetooth is blocked (rfkill)", "sudo rfkill unblock bluetooth"))
    else:
        out.append((True, "smart dice: Bluetooth is powered (not blocked)", ""))
    name = user or pwd.getpwuid(os.getuid()).pw_name
    if may_use_bluez(name):
        out.append((True, f"smart dice: user {name} may use BlueZ over D-Bus", ""))
    else:
        out.append(
            (
                False,
                f"smart dice: user {name} is not in the 'bluetooth' group, so BlueZ will refuse it",
                f"sudo usermod -aG bluetooth {name}, then restart the service",
            )
        )
    if bleak_installed():
        out.append((True, "smart dice: bleak is installed", ""))
    else:
        out.append(
            (
                False,
                "smart dice: bleak is not installed",
                ("from the source folder: .venv/bin/pip install -e '.[dice]' (on a Pi, sudo systemd/install.sh does)"),
            )
        )
    return out
