"""The config file edited from the phone's Settings page (issue #32): its comments and layout kept.

The file is edited with tomlkit (it round-trips comments, order and spacing), then the edited text is
checked by ``config.config_from_text``, the very checks ``tableside serve`` runs on the file, so a wrong
value is refused with the file's own message (file, line, fix) and nothing is written. A good edit is
written whole or not at all (a temporary file beside it, fsync, rename), with the file's mode kept.
The join code is not a key of the file: it lives in the data folder (``config.join_code``) and is checked
by ``config.check_join_code``. Every change takes effect at the next start: the page says so and offers
the restart when systemd will bring the service back.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from tableside.config import MAX_CONFIG_BYTES, ConfigError, check_join_code, config_from_text

# The keys the page edits, as "section.key", with what JSON value each takes.
EDITABLE: dict[str, str] = {
    "display.model": "text",  # a board without an EEPROM to detect; "" removes the key (detect)
    "display.min_interval": "number",  # seconds the panel rests between refreshes
    "buttons.pins": "pins",
    "led.pin": "whole",  # null removes the key (no LED)
    "server.names": "names",
    "dice.kind": "text",  # none switches the smart dice off
}
JOIN_CODE = "join_code"
MAX_TEXT = 64  # every text value the page may send
MAX_NAMES = 16


class SettingsError(ValueError):
    """A change refused, in the config file's own words; nothing was written."""


def read_text(path: str) -> str:
    with open(path, "rb") as handle:
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise SettingsError(f"config file {path} is larger than {MAX_CONFIG_BYTES // 1024 // 1024} MB")
    return data.decode()


def current(path: str) -> dict[str, Any]:
    """The editable keys as the file sets them now (None: not set, the default applies)."""
    import tomllib

    raw = tomllib.loads(read_text(path))
    out: dict[str, Any] = {}
    for name in EDITABLE:
        section, key = name.split(".")
        value = raw.get(section, {}).get(key) if isinstance(raw.get(section), dict) else None
        out[name] = value
    return out


def _shape(name: str, value: Any) -> Any:
    """A JSON value in the form the file takes, refused in words when it is not one (sizes bounded)."""
    kind = EDITABLE[name]
    section, key = name.split(".")
    if value is None or value == "":
        return None
    if kind == "text" and isinstance(value, str) and len(value) <= MAX_TEXT:
        return value.strip()
    if kind == "whole" and isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**6:
        return value
    if kind == "number" and isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 10**9:
        return value
    if kind == "pins" and isinstance(value, dict) and len(value) <= 4:
        pins = {str(k)[:2]: v for k, v in value.items()}
        if all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**6 for v in pins.values()):
            return pins
        raise SettingsError(f"[{section}] {key}: each pin must be a BCM GPIO number (a whole number 0-27)")
    names = kind == "names" and isinstance(value, list) and len(value) <= MAX_NAMES
    if names and all(isinstance(n, str) and len(n) <= 253 for n in value):
        return [n for n in value if n.strip()] or None
    raise SettingsError(f"[{section}] {key}: not a value it takes ({str(value)[:60]!r})")


def edited(text: str, changes: dict[str, Any]) -> str:
    """``text`` with ``changes`` (``{"section.key": value}``; None removes the key) made by tomlkit."""
    import tomlkit

    doc = tomlkit.parse(text)
    for name, value in changes.items():
        section, key = name.split(".")
        if section not in doc:
            if value is None:
                continue
            doc[section] = tomlkit.table()
        table = doc[section]
        if value is None:
            if key in table:
                del table[key]
            continue
        if isinstance(value, dict):
            inline = tomlkit.inline_table()
            inline.update(value)
            value = inline
        table[key] = value
    return tomlkit.dumps(doc)


