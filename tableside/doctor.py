"""``tableside doctor``: what Pi users get stuck on, and how to fix each.

Each check prints ``ok`` or ``FIX`` with the one thing to do; exit 1 if any
needs fixing. Off a Pi the simulated display and buttons are not a fault; the
data folder, the port and whether a phone can reach the table are checked.

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

from pathlib import Path

from tableside.config import Config, ConfigError, data_dir, load_config
from tableside.core.words import plural
from tableside.device.pins import pi_model
from tableside.doctor_data import check_data, check_last_errors, check_port
from tableside.doctor_live import check_groups, check_lgpio, run_live
from tableside.doctor_network import network_checks
from tableside.doctor_pi import (
    NOT_A_PI,
    REINSTALL,
    SYSTEM_CONFIG,
    Check,
    check_gpio8,
    check_i2c,
    check_spi,
    check_unit,
    has_overlay,
    read_unit,
)

__all__ = ["Check", "check_data", "check_groups", "check_last_errors", "check_lgpio", "check_port", "has_overlay"]


def run_checks(
    data: str | None, config: str | None = None, root: Path = Path("/"), hardware: bool = True
) -> list[Check]:
    """Every check in order, with the service's config and, for the live ones, as the service runs."""
    model = pi_model(root)
    if model is None:
        return _off_a_pi(config, root, data)
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
        checks += _dice_checks(root, required=cfg.dice == "bluetooth")
    folder = data_dir(data, cfg.data)
    checks += [*check_data(folder, unit.user if unit else None), check_port(cfg), *check_last_errors(folder)]
    if cfg.dice != "none":  # a paired die low on battery when last heard
        from tableside.device.smartdice.registry import battery_checks

        checks += [Check(*c) for c in battery_checks(folder)]
    return checks + network_checks(cfg, root)  # can a phone reach it: firewall, announcement, guest Wi-Fi


def _off_a_pi(config: str | None, root: Path, data: str | None = None) -> list[Check]:
    """Off a Pi: one line, unless the config asks for Bluetooth dice (a laptop can have those) or the data
    folder's card is full or read-only."""
    if config is None and (root / SYSTEM_CONFIG).is_file():
        config = str(root / SYSTEM_CONFIG)
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        return [Check(True, NOT_A_PI), Check(False, str(exc), "fix that line of the config file")]
    # The data folder, the port and whether a phone can reach the table matter on any machine.
    anywhere = [*check_data(data_dir(data, cfg.data)), check_port(cfg), *network_checks(cfg, root)]
    if cfg.dice == "bluetooth":
        return [Check(True, NOT_A_PI), *_dice_checks(root), *anywhere]
    return [Check(True, NOT_A_PI), *anywhere]


def _dice_checks(root: Path, required: bool = True) -> list[Check]:
    """The smart dice's checks; with ``[dice] kind = "auto"`` they are optional: said, never a FIX."""
    from tableside.device.smartdice.adapter import checks as dice_checks

    found = [Check(*c) for c in dice_checks(root)]
    if required:
        return found
    optional = ' (optional: [dice] kind = "auto" uses dice only when they can work; "bluetooth" requires them)'
    return [Check(True, c.text + ("" if c.ok else optional)) for c in found]


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
