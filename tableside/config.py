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
    except (TypeError, ValueError) as exc:
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
