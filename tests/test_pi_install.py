"""systemd/install.sh against a fake Pi (a folder with the files Pi OS Bookworm ships), and the unit itself.

The installer takes ``--root DIR`` (only with ``--dry-run``), reads the Pi's files there and prints
every step it would take; the fake root must be left exactly as it was.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "systemd" / "install.sh"
UNIT = REPO / "systemd" / "tableside.service"

# /boot/firmware/config.txt as Raspberry Pi OS Bookworm ships it (pi-gen's stage1), also the emulated Pi's
# in .ci/pi-emulated.sh.
CONFIG_TXT = (REPO / ".ci" / "pi-os-config.txt").read_text()

HOSTS = """\
127.0.0.1\tlocalhost
::1\t\tlocalhost ip6-localhost ip6-loopback
ff02::1\t\tip6-allnodes
ff02::2\t\tip6-allrouters

127.0.1.1\t\traspberrypi
"""

OS_RELEASE = """\
PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
"""

DPKG_STATUS = """\
Package: gcc
Status: install ok installed
Version: 4:12.2.0-3

Package: avahi-daemon
Status: install ok installed
Version: 0.8-10+deb12u1

Package: python3-dev
Status: deinstall ok config-files
Version: 3.11.2-1+b1
"""


def fake_pi(
    root: Path, model: str = "Raspberry Pi 4 Model B Rev 1.5", config: str = CONFIG_TXT, groups_for_pi: str = ""
) -> Path:
    files = {
        "proc/device-tree/model": model + "\0",
        "boot/firmware/config.txt": config,
        "etc/hosts": HOSTS,
        "etc/hostname": "raspberrypi\n",
        "etc/os-release": OS_RELEASE,
        "etc/passwd": "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n",
        "etc/group": (
            f"root:x:0:\npi:x:1000:\nspi:x:999:{groups_for_pi}\ni2c:x:998:{groups_for_pi}\ngpio:x:997:{groups_for_pi}\n"
        ),
        "var/lib/dpkg/status": DPKG_STATUS,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "run/systemd/system").mkdir(parents=True)  # systemd is running (a booted Pi)
    return root


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def install(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(INSTALL), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def config_changes(out: str) -> list[str]:
    """The +/- lines of the config.txt diff the dry run printed."""
    block = out.split("and change it:", 1)[1].split("\n==", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()[:1] in ("+", "-")]


def test_dry_run_on_a_fresh_pi_prints_every_step_and_changes_nothing(tmp_path):
    root = fake_pi(tmp_path / "pi")
    before = snapshot(root)
    done = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64", "--hostname", "tableside")
    out = done.stdout
    assert done.returncode == 0, done.stderr + out
    assert snapshot(root) == before
    assert "Raspberry Pi 4 Model B Rev 1.5" in out and "bookworm, arm64, Python 3.11" in out
    apt = next(line for line in out.splitlines() if "apt-get install" in line)
    assert "python3-dev" in apt and "python3-venv" in apt and "polkitd" in apt
    assert " gcc" not in apt and "avahi-daemon" not in apt  # already installed: not asked for again
    assert "swig" not in apt  # lgpio has an aarch64 wheel for Python 3.11
    assert re.search(r"would run: python3 -m venv \S*/opt/tableside/venv", out)
    assert re.search(r"would run: \S*/opt/tableside/venv/bin/pip install --quiet --upgrade", out)
    assert "would run: raspi-config nonint do_spi 0" in out and "would run: raspi-config nonint do_i2c 0" in out
    # the overlay goes at the end of the final [all] section, after a backup
    assert config_changes(out) == ["+dtoverlay=spi0-0cs"]
    assert "[all]\n    +dtoverlay=spi0-0cs" in out and "preinstall-tableside-" in out
    assert "would run: usermod -aG gpio,spi,i2c pi" in out
    assert "50-tableside-poweroff.rules" in out and 'subject.user == "pi"' in out
    toml = out.split("etc/tableside/tableside.toml (mode 0644):", 1)[1].split("\n==", 1)[0]
    assert "| port = 8080" in toml and "| # pins = { A = 5, B = 6, C = 16, D = 24 }" in toml
    unit = out.split("etc/systemd/system/tableside.service (mode 0644):", 1)[1].split("\n  would run", 1)[0]
    assert "| User=pi" in unit and "| ExecStart=/opt/tableside/venv/bin/tableside serve --config" in unit
    assert "network-online" not in unit.replace("# Not network-online.target", "")
    assert "would run: systemctl enable tableside.service" in out and "would run: systemctl restart" in out
    assert "would run: raspi-config nonint do_hostname tableside" in out
    assert "127.0.1.1" in out and "http://tableside.local:8080/" in out
    assert "REBOOT NEEDED" in out and "dtoverlay=spi0-0cs was added" in out


def test_32_bit_dry_run_lists_what_it_installs_from_where(tmp_path):
    """Issue 19: on armhf PyPI has no numpy/Pillow/gpiod wheels; piwheels has, and no source release may win."""
    root = fake_pi(tmp_path / "pi", model="Raspberry Pi Zero 2 W Rev 1.0")
    done = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "armhf")
    out = done.stdout
    assert done.returncode == 0, done.stderr + out
    apt = next(line for line in out.splitlines() if "apt-get install" in line)
    for package in ("python3-dev", "libopenblas0", "libopenjp2-7", "libtiff6"):  # piwheels' wheels link these
        assert package in apt
    assert "swig" not in apt and "liblgpio-dev" not in apt  # lgpio has a linux_armv7l wheel on PyPI
    assert "from where (armhf, Python 3.11)" in out
    assert "numpy, Pillow, gpiod: binary wheels (linux_armv7l) from piwheels" in out
    assert "lgpio: binary wheel (linux_armv7l) from PyPI" in out and "spidev: a wheel from piwheels" in out
    pip = next(line for line in out.splitlines() if "bin/pip install" in line)
    assert "--only-binary=numpy,pillow,gpiod,lgpio" in pip and "--prefer-binary" in pip
    assert "--constraint" in pip and "pi-constraints.txt" in pip
    assert "--extra-index-url https://www.piwheels.org/simple" in pip  # this Pi's pip.conf does not name it
    (root / "etc/pip.conf").write_text("[global]\nextra-index-url=https://www.piwheels.org/simple\n")
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "armhf").stdout
    assert "as Pi OS configures it in /etc/pip.conf" in out
    assert "--extra-index-url" not in next(line for line in out.splitlines() if "bin/pip install" in line)
    assert snapshot(root)  # (dry runs only read)


def test_64_bit_takes_wheels_from_pypi_and_builds_only_spidev(tmp_path):
    root = fake_pi(tmp_path / "pi", model="Raspberry Pi Zero 2 W Rev 1.0")
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64").stdout
    assert "numpy, Pillow, gpiod, lgpio: binary wheels (manylinux aarch64) from PyPI" in out
    assert "spidev: built here from its source on PyPI" in out and "piwheels" not in out


def test_the_version_bounds_keep_every_heavy_package_below_its_next_major():
    from packaging.requirements import Requirement

    bounds = {}
    for line in (REPO / "systemd" / "pi-constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            bounds[requirement.name.lower()] = requirement.specifier
    for name in ("numpy", "pillow", "gpiod", "lgpio", "spidev", "inky"):
        assert any(spec.operator == "<" for spec in bounds[name]), name
    assert "13.0.0" not in bounds["pillow"] and "12.3.0" in bounds["pillow"]  # Pillow 13: see facts


def test_the_overlay_is_never_appended_into_a_board_filter(tmp_path):
    config = CONFIG_TXT + "\n[pi4]\ndtoverlay=disable-bt\n"
    root = fake_pi(tmp_path / "pi", config=config)
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64").stdout
    assert config_changes(out) == ["+[all]", "+dtoverlay=spi0-0cs"]


def test_a_commented_overlay_is_uncommented_where_it_is(tmp_path):
    config = CONFIG_TXT.replace("#dtparam=spi=on\n", "#dtparam=spi=on\n#dtoverlay=spi0-0cs\n")
    root = fake_pi(tmp_path / "pi", config=config)
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64").stdout
    assert config_changes(out) == ["-#dtoverlay=spi0-0cs", "+dtoverlay=spi0-0cs"]


def test_a_second_run_skips_what_is_done(tmp_path):
    config = CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on").replace(
        "#dtparam=i2c_arm=on", "dtparam=i2c_arm=on"
    )
    root = fake_pi(tmp_path / "pi", config=config + "dtoverlay=spi0-0cs\n", groups_for_pi="pi")
    (root / "etc/tableside").mkdir(parents=True)
    (root / "etc/tableside/tableside.toml").write_text("[server]\nport = 9000\n")
    (root / "var/lib/dpkg/status").write_text(
        "".join(
            f"Package: {p}\nStatus: install ok installed\n\n"
            for p in ("python3-venv", "python3-dev", "gcc", "avahi-daemon", "polkitd")
        )
    )
    (root / "dev").mkdir()
    for device in ("spidev0.0", "i2c-1"):  # after the reboot: SPI and I2C active, spi0-0cs left no spidev0.1
        (root / "dev" / device).touch()
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64").stdout
    assert "already has dtoverlay=spi0-0cs" in out and "SPI is already on" in out and "I2C is already on" in out
    assert "already in gpio" in out and "usermod" not in out and "apt-get" not in out
    assert "exists: kept as it is" in out
    # the Settings tab (#32) rewrites the file as the service's user: the folder and file are given to it
    assert f"would run: chown pi:pi {root}/etc/tableside {root}/etc/tableside/tableside.toml" in out
    assert "No reboot needed" in out and "REBOOT" not in out


def test_a_rerun_before_the_reboot_still_says_a_reboot_is_needed(tmp_path):
    """Issue 19: a re-run after a failed run said "No reboot needed" right after SPI, I2C and the overlay changed."""
    config = CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on").replace(
        "#dtparam=i2c_arm=on", "dtparam=i2c_arm=on"
    )
    root = fake_pi(tmp_path / "pi", config=config + "dtoverlay=spi0-0cs\n", groups_for_pi="pi")
    (root / "dev").mkdir()
    (root / "dev/spidev0.1").touch()  # the kernel still holds GPIO8 as SPI chip select 1: not rebooted
    out = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64").stdout
    assert "No reboot needed" not in out and "REBOOT NEEDED" in out
    for reason in ("SPI was turned on in config.txt", "I2C was turned on in config.txt", "spi0-0cs is in config.txt"):
        assert reason in out


def test_the_installer_notes_the_reboot_and_names_the_failing_step():
    text = INSTALL.read_text()
    assert "set -Eeuo pipefail" in text  # -E: the ERR trap fires inside functions (run, put_file) too
    change = text[text.index("change_config() {") :]
    change = change[: change.index("\n}\n")]
    assert change.index('cat "$new" > "$boot_config"') < change.index('need_reboot "$reason"')
    assert "current_step" in text[text.index("trap ") : text.index("ERR", text.index("trap "))]


def test_it_refuses_off_a_pi_unless_dry_run(tmp_path):
    laptop = tmp_path / "laptop"
    laptop.mkdir()
    refused = install("--root", str(laptop), "--user", "pi")
    assert refused.returncode == 2 and "not a Raspberry Pi" in refused.stderr and "--dry-run" in refused.stderr
    shown = install("--dry-run", "--root", str(laptop), "--user", "pi", "--arch", "arm64")
    assert shown.returncode == 0 and "a real run would stop here" in shown.stdout
    assert "apt-get install" in shown.stdout  # every step is still shown


def test_a_real_run_refuses_a_fake_root(tmp_path):
    root = fake_pi(tmp_path / "pi")
    refused = install("--root", str(root), "--user", "pi")
    assert refused.returncode == 2 and "--root is only for --dry-run" in refused.stderr


def _filled_unit(folder: Path) -> Path:
    text = UNIT.read_text()
    for key, value in {
        "@USER@": "pi",
        "@GROUP@": "pi",
        "@VENV@": sys.prefix,
        "@DATA@": "/var/lib/tableside",
        "@REPO@": str(REPO),
    }.items():
        text = text.replace(key, value)
    assert not re.search(r"@[A-Z]+@", text)  # every placeholder filled (SystemCallFilter's @system-service stays)
    path = folder / "tableside.service"
    path.write_text(text)
    return path


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    unit = _filled_unit(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    security = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)], capture_output=True, text=True, timeout=60
    )
    level = re.search(r"Overall exposure level for tableside.service: ([\d.]+)", security.stdout + security.stderr)
    if level:  # systemd >= 250
        assert float(level.group(1)) < 5.0, security.stdout


def test_the_unit_hardening_is_there_and_leaves_gpio_alone():
    text = UNIT.read_text()
    settings = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    assert settings["ProtectHome"] == "true" and settings["ReadWritePaths"].split() == ["@DATA@", "-/etc/tableside"]
    assert settings["ProtectKernelTunables"] == "true" and settings["MemoryMax"].endswith("M")
    assert set(settings["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}
    assert "PrivateDevices" not in settings  # it would hide /dev/gpiochip*, spidev, i2c
    assert settings["DevicePolicy"] == "closed"  # with DeviceAllow= for exactly those three
    assert "SystemCallArchitectures" not in settings  # 32-bit Pi OS runs on a 64-bit kernel
    assert settings["Restart"] == "on-failure" and int(settings["TimeoutStopSec"]) >= 35
    assert "network-online" not in settings.get("After", "") and "Wants" not in settings
    assert settings["User"] == "@USER@" and "serve --config /etc/tableside/tableside.toml" in settings["ExecStart"]
    # lgpio makes its pipe in the working directory (systemd's default "/" is not the user's): issue 19
    assert settings["WorkingDirectory"] == "@DATA@" and settings["Environment"] != "LG_WD=" and "LG_WD=@DATA@" in text


def test_the_config_template_loads_and_every_commented_key_is_a_real_setting(tmp_path):
    from tableside.config import load_config

    template = (REPO / "systemd" / "tableside.toml").read_text()
    assert load_config(str(REPO / "systemd" / "tableside.toml")).data == "/var/lib/tableside"
    uncommented = "\n".join(re.sub(r"^# (\w+ = )", r"\1", line) for line in template.splitlines())
    path = tmp_path / "all.toml"
    path.write_text(uncommented)
    cfg = load_config(str(path))
    assert cfg.led_pin == 12 and cfg.button_map == {"hold C": "dice", "hold B": "redo"}
    assert cfg.shutdown_command == ("systemctl", "poweroff")
