"""``tableside doctor``: what Pi users get stuck on, and how to fix each.

Each check prints ``ok`` or ``FIX`` with the one thing to do; exit 1 if any
needs fixing. Paths are read under ``root`` (default ``/``) so the tests can
point the doctor at a fake Pi. The checks never claim a pin for longer than a
look, never construct the display driver's GPIO side (gpiodevice would raise
SystemExit on a busy pin), and never need root.
"""

from __future__ import annotations

import errno
import grp
import json
import os
import pwd
import re
import socket
import subprocess
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tableside import faults as faults_file
from tableside.config import Config, data_dir, load_config
from tableside.device.pins import LGPIO_FIX, choose_pin_factory, pi_model

SYSTEM_CONFIG = Path("etc/tableside/tableside.toml")
BOOT_CONFIGS = (Path("boot/firmware/config.txt"), Path("boot/config.txt"))  # Bookworm, then Bullseye


@dataclass
class Check:
    ok: bool
    text: str
    fix: str = ""


def boot_config(root: Path) -> Path | None:
    for relative in BOOT_CONFIGS:
        if (root / relative).is_file():
            return root / relative
    return None


def has_overlay(text: str, name: str) -> bool:
    """True when an uncommented ``dtoverlay=NAME`` line applies to every board ([all] or before any section)."""
    section = "all"
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
        elif re.fullmatch(rf"dtoverlay\s*=\s*{re.escape(name)}(,.*)?", line) and section in ("all", "none"):
            return True
    return False


def check_pi(root: Path) -> Check:
    model = pi_model(root)
    if model is None:
        return Check(
            False,
            "this is not a Raspberry Pi (no Pi model in /proc/device-tree/model)",
            "nothing to fix on a laptop: 'tableside serve' simulates the display and buttons here",
        )
    return Check(True, f"Raspberry Pi: {model}")


def check_spi(root: Path) -> Check:
    if (root / "dev/spidev0.0").exists() or (root / "dev/spidev10.0").exists():
        return Check(True, "SPI is on (/dev/spidev0.0)")
    return Check(
        False,
        "SPI is off: the Inky display talks SPI",
        "sudo raspi-config nonint do_spi 0, then reboot (or re-run sudo systemd/install.sh)",
    )


def check_i2c(root: Path) -> Check:
    if (root / "dev/i2c-1").exists():
        return Check(True, "I2C is on (/dev/i2c-1)")
    return Check(
        False,
        "I2C is off: the Inky's EEPROM (which board is fitted) is read over I2C",
        "sudo raspi-config nonint do_i2c 0, then reboot (or re-run sudo systemd/install.sh)",
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
            "sudo systemd/install.sh adds it (or add 'dtoverlay=spi0-0cs' under [all]), then reboot",
        )
    if (root / "run/reboot-required").exists() or (root / "dev/spidev0.1").exists():
        return Check(False, "dtoverlay=spi0-0cs is set but not active yet: a reboot is pending", "sudo reboot")
    return Check(True, "GPIO8 is free for the Inky (dtoverlay=spi0-0cs is active)")


def check_inky() -> Check:
    try:
        from inky.auto import auto  # the driver object only: no pin is claimed until setup()
    except ImportError:
        return Check(
            False,
            "the inky library is not installed",
            "re-run sudo systemd/install.sh (or '.venv/bin/pip install \"inky>=2.6,<3\"')",
        )
    try:
        driver = auto()
    except BaseException as exc:  # gpiodevice raises SystemExit on a busy pin  # noqa: BLE001
        return Check(
            False,
            f"no Inky board answered on I2C ({faults_file.describe(exc)})",
            "check the board sits on all 40 header pins and I2C is on; boards without an EEPROM "
            "need [display] model in the config",
        )
    try:
        panel = _panel_for(driver)
    except Exception as exc:
        return Check(
            False,
            f"Inky board {type(driver).__module__} found, but Tableside has no layout for it ({exc})",
            "set [display] panel (or model) in the config to the nearest layout and report the board",
        )
    return Check(True, f"Inky board detected: {getattr(panel, 'name', panel)}")


def _panel_for(driver: Any) -> Any:
    from tableside.device import display

    finder = getattr(display, "panel_for_driver", None) or display.panel_for_inky
    return finder(driver)


def check_lgpio(model: str | None) -> Check:
    choice = choose_pin_factory(model=model, requested=None, env={})
    try:
        if choice.error:
            return Check(False, choice.error, choice.fix)
        return Check(True, f"pin factory {choice.name} loads ({choice.why})")
    finally:
        if not choice.simulated:
            choice.factory.close()


def check_button_pins(cfg: Config, service_active: Callable[[], bool]) -> Check:
    """Claim each button pin for a moment with lgpio: busy means another program holds it."""
    pins = cfg.buttons
    try:
        import lgpio
    except ImportError:
        return Check(False, "cannot check the button pins without lgpio", LGPIO_FIX)
    try:
        chip = 4 if Path("/dev/gpiochip4").exists() and "Raspberry Pi 5" in (pi_model() or "") else 0
        handle = lgpio.gpiochip_open(chip)
    except Exception as exc:
        return Check(
            False,
            f"cannot open /dev/gpiochip ({exc})",
            "add this user to the 'gpio' group: sudo adduser $USER gpio, then log in again",
        )
    busy = []
    try:
        for label, pin in pins.items():
            try:
                lgpio.gpio_claim_input(handle, pin, lgpio.SET_PULL_UP)
                lgpio.gpio_free(handle, pin)
            except Exception:
                busy.append(f"{label}=GPIO{pin}")
    finally:
        lgpio.gpiochip_close(handle)
    if not busy:
        return Check(True, f"button pins are free ({', '.join(f'{k}=GPIO{v}' for k, v in pins.items())})")
    if service_active():
        return Check(True, f"button pins {', '.join(busy)} are held by the running tableside service")
    return Check(
        False,
        f"button pins in use by another program: {', '.join(busy)}",
        "stop that program, or move the buttons with [buttons] pins in the config",
    )


