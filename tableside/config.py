"""Where data lives, the join code and the optional config file (TOML).

Data folder: ``--data``, else ``$TABLESIDE_DATA``, else the config file's ``[server] data``, else
``$XDG_DATA_HOME/tableside``, else ``~/.local/share/tableside``.
The join code is random per install (kept in the data folder) unless
``$TABLESIDE_JOIN_CODE`` sets it.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tableside.webui.limits import ServerLimits

# No 0/O or 1/I: the code is read off an e-paper across the table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def data_dir(given: str | None, configured: str | None = None) -> Path:
    """``--data``, else ``$TABLESIDE_DATA``, else the config file's ``[server] data`` (the Pi service's
    /var/lib/tableside), else ``$XDG_DATA_HOME/tableside``, else ``~/.local/share/tableside`` (the XDG
    Base Directory default; a relative ``$XDG_DATA_HOME`` is ignored, as the specification says)."""
    if given:
        return Path(given).expanduser()
    if os.environ.get("TABLESIDE_DATA"):
        return Path(os.environ["TABLESIDE_DATA"]).expanduser()
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "tableside"
    return Path.home() / ".local" / "share" / "tableside"


# 6 characters from 32 is 2^30 codes: at the rate limit's pace (webui.auth, at most one guess an hour per
# device after a few typos) guessing half of them takes tens of thousands of years.
CODE_LENGTH = 6
MIN_CODE_LENGTH = 6
MAX_CODE_LENGTH = 32  # the e-paper's join screen (display/join.py) shows at most 32 characters and the QR


def check_join_code(code: str, where: str) -> str:
    """A code people can type and guests cannot guess; refused at start-up with a clear message."""
    if not code.strip():
        raise ConfigError(
            f"{where} is empty or only spaces: that would let everyone in; set a code of "
            f"at least {MIN_CODE_LENGTH} characters or unset it for a random one"
        )
    code = code.strip()
    if len(code) < MIN_CODE_LENGTH:
        raise ConfigError(
            f"{where} is {len(code)} characters; a join code needs at least {MIN_CODE_LENGTH} so guests cannot guess it"
        )
    if len(code) > MAX_CODE_LENGTH:
        raise ConfigError(f"{where} is {len(code)} characters; at most {MAX_CODE_LENGTH}")
    if any(c.isspace() or not c.isprintable() for c in code):
        raise ConfigError(f"{where} contains a space or an unprintable character; use letters and digits")
    return code


def join_code(folder: Path) -> str:
    """The table's join code: from the environment, else made once and kept."""
    if "TABLESIDE_JOIN_CODE" in os.environ:
        return check_join_code(os.environ["TABLESIDE_JOIN_CODE"], "TABLESIDE_JOIN_CODE")
    path = folder / "join_code"
    if path.exists():
        return check_join_code(path.read_text(), f"the join code in {path}")
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")  # whole or not at all: a full card once left an empty code that refused starts
    tmp.write_text(code + "\n")
    tmp.chmod(0o600)
    os.replace(tmp, path)
    return code


SYSTEM_CONFIG = Path("/etc/tableside/tableside.toml")  # written by systemd/install.sh on a Pi


def system_config() -> str | None:
    """The Pi service's config file when there is one: the doctor and export find its data folder."""
    return str(SYSTEM_CONFIG) if SYSTEM_CONFIG.is_file() else None


