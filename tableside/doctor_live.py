"""``tableside doctor``: the live checks (lgpio, the Inky, the button pins, the groups), run in a child
process started the way the unit starts ``tableside serve``: as its user, from its working directory,
with its environment. A pin is claimed for a look at most; the display's GPIO side is never built."""

import grp
import json
import os
import pwd
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tableside import faults as faults_file
from tableside.config import Config, ConfigError, load_config
from tableside.device.pins import LG_WD_FIX, LGPIO_FIX, choose_pin_factory, gpiochip_problem
from tableside.doctor_pi import REINSTALL, Check, Service

# -- the live checks: run as the service would be ------------------------------------------------------------


def check_workdir(user: str) -> Check:
    here = os.getcwd()
    if os.access(here, os.W_OK | os.X_OK):
        return Check(True, f"user {user} can write its working directory {here}")
    return Check(False, f"user {user} cannot write its working directory {here}", LG_WD_FIX)


def check_inky(cfg: Config | None = None) -> Check:
    """The fitted board (its EEPROM, or [display] model), and the buttons' pins against that board's own."""
    try:
        import inky.auto  # noqa: F401  (the driver object only: no pin is claimed until setup())
    except ModuleNotFoundError as exc:
        if exc.name == "inky":
            return Check(
                False, "the inky library is not installed", f"{REINSTALL} (or '.venv/bin/pip install \"inky>=2.6,<3\"')"
            )
        return _inky_broken(exc)
    except Exception as exc:  # numpy, spidev, gpiod failing to import: the real error, never "not installed"
        return _inky_broken(exc)
    from tableside.device.display import find_board

    try:
        board = find_board(cfg.model if cfg is not None else None)
    except ValueError as exc:  # panel_for_driver: a board answered that has no layout here
        return Check(
            False,
            f"an Inky board answered, but Tableside has no layout for it ({exc})",
            "set [display] panel (or model) in the config to the nearest layout and report the board",
        )
    except BaseException as exc:  # gpiodevice raises SystemExit on a busy pin  # noqa: BLE001
        return Check(
            False,
            f"no Inky board answered on I2C ({faults_file.describe(exc)})",
            "check the board sits on all 40 header pins and I2C is on; boards without an EEPROM "
            "need [display] model in the config",
        )
    if cfg is not None:
        from tableside.device.pins import PinConflict, resolve_pins

        try:
            resolve_pins(cfg, board.panel, board.driver)  # the fitted board's own driver pins (13.3": 26, 16)
        except PinConflict as exc:
            return Check(False, f"Inky board {board.panel.name}: {exc.message}", exc.fix)
    return Check(True, f"Inky board {board.how}: {board.panel.name}")


def _inky_broken(exc: BaseException) -> Check:
    return Check(
        False,
        f"the inky library is installed but fails to import: {faults_file.describe(exc)}",
        "reinstall what it names in Tableside's venv ('.venv/bin/pip install --force-reinstall NAME', or "
        f"{REINSTALL}); on 32-bit Pi OS numpy needs piwheels or 'sudo apt install libopenblas0'",
    )


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
            [sys.executable, "-m", "tableside.doctor_live", "--live", args],
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


def _service_active() -> bool:
    try:
        done = subprocess.run(["systemctl", "is-active", "--quiet", "tableside"], timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--live"]:
        raise SystemExit(_live_main(sys.argv[2:]))
    raise SystemExit(f"usage: {sys.argv[0]} --live ARGS (used by 'tableside doctor')")
