"""Where data lives, the join code and the optional config file (TOML).

Data folder: ``--data``, else ``$TABLESIDE_DATA``, else ``~/.local/share/tableside``.
The join code is random per install (kept in the data folder) unless
``$TABLESIDE_JOIN_CODE`` sets it.
"""

from __future__ import annotations

import os
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

# No 0/O or 1/I: the code is read off an e-paper across the table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def data_dir(given: str | None) -> Path:
    if given:
        return Path(given).expanduser()
    if os.environ.get("TABLESIDE_DATA"):
        return Path(os.environ["TABLESIDE_DATA"]).expanduser()
    return Path.home() / ".local" / "share" / "tableside"


def join_code(folder: Path) -> str:
    """The table's join code: from the environment, else made once and kept."""
    if os.environ.get("TABLESIDE_JOIN_CODE"):
        return os.environ["TABLESIDE_JOIN_CODE"].strip()
    path = folder / "join_code"
    if path.exists():
        code = path.read_text().strip()
        if code:
            return code
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(code + "\n")
    path.chmod(0o600)
    return code


@dataclass
class Config:
    """Settings from the config file; command-line flags override them."""

    host: str = "0.0.0.0"
    port: int = 8080
    display: str = "auto"  # auto | inky | virtual
    panel: str | None = None  # a display.panels id; None = detect (virtual: wHAT red)
    model: str | None = None  # a display.panels id naming a board that has no EEPROM to detect
    min_interval: float = 10.0  # seconds the panel rests between refreshes
    join_seconds: float = 120.0  # how long the join screen stays up at start and after a hold
    simulate_refresh: bool = True  # the virtual panel takes as long as the real board
    buttons: dict[str, int] = field(default_factory=lambda: {"A": 5, "B": 6, "C": 16, "D": 24})
    hold_time: float = 1.0
    threads: int = 24
    # the Pi appliance (docs/raspberry-pi.md): debouncing, pin factory, overrides, LED, shutdown
    debounce_ms: float = 10.0
    pin_factory: str | None = None  # lgpio (default on a Pi) | rpigpio | pigpio | mock
    button_map: dict[str, str] = field(default_factory=dict)  # {"hold C": "dice", "A+D": "shutdown"}
    shutdown_chord: tuple[str, ...] = ("A", "D")
    led_pin: int | None = None
    led_pwm: bool = False
    led_active_high: bool = True
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")


class ConfigError(ValueError):
    pass