def cookie_secret(folder: Path) -> bytes:
    """The key that signs join cookies, made once per install and kept private in the data folder."""
    path = folder / "cookie_secret"
    if path.exists():
        text = path.read_text().strip()
        if len(text) >= 32:
            return bytes.fromhex(text) if all(c in "0123456789abcdef" for c in text) else text.encode()
    value = secrets.token_bytes(32)
    path.write_text(value.hex() + "\n")
    path.chmod(0o600)
    return value


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
    buttons_given: frozenset[str] = frozenset()  # set in the file; the rest may move for a board (the 13.3")
    hold_time: float = 1.0
    data: str | None = None  # [server] data: the data folder, after --data and $TABLESIDE_DATA
    limits: ServerLimits = field(default_factory=ServerLimits)
    # Host names the panel answers to besides IP addresses and *.local (DNS rebinding guard).
    names: tuple[str, ...] = ()
    # mDNS/DNS-SD announcement (tableside.announce): None = on unless the table listens on loopback only
    announce: bool | None = None
    # the Pi appliance (docs/raspberry-pi.md): debouncing, pin factory, overrides, LED, shutdown
    debounce_ms: float = 10.0
    pin_factory: str | None = None  # lgpio (default on a Pi) | rpigpio | pigpio | mock
    button_map: dict[str, str] = field(default_factory=dict)  # {"hold C": "dice", "A+D": "shutdown"}
    shutdown_chord: tuple[str, ...] = ("A", "D")
    physical_dice: bool = False  # buttons enter real dice instead of rolling (a "dice" gesture toggles it)
    led_pin: int | None = None
    led_pwm: bool = False
    led_active_high: bool = True
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")
    # [dice] smart dice (docs/smart-dice.md): auto (simulated with --simulate, Bluetooth when an adapter
    # and the 'dice' extra are there, else none) | bluetooth | simulated | none
    dice: str = "auto"
    dice_adapter: str | None = None  # "hci0": which Bluetooth adapter, when there are several
    dice_simulated: tuple[str, ...] = ()  # the kinds of the simulated dice (default: 3 d10, 6 d6, a d20)

    @property
    def threads(self) -> int:
        return self.limits.threads


class ConfigError(ValueError):
    pass


# ``[server]`` keys that set a ServerLimits field, with their type.
LIMIT_KEYS: dict[str, type] = {
    "threads": int,
    "connection_limit": int,
    "per_client_connections": int,
    "channel_timeout": float,
    "header_timeout": float,
    "max_request_body_size": int,
    "max_request_header_size": int,
    "max_streams": int,
    "guest_connections": int,
    "guest_idle": float,
    "new_games_per_minute": int,
}

# The range of every number the file may set (README "Config file" lists them): nothing below or above,
# no NaN and no infinity. The low ends keep the server answering: fewer than 16 connections or a
# 4 KB header (cookies, a phone's user agent) refuse ordinary phones; a 1 s header timeout still lets
# a phone on weak Wi-Fi send its request.
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("server", "port"): (1, 65535),
    ("server", "threads"): (1, 32),
    ("server", "connection_limit"): (16, 10000),
    ("server", "per_client_connections"): (2, 1024),
    ("server", "channel_timeout"): (1, 3600),
    ("server", "header_timeout"): (1, 600),
    ("server", "max_request_body_size"): (4096, 16 * 1024 * 1024),
    ("server", "max_request_header_size"): (4096, 1024 * 1024),
    ("server", "max_streams"): (1, 1024),
    ("server", "guest_connections"): (4, 1024),
    ("server", "guest_idle"): (1, 600),
    ("server", "new_games_per_minute"): (1, 10000),
    ("display", "min_interval"): (0, 3600),
    ("display", "join_seconds"): (0, 3600),
    ("buttons", "hold_time"): (0.01, 10),
    ("buttons", "debounce_ms"): (1, 100),
}
MAX_CONFIG_BYTES = 1024 * 1024  # a config file is a page of settings; more is a wrong path (/dev/zero)

# Every key the config file may hold, by section: anything else is a typo and stops the start,
# naming the key, the file and the line (a misspelt ``prot = 18805`` must not be silently ignored).
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "server": ("host", "port", "data", "names", "announce", *LIMIT_KEYS),
    "display": ("kind", "panel", "model", "min_interval", "join_seconds", "simulate_refresh"),
    "buttons": ("pins", "hold_time", "debounce_ms", "physical_dice", "pin_factory", "shutdown_chord", "map"),
    "led": ("pin", "pwm", "active_high"),
    "system": ("shutdown_command",),
    "dice": ("kind", "adapter", "simulated"),
}


