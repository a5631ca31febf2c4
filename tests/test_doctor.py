"""``tableside doctor`` on a fake Pi: each problem a Pi user meets is named with its fix."""

from __future__ import annotations

import os
import pwd
import random
import socket
import subprocess
import sys

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
    assert not spi.ok and "raspi-config nonint do_spi 0" in spi.fix and "tableside doctor" not in spi.fix
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
    fixes = sum(line.startswith("FIX") for line in out.splitlines())
    assert out.strip().splitlines()[-1] == (f"{fixes} things to fix" if fixes != 1 else "1 thing to fix")


def test_spi_and_i2c_turned_on_but_not_active_mean_a_reboot_not_raspi_config(pi, tmp_path):
    """Issue 19: a config.txt that already enables SPI was told to run raspi-config again."""
    (pi / "boot/firmware/config.txt").write_text(
        CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on").replace("#dtparam=i2c_arm=on", "dtparam=i2c_arm=on")
    )
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=False)
    for words in ("SPI is turned on", "I2C is turned on"):
        check = find(checks, words)
        assert not check.ok and "reboot is pending" in check.text and check.fix == "sudo reboot"


def quiet_port() -> int:
    """A free port below Linux's ephemeral range (32768-60999): a port the kernel hands out for bind(0) can be
    taken a moment later as the source port of another worker's connection, and doctor would rightly call it used
    (CI, 2026-12-07)."""
    for port in random.Random(os.getpid()).sample(range(20000, 32000), 200):
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port between 20000 and 32000")


def test_off_a_pi_the_doctor_checks_the_folder_the_port_and_the_network_and_exits_0(tmp_path, capsys):
    laptop = tmp_path / "laptop"
    laptop.mkdir()
    port = quiet_port()
    (tmp_path / "t.toml").write_text(f"[server]\nport = {port}\n")
    code = run_doctor(str(tmp_path / "data"), str(tmp_path / "t.toml"), root=laptop)
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[0].startswith("ok   tableside doctor: this is not a Raspberry Pi") and "FIX" not in out
    assert f"ok   port {port} is free" in out and "no firewall found" in out
    assert not (tmp_path / "data").exists()


def unit_text(workdir: str | None, config: str = "/etc/tableside/tableside.toml", user: str = "pi") -> str:
    lines = ["[Service]", f"User={user}", f"ExecStart=/opt/tableside/venv/bin/tableside serve --config {config}"]
    if workdir:
        lines += [f"WorkingDirectory={workdir}", f"Environment=LG_WD={workdir}"]
    return "\n".join(lines) + "\n"


def install_unit(pi, text):
    (pi / "etc/tableside").mkdir(parents=True, exist_ok=True)
    (pi / "etc/tableside/tableside.toml").touch()
    path = pi / "etc/systemd/system/tableside.service"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_service_config_gives_the_port_and_the_data_folder(pi, tmp_path):
    data = tmp_path / "served"
    data.mkdir()
    (pi / "etc/tableside").mkdir(parents=True)
    (pi / "etc/tableside/other.toml").write_text(f'[server]\nport = 8193\ndata = "{data}"\n')
    install_unit(pi, unit_text("/var/lib/tableside", config="/etc/tableside/other.toml"))
    checks = run_checks(None, root=pi, hardware=False)
    assert find(checks, "other.toml loads (port 8193)").ok
    assert find(checks, "port 8193").ok and not [c for c in checks if "port 8080" in c.text]
    assert find(checks, f"data folder {data}").text.startswith(f"data folder {data} ")


def test_a_unit_without_a_working_directory_is_a_fix_that_is_not_the_doctor(pi, tmp_path):
    install_unit(pi, unit_text(None))
    check = find(run_checks(str(tmp_path), root=pi, hardware=False), "sets no WorkingDirectory")
    assert not check.ok and "lgpio" in check.text and "install.sh" in check.fix and "doctor" not in check.fix
    install_unit(pi, unit_text("/var/lib/tableside"))
    assert find(run_checks(str(tmp_path), root=pi, hardware=False), "the service runs from /var/lib/tableside").ok


def test_a_damaged_database_is_found_read_only_and_nothing_is_created(pi, tmp_path):
    import sqlite3

    from tests.test_pi_install import snapshot

    data = tmp_path / "data"
    data.mkdir()
    db = data / "tableside.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,) for _ in range(200)])
    conn.close()
    assert find(run_checks(str(data), root=pi, hardware=False), "passes SQLite's quick check").ok
    raw = bytearray(db.read_bytes())
    raw[4096 * 2 : 4096 * 2 + 200] = b"\xff" * 200  # a torn page
    db.write_bytes(bytes(raw))
    before = snapshot(tmp_path)
    check = find(run_checks(str(data), root=pi, hardware=False), "is damaged")
    assert not check.ok and str(db) in check.text and "move the file away" in check.fix
    assert snapshot(tmp_path) == before  # looked at, never changed or added to
    missing = tmp_path / "never-made"
    assert find(run_checks(str(missing), root=pi, hardware=False), "does not exist yet").ok
    assert not missing.exists()


def test_an_older_servers_advice_to_run_the_doctor_is_not_repeated_by_the_doctor(pi, tmp_path):
    faults = Faults(tmp_path / "data")
    (tmp_path / "data").mkdir()
    faults.report("pins", FileNotFoundError("[Errno 2] No such file: '.lgd-nfy3'"), fix="run 'tableside doctor'")
    check = find(run_checks(str(tmp_path / "data"), root=pi, hardware=False), "last pins error")
    assert not check.ok and "doctor" not in check.fix and check.fix


def test_a_missing_gpio_chip_is_not_called_a_group_problem(tmp_path):
    from tableside.device.pins import gpiochip_problem

    dev = tmp_path / "dev"
    dev.mkdir()
    assert "no GPIO chip" in gpiochip_problem(dev)
    (dev / "gpiochip0").touch()
    assert gpiochip_problem(dev) is None  # (as root every chip is openable; the group case needs a user)


def test_the_live_checks_run_from_the_units_working_directory_with_its_environment(pi, tmp_path):
    """Issue 19: the doctor ran from the home folder and saw nothing wrong while the service, started
    from "/", could not create lgpio's pipe."""
    me = pwd.getpwuid(os.getuid()).pw_name
    install_unit(pi, unit_text(None, user=me))  # systemd's default working directory: /
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=True)
    assert find(checks, "its working directory /").text.endswith("its working directory /")
    owned = tmp_path / "owned"
    owned.mkdir()
    install_unit(pi, unit_text(str(owned), user=me))
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=True)
    assert find(checks, f"user {me} can write its working directory {owned}").ok


def _nobody_can_run_python() -> bool:
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import tableside"], user="nobody", extra_groups=[], capture_output=True, cwd="/"
        )
    except OSError:
        return False
    return done.returncode == 0


@pytest.mark.skipif(os.getuid() != 0, reason="switching users needs root")
def test_as_root_the_live_checks_run_as_the_units_user(pi, tmp_path):
    if not _nobody_can_run_python():
        pytest.skip(f"user nobody cannot run {sys.executable} here (a venv under /root); the emulated Pi checks it")
    install_unit(pi, unit_text(None, user="nobody"))
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=True)
    workdir = find(checks, "its working directory")
    assert not workdir.ok and workdir.text == "user nobody cannot write its working directory /"
    assert "WorkingDirectory" in workdir.fix and "doctor" not in workdir.fix
