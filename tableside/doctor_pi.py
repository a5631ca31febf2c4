"""``tableside doctor``: what the boot config and the installed unit say (read under ``root``, so tests
can point it at a fake Pi); nothing here loads a hardware library or changes a file."""

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

SYSTEM_CONFIG = Path("etc/tableside/tableside.toml")
UNIT = Path("etc/systemd/system/tableside.service")
BOOT_CONFIGS = (Path("boot/firmware/config.txt"), Path("boot/config.txt"))  # Bookworm, then Bullseye
NOT_A_PI = (
    "tableside doctor: this is not a Raspberry Pi (no Pi model in /proc/device-tree/model), so there is "
    "no e-paper, GPIO or service to check; 'tableside serve' simulates the display and buttons here."
)
REINSTALL = "re-run 'sudo systemd/install.sh' from the Tableside folder (it skips what is done)"


@dataclass
class Check:
    ok: bool
    text: str
    fix: str = ""


@dataclass
class Service:
    """What the installed unit says about how ``tableside serve`` is started."""

    path: Path
    user: str | None = None
    group: str | None = None
    working_directory: str | None = None
    environment: dict[str, str] = field(default_factory=dict)
    config: str | None = None
    supplementary_groups: tuple[str, ...] = ()


def read_unit(root: Path) -> Service | None:
    """The installed ``tableside.service`` (None when the service is not installed)."""
    path = root / UNIT
    try:
        text = path.read_text()
    except OSError:
        return None
    unit = Service(path)
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")) or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key == "User":
            unit.user = value
        elif key == "Group":
            unit.group = value
        elif key == "WorkingDirectory":
            unit.working_directory = value.lstrip("-") or None
        elif key == "SupplementaryGroups":
            unit.supplementary_groups += tuple(value.split())
        elif key == "Environment":
            for item in shlex.split(value):
                name, _, val = item.partition("=")
                unit.environment[name] = val
        elif key == "ExecStart":
            words = shlex.split(value.lstrip("-@:+!"))
            if "--config" in words[:-1]:
                unit.config = words[words.index("--config") + 1]
    return unit


def boot_config(root: Path) -> Path | None:
    for relative in BOOT_CONFIGS:
        if (root / relative).is_file():
            return root / relative
    return None


def _applies_everywhere(text: str, pattern: str) -> bool:
    section = "all"
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
        elif re.fullmatch(pattern, line) and section in ("all", "none"):
            return True
    return False


def has_overlay(text: str, name: str) -> bool:
    """True when an uncommented ``dtoverlay=NAME`` line applies to every board ([all] or before any section)."""
    return _applies_everywhere(text, rf"dtoverlay\s*=\s*{re.escape(name)}(,.*)?")


def has_dtparam(text: str, *names: str) -> bool:
    """True when ``dtparam=NAME=on`` (any of ``names``) is set for every board, as raspi-config writes it."""
    alternatives = "|".join(re.escape(n) for n in names)
    return _applies_everywhere(text, rf"dtparam\s*=\s*({alternatives})\s*=\s*on")


def _reboot_pending(root: Path) -> bool:
    return (root / "run/reboot-required").exists()  # the installer (and apt) note a needed reboot there


def check_spi(root: Path) -> Check:
    if (root / "dev/spidev0.0").exists() or (root / "dev/spidev10.0").exists():
        return Check(True, "SPI is on (/dev/spidev0.0)")
    config = boot_config(root)
    if config is not None and has_dtparam(config.read_text(errors="replace"), "spi"):
        return Check(False, f"SPI is turned on in {config} but not active yet: a reboot is pending", "sudo reboot")
    return Check(
        False,
        "SPI is off: the Inky display talks SPI",
        f"sudo raspi-config nonint do_spi 0, then reboot (or {REINSTALL})",
    )


def check_i2c(root: Path) -> Check:
    if (root / "dev/i2c-1").exists():
        return Check(True, "I2C is on (/dev/i2c-1)")
    config = boot_config(root)
    if config is not None and has_dtparam(config.read_text(errors="replace"), "i2c_arm", "i2c"):
        return Check(False, f"I2C is turned on in {config} but not active yet: a reboot is pending", "sudo reboot")
    return Check(
        False,
        "I2C is off: the Inky's EEPROM (which board is fitted) is read over I2C",
        f"sudo raspi-config nonint do_i2c 0, then reboot (or {REINSTALL})",
    )


def check_gpio8(root: Path) -> Check:
    """GPIO8 is the SPI chip select the kernel claims unless dtoverlay=spi0-0cs frees it for the Inky."""
    config = boot_config(root)
    if config is None:
        return Check(
            False,
            "no /boot/firmware/config.txt: cannot check the spi0-0cs overlay",
            "is the boot partition mounted? 'ls /boot/firmware'",
        )
    if not has_overlay(config.read_text(errors="replace"), "spi0-0cs"):
        return Check(
            False,
            f"GPIO8 is held by the SPI chip select: {config} lacks dtoverlay=spi0-0cs (the Inky needs GPIO8 itself)",
            f"{REINSTALL}; it adds the line (or add 'dtoverlay=spi0-0cs' under [all]), then reboot",
        )
    if _reboot_pending(root) or (root / "dev/spidev0.1").exists():
        return Check(False, "dtoverlay=spi0-0cs is set but not active yet: a reboot is pending", "sudo reboot")
    return Check(True, "GPIO8 is free for the Inky (dtoverlay=spi0-0cs is active)")


def check_unit(unit: Service, root: Path) -> Check:
    """The unit must start the service in a folder its user owns (lgpio's pipe, anything relative)."""
    if not unit.working_directory:
        return Check(
            False,
            f"{unit.path} sets no WorkingDirectory: the service runs from /, which {unit.user or 'its user'} "
            "cannot write, so lgpio cannot make its pipe and the buttons fail",
            f"{REINSTALL}: it writes the current unit",
        )
    if "LG_WD" not in unit.environment:
        return Check(
            False,
            f"{unit.path} does not set LG_WD (where lgpio makes its notification pipe)",
            f"{REINSTALL}: it writes the current unit",
        )
    return Check(True, f"the service runs from {unit.working_directory} (LG_WD={unit.environment['LG_WD']})")
