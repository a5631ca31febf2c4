"""Every setting bounded (issue 33): ``channel_timeout = nan`` failed naming no key, ``guest_idle = nan``
turned the guest idle close off, ``header_timeout = inf``, ``max_request_body_size = 10**12``,
``max_request_header_size = 10`` (every request then 431) and ``connection_limit = 1`` (the server never
answers) were accepted, ``--config /dev/zero`` read for ever and a 33-64 character join code was taken
though the e-paper's join screen shows at most 32. Table-driven from the config's own key list, so a
new key is covered the day it is added."""

from __future__ import annotations

import os

import pytest

from tableside import config
from tableside.config import KNOWN_KEYS, RANGES, ConfigError, load_config

HOSTILE = {"nan": "nan", "infinity": "inf", "-infinity": "-inf", "huge": str(10**18), "negative": "-1"}
EVERY_KEY = [(section, key) for section, keys in KNOWN_KEYS.items() for key in keys]


def refusal(tmp_path, text: str) -> str:
    path = tmp_path / "tableside.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(str(path))
    return str(info.value)


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize(("section", "key"), EVERY_KEY, ids=[f"{s}.{k}" for s, k in EVERY_KEY])
def test_every_key_refuses_nan_infinity_huge_and_negative_naming_key_and_line(tmp_path, section, key, name):
    message = refusal(tmp_path, f"# a table's settings\n[{section}]\n{key} = {HOSTILE[name]}\n")
    assert f"line 3: [{section}] {key} " in message, message


@pytest.mark.parametrize(("section", "key"), sorted(RANGES), ids=[f"{s}.{k}" for s, k in sorted(RANGES)])
def test_each_range_takes_its_ends_and_refuses_just_outside(tmp_path, section, key):
    low, high = RANGES[section, key]
    whole = float(low).is_integer() and float(high).is_integer() and key not in ("hold_time",)
    for value in (low, high):
        path = tmp_path / "ok.toml"
        path.write_text(f"[{section}]\n{key} = {int(value) if whole else float(value)}\n")
        if (section, key) == ("buttons", "hold_time") and value < 0.02:
            continue  # hold_time must also be longer than debounce_ms (10 ms by default)
        load_config(str(path))
    step = 1 if whole else 0.001
    assert f"[{section}] {key} must be" in refusal(tmp_path, f"[{section}]\n{key} = {high + step}\n")


def test_every_numeric_limit_has_a_range():
    assert {("server", k) for k in config.LIMIT_KEYS} <= set(RANGES)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("max_request_header_size = 10", "must be 4096-1048576, not 10"),
        ("connection_limit = 1", "must be 16-10000, not 1"),
        ("channel_timeout = nan", "[server] channel_timeout must be a finite number"),
        ("guest_idle = nan", "[server] guest_idle must be a finite number"),
        ("header_timeout = inf", "[server] header_timeout must be a finite number"),
        ("max_request_body_size = 1000000000000", "must be 4096-16777216, not 1000000000000"),
    ],
)
def test_the_settings_of_the_issue_are_refused_in_words(tmp_path, text, words):
    assert words in refusal(tmp_path, f"[server]\n{text}\n")


def test_a_config_file_over_1_mb_is_refused(tmp_path):
    message = refusal(tmp_path, "# padding\n" * 110_000)
    assert "larger than 1 MB" in message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_without_reading_for_ever():
    with pytest.raises(ConfigError, match="larger than 1 MB"):
        load_config("/dev/zero")


def test_a_join_code_longer_than_the_join_screen_shows_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "A" * 32)
    assert config.join_code(tmp_path) == "A" * 32
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "A" * 33)
    with pytest.raises(ConfigError, match="33 characters; at most 32"):
        config.join_code(tmp_path)


def test_the_readme_says_every_range_the_config_checks():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for (_section, key), (low, high) in RANGES.items():
        shown = f"{config._num(low)}-{config._num(high)}"
        assert re.search(rf"`{key}`( and `\w+`)? {re.escape(shown)}", readme) or re.search(
            rf"`{key}`[^`]*?{re.escape(shown)}", readme
        ), f"README does not give {key}'s range {shown}"
