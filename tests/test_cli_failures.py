"""Every command-line and start-up failure a stranger met (issue 38) names the problem and the fix: one table
of cases, each run as a real ``tableside`` process, none with a traceback or a bare ``[Errno N]``.

The read-only and another-user cases need root here (CI runs as root, and root passes every permission
check): a read-only disk is a bind mount remounted ``ro`` inside a private mount namespace (``unshare -m``:
nothing outside the test sees it, and it goes when the process ends); another user's folder is the
command run as ``nobody`` (``setpriv``) on a folder root owns.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.live import CODE, TABLESIDE, free_port

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "TABLESIDE_JOIN_CODE": CODE}
ROOT = Path(__file__).resolve().parent.parent
# bleak and godice hidden from the command, as in a venv installed without the dice extra
WITHOUT_DICE = textwrap.dedent(
    """
    import sys
    class Hidden:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("bleak", "godice"):
                raise ModuleNotFoundError(name)
    sys.meta_path.insert(0, Hidden())
    from tableside.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def as_root() -> bool:
    return os.geteuid() == 0 and bool(shutil.which("unshare")) and bool(shutil.which("setpriv"))


def session_in(folder: Path) -> None:
    """A data folder with a game on the table (in a process of its own: the database is closed after)."""
    folder.mkdir(parents=True, exist_ok=True)
    code = (
        "import sys; from tableside.core.store import Store; from tableside.core.table import Table; "
        "t = Table(Store(sys.argv[1])); t.create_session('vnm', {}); t.close()"
    )
    subprocess.run([sys.executable, "-c", code, str(folder / "tableside.db")], check=True, timeout=60)


def read_only(folder: Path, argv: list[str]) -> list[str]:
    """``argv`` run with ``folder`` read-only: a bind mount of itself, remounted ro, in a private namespace."""
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", str(folder), *argv]


def reachable_by_others(path: Path) -> bool:
    """Whether another user may walk down to ``path`` (every folder above it searchable by others): a clean
    clone under ``mktemp -d`` (0700) is not, and then user nobody cannot start this checkout's venv at all."""
    return all(p.stat().st_mode & 0o001 for p in Path(os.path.abspath(path)).parents)


def as_nobody(argv: list[str]) -> list[str]:
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]


@dataclass
class Case:
    """One failure: how to set it up (``tmp`` -> argv), the words that must be said, the exit code."""

    name: str
    argv: object  # callable(tmp) -> list[str]
    says: tuple[str, ...]
    code: int = 2
    needs_root: bool = False
    open_to_all: bool = False  # in a folder everyone may enter (pytest's are root's alone, 0700)
    env: dict = field(default_factory=dict)
    stdout_empty: bool = True


def _toml(tmp: Path, text: str) -> str:
    path = tmp / "tableside.toml"
    path.write_text(text)
    return str(path)


def _serve(tmp: Path, *more: str) -> list[str]:
    return [TABLESIDE, "serve", "--simulate", "--port", str(free_port()), *more]


def _a_file(tmp: Path) -> list[str]:
    (tmp / "games").write_text("not a folder\n")
    return _serve(tmp, "--data", str(tmp / "games"))


def _read_only_serve(tmp: Path) -> list[str]:
    (tmp / "data").mkdir()
    return read_only(tmp / "data", _serve(tmp, "--data", str(tmp / "data")))


def _read_only_export(tmp: Path) -> list[str]:
    session_in(tmp / "data")
    return read_only(tmp / "data", [TABLESIDE, "export", "--data", str(tmp / "data")])


def _roots_folder(tmp: Path) -> list[str]:
    (tmp / "data").mkdir()
    return as_nobody(_serve(tmp, "--data", str(tmp / "data")))


def _under_roots_folder(tmp: Path) -> list[str]:
    return as_nobody(_serve(tmp, "--data", str(tmp / "data" / "games")))


def _xdg(tmp: Path) -> list[str]:
    return [TABLESIDE, "export"]


