"""The config examples say the defaults the code has (issue 38: ``systemd/tableside.toml`` said ``threads = 8``
long after the default became 2): every key the Pi's template comments out and every key of the README's
config block equals ``Config()``'s value, unless it is listed here as an example to change."""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

import pytest

from tableside.config import Config

REPO = Path(__file__).resolve().parent.parent

# section.key -> the default as the file would write it
DEFAULTS = {
    "server.host": lambda c: c.host,
    "server.port": lambda c: c.port,
    "server.names": lambda c: list(c.names),
    **{f"server.{k}": functools.partial(lambda key, c: getattr(c.limits, key), k) for k in vars(Config().limits)},
    "display.kind": lambda c: c.display,
    "display.min_interval": lambda c: c.min_interval,
    "display.join_seconds": lambda c: c.join_seconds,
    "buttons.pins": lambda c: c.buttons,
    "buttons.hold_time": lambda c: c.hold_time,
    "buttons.debounce_ms": lambda c: c.debounce_ms,
    "buttons.shutdown_chord": lambda c: list(c.shutdown_chord),
    "buttons.physical_dice": lambda c: c.physical_dice,
    "led.pwm": lambda c: c.led_pwm,
    "led.active_high": lambda c: c.led_active_high,
    "system.shutdown_command": lambda c: list(c.shutdown_command),
    "dice.kind": lambda c: c.dice,
}
# Shown as something to set, not as the default (each file's comment says so).
EXAMPLES = {
    "server.announce",  # the default is "on unless the table listens on loopback only", not a TOML value
    "server.data",  # the Pi's /var/lib/tableside; elsewhere the data folder order of the README
    "display.panel",
    "display.model",
    "buttons.pin_factory",
    "buttons.map",
    "led.pin",
    "dice.adapter",
}


def settings(text: str, commented: bool) -> list[tuple[str, object]]:
    """(section.key, value) of every setting; ``commented`` also reads ``# key = value`` lines."""
    out, section = [], None
    for line in text.splitlines():
        header = re.match(r"\s*\[(\w+)\]", line)
        if header:
            section = header.group(1)
            continue
        body = re.sub(r"^#\s?", "", line) if commented else line
        found = re.match(r"(\w+) = ", body)
        if section and found:
            value = tomllib.loads(body)[found.group(1)]  # the value alone; the trailing '# ...' is a comment
            out.append((f"{section}.{found.group(1)}", value))
    return out


def readme_block() -> str:
    text = (REPO / "README.md").read_text()
    return re.search(r"## Config file.*?```toml\n(.*?)```", text, re.S).group(1)


@pytest.mark.parametrize(
    "name, text, commented",
    [
        ("systemd/tableside.toml", (REPO / "systemd" / "tableside.toml").read_text(), True),
        ("README.md", readme_block(), False),
    ],
)
def test_every_documented_default_is_the_configs(name, text, commented):
    defaults = Config()
    found = settings(text, commented)
    assert len(found) > 8, found
    for key, value in found:
        if key in EXAMPLES:
            continue
        assert key in DEFAULTS, f"{name}: {key} is neither a default checked here nor a listed example"
        assert value == DEFAULTS[key](defaults), (
            f"{name}: {key} = {value!r}, but the default is {DEFAULTS[key](defaults)!r}"
        )


def test_the_check_finds_a_wrong_default():
    wrong = "[server]\n# threads = 8               # each phone with the panel open holds one\n"
    assert settings(wrong, True) == [("server.threads", 8)]
    assert DEFAULTS["server.threads"](Config()) != 8