def load_config(path: str | None) -> Config:
    cfg = Config()
    if not path:
        return cfg
    try:
        raw = tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    server, display, buttons = raw.get("server", {}), raw.get("display", {}), raw.get("buttons", {})
    try:
        cfg.host = str(server.get("host", cfg.host))
        cfg.port = int(server.get("port", cfg.port))
        cfg.threads = int(server.get("threads", cfg.threads))
        cfg.display = str(display.get("kind", cfg.display))
        cfg.panel = display.get("panel", cfg.panel)
        cfg.model = display.get("model", cfg.model)
        cfg.min_interval = float(display.get("min_interval", cfg.min_interval))
        cfg.join_seconds = float(display.get("join_seconds", cfg.join_seconds))
        cfg.simulate_refresh = bool(display.get("simulate_refresh", cfg.simulate_refresh))
        cfg.hold_time = float(buttons.get("hold_time", cfg.hold_time))
        pins = buttons.get("pins", {})
        cfg.buttons = {**cfg.buttons, **{str(k).upper(): int(v) for k, v in pins.items()}}
        _load_pi(cfg, raw, buttons)
    except (TypeError, ValueError, AttributeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from None
    from tableside.display.panels import PANELS

    for key in ("panel", "model"):
        value = getattr(cfg, key)
        if value is not None and value not in PANELS:
            raise ConfigError(f"config file {path}: display.{key} {value!r} is not one of {', '.join(PANELS)}")
    if not (0 <= cfg.min_interval <= 3600 and 0 <= cfg.join_seconds <= 3600):
        raise ConfigError(f"config file {path}: display.min_interval and display.join_seconds must be 0-3600 s")
    if cfg.display not in ("auto", "inky", "virtual"):
        raise ConfigError(f"config file {path}: display kind must be auto, inky or virtual, not {cfg.display!r}")
    return cfg


# GPIO the Inky boards use (SPI0, its chip selects, DC/RESET/BUSY) and I2C for the EEPROM.
RESERVED_PINS = {2: "I2C SDA", 3: "I2C SCL", 8: "the Inky's SPI chip select", 9: "SPI MISO", 10: "SPI MOSI",
                 11: "SPI clock", 17: "the Inky's BUSY line", 22: "the Inky's DC line", 27: "the Inky's RESET line"}
MAP_TARGETS = ("undo", "redo", "shutdown", "dice", "none")


def _gesture_names() -> set[str]:
    labels = ("A", "B", "C", "D")
    pairs = {"+".join(sorted((a, b))) for a in labels for b in labels if a < b}
    return set(labels) | {f"hold {x}" for x in labels} | pairs


def _load_pi(cfg: Config, raw: dict, buttons: dict) -> None:
    """The [buttons], [led] and [system] keys of the Pi appliance, each checked with a message naming it."""
    led, system = raw.get("led", {}), raw.get("system", {})
    unknown = sorted(set(cfg.buttons) - {"A", "B", "C", "D"})
    if unknown:
        raise ValueError(f"[buttons] pins: unknown button(s) {', '.join(unknown)} (the buttons are A, B, C, D)")
    for label, pin in cfg.buttons.items():
        if not 0 <= pin <= 27:
            raise ValueError(f"[buttons] pins: {label} = {pin} is not a BCM GPIO number (0-27)")
        if pin in RESERVED_PINS:
            raise ValueError(f"[buttons] pins: {label} = GPIO{pin} is {RESERVED_PINS[pin]}; pick another pin")
    if len(set(cfg.buttons.values())) != len(cfg.buttons):
        raise ValueError(f"[buttons] pins: two buttons share a pin ({cfg.buttons})")
    cfg.debounce_ms = float(buttons.get("debounce_ms", cfg.debounce_ms))
    if not 1 <= cfg.debounce_ms <= 100:
        raise ValueError(f"[buttons] debounce_ms must be 1-100, got {cfg.debounce_ms:g}")
    if not cfg.debounce_ms / 1000 < cfg.hold_time <= 10:
        raise ValueError(f"[buttons] hold_time must be longer than debounce_ms and at most 10 s, got {cfg.hold_time:g}")
    factory = buttons.get("pin_factory")
    cfg.pin_factory = str(factory) if factory else None
    chord = buttons.get("shutdown_chord", list(cfg.shutdown_chord))
    if (not isinstance(chord, list) or len(chord) != 2 or len(set(chord)) != 2
            or not set(map(str, chord)) <= {"A", "B", "C", "D"}):
        raise ValueError(f"[buttons] shutdown_chord must name two different buttons, e.g. ['A', 'D'], not {chord!r}")
    cfg.shutdown_chord = tuple(sorted(map(str, chord)))
    mapping = buttons.get("map", {})
    if not isinstance(mapping, dict):
        raise ValueError("[buttons] map must be a table such as { \"hold C\" = \"dice\" }")
    names = _gesture_names()
    for key, target in mapping.items():
        gesture = " ".join(str(key).split())
        gesture = gesture[:5].lower() + gesture[5:].upper() if gesture.lower().startswith("hold ") else gesture.upper()
        gesture = "+".join(sorted(gesture.split("+"))) if "+" in gesture else gesture
        if gesture not in names:
            raise ValueError(f"[buttons] map: {key!r} is not a gesture (use A, hold A, or A+D)")
        target = str(target).strip()
        if not (target in MAP_TARGETS or (target.replace("_", "").isalnum() and 0 < len(target) <= 40)):
            raise ValueError(f"[buttons] map: {key} = {target!r} is neither an action type nor one of "
                             f"{', '.join(MAP_TARGETS)}")
        cfg.button_map[gesture] = target
    pin = led.get("pin")
    if pin is not None:
        pin = int(pin)
        if not 0 <= pin <= 27 or pin in RESERVED_PINS or pin in cfg.buttons.values():
            raise ValueError(f"[led] pin = {pin} must be a free BCM GPIO (0-27), not a button's or the Inky's")
    cfg.led_pin = pin
    cfg.led_pwm = bool(led.get("pwm", cfg.led_pwm))
    cfg.led_active_high = bool(led.get("active_high", cfg.led_active_high))
    command = system.get("shutdown_command", list(cfg.shutdown_command))
    if isinstance(command, str):
        command = command.split()
    if not command or not all(isinstance(c, str) and c for c in command) or len(command) > 20:
        raise ValueError("[system] shutdown_command must be a command, e.g. [\"systemctl\", \"poweroff\"]")
    cfg.shutdown_command = tuple(command)