def check_groups(user: str | None = None) -> Check:
    user = user or pwd.getpwuid(os.getuid()).pw_name
    missing, relogin, absent = [], [], []
    own = set(os.getgroups())
    for group in ("gpio", "spi", "i2c"):
        try:
            entry = grp.getgrnam(group)
        except KeyError:
            absent.append(group)  # not a Pi OS image: no such group
            continue
        if user in entry.gr_mem or pwd.getpwnam(user).pw_gid == entry.gr_gid:
            if entry.gr_gid not in own and user == pwd.getpwuid(os.getuid()).pw_name:
                relogin.append(group)
        else:
            missing.append(group)
    if missing:
        return Check(
            False,
            f"user {user} is not in the group(s) {', '.join(missing)}",
            f"sudo usermod -aG {','.join(missing)} {user}, then log out and in (or reboot)",
        )
    if relogin:
        return Check(
            False,
            f"user {user} was added to {', '.join(relogin)} but this login predates it",
            "log out and in again (the service gets the groups when it restarts)",
        )
    if absent:
        return Check(
            False,
            f"this system has no {'/'.join(absent)} group(s): GPIO access is not set up the Raspberry Pi OS way",
            "use Raspberry Pi OS Bookworm (docs/raspberry-pi.md)",
        )
    return Check(True, f"user {user} is in the gpio/spi/i2c groups")


def check_data(folder: Path) -> Check:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return Check(
            False,
            f"data folder {folder} is not writable ({exc.strerror})",
            f"sudo chown -R $USER {folder} (or use --data)",
        )
    return Check(True, f"data folder {folder} is writable")


def check_port(cfg: Config) -> Check:
    port = cfg.port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("0.0.0.0" if cfg.host in ("", "0.0.0.0") else cfg.host, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                return Check(
                    False,
                    f"cannot listen on port {port} ({exc.strerror})",
                    "ports below 1024 need root: keep the default 8080",
                )
            if _is_tableside(port):
                return Check(True, f"port {port}: Tableside is already serving there")
            return Check(
                False,
                f"port {port} is used by another program",
                f"stop it ('sudo ss -ltnp sport = :{port}' names it) or set [server] port in the config",
            )
    return Check(True, f"port {port} is free")


def _is_tableside(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return json.loads(response.read(1000)) == {"ok": True}
    except Exception:
        return False


def check_last_errors(folder: Path) -> list[Check]:
    """The last display, button and pin errors the running (or last) ``tableside serve`` kept."""
    errors = faults_file.read(folder)
    if not errors:
        return [Check(True, "no display or button errors recorded by tableside serve")]
    return [
        Check(
            False,
            f"last {name} error (x{record.get('count', 1)}): {record.get('error', '?')}",
            record.get("fix") or "see 'journalctl -u tableside'",
        )
        for name, record in sorted(errors.items())
    ]


def _service_active() -> bool:
    try:
        done = subprocess.run(["systemctl", "is-active", "--quiet", "tableside"], timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def run_checks(
    data: str | None, config: str | None = None, root: Path = Path("/"), hardware: bool = True
) -> list[Check]:
    """Every check in order; the Pi-only ones are skipped off a Pi (they would all fail, saying nothing new)."""
    if config is None and (root / SYSTEM_CONFIG).is_file():
        config = str(root / SYSTEM_CONFIG)
    cfg = load_config(config)
    checks = [check_pi(root)]
    model = pi_model(root)
    if model is not None:
        checks += [check_spi(root), check_i2c(root), check_gpio8(root)]
        if hardware:
            checks += [check_inky(), check_lgpio(model)]
            lgpio_ok = checks[-1].ok
            if lgpio_ok:
                checks.append(check_button_pins(cfg, _service_active))
            checks.append(check_groups())
    if cfg.dice == "bluetooth" or (cfg.dice == "auto" and model is not None):  # smart dice: docs/smart-dice.md
        from tableside.device.smartdice.adapter import checks as dice_checks

        checks += [Check(*c) for c in dice_checks(root)]
    folder = data_dir(data, cfg.data)
    checks += [check_data(folder), check_port(cfg), *check_last_errors(folder)]
    return checks


def run_doctor(data: str | None, config: str | None = None, root: Path = Path("/")) -> int:
    checks = run_checks(data, config, root)
    for check in checks:
        print(f"{'ok ' if check.ok else 'FIX'}  {check.text}")
        if not check.ok and check.fix:
            print(f"     -> {check.fix}")
    bad = sum(not c.ok for c in checks)
    print("all good" if not bad else f"{bad} thing(s) to fix")
    return 0 if not bad else 1
