"""Settings from the phone (#32), over HTTP against a real ``tableside serve --simulate --config FILE``: without the
owner PIN a phone is refused in words (403); wrong PINs are throttled; a wrong button pin is refused with exactly
the message the config loader gives for the same file; a change keeps every comment of the file byte for byte."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from tableside.webui.owner import new_pin

from tableside.config import ConfigError, load_config
from tableside.settings import edited
from tests.live import CODE, TABLESIDE
from tests.test_serve_process import Server

pytestmark = pytest.mark.slow
TEMPLATE = (Path(__file__).resolve().parents[1] / "systemd" / "tableside.toml").read_text()


def started(folder: Path, mode: int = 0o644) -> Server:
    """A serve with the documented config file (systemd/tableside.toml) and an owner PIN made beforehand."""
    config = folder / "tableside.toml"
    config.write_text(TEMPLATE)
    config.chmod(mode)
    s = Server(folder / "data")
    s.extra = ["--config", str(config)]
    s.pin = new_pin(folder / "data")
    s.config = config
    return s.start()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    s = started(tmp_path_factory.mktemp("settings"))
    yield s
    s.kill(signal.SIGTERM)


def ask(server, method, path, body=None, cookie=None, client_ip=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    headers = {"Authorization": f"Bearer {CODE}", "Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    data = json.loads(r.read() or b"null")
    cookie_set = r.getheader("Set-Cookie")
    conn.close()
    return r.status, data, cookie_set


def owner_cookie(server) -> str:
    status, data, cookie = ask(server, "POST", "/api/settings/owner", {"pin": server.pin})
    assert status == 200, data
    return cookie.split(";")[0]


def test_without_the_owner_pin_settings_are_refused_in_words(table):
    status, data, _ = ask(table, "GET", "/api/settings")
    assert status == 403 and "owner PIN" in data["error"] and "tableside owner-pin" in data["error"]
    status, data, _ = ask(table, "POST", "/api/settings", {"changes": {"display.min_interval": 30}})
    assert status == 403 and "only the table's owner" in data["error"]
    assert table.config.read_text() == TEMPLATE
    status, data, _ = ask(table, "GET", "/api/settings", cookie="tableside_owner=o1.00.forged")
    assert status == 403


def test_wrong_pins_are_throttled_and_the_right_one_opens(table):
    waits = []
    for _ in range(7):
        status, data, _ = ask(table, "POST", "/api/settings/owner", {"pin": "00000000"})
        waits.append(status)
        if status == 429:
            assert "too many wrong owner PINs" in data["error"]
            break
        assert status == 403 and "not right" in data["error"]
    assert waits[-1] == 429  # after a few typos even the right PIN waits: no PIN by brute force
    status, _, _ = ask(table, "POST", "/api/settings/owner", {"pin": table.pin})
    assert status == 429


@pytest.fixture
def fresh(tmp_path):
    s = started(tmp_path, 0o640)
    yield s
    if s.proc.poll() is None:
        s.kill(signal.SIGTERM)


@pytest.mark.parametrize(
    "pins",
    [{"A": 17, "B": 6, "C": 16, "D": 24}, {"A": 5, "B": 6, "C": 40, "D": 24}, {"A": 5, "B": 5, "C": 16, "D": 24}],
    ids=["the-inky-busy-line", "not-a-gpio", "two-buttons-on-one-pin"],
)
def test_a_wrong_button_pin_is_refused_with_the_config_files_message(fresh, pins, tmp_path):
    cookie = owner_cookie(fresh)
    status, data, _ = ask(fresh, "POST", "/api/settings", {"changes": {"buttons.pins": pins}}, cookie=cookie)
    assert status == 422
    # The same edit written by hand and loaded as serve loads it: the very same words, line number and all.
    by_hand = tmp_path / "by-hand.toml"
    by_hand.write_text(edited(TEMPLATE, {"buttons.pins": pins}))
    with pytest.raises(ConfigError) as loader:
        load_config(str(by_hand))
    assert data["error"] == str(loader.value).replace(str(by_hand), str(fresh.config)) + ". Nothing was changed"
    assert fresh.config.read_text() == TEMPLATE  # nothing written


def test_a_change_keeps_every_comment_and_says_a_restart_is_needed(fresh):
    cookie = owner_cookie(fresh)
    status, data, _ = ask(
        fresh,
        "POST",
        "/api/settings",
        {"changes": {"display.min_interval": 30, "led.pin": 12, "dice.kind": "none"}},
        cookie=cookie,
    )
    assert status == 200, data
    assert sorted(data["written"]) == ["dice.kind", "display.min_interval", "led.pin"]
    assert data["restart_needed"] and not data["can_restart"] and "stop 'tableside serve'" in data["said"]
    after = fresh.config.read_text()
    added = [line for line in after.splitlines() if line not in TEMPLATE.splitlines()]
    assert added == ["min_interval = 30", "pin = 12", 'kind = "none"']
    assert [line for line in after.splitlines() if line not in added] == TEMPLATE.splitlines()  # byte for byte
    assert oct(fresh.config.stat().st_mode & 0o777) == "0o640"  # the file's mode kept
    cfg = load_config(str(fresh.config))
    assert (cfg.min_interval, cfg.led_pin, cfg.dice) == (30.0, 12, "none")
    status, got, _ = ask(fresh, "GET", "/api/settings", cookie=cookie)
    assert got["values"]["led.pin"] == 12 and got["values"]["display.min_interval"] == 30


def test_unknown_keys_and_oversized_values_change_nothing(fresh):
    cookie = owner_cookie(fresh)
    for changes in ({"system.shutdown_command": ["rm", "-rf", "/"]}, {"server.names": ["x"] * 100}, "nope"):
        status, data, _ = ask(fresh, "POST", "/api/settings", {"changes": changes}, cookie=cookie)
        assert status == 422 and "Nothing was changed" in data["error"], data
    assert fresh.config.read_text() == TEMPLATE


def test_restart_under_systemd_exits_for_restart_on_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("INVOCATION_ID", "0" * 32)  # what systemd sets for a service's process
    s = started(tmp_path)
    cookie = owner_cookie(s)
    status, data, _ = ask(s, "POST", "/api/settings", {"changes": {"display.min_interval": 20}}, cookie=cookie)
    assert data["can_restart"] and "Restart now" in data["said"]
    status, data, _ = ask(s, "POST", "/api/settings/restart", cookie=cookie)
    assert status == 202
    code = s.proc.wait(timeout=60)
    out = s.proc.stdout.read()
    s.proc.stdout.close()
    assert code == 75, out  # a failure to systemd: Restart=on-failure starts the service again
    assert "restarting, as the Settings page asked" in out


def test_owner_pin_command_makes_a_new_pin_and_keeps_only_its_hash(tmp_path):
    out = subprocess.run(
        [TABLESIDE, "owner-pin", "--data", str(tmp_path)], capture_output=True, text=True, check=True, env=os.environ
    ).stdout
    pin = out.split("Owner PIN: ")[1].split()[0]
    kept = (tmp_path / "owner_pin").read_text()
    assert len(pin) == 8 and pin not in kept and oct((tmp_path / "owner_pin").stat().st_mode & 0o777) == "0o600"


def test_the_join_code_is_checked_as_at_start_and_kept_private(tmp_path, monkeypatch):
    from tableside.webui.settings import Refused

    from tableside.config import check_join_code
    from tableside.settings import TableSettings

    monkeypatch.delenv("TABLESIDE_JOIN_CODE", raising=False)
    config = tmp_path / "tableside.toml"
    config.write_text(TEMPLATE)
    place = TableSettings(str(config), tmp_path)
    with pytest.raises(ConfigError) as start:
        check_join_code("AB12", "the join code")
    with pytest.raises(Refused) as refused:
        place.apply({"join_code": "AB12"})
    assert refused.value.message == f"{start.value}. Nothing was changed"
    assert not (tmp_path / "join_code").exists()
    assert place.apply({"join_code": " TABLE7 "}) == ["join_code"]
    assert (tmp_path / "join_code").read_text() == "TABLE7\n"
    assert oct((tmp_path / "join_code").stat().st_mode & 0o777) == "0o600"
    assert config.read_text() == TEMPLATE
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "PLAY42")
    with pytest.raises(Refused, match=r"set by \$TABLESIDE_JOIN_CODE"):
        place.apply({"join_code": "OTHER99"})


def test_pins_are_checked_against_the_fitted_boards_own_driver_pins(tmp_path):
    """Doctor's check (``resolve_pins``) on a save: C = 16 passes the loader, but on the 13.3" Impression GPIO16 is
    its second SPI chip select (inky's el133uf1 ``CS1_PIN``); on a wHAT it is a free pin."""
    from tableside.display.panels import PANELS
    from tableside.webui.settings import Refused

    from tableside.settings import TableSettings

    config = tmp_path / "tableside.toml"
    config.write_text(TEMPLATE)
    fitted = {"board": (PANELS["spectra-13.3"], None)}
    settings = TableSettings(str(config), tmp_path, board=lambda: fitted["board"])
    pins = {"A": 5, "B": 6, "C": 16, "D": 24}
    with pytest.raises(Refused) as refused:
        settings.apply({"buttons.pins": pins})
    name = PANELS["spectra-13.3"].name
    assert str(refused.value) == (
        f"[buttons] pins: C = GPIO16 is also the {name}'s second SPI chip select; a button there would stop the"
        " display (the pin cannot be both) (fix: set [buttons] pins C = 25). Nothing was changed"
    )
    assert config.read_text() == TEMPLATE  # nothing written
    with pytest.raises(Refused, match=r"\[led\] pin = GPIO26 is also .*SPI chip select"):
        settings.apply({"led.pin": 26})
    assert config.read_text() == TEMPLATE
    fitted["board"] = (PANELS["what-red"], None)
    assert settings.apply({"buttons.pins": pins}) == ["buttons.pins"]  # a free pin on a wHAT: written
    with pytest.raises(Refused, match="C = GPIO16 is also"):  # naming the 13.3" as the model checks its pins
        settings.apply({"display.model": "spectra-13.3"})


def test_a_served_13_3_refuses_button_c_on_its_chip_select_over_http(tmp_path):
    """The running table hands the Settings page its display (``Hardware.fitted_board``): here the simulated 13.3"."""
    config = tmp_path / "tableside.toml"
    config.write_text(TEMPLATE.replace('# panel = "what-red"', 'panel = "spectra-13.3"', 1))
    s = Server(tmp_path / "data")
    s.extra, s.pin, s.config = ["--config", str(config)], new_pin(tmp_path / "data"), config
    s.start()
    try:
        for _ in range(100):  # the display opens on the hardware thread, just after the first answer
            hw = ask(s, "GET", "/api/hardware")[1]
            if hw.get("display") != "starting":
                break
            time.sleep(0.1)
        assert "13.3" in json.dumps(hw), hw
        cookie = owner_cookie(s)
        pins = {"A": 5, "B": 6, "C": 16, "D": 24}
        status, data, _ = ask(s, "POST", "/api/settings", {"changes": {"buttons.pins": pins}}, cookie=cookie)
        assert status == 422 and "C = GPIO16 is also" in data["error"] and "second SPI chip select" in data["error"]
        assert "set [buttons] pins C = 25" in data["error"] and config.read_text().count("spectra-13.3") == 1
        status, data, _ = ask(
            s, "POST", "/api/settings", {"changes": {"buttons.pins": {**pins, "C": 25}}}, cookie=cookie
        )
        assert status == 200, data
    finally:
        s.kill(signal.SIGTERM)
