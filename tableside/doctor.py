"""``tableside doctor``: what Pi users get stuck on, and how to fix each.

Each check prints ``ok`` or ``FIX`` with the one thing to do; exit 1 if any
needs fixing. Off a Pi there is nothing to check: one line, exit 0 (the
simulated display and buttons are not a fault).

On a Pi with the service installed, the doctor reads the installed unit and
checks what the *service* meets: its config file (port, data folder, pins),
and the live checks (lgpio, the Inky, the button pins, the groups) run in a
child process as the unit's user, from the unit's working directory, with
the unit's environment, the way systemd starts ``tableside serve``. A person
in their home folder sees what the service sees.

Paths are read under ``root`` (default ``/``) so the tests can point the
doctor at a fake Pi. The doctor never creates or changes anything: folders
and the database are only looked at (the database read-only). It never
claims a pin for longer than a look, never constructs the display driver's
GPIO side (gpiodevice would raise SystemExit on a busy pin), and never needs
root.
"""

from __future__ import annotations

import errno
import grp
import json
import os
import pwd
import re
import shlex
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tableside import faults as faults_file
from tableside.config import Config, ConfigError, data_dir, load_config
from tableside.core.words import plural
from tableside.device.pins import LG_WD_FIX, LGPIO_FIX, choose_pin_factory, gpiochip_problem, pi_model

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


# -- the live checks: run as the service would be ------------------------------------------------------------


def check_workdir(user: str) -> Check:
    here = os.getcwd()
    if os.access(here, os.W_OK | os.X_OK):
        return Check(True, f"user {user} can write its working directory {here}")
    return Check(False, f"user {user} cannot write its working directory {here}", LG_WD_FIX)