CASES = [
    Case("host-not-a-host", lambda t: _serve(t, "--data", str(t / "d"), "--host", "not_a_host"),
         ("argument --host: 'not_a_host' is not an address or a host name", "use 0.0.0.0 (every network)")),
    Case("host-unknown-name", lambda t: _serve(t, "--data", str(t / "d"), "--host", "no-such-table.invalid"),
         ("'no-such-table.invalid' is not a name this machine can resolve", "127.0.0.1 (this machine only)")),
    Case("config-host", lambda t: _serve(t, "--data", str(t / "d"), "--config", _toml(t, '[server]\nhost = "x_y"\n')),
         ("[server] host: 'x_y' is not an address or a host name",)),
    Case("data-is-a-file", _a_file, ("is a file, not a folder: use --data with a folder",)),
    Case("data-read-only", _read_only_serve, ("is on a read-only file system", "the games are safe"), code=1,
         needs_root=True),
    Case("data-another-users", _roots_folder,
         ("cannot be written by user nobody (it belongs to root)", "sudo chown -R nobody"), needs_root=True,
         open_to_all=True),
    Case("data-under-another-users", _under_roots_folder,
         ("cannot be written by user nobody (the folder above it", "sudo mkdir -p"), needs_root=True,
         open_to_all=True),
    Case("export-read-only", _read_only_export, ('{"session": "', '"damaged": []'), code=0, needs_root=True,
         stdout_empty=False),
    Case("buttons-map-unknown-action",
         lambda t: _serve(t, "--data", str(t / "d"), "--config", _toml(t, '[buttons]\nmap = { A = "undoo" }\n')),
         ("line 2: [buttons] map: A = 'undoo' is not an action of any game system (did you mean 'undo'?)",)),
    Case("toml-unquoted-text",
         lambda t: _serve(t, "--data", str(t / "d"), "--config", _toml(t, "[dice]\nkind = auto\n")),
         ("line 2, column 8", 'text goes in quotes: kind = "auto"')),
    Case("toml-twice", lambda t: _serve(t, "--data", str(t / "d"), "--config", _toml(t, "[server]\nport=1\nport=2\n")),
         ("a key or a [section] is set twice: keep one of them",)),
    Case("toml-unclosed-section", lambda t: _serve(t, "--data", str(t / "d"), "--config", _toml(t, "[server\n")),
         ("a [section] header needs its closing ]",)),
    Case("config-is-a-folder", lambda t: _serve(t, "--data", str(t / "d"), "--config", str(t)),
         ("is a folder: name the .toml file itself",)),
    Case("dice-without-the-extra",
         lambda t: [sys.executable, "-c", WITHOUT_DICE, "serve", "--simulate", "--data", str(t / "d"),
                    "--config", _toml(t, '[dice]\nkind = "bluetooth"\n')],
         ('line 2: [dice] kind = "bluetooth" needs the smart dice extra', "pip install -e '.[dice]'")),
    Case("xdg-data-home", _xdg, ("no Tableside data in /xdg-nowhere/tableside",),
         env={"XDG_DATA_HOME": "/xdg-nowhere"}),
    Case("empty-data", lambda t: [TABLESIDE, "export", "--data", ""], ("argument --data: '' is not a path",)),
    Case("empty-config", lambda t: _serve(t, "--config", " "), ("argument --config: ' ' is not a path",)),
    Case("seed-not-a-number", lambda t: [TABLESIDE, "roll", "2d6", "--seed", "abc"],
         ("argument --seed: 'abc' is not a seed: use a whole number",)),
    Case("seed-too-long", lambda t: [TABLESIDE, "roll", "2d6", "--seed", "9" * 30], ("is not a seed",)),
    Case("session-not-an-id", lambda t: [TABLESIDE, "export", "--data", str(t), "--session", "a b"],
         ("argument --session: 'a b' is not a session id",)),
    Case("no-game-yet", lambda t: (session_in(t / "d"), [TABLESIDE, "export", "--data", str(t / "d"),
                                                          "--session", "feedf00d"])[1],
         ("no session 'feedf00d' in",)),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_failure_names_the_problem_and_the_fix(tmp_path, request, case):
    if case.needs_root and not as_root():
        pytest.skip("needs root with unshare and setpriv (CI runs as root)")
    if case.open_to_all and not reachable_by_others(Path(sys.executable).parent / "tableside"):
        pytest.skip("this checkout sits in a folder other users cannot enter, so user nobody cannot run its venv")
    if case.open_to_all:
        tmp_path = Path(tempfile.mkdtemp(prefix="tableside-test-"))
        tmp_path.chmod(0o755)
        request.addfinalizer(lambda: shutil.rmtree(tmp_path, ignore_errors=True))
    argv = case.argv(tmp_path)
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=120,
        env={**ENV, **case.env},
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "[Errno" not in said, said
    for words in case.says:
        assert words in said, said
    assert done.returncode == case.code, said
    if case.code:
        assert done.stderr.startswith("tableside: ") and done.stderr.count("\n") == 1, done.stderr
    if case.stdout_empty:
        assert done.stdout == ""
    assert not (tmp_path / "d").exists() or case.name == "no-game-yet"  # refused before anything was made


@pytest.mark.slow
def test_export_into_a_closed_pipe_is_quiet(tmp_path):
    """``tableside export | head``: the reader went away; no "[Errno 32] Broken pipe", no traceback."""
    session_in(tmp_path / "d")
    proc = subprocess.Popen(
        [TABLESIDE, "export", "--data", str(tmp_path / "d")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        stdin=subprocess.DEVNULL,
    )
    proc.stdout.close()  # before the command has written anything: its first write meets a closed pipe
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(60) == 141 and err == "", err


def test_without_a_command_it_prints_its_commands(capsys):
    from tableside.cli import main

    assert main([]) == 2
    out = capsys.readouterr().err
    for command in ("serve", "roll", "doctor", "export", "restore"):
        assert f"\n    {command} " in out, out


@pytest.mark.slow
def test_install_dry_run_on_a_laptop_says_what_it_is(tmp_path):
    """Debian on x86_64 is named as such, and the plan is a 64-bit Pi's, never a 32-bit Pi's piwheels."""
    laptop = tmp_path / "laptop"
    (laptop / "etc").mkdir(parents=True)
    (laptop / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
    (laptop / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}
    uname = tmp_path / "bin"
    uname.mkdir()
    # this machine's own architecture, as the script reads it, made x86_64 whatever the CI machine is
    (uname / "dpkg").write_text('#!/bin/sh\n[ "$1" = --print-architecture ] && echo amd64\n')
    (uname / "dpkg").chmod(0o755)
    env["PATH"] = f"{uname}:{env['PATH']}"
    script = ROOT / "systemd" / "install.sh"
    done = subprocess.run(
        ["bash", str(script), "--dry-run", "--root", str(laptop), "--user", "pi"],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Debian GNU/Linux 12 (bookworm), amd64, Python 3.11: not Raspberry Pi OS on a Pi" in done.stdout
    assert "Raspberry Pi OS bookworm" not in done.stdout
    assert "piwheels" not in done.stdout and "libopenblas0" not in done.stdout  # no 32-bit plan for amd64
    assert "the steps below are a 64-bit Pi's (arm64)" in done.stdout


@pytest.mark.slow
def test_serving_on_ipv6_loopback_prints_the_address_it_listens_on(tmp_path):
    """``--host ::1`` printed http://127.0.0.1:PORT/, where nothing listened; now the URL it serves on."""
    import http.client
    import signal

    port = free_port()
    argv = [TABLESIDE, "serve", "--simulate", "--data", str(tmp_path / "d"), "--host", "::1", "--port", str(port)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV, text=True)
    try:
        first = proc.stdout.readline()
        assert first.strip() == f"Tableside is serving on http://[::1]:{port}/", first
        conn = http.client.HTTPConnection("::1", port, timeout=20)
        conn.request("GET", "/healthz", headers={"Host": f"[::1]:{port}"})
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