def line_of(text: str, section: str | None, key: str | None = None) -> int | None:
    """The line that sets ``[section] key`` (or opens ``[section]``): tomllib keeps no positions,
    so the text is scanned. None when the line cannot be told (an inline or dotted table)."""
    current: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        header = re.match(r"\[\[?\s*([^\]]+?)\s*\]", stripped)
        if header:
            current = header.group(1).strip().strip("\"'")
            if key is None and current == section:
                return number
            continue
        if key is None:
            continue
        assignment = re.match(r"""\s*["']?([^"'=\s]+)["']?\s*=""", line)
        if not assignment:
            continue
        name = assignment.group(1)
        if current == section and name.split(".")[0] == key:
            return number
        if current is None and section is not None and name == f"{section}.{key}":
            return number
    return None


class _File:
    """One config file's text and parsed tables; every complaint names the file, the line and the key."""

    def __init__(self, path: str, text: str, raw: dict[str, Any]) -> None:
        self.path, self.text, self.raw = path, text, raw

    def where(self, section: str | None, key: str | None = None) -> str:
        line = line_of(self.text, section, key)
        return f"config file {self.path}" + (f" line {line}" if line else "")

    def error(self, section: str, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.where(section, key)}: [{section}] {key} {message}")

    def section(self, name: str) -> dict[str, Any]:
        return self.raw.get(name, {})

    def check_names(self) -> None:
        """Unknown sections and keys are refused, with the nearest known name as a hint."""
        for name, value in self.raw.items():
            if name not in KNOWN_KEYS:
                hint = _nearest(name, KNOWN_KEYS).replace("'", "").replace("mean ", "mean [").replace("?)", "]?)")
                if not isinstance(value, dict):
                    raise ConfigError(
                        f"{self.where(None, name)}: {name!r} is not a setting here{hint}; every key belongs in a "
                        f"section: {', '.join(f'[{s}]' for s in KNOWN_KEYS)}"
                    )
                raise ConfigError(
                    f"{self.where(name)}: unknown section [{name}]{hint}; the sections are "
                    f"{', '.join(f'[{s}]' for s in KNOWN_KEYS)}"
                )
            if not isinstance(value, dict):
                raise ConfigError(f"{self.where(None, name)}: {name} must be a section ([{name}]), not a value")
            for key in value:
                if key not in KNOWN_KEYS[name]:
                    raise ConfigError(
                        f"{self.where(name, key)}: unknown key {key!r} in [{name}]{_nearest(key, KNOWN_KEYS[name])}; "
                        f"the keys of [{name}] are {', '.join(KNOWN_KEYS[name])}"
                    )

    def get(self, section: str, key: str, default: Any, kind: str) -> Any:
        """A value of one TOML type: ``whole``, ``number``, ``text``, ``flag`` (true/false), ``list``, ``table``."""
        table = self.section(section)
        if key not in table:
            return default
        value = table[key]
        ok = {
            "whole": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "text": isinstance(value, str),
            "flag": isinstance(value, bool),
            "list": isinstance(value, list),
            "table": isinstance(value, dict),
        }[kind]
        if not ok:
            raise self.error(section, key, f"must be {EXPECTS[kind]}, not {_shown(value)}")
        if kind == "number" and not math.isfinite(value):
            raise self.error(section, key, f"must be a finite number (such as 1.5), not {_shown(value)}")
        return value

    def between(self, section: str, key: str, default: Any, kind: str, low: float, high: float | None = None) -> Any:
        value = self.get(section, key, default, kind)
        if value is not default and (value < low or (high is not None and value > high)):
            limits = f"{_num(low)}-{_num(high)}" if high is not None else f"{_num(low)} or more"
            raise self.error(section, key, f"must be {limits}, not {_num(value)}")
        return value


EXPECTS = {
    "whole": "a whole number (such as 8080)",
    "number": "a number (such as 1.5)",
    "text": 'text in quotes (such as "what-red")',
    "flag": "true or false",
    "list": 'a list in brackets (such as ["A", "D"])',
    "table": "a table in braces (such as { A = 5 })",
}