def check_inky(cfg: Config | None = None) -> Check:
    try:
        from inky.auto import auto  # the driver object only: no pin is claimed until setup()
    except ImportError:
        return Check(
            False,
            "the inky library is not installed",
            f"{REINSTALL} (or '.venv/bin/pip install \"inky>=2.6,<3\"')",
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
    if cfg is not None:
        from tableside.device.pins import PinConflict, resolve_pins

        try:
            resolve_pins(cfg, driver)
        except PinConflict as exc:
            return Check(False, f"Inky board {panel.name}: {exc.message}", exc.fix)
    return Check(True, f"Inky board detected: {getattr(panel, 'name', panel)}")


def _panel_for(driver: Any) -> Any:
    from tableside.device import display

    return display.panel_for_driver(driver)


def check_lgpio(model: str | None) -> Check:
    choice = choose_pin_factory(model=model, requested=None, env={})
    try:
        if choice.error:
            return Check(False, choice.error, choice.fix)
        return Check(True, f"pin factory {choice.name} loads ({choice.why})")
    finally:
        if not choice.simulated:
            choice.factory.close()


def check_button_pins(cfg: Config, service_active: Callable[[], bool], model: str | None = None) -> Check:
    """Claim each button pin for a moment with lgpio: busy means another program holds it."""
    pins = dict(cfg.buttons)
    if cfg.led_pin is not None:
        pins["LED"] = cfg.led_pin
    try:
        import lgpio
    except ImportError:
        return Check(False, "cannot check the button pins without lgpio", LGPIO_FIX)
    chip_problem = gpiochip_problem()
    if chip_problem:
        fix = (
            "use a Raspberry Pi OS kernel (the GPIO chip is /dev/gpiochip0)"
            if "no GPIO chip" in chip_problem
            else f"sudo usermod -aG gpio {pwd.getpwuid(os.getuid()).pw_name}, then restart the service"
        )
        return Check(False, f"cannot check the button pins: {chip_problem}", fix)
    try:
        chip = 4 if Path("/dev/gpiochip4").exists() and "Raspberry Pi 5" in (model or "") else 0
        handle = lgpio.gpiochip_open(chip)
    except Exception as exc:
        return Check(False, f"cannot open /dev/gpiochip{chip} ({exc})", "check 'ls -l /dev/gpiochip*' and the kernel")
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


def check_groups(user: str | None = None, service: bool = False) -> Check:
    """The gpio/spi/i2c groups; ``service``: the unit lists them as SupplementaryGroups, no login needed."""
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
            if not service and entry.gr_gid not in own and user == pwd.getpwuid(os.getuid()).pw_name:
                relogin.append(group)
        else:
            missing.append(group)
    if missing:
        return Check(
            False,
            f"user {user} is not in the {'group' if len(missing) == 1 else 'groups'} {', '.join(missing)}",
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
            f"this system has no {'/'.join(absent)} {'group' if len(absent) == 1 else 'groups'}: "
            "GPIO access is not set up the Raspberry Pi OS way",
            "use Raspberry Pi OS Bookworm (docs/raspberry-pi.md)",
        )
    return Check(True, f"user {user} is in the gpio/spi/i2c groups")


def live_checks(config: str | None, model: str | None, service: bool) -> list[Check]:
    """The checks that load hardware libraries: run in the process that stands in for the service."""
    user = pwd.getpwuid(os.getuid()).pw_name
    checks = [check_workdir(user)]
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        return [*checks, Check(False, str(exc), "fix that line of the config file")]
    checks.append(check_inky(cfg))
    checks.append(check_lgpio(model))
    if checks[-1].ok:
        checks.append(check_button_pins(cfg, _service_active, model))
    checks.append(check_groups(user, service=service))
    return checks


def _live_main(argv: list[str]) -> int:
    """``python -m tableside.doctor --live ARGS-JSON``: the live checks, printed as JSON."""
    args = json.loads(argv[0])
    checks = live_checks(args["config"], args["model"], args["service"])
    print(json.dumps([asdict(c) for c in checks]))
    return 0


def run_live(unit: Service | None, config: str | None, model: str | None) -> list[Check]:
    """The live checks in a child process started the way the unit starts the service (or as this user)."""
    env = dict(os.environ)
    env.pop("GPIOZERO_PIN_FACTORY", None)
    cwd, note = None, None
    kwargs: dict[str, Any] = {}
    me = pwd.getpwuid(os.getuid()).pw_name
    if unit is not None:
        env.update(unit.environment)
        cwd = unit.working_directory or "/"  # systemd's default
        if unit.user and unit.user != me:
            if os.getuid() == 0:
                try:
                    entry = pwd.getpwnam(unit.user)
                except KeyError:
                    return [Check(False, f"the unit's user {unit.user} does not exist", REINSTALL)]
                kwargs = {
                    "user": entry.pw_uid,
                    "group": grp.getgrnam(unit.group).gr_gid if unit.group else entry.pw_gid,
                    "extra_groups": [g for g in unit.supplementary_groups if _group_exists(g)],
                }
                env.update(HOME=entry.pw_dir, USER=unit.user, LOGNAME=unit.user)
            else:
                note = Check(
                    True,
                    f"the live checks below ran as {me}; the service runs as {unit.user} "
                    f"(with sudo they run as {unit.user})",
                )
        elif unit.supplementary_groups and os.getuid() != 0:
            pass  # the same user: its groups are its own (check_groups says if a login predates them)
    args = json.dumps({"config": config, "model": model, "service": unit is not None})
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tableside.doctor", "--live", args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            **kwargs,
        )
        checks = [Check(**c) for c in json.loads(done.stdout.strip().splitlines()[-1])]
    except (OSError, subprocess.SubprocessError, ValueError, IndexError, TypeError) as exc:
        where = f" in {cwd}" if cwd else ""
        detail = (locals().get("done") and done.stderr.strip().splitlines()[-1:]) or [str(exc)]
        return [
            Check(
                False,
                f"the live checks could not run{where} as the service would ({detail[0]})",
                LG_WD_FIX if cwd else "see the message",
            )
        ]
    return [note, *checks] if note else checks


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


# -- the data folder, the database and the port ----------------------------------------------------------------


def check_data(folder: Path, service_user: str | None = None) -> list[Check]:
    """The folder and the database, only looked at: the doctor never creates the folder it was asked about."""
    from tableside.backup import Backups, check_database, damaged_message

    me = pwd.getpwuid(os.getuid()).pw_name
    if not folder.exists():
        return [Check(True, f"data folder {folder} does not exist yet: 'tableside serve' makes it at the first start")]
    if not folder.is_dir():
        return [Check(False, f"data folder {folder} is not a folder", "point [server] data (or --data) at a folder")]
    owner = _owner(folder)
    if service_user and owner != service_user:
        checks = [
            Check(
                False,
                f"data folder {folder} belongs to {owner}, not to the service's user {service_user}",
                f"sudo chown -R {service_user} {folder}",
            )
        ]
    elif os.access(folder, os.W_OK | os.X_OK):
        checks = [Check(True, f"data folder {folder} is writable")]
    elif service_user and me != service_user:
        checks = [Check(True, f"data folder {folder} belongs to the service's user {service_user}")]
    else:
        checks = [
            Check(
                False,
                f"data folder {folder} is not writable by {me} (it belongs to {owner})",
                f"sudo chown -R {me} {folder} (or use --data)",
            )
        ]
    db = folder / "tableside.db"
    if not db.exists():
        return checks
    if not os.access(db, os.R_OK):
        return [*checks, Check(True, f"{db} belongs to {_owner(db)}: run the doctor as that user to check it")]
    problem = check_database(db)  # read-only: PRAGMA quick_check on a mode=ro connection
    if problem is None:
        return [*checks, Check(True, f"the database {db} passes SQLite's quick check")]
    message = damaged_message(db, problem, Backups(db))
    head, _, way_out = message.partition(". ")
    return [*checks, Check(False, head, way_out or "move the file away to start an empty table")]


