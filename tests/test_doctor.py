"""``tableside doctor`` on a fake Pi: each problem a Pi user meets is named with its fix."""

from __future__ import annotations

import socket

import pytest

from tableside.config import load_config
from tableside.doctor import check_groups, check_lgpio, check_port, has_overlay, run_checks, run_doctor
from tableside.faults import Faults
from tests.test_pi_install import CONFIG_TXT, fake_pi


def texts(checks):
    return {c.text: (c.ok, c.fix) for c in checks}


def find(checks, words):
    found = [c for c in checks if words in c.text]
    assert found, f"no check mentions {words!r}: {[c.text for c in checks]}"
    return found[0]


@pytest.fixture
def pi(tmp_path):
    return fake_pi(tmp_path / "pi")


def test_a_fresh_pi_is_told_to_turn_on_spi_i2c_and_the_overlay(pi, tmp_path):
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=False)
    assert find(checks, "Raspberry Pi 4 Model B").ok
    spi, i2c = find(checks, "SPI is off"), find(checks, "I2C is off")
    assert not spi.ok and "raspi-config nonint do_spi 0" in spi.fix
    assert not i2c.ok and "do_i2c 0" in i2c.fix
    gpio8 = find(checks, "GPIO8 is held")
    assert not gpio8.ok and "spi0-0cs" in gpio8.text and "reboot" in gpio8.fix
    assert find(checks, "data folder").ok


def test_an_overlay_that_is_not_active_yet_means_a_reboot_is_pending(pi, tmp_path):
    config = pi / "boot/firmware/config.txt"
    config.write_text(CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on") + "dtoverlay=spi0-0cs\n")
    (pi / "dev").mkdir()
    for device in ("spidev0.0", "spidev0.1", "i2c-1"):
        (pi / "dev" / device).touch()
    pending = find(run_checks(str(tmp_path / "data"), root=pi, hardware=False), "reboot is pending")
    assert not pending.ok and pending.fix == "sudo reboot"
    (pi / "dev/spidev0.1").unlink()  # after the reboot spi0-0cs leaves only spidev0.0
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=False)
    assert find(checks, "GPIO8 is free").ok and find(checks, "SPI is on").ok and find(checks, "I2C is on").ok


def test_the_overlay_must_apply_to_every_board():
    assert has_overlay("dtoverlay=spi0-0cs\n", "spi0-0cs")
    assert has_overlay("[pi4]\nx=1\n[all]\ndtoverlay=spi0-0cs\n", "spi0-0cs")
    assert not has_overlay("[pi4]\ndtoverlay=spi0-0cs\n", "spi0-0cs")
    assert not has_overlay("#dtoverlay=spi0-0cs\n", "spi0-0cs")
    assert not has_overlay("dtoverlay=spi0-0cs-other\n", "spi0-0cs")


def test_the_last_display_and_button_errors_are_reported_with_their_fix(pi, tmp_path):
    faults = Faults(tmp_path / "data")
    (tmp_path / "data").mkdir()
    faults.report("display", SystemExit("Woah there, some pins we need are in use!"), fix="reboot once")
    faults.report("buttons", KeyError("score"), fix="report it")
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=False)
    display = find(checks, "last display error")
    assert not display.ok and "SystemExit: Woah there" in display.text and display.fix == "reboot once"
    assert not find(checks, "last buttons error").ok


def test_missing_lgpio_is_a_fix_naming_lgpio(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    check = check_lgpio("Raspberry Pi 5 Model B Rev 1.0")
    assert not check.ok and "lgpio" in check.text and "pip install lgpio" in check.fix


def test_a_port_held_by_another_program_is_named():
    with socket.socket() as other:
        other.bind(("0.0.0.0", 0))
        other.listen()
        port = other.getsockname()[1]
        cfg = load_config(None)
        cfg.port = port
        check = check_port(cfg)
    assert not check.ok and f"port {port} is used by another program" in check.text
    assert f"sport = :{port}" in check.fix
    cfg.port = port
    assert check_port(cfg).ok  # freed


def test_groups_check_names_the_missing_groups():
    check = check_groups()
    assert check.ok or "group" in check.text


def test_doctor_prints_each_fix_and_exits_1(pi, tmp_path, capsys):
    code = run_doctor(str(tmp_path / "data"), root=pi)
    out = capsys.readouterr().out
    assert code == 1 and "FIX  SPI is off" in out and "     -> sudo raspi-config nonint do_spi 0" in out
    assert out.strip().splitlines()[-1].endswith("thing(s) to fix")