def _num(value: float) -> str:
    """A number as the file would write it: 16777216, not 1.67772e+07."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e18 else f"{value:g}"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _nearest(name: str, known: Any) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def toml_hint(text: str, message: str) -> str:
    """How to fix a TOML syntax error: the line as written and the usual mistake behind tomllib's words."""
    found = re.search(r"line (\d+), column (\d+)", message)
    if not found and "end of document" in message:
        return "; a list [...], a table { ... } or a quote opened above is never closed"
    if not found:
        return "; every line is a [section], a key = value or a # comment (systemd/tableside.toml shows each key)"
    lines = text.splitlines()
    number = int(found.group(1))
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    shown = f": the line reads {line[:80]!r}" if line else ""
    bare = re.fullmatch(r"([A-Za-z0-9_\-\"']+)\s*=\s*([^\"'\[{\s][^#]*?)\s*(#.*)?", line)
    if bare and not re.fullmatch(r"[-+]?\d[\d_]*(\.\d[\d_]*)?([eE][-+]?\d+)?|true|false|[-+]?(inf|nan)", bare.group(2)):
        fix = f'text goes in quotes: {bare.group(1)} = "{bare.group(2)}"'
    elif "overwrite" in message or "twice" in message or "declare" in message.lower():
        fix = "a key or a [section] is set twice: keep one of them"
    elif line.startswith("[") and not line.rstrip().endswith("]"):
        fix = "a [section] header needs its closing ]"
    elif line.count('"') % 2 or line.count("'") % 2:
        fix = "a quote is not closed: text starts and ends with the same quote on one line"
    elif "=" not in line and line and not line.startswith("["):
        fix = "each setting is key = value on a line of its own"
    elif "Unclosed" in message or line.count("[") > line.count("]") or line.count("{") > line.count("}"):
        fix = "a list [...] or a table { ... } is not closed: a { } table stays on one line"
    else:
        fix = "compare the line with systemd/tableside.toml, which shows every key with its default"
    return f"{shown}; {fix}"


def load_config(path: str | None) -> Config:
    """The config file's settings over the defaults; any wrong key or value raises ConfigError naming it."""
    cfg = Config()
    if not path:
        return cfg

    try:
        with open(path, "rb") as handle:  # at most 1 MB and a byte: --config /dev/zero must not read for ever
            data = handle.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"config file {path} is larger than {MAX_CONFIG_BYTES // 1024 // 1024} MB: "
                "name the .toml file of settings itself"
            )
        text = data.decode()
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"config file {path} is a folder: name the .toml file itself") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path} is not text (UTF-8): {exc.reason} at byte {exc.start}") from None
    except OSError as exc:
        from tableside.oserror import describe_os_error

        raise ConfigError(f"config file {path} cannot be read: {describe_os_error(exc)}") from None
    return config_from_text(path, text)


