"""``tableside doctor``: what is wrong with this Pi's set-up, and how to fix it.

Each check prints "ok" or "FIX" with the one thing to do; exit 1 if any needs fixing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tableside.config import data_dir


def _check_spi() -> tuple[bool, str]:
    if Path("/dev/spidev0.0").exists() or Path("/dev/spidev0.1").exists():
        return True, "SPI is enabled (/dev/spidev0.*)"
    return False, (
        "SPI is off: run 'sudo raspi-config nonint do_spi 0' and add dtoverlay=spi0-0cs "
        "to /boot/firmware/config.txt, then reboot"
    )


def _check_i2c() -> tuple[bool, str]:
    if Path("/dev/i2c-1").exists():
        return True, "I2C is enabled (/dev/i2c-1)"
    return False, "I2C is off: run 'sudo raspi-config nonint do_i2c 0' and reboot (the Inky's EEPROM is read over I2C)"


def _check_inky() -> tuple[bool, str]:
    try:
        from inky.auto import auto
    except ImportError:
        return False, "the inky library is not installed: pip install 'inky>=2.6'"
    try:
        board = auto()
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return False, f"no Inky board detected ({first}): check it is seated on the header"
    return True, f"Inky board found: {type(board).__name__} {board.width}x{board.height}"


def _check_gpio() -> tuple[bool, str]:
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return False, "no /dev/gpiochip*: this is not a Pi, or GPIO is unavailable (tableside serve will simulate)"
    if not os.access(chips[0], os.R_OK | os.W_OK):
        return False, (
            f"no access to {chips[0]}: add this user to the 'gpio' group (sudo adduser $USER gpio) and log in again"
        )
    return True, f"GPIO access ok ({chips[0]})"


def _check_data(folder: Path) -> tuple[bool, str]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return False, f"data folder {folder} is not writable ({exc.strerror}): fix its owner or use --data"
    return True, f"data folder {folder} is writable"


def run_doctor(data: str | None) -> int:
    checks = [_check_spi(), _check_i2c(), _check_inky(), _check_gpio(), _check_data(data_dir(data))]
    for ok, text in checks:
        print(f"{'ok ' if ok else 'FIX'}  {text}")
    bad = sum(not ok for ok, _ in checks)
    print("all good" if not bad else f"{bad} thing(s) to fix")
    return 0 if not bad else 1
