"""The ``tableside`` command in-process: roll, doctor, config and join-code handling, import hygiene."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tableside import config
from tableside.cli import main


def test_roll_prints_json(capsys):
    assert main(["roll", "5d6cs>=4", "--faces", "4,6,4,2,1", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body == {"expr": "5d6cs>=4", "rolls": [4, 6, 4, 2, 1], "kept": [4, 6, 4, 2, 1], "successes": 3, "total": 17}


def test_roll_plain_text(capsys):
    assert main(["roll", "4d6kh3", "--faces", "1,5,3,6"]) == 0
    assert capsys.readouterr().out.strip() == "4d6kh3: [1, 5, 3, 6] kept [5, 3, 6] -> 14"


@pytest.mark.parametrize(
    "args", [["roll", "banana"], ["roll", "2d10", "--faces", "11,7"], ["roll", "2d6", "--faces", "x,y"], ["fly"]]
)
def test_bad_input_exits_2_with_one_line(args, capsys):
    with pytest.raises(SystemExit) as exc:
        code = main(args)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("tableside:")


def test_doctor_off_a_pi_checks_what_matters_anywhere_and_exits_0(tmp_path, capsys):
    """Simulation is not a fault: on a laptop (this machine) the doctor checks the data folder, the port and
    the network (issue 38: it used to check nothing off a Pi), and changes nothing."""
    from tests.live import free_port

    port = free_port()
    (tmp_path / "t.toml").write_text(f"[server]\nport = {port}\n")
    code = main(["doctor", "--data", str(tmp_path / "data"), "--config", str(tmp_path / "t.toml")])
    out = capsys.readouterr().out
    assert code == 0 and "not a Raspberry Pi" in out, out
    assert f"ok   port {port} is free" in out and "data folder" in out and "guest Wi-Fi" in out
    assert "FIX" not in out and not (tmp_path / "data").exists()


def test_join_code_is_random_per_install_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("TABLESIDE_JOIN_CODE", raising=False)
    first = config.join_code(tmp_path / "a")
    assert first == config.join_code(tmp_path / "a")
    assert len(first) == 6 and set(first) <= set(config.CODE_ALPHABET)
    assert (tmp_path / "a" / "join_code").stat().st_mode & 0o077 == 0
    others = {config.join_code(tmp_path / f"b{i}") for i in range(5)}
    assert len(others) > 1
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "ABC123")
    assert config.join_code(tmp_path / "a") == "ABC123"


def test_data_folder_order(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLESIDE_DATA", str(tmp_path / "env"))
    assert config.data_dir(str(tmp_path / "flag")) == tmp_path / "flag"
    assert config.data_dir(None) == tmp_path / "env"
    monkeypatch.delenv("TABLESIDE_DATA")
    assert str(config.data_dir(None)).endswith(".local/share/tableside")


def test_config_file(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(
        '[server]\nport = 9000\n[display]\nkind = "virtual"\npanel = "phat-red"\n[buttons]\npins = { C = 25 }\n'
    )
    cfg = config.load_config(str(good))
    got = (cfg.port, cfg.display, cfg.panel, cfg.buttons["C"], cfg.buttons["A"])
    assert got == (9000, "virtual", "phat-red", 25, 5)
    bad = tmp_path / "bad.toml"
    bad.write_text("[server\nport = ")
    with pytest.raises(config.ConfigError, match="not valid TOML"):
        config.load_config(str(bad))
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('[display]\nkind = "hologram"\n')
    with pytest.raises(config.ConfigError, match="auto, inky or virtual"):
        config.load_config(str(wrong))
    with pytest.raises(config.ConfigError, match="does not exist"):
        config.load_config(str(tmp_path / "nope.toml"))


def test_serve_with_a_bad_config_exits_2_with_one_line(tmp_path, capsys):
    assert main(["serve", "--config", str(tmp_path / "nope.toml"), "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_import_core_touches_no_hardware_library():
    code = (
        "import sys, tableside.core, tableside.core.table, tableside.core.store, tableside.core.dice;"
        "import tableside.core.systems as systems; systems.all_systems();"
        "import tableside.display.render, tableside.webui.app, tableside.cli;"
        "bad = [m for m in ('inky', 'gpiozero', 'spidev', 'smbus2', 'gpiod', 'lgpio', 'RPi') if m in sys.modules];"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_installed_inside_the_tableside_namespace(tmp_path):
    """Outside the source tree, ``import core`` fails and ``import tableside.core`` works."""
    code = "import importlib.util as u; print(u.find_spec('core') is None, u.find_spec('tableside.core') is not None)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