def config_from_text(path: str, text: str) -> Config:
    """The checks ``load_config`` runs, on a config file's text: the phone's Settings page (tableside.settings)
    checks an edited file with these very checks and messages before it is written."""
    import tomllib

    cfg = Config()
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}{toml_hint(text, str(exc))}") from None
    f = _File(path, text, raw)
    f.check_names()
    host = f.get("server", "host", cfg.host, "text")
    if not host.strip():
        raise f.error("server", "host", 'must be an address such as "0.0.0.0", not empty')
    cfg.host = host.strip()
    cfg.port = f.between("server", "port", cfg.port, "whole", *RANGES["server", "port"])
    data = f.get("server", "data", None, "text")
    cfg.data = data if data else None
    for key, kind in LIMIT_KEYS.items():
        value = f.between("server", key, None, "whole" if kind is int else "number", *RANGES["server", key])
        if value is not None:
            setattr(cfg.limits, key, kind(value))
    names = f.get("server", "names", [], "list")
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise f.error("server", "names", 'must be a list of host names, such as ["games-table"]')
    cfg.names = tuple(n.strip().lower() for n in names)
    cfg.announce = f.get("server", "announce", None, "flag")
    from tableside.display.panels import PANELS

    cfg.display = f.get("display", "kind", cfg.display, "text")
    if cfg.display not in ("auto", "inky", "virtual"):
        raise f.error("display", "kind", f"must be auto, inky or virtual, not {cfg.display!r}")
    for key in ("panel", "model"):
        value = f.get("display", key, None, "text")
        if value is not None and value not in PANELS:
            raise f.error("display", key, f"{value!r} is not one of {', '.join(PANELS)}")
        setattr(cfg, key, value)
    for key in ("min_interval", "join_seconds"):
        setattr(cfg, key, float(f.between("display", key, getattr(cfg, key), "number", *RANGES["display", key])))
    cfg.simulate_refresh = f.get("display", "simulate_refresh", cfg.simulate_refresh, "flag")
    cfg.hold_time = float(f.between("buttons", "hold_time", cfg.hold_time, "number", *RANGES["buttons", "hold_time"]))
    pins = f.get("buttons", "pins", {}, "table")
    for label, pin in pins.items():
        if not isinstance(pin, int) or isinstance(pin, bool):
            raise f.error(
                "buttons", "pins", f"{label} must be a BCM GPIO number (a whole number 0-27), not {_shown(pin)}"
            )
    cfg.buttons = {**cfg.buttons, **{str(k).upper(): v for k, v in pins.items()}}
    cfg.buttons_given = frozenset(str(k).upper() for k in pins)
    try:
        _load_pi(cfg, f)
        _load_dice(cfg, f.section("dice"))
    except ValueError as exc:
        message = str(exc)
        named = re.match(r"\[(\w+)\] (\w+)", message)
        where = f.where(named.group(1), named.group(2)) if named else f"config file {path}"
        raise ConfigError(f"{where}: {message}") from None
    return cfg


# GPIO the Inky boards use (SPI0, its chip selects, DC/RESET/BUSY) and I2C for the EEPROM.
RESERVED_PINS = {
    2: "I2C SDA",
    3: "I2C SCL",
    8: "the Inky's SPI chip select",
    9: "SPI MISO",
    10: "SPI MOSI",
    11: "SPI clock",
    17: "the Inky's BUSY line",
    22: "the Inky's DC line",
    27: "the Inky's RESET line",
}
MAP_TARGETS = ("undo", "redo", "shutdown", "dice", "none", "join")


def _gesture_names() -> set[str]:
    labels = ("A", "B", "C", "D")
    pairs = {"+".join(sorted((a, b))) for a in labels for b in labels if a < b}
    return set(labels) | {f"hold {x}" for x in labels} | pairs