def _owner(path: Path) -> str:
    try:
        return pwd.getpwuid(path.stat().st_uid).pw_name
    except (KeyError, OSError):
        return "another user"


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


SELF = re.compile(r"(run )?'?tableside doctor'?( for [^;,.]*)?")


def check_last_errors(folder: Path) -> list[Check]:
    """The last display, button and pin errors the running (or last) ``tableside serve`` kept."""
    errors = faults_file.read(folder)
    if not errors:
        return [Check(True, "no display or button errors recorded by tableside serve")]
    out = []
    for name, record in sorted(errors.items()):
        fix = str(record.get("fix") or "")
        if "tableside doctor" in fix:  # an older server's advice: the doctor is already running
            fix = SELF.sub("", fix).strip(" ;,()") or ""
        out.append(
            Check(
                False,
                f"last {name} error (x{record.get('count', 1)}): {record.get('error', '?')}",
                fix or "see 'journalctl -u tableside' for what led to it",
            )
        )
    return out


def _service_active() -> bool:
    try:
        done = subprocess.run(["systemctl", "is-active", "--quiet", "tableside"], timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def run_checks(
    data: str | None, config: str | None = None, root: Path = Path("/"), hardware: bool = True
) -> list[Check]:
    """Every check in order, with the service's config and, for the live ones, as the service runs."""
    model = pi_model(root)
    if model is None:
        return _off_a_pi(config, root)
    unit = read_unit(root)
    if config is None:
        if unit is not None and unit.config:
            config = str(root / unit.config.lstrip("/"))
        elif (root / SYSTEM_CONFIG).is_file():
            config = str(root / SYSTEM_CONFIG)
    checks = [Check(True, f"Raspberry Pi: {model}")]
    try:
        cfg = load_config(config)
    except ConfigError as exc:  # the service would stop with it: say so, then check the rest with the defaults
        checks.append(Check(False, str(exc), f"fix the config file, or {REINSTALL} to write a fresh one"))
        cfg, config = Config(), None
    else:
        if config:
            checks.append(Check(True, f"config {config} loads (port {cfg.port})"))
    checks += [check_spi(root), check_i2c(root), check_gpio8(root)]
    if unit is not None:
        checks.append(check_unit(unit, root))
    if hardware:
        checks += run_live(unit, config, model)
    if cfg.dice in ("bluetooth", "auto"):  # smart dice: docs/smart-dice.md
        checks += _dice_checks(root)
    folder = data_dir(data, cfg.data)
    checks += [*check_data(folder, unit.user if unit else None), check_port(cfg), *check_last_errors(folder)]
    return checks


def _off_a_pi(config: str | None, root: Path) -> list[Check]:
    """Off a Pi: one line, unless the config asks for Bluetooth dice (a laptop can have those)."""
    if config is None and (root / SYSTEM_CONFIG).is_file():
        config = str(root / SYSTEM_CONFIG)
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        return [Check(True, NOT_A_PI), Check(False, str(exc), "fix that line of the config file")]
    if cfg.dice == "bluetooth":
        return [Check(True, NOT_A_PI), *_dice_checks(root)]
    return [Check(True, NOT_A_PI)]


def _dice_checks(root: Path) -> list[Check]:
    from tableside.device.smartdice.adapter import checks as dice_checks

    return [Check(*c) for c in dice_checks(root)]


def run_doctor(data: str | None, config: str | None = None, root: Path = Path("/")) -> int:
    checks = run_checks(data, config, root)
    if len(checks) == 1 and checks[0].text == NOT_A_PI:
        print(NOT_A_PI)
        return 0
    for check in checks:
        print(f"{'ok ' if check.ok else 'FIX'}  {check.text}")
        if not check.ok and check.fix:
            print(f"     -> {check.fix}")
    bad = sum(not c.ok for c in checks)
    print("all good" if not bad else f"{plural(bad, 'thing to fix', 'things to fix')}")
    return 0 if not bad else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--live"]:
        raise SystemExit(_live_main(sys.argv[2:]))
    raise SystemExit(f"usage: {sys.argv[0]} --live ARGS (used by 'tableside doctor')")
