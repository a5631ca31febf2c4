"""The README's commands run as written (issue 38): its shell blocks name tools the way the README installs
them (``.venv/bin/...``: a bare ``ruff`` or ``pytest`` is not on a stranger's PATH), the quick check collects
every test file it names, and the command table lists every command and option the parser has, and no other.

What is run is safe here: ``--collect-only`` of the quick check and ``--help`` of each command. The install
and serve blocks are run by the README's own tests and CI; the Pi's ``sudo`` lines are checked for form only.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tableside.cli import build_parser

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text()
VENV_TOOLS = {"python", "pip", "tableside", "ruff", "pytest"}
SYSTEM = {"python3", "sudo", "git", "cd"}  # the machine's own, as the README says to use them


def shell_blocks() -> list[str]:
    """Commands of the README's fenced blocks that are not TOML/JSON/HTTP (one per ``&&`` part)."""
    out = []
    for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", README, re.S | re.M):
        if lang not in ("", "sh", "bash"):
            continue
        for line in body.splitlines():
            line = line.split("  #", 1)[0].strip()
            out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


def test_every_tool_is_named_the_way_the_readme_installs_it():
    commands = shell_blocks()
    assert len(commands) >= 8, commands
    for command in commands:
        tool = shlex.split(command)[0]
        if tool.startswith(".venv/bin/"):
            assert tool.removeprefix(".venv/bin/") in VENV_TOOLS, command
            assert Path(sys.executable).with_name(tool.removeprefix(".venv/bin/")).exists(), command
        else:
            assert tool in SYSTEM, f"{command!r}: {tool} is not on a stranger's PATH; write .venv/bin/{tool}"


def test_inline_development_commands_use_the_venv():
    for tool in ("ruff", "pytest", "tableside"):
        bare = re.findall(rf"(?<![/\w.-])`{tool} (?:check|format|-n)", README)
        assert not bare, f"README names `{tool} ...` without .venv/bin/: {bare}"


@pytest.mark.slow
def test_the_quick_check_collects_every_file_it_names():
    quick = next(c for c in shell_blocks() if c.startswith(".venv/bin/python -m pytest -n 0 "))
    argv = [sys.executable, *shlex.split(quick)[1:], "--collect-only", "-q"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def table_rows() -> dict[str, str]:
    """command -> its row's synopsis, from the README's command table."""
    rows = re.findall(r"^\| `tableside ([\w-]+)([^`]*)` \|", README, re.M)
    return {name: options for name, options in rows}


def parser_options() -> dict[str, set[str]]:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    return {
        name: {o for a in sub._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
        | {f"[{a.metavar or a.dest}]".upper() for a in sub._actions if not a.option_strings and a.nargs == "?"}
        for name, sub in commands.items()
    }


def test_the_command_table_has_every_command_and_option():
    rows, options = table_rows(), parser_options()
    assert set(rows) == set(options), f"the README's table lists {sorted(rows)}, the parser has {sorted(options)}"
    for name, known in options.items():
        shown = set(re.findall(r"--[\w-]+", rows[name])) | set(re.findall(r"\[[A-Z]+\]", rows[name]))
        named = {o for o in known if o.startswith("--")}
        assert named <= shown, f"tableside {name}: {sorted(named - shown)} missing from the README's table"
        assert {o for o in shown if o.startswith("--")} <= named, f"tableside {name}: the README shows unknown options"


def test_the_check_finds_an_option_missing_from_a_row():
    row = "`tableside export [--session ID] [--format json\\|csv]`"
    assert "--data" in parser_options()["export"] and "--data" not in row


@pytest.mark.parametrize("where", ["venv", "no site-packages"])
def test_docs_steps_help_and_a_python_without_the_project(where):
    """``python -m tests.docs_steps --help`` prints its usage; a Python without the project's packages (a
    system Python: ``-S`` leaves site-packages out) says to use the venv, with no traceback."""
    argv = [sys.executable, *(["-S"] if where != "venv" else []), "-m", "tests.docs_steps", "--help"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said
    if where == "venv":
        assert done.returncode == 0 and done.stdout.startswith("usage: .venv/bin/python -m tests.docs_steps")
    else:
        assert done.returncode == 1 and "run .venv/bin/python -m tests.docs_steps PAGE" in done.stderr
