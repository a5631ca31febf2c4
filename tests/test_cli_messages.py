"""The command line names the problem (issue 21): config keys with their file and line, types with what
they expect, flags checked before anything starts, a busy port, ``roll --json`` errors, the start-up lines."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import types

import pytest

from tableside import config
from tableside.cli import main
from tests.live import CODE, TABLESIDE, free_port


def write(tmp_path, text: str) -> str:
    path = tmp_path / "tableside.toml"
    path.write_text(text)
    return str(path)


def refused(tmp_path, text: str) -> str:
    with pytest.raises(config.ConfigError) as info:
        config.load_config(write(tmp_path, text))
    return str(info.value)


# -- unknown keys and sections: the key, the file and the line --------------------------------------
def test_a_misspelt_key_is_refused_with_its_file_and_line(tmp_path):
    message = refused(tmp_path, '# my table\n[server]\nhost = "0.0.0.0"\nprot = 18805\n')
    assert message.startswith(f"config file {tmp_path / 'tableside.toml'} line 4: unknown key 'prot' in [server]")
    assert "did you mean 'port'?" in message


def test_a_misspelt_section_is_refused_with_its_line(tmp_path):
    message = refused(tmp_path, "[display]\nkind = 'auto'\n\n[serverr]\nport = 9000\n")
    assert "line 4: unknown section [serverr] (did you mean [server]?)" in message


def test_a_key_outside_any_section_is_refused(tmp_path):
    message = refused(tmp_path, "port = 9000\n[server]\n")
    assert "line 1: 'port' is not a setting here" in message and "[server]" in message


def test_unknown_keys_in_every_section_are_refused(tmp_path):
    for section in config.KNOWN_KEYS:
        message = refused(tmp_path, f"[{section}]\n\nwhatever = 1\n")
        assert f"line 3: unknown key 'whatever' in [{section}]" in message


def test_the_line_is_found_for_quoted_and_indented_keys():
    text = '[server]\n  "port" = 1\n[buttons]\n  pins = { A = 5 }\n'
    assert config.line_of(text, "server", "port") == 2
    assert config.line_of(text, "buttons", "pins") == 4
    assert config.line_of(text, "buttons") == 3
    assert config.line_of(text, "led", "pin") is None


# -- type errors: the key and what it expects ------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ('[server]\nport = "abc"', "line 2: [server] port must be a whole number (such as 8080), not the text 'abc'"),
        ("[server]\nport = 99999", "line 2: [server] port must be 1-65535, not 99999"),
        ("[server]\nport = 0", "[server] port must be 1-65535, not 0"),
        ("[server]\nhost = 8080", "[server] host must be text in quotes"),
        ("[server]\nthreads = 1.5", "[server] threads must be a whole number"),
        ('[server]\nheader_timeout = "ten"', "[server] header_timeout must be a number (such as 1.5), not the text"),
        ("[server]\nnames = 'table'", "[server] names must be a list in brackets"),
        ("[display]\nmin_interval = 'often'", "[display] min_interval must be a number"),
        ("[display]\nsimulate_refresh = 'no'", "[display] simulate_refresh must be true or false"),
        ("[display]\npanel = 7", "[display] panel must be text in quotes"),
        ("[buttons]\nhold_time = 'long'", "[buttons] hold_time must be a number"),
        ('[buttons]\npins = { A = "five" }', "line 2: [buttons] pins A must be a BCM GPIO number"),
        ("[buttons]\npins = 5", "[buttons] pins must be a table in braces"),
        ("[buttons]\nphysical_dice = 1", "[buttons] physical_dice must be true or false, not 1"),
        ("[buttons]\nmap = { A = 3 }", "[buttons] map: A = 3 must be text"),
        ("[led]\npin = 'twelve'", "[led] pin must be a whole number"),
        ("[led]\npwm = 'yes'", "[led] pwm must be true or false, not the text 'yes'"),
    ],
)
def test_every_type_error_names_the_key_and_what_it_expects(tmp_path, text, expected):
    assert expected in refused(tmp_path, text)


def test_a_pin_problem_names_its_line(tmp_path):
    message = refused(tmp_path, "[display]\n[buttons]\nhold_time = 1.0\npins = { A = 17 }\n")
    assert "line 4: [buttons] pins: A = GPIO17 is the Inky's BUSY line" in message


def test_a_good_file_still_loads(tmp_path):
    cfg = config.load_config(write(tmp_path, "[server]\nport = 9000\nthreads = 4\n[display]\nmin_interval = 2\n"))
    assert (cfg.port, cfg.limits.threads, cfg.min_interval) == (9000, 4, 2.0)


# -- serve: refused before anything starts ---------------------------------------------------------
def _serve_refused(tmp_path, capsys, *args: str) -> str:
    data = tmp_path / "data"
    assert main(["serve", "--data", str(data), *args]) == 2
    assert not data.exists()  # nothing started: no data folder, no database, no join code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tableside: ")
    return err


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--panel", "nonsense"], "argument --panel: 'nonsense' is not a panel; choose one of phat-red"),
        (["--port", "99999"], "argument --port: '99999' is not a port: use a number from 1 to 65535"),
        (["--port", "0"], "'0' is not a port"),
        (["--port", "http"], "'http' is not a port"),
    ],
)
def test_serve_flags_are_checked_before_anything_starts(tmp_path, capsys, args, expected):
    assert expected in _serve_refused(tmp_path, capsys, *args)


def test_serve_with_a_bad_pin_or_key_starts_nothing(tmp_path, capsys):
    bad = write(tmp_path, "[buttons]\npins = { A = 40 }\n")
    assert "line 2: [buttons] pins: A = 40 is not a BCM GPIO number (0-27)" in _serve_refused(
        tmp_path, capsys, "--config", bad
    )
    bad = write(tmp_path, "[server]\nprot = 18805\n")
    assert "unknown key 'prot'" in _serve_refused(tmp_path, capsys, "--config", bad)


def test_a_busy_port_is_named_with_how_to_choose_another(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [TABLESIDE, "serve", "--simulate", "--data", str(tmp_path), "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            env={"TABLESIDE_JOIN_CODE": CODE, "PATH": "/usr/bin:/bin"},
            stdin=subprocess.DEVNULL,
        )
    assert out.returncode == 2, out
    assert out.stderr.strip().splitlines() == [
        f"tableside: port {port} is already in use on 127.0.0.1 (another tableside serve, or another program): "
        "stop it, or choose another port with --port N (or [server] port in the config file)"
    ]
    assert "Tableside is serving" not in out.stdout


# -- roll ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, expected",
    [
        (["roll", "banana", "--json"], "unexpected 'b' at position 1 in 'banana'"),
        (["roll", "--json", "2d6", "--faces", "7,1"], "face 7 is not on a d6 (1-6)"),
        (["roll", "--json"], "the following arguments are required: expr"),
        (["roll", "--json", "2d6", "--seed", "x"], "argument --seed: 'x' is not a seed: use a whole number"),
        (["roll", "--json", "-1d6"], "'-1d6' cannot start with '-'"),
    ],
)
def test_roll_json_errors_are_json(capsys, args, expected):
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1  # stdout holds only a roll; the error is one line
    body = json.loads(out.err)
    assert list(body) == ["error"] and expected in body["error"]


def test_roll_of_a_negative_expression_says_what_is_wrong(capsys):
    assert main(["roll", "-1d6"]) == 2
    assert capsys.readouterr().err == (
        "tableside: '-1d6' cannot start with '-': a dice expression starts with the number of dice, "
        "as in 1d6 or 1d6-1\n"
    )


def test_roll_still_takes_its_options_around_the_expression(capsys):
    assert main(["roll", "--faces", "6,1", "2d6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rolls"] == [6, 1]


# -- start-up lines on a machine without an Inky ---------------------------------------------------
def test_no_inky_is_one_plain_line_and_the_library_print_is_silenced(tmp_path, monkeypatch, capfd):
    from tableside.device.display import VirtualDisplay, open_display

    def noisy_auto(*_args, **_kwargs):
        print("No EEPROM detected! You must manually initialise your Inky board.")
        print("Woah there, some pins we need are in use!", file=sys.stderr)
        raise RuntimeError("No EEPROM detected! You must manually initialise your Inky board.")

    monkeypatch.setitem(sys.modules, "inky.auto", types.SimpleNamespace(auto=noisy_auto))
    display, note = open_display("auto", None, tmp_path)
    assert isinstance(display, VirtualDisplay)
    assert (
        note == "no Inky found: showing the display on the phone and in display.png (simulated Inky wHAT (red) 400x300)"
    )
    out = capfd.readouterr()
    assert "EEPROM" not in out.out + out.err and "Woah" not in out.out + out.err


def test_serve_without_an_inky_prints_each_part_once(tmp_path):
    """A real ``tableside serve`` (no --simulate) on this machine, which has no Inky and no Pi GPIO."""
    port = free_port()
    proc = subprocess.Popen(
        [TABLESIDE, "serve", "--data", str(tmp_path), "--host", "127.0.0.1", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"TABLESIDE_JOIN_CODE": CODE, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    lines = []
    guard = threading.Timer(90, proc.kill)  # a bound on the wait: serve prints these within seconds
    guard.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if {"Buttons", "Display"} <= {seen.split(":")[0] for seen in lines}:
                break
    finally:
        guard.cancel()
        proc.terminate()
        proc.wait(30)
        proc.stdout.close()
    text = "\n".join(lines)
    if "Inky display (" in text:
        pytest.skip("this machine has an Inky")
    assert lines[0] == f"Tableside is serving on http://127.0.0.1:{port}/"
    assert (
        "Display: no Inky found: showing the display on the phone and in display.png "
        "(simulated Inky wHAT (red) 400x300)" in lines
    )
    assert "EEPROM" not in text and text.lower().count("pin factory") <= 1
    assert [line.split(":")[0] for line in lines[:5]] == [
        "Tableside is serving on http",
        "Join code",
        "Data",
        "Owner PIN",  # the first start makes it and prints it here, never on the e-paper (#32)
        "Smart dice",
    ]
    assert sorted(line.split(":")[0] for line in lines[5:]) == ["Buttons", "Display"]  # one line each