def write_atomically(path: Path, text: str, mode: int) -> None:
    """Whole or not at all: a temporary file in the same folder, fsync, the file's mode, rename, fsync the folder."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def apply(path: str, folder: Path, changes: dict[str, Any], board: tuple[Any, Any] | None = None) -> list[str]:
    """Check every change with the config file's own checks, then write them; returns the keys changed.
    A refusal raises SettingsError (or ConfigError, the loader's message) and changes nothing. ``board``
    (the fitted board's panel and driver) checks the pins against that board's own, as doctor does."""
    if not isinstance(changes, dict) or not changes or len(changes) > len(EDITABLE) + 1:
        raise SettingsError(f"send the changes as {{key: value}}, keys among {', '.join([*EDITABLE, JOIN_CODE])}")
    unknown = sorted(k for k in changes if k not in EDITABLE and k != JOIN_CODE)
    if unknown:
        raise SettingsError(
            f"{str(unknown[0])[:40]!r} is not a setting the phone edits; these are: {', '.join([*EDITABLE, JOIN_CODE])}"
        )
    code = _checked_code(changes[JOIN_CODE]) if JOIN_CODE in changes else None
    shaped = {name: _shape(name, value) for name, value in changes.items() if name != JOIN_CODE}
    file = Path(path)
    before = read_text(path)
    after = edited(before, shaped) if shaped else before
    cfg = config_from_text(path, after)  # raises ConfigError with the loader's message; nothing is written
    board_clash(cfg, board if "display.model" not in shaped else None)
    written = []
    if after != before:
        write_atomically(file, after, stat.S_IMODE(file.stat().st_mode))
        written = [n for n in shaped if _value_of(before, n) != _value_of(after, n)]
    if code is not None:
        write_atomically(folder / JOIN_CODE, code + "\n", 0o600)
        written.append(JOIN_CODE)
    return written


def board_clash(cfg: Any, board: tuple[Any, Any] | None) -> None:
    """The pins against the board's own driver pins (the 13.3"'s chip selects 26 and 16), with doctor's check
    (``resolve_pins``): the fitted board's, or else the one the config names (a new model: no driver yet)."""
    from tableside.device.pins import PinConflict, resolve_pins
    from tableside.display.panels import get_panel

    if board is None and cfg.model:
        board = (get_panel(cfg.model), None)
    if board is None:
        return
    try:
        resolve_pins(cfg, board[0], board[1])
    except PinConflict as exc:
        raise SettingsError(f"{exc.message} (fix: {exc.fix})") from None


def _value_of(text: str, name: str) -> Any:
    import tomllib

    section, key = name.split(".")
    table = tomllib.loads(text).get(section, {})
    return table.get(key) if isinstance(table, dict) else None


__all__ = ["EDITABLE", "ConfigError", "SettingsError", "apply", "current", "edited", "write_atomically"]


class TableSettings:
    """What the phone's Settings routes (webui.settings) talk to: the config file, the data folder and the
    owner PIN of one running table, and how it restarts (None: not under systemd, said instead)."""

    def __init__(self, config: str | None, folder: Path, restart: Any = None, board: Any = None) -> None:
        from tableside.webui.auth import JoinGuard

        self.config, self.folder, self.restart = config, folder, restart
        # () -> (panel, driver) of the display the table drives, or None (not up yet): its pins are checked
        self.board: Any = board if board is not None else (lambda: None)
        self.guard = JoinGuard(what="owner PIN")  # wrong owner PINs: a throttle apart from the join codes'

    def values(self) -> dict[str, Any]:
        from tableside.config import join_code
        from tableside.display.panels import PANELS

        return {
            "models": list(PANELS),
            "config": self.config,
            "values": self._current(),
            "join_code": join_code(self.folder),
            "join_code_from_environment": "TABLESIDE_JOIN_CODE" in os.environ,
            "can_restart": self.restart is not None,
        }

    def _current(self) -> dict[str, Any]:
        """The file's editable keys; a file that cannot be read now shows the defaults (a save then says why)."""
        if not self.config:
            return {}
        try:
            return current(self.config)
        except (OSError, ValueError):
            return {}

    def apply(self, changes: Any) -> list[str]:
        """The changes written, or ``webui.settings.Refused`` in the config file's own words (nothing written)."""
        from tableside.oserror import describe_os_error
        from tableside.webui.settings import Refused

        try:
            return self._apply(changes)
        except (ConfigError, SettingsError) as exc:
            raise Refused(f"{exc}. Nothing was changed") from None
        except (OSError, UnicodeDecodeError) as exc:
            why = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
            raise Refused(f"the config file could not be read or written ({why}); nothing was changed", 503) from None

    def _apply(self, changes: Any) -> list[str]:
        if not isinstance(changes, dict):
            raise SettingsError('send the changes as {"changes": {key: value}}')
        if not self.config:
            if set(changes) - {JOIN_CODE}:
                raise SettingsError(
                    "this table was started without a config file: start it with --config FILE "
                    "(the Pi service uses /etc/tableside/tableside.toml) to edit its settings here"
                )
            return apply_join_code(self.folder, changes)
        return apply(self.config, self.folder, changes, self.board())

    def pin_line(self) -> str | None:
        from tableside.webui.owner import stored

        return stored(self.folder)

    def pin_right(self, given: str) -> bool:
        from tableside.webui.owner import pin_right

        return pin_right(self.folder, given)


def apply_join_code(folder: Path, changes: dict[str, Any]) -> list[str]:
    """Only the join code, for a table without a config file."""
    write_atomically(folder / JOIN_CODE, _checked_code(changes.get(JOIN_CODE)) + "\n", 0o600)
    return [JOIN_CODE]


def _checked_code(given: Any) -> str:
    """A new join code, checked as the join code file is at start (config.check_join_code)."""
    if "TABLESIDE_JOIN_CODE" in os.environ:
        raise SettingsError("the join code is set by $TABLESIDE_JOIN_CODE for this service: change it there")
    if not isinstance(given, str) or len(given) > 200:
        raise SettingsError("the join code must be text of 6-32 letters and digits")
    return check_join_code(given, "the join code")