def _load_pi(cfg: Config, f: _File) -> None:
    """The [buttons], [led] and [system] keys of the Pi appliance, each checked with a message naming it."""
    unknown = sorted(set(cfg.buttons) - {"A", "B", "C", "D"})
    if unknown:
        raise ValueError(
            f"[buttons] pins: unknown {'button' if len(unknown) == 1 else 'buttons'} {', '.join(unknown)} "
            "(the buttons are A, B, C, D)"
        )
    for label, pin in cfg.buttons.items():
        if not 0 <= pin <= 27:
            raise ValueError(f"[buttons] pins: {label} = {pin} is not a BCM GPIO number (0-27)")
        if pin in RESERVED_PINS:
            raise ValueError(f"[buttons] pins: {label} = GPIO{pin} is {RESERVED_PINS[pin]}; pick another pin")
    if len(set(cfg.buttons.values())) != len(cfg.buttons):
        raise ValueError(f"[buttons] pins: two buttons share a pin ({cfg.buttons})")
    cfg.debounce_ms = float(
        f.between("buttons", "debounce_ms", cfg.debounce_ms, "number", *RANGES["buttons", "debounce_ms"])
    )
    if not 1 <= cfg.debounce_ms <= 100:
        raise ValueError(f"[buttons] debounce_ms must be 1-100, got {cfg.debounce_ms:g}")
    if not cfg.debounce_ms / 1000 < cfg.hold_time <= 10:
        raise ValueError(f"[buttons] hold_time must be longer than debounce_ms and at most 10 s, got {cfg.hold_time:g}")
    cfg.physical_dice = f.get("buttons", "physical_dice", cfg.physical_dice, "flag")
    factory = f.get("buttons", "pin_factory", None, "text")
    cfg.pin_factory = factory or None
    chord = f.get("buttons", "shutdown_chord", list(cfg.shutdown_chord), "list")
    if (
        not isinstance(chord, list)
        or len(chord) != 2
        or len(set(chord)) != 2
        or not set(map(str, chord)) <= {"A", "B", "C", "D"}
    ):
        raise ValueError(f"[buttons] shutdown_chord must name two different buttons, e.g. ['A', 'D'], not {chord!r}")
    cfg.shutdown_chord = tuple(sorted(map(str, chord)))
    mapping = f.get("buttons", "map", {}, "table")
    names = _gesture_names()
    for key, target in mapping.items():
        gesture = " ".join(str(key).split())
        gesture = gesture[:5].lower() + gesture[5:].upper() if gesture.lower().startswith("hold ") else gesture.upper()
        gesture = "+".join(sorted(gesture.split("+"))) if "+" in gesture else gesture
        if gesture not in names:
            raise ValueError(f"[buttons] map: {key!r} is not a gesture (use A, hold A, or A+D)")
        if not isinstance(target, str):
            raise ValueError(f'[buttons] map: {key} = {_shown(target)} must be text, such as "undo"')
        target = target.strip()
        if not (target in MAP_TARGETS or (target.replace("_", "").isalnum() and 0 < len(target) <= 40)):
            raise ValueError(
                f"[buttons] map: {key} = {target!r} is neither an action type nor one of {', '.join(MAP_TARGETS)}"
            )
        cfg.button_map[gesture] = target
    pin = f.get("led", "pin", None, "whole")
    if pin is not None and (not 0 <= pin <= 27 or pin in RESERVED_PINS or pin in cfg.buttons.values()):
        raise ValueError(f"[led] pin = {pin} must be a free BCM GPIO (0-27), not a button's or the Inky's")
    cfg.led_pin = pin
    cfg.led_pwm = f.get("led", "pwm", cfg.led_pwm, "flag")
    cfg.led_active_high = f.get("led", "active_high", cfg.led_active_high, "flag")
    command = f.get(
        "system",
        "shutdown_command",
        list(cfg.shutdown_command),
        "text" if isinstance(f.section("system").get("shutdown_command"), str) else "list",
    )
    if isinstance(command, str):
        command = command.split()
    if not command or not all(isinstance(c, str) and c for c in command) or len(command) > 20:
        raise ValueError('[system] shutdown_command must be a command, e.g. ["systemctl", "poweroff"]')
    cfg.shutdown_command = tuple(command)


DICE_KINDS = ("auto", "bluetooth", "simulated", "none")


def _load_dice(cfg: Config, dice: dict) -> None:
    """The [dice] keys, each checked with a message naming it."""
    if not isinstance(dice, dict):
        raise ValueError("[dice] must be a table")
    kind = dice.get("kind", cfg.dice)
    if kind not in DICE_KINDS:
        raise ValueError(f"[dice] kind must be one of {', '.join(DICE_KINDS)}, not {kind!r}")
    cfg.dice = kind
    adapter = dice.get("adapter")
    if adapter is not None and not (isinstance(adapter, str) and re.fullmatch(r"hci[0-9]{1,2}", adapter)):
        raise ValueError(f"[dice] adapter must name a Bluetooth adapter such as 'hci0', not {adapter!r}")
    cfg.dice_adapter = adapter
    simulated = dice.get("simulated")
    if simulated is not None:
        from tableside.device.smartdice.model import KINDS  # plain data; only when the key is there

        if not isinstance(simulated, list) or not 0 < len(simulated) <= 30 or not all(k in KINDS for k in simulated):
            raise ValueError(f"[dice] simulated must be a list of 1-30 kinds of die ({', '.join(KINDS)})")
        cfg.dice_simulated = tuple(simulated)
