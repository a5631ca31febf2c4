"""The package says what it is (issue 38): the sdist and the wheel each carry the licence, install into a
fresh environment and run ``tableside --version`` and ``serve`` from another folder; the sdist runs its tests.
``python -m tableside --help`` and a bare ``tableside`` list the commands; the changelog follows the version.

The sdist is built from the tracked files, the wheel from the unpacked sdist (so the sdist is proved
to build). Both are built and installed without build isolation and with ``--no-deps``: the new
environments take their dependencies (and setuptools) from this one through a ``.pth`` line, so nothing
is downloaded.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import site
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.live import CODE, free_port, request

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TABLESIDE_DATA")}


def _run(argv: list, cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=ENV)
    assert done.returncode == 0, f"{argv}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _sources(to: Path) -> None:
    """The files git tracks or would (or, from an unpacked sdist, its files): never a venv, build or data folder."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
            timeout=60,
        )
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    for name in names:
        if (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, to / name)


def _build(kind: str, source: Path, out: Path) -> Path:
    """setuptools' own PEP 517 hook, as pip and ``python -m build`` call it."""
    name = _run(
        [sys.executable, "-c", f"from setuptools import build_meta as b; print(b.build_{kind}({str(out)!r}))"], source
    )
    return out / name.strip().splitlines()[-1]


def _venv(at: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(at)], check=True, timeout=120)
    python = at / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], at).strip()
    Path(purelib, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python


def _commands() -> list[str]:
    """The parser's own commands, so a new one is expected in the listing without editing this test."""
    from tableside.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def _lists_the_commands(text: str) -> None:
    for command in _commands():
        assert re.search(rf"^\s+{command}\s+\S", text, re.M), f"{command} is not listed with its help:\n{text}"
    assert "--version" in text and "Traceback" not in text


def test_bare_tableside_lists_its_commands_and_exits_nonzero(tmp_path):
    """The installed entry point, from a folder that is not the source tree: the commands (never only
    "the following arguments are required: command") on stderr, exit 2 like any usage mistake."""
    done = subprocess.run(
        [Path(sys.executable).with_name("tableside")], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=ENV
    )
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout)
    _lists_the_commands(done.stderr)
    assert "required" not in done.stderr and "error:" not in done.stderr


def test_python_m_tableside_help_lists_the_commands(tmp_path):
    out = _run([sys.executable, "-m", "tableside", "--help"], tmp_path, timeout=60)
    assert out.startswith("usage: tableside ")  # the same command, not "__main__.py"
    _lists_the_commands(out)


def test_the_changelog_follows_the_version():
    """A release raises pyproject's version and gives it a heading; until then changes gather under
    "Unreleased" above it. Either one without the other fails here."""
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    released = [h for h in headings if h != "Unreleased"]
    assert headings.count("Unreleased") <= 1 and headings.index(released[0]) == ("Unreleased" in headings), headings
    assert released[0] == VERSION, f"CHANGELOG.md's newest version is {released[0]}, pyproject's {VERSION}"
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", h) for h in released), released


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("package")
    source, dist = base / "source", base / "dist"
    source.mkdir()
    dist.mkdir()
    _sources(source)
    sdist = _build("sdist", source, dist)
    with tarfile.open(sdist) as tar:
        tar.extractall(base / "unpacked", filter="data")
    unpacked = base / "unpacked" / sdist.name.removesuffix(".tar.gz")
    wheel = _build("wheel", unpacked, dist)
    return {"sdist": sdist, "wheel": wheel, "unpacked": unpacked, "base": base}


@pytest.mark.slow  # builds and installs: ~20 s, still in the default run
def test_the_licence_and_what_the_sdist_needs_are_in_both(built):
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        pkg_info = tar.extractfile(f"tableside-{VERSION}/PKG-INFO").read().decode()
    for needed in (
        "LICENSE",
        "CHANGELOG.md",
        "docs/api.md",
        "tests/golden/vnm-what-red.png",
        "tests/test_dice.py",
        "systemd/install.sh",
        "systemd/tableside.service",
        "systemd/tableside.toml",
    ):
        assert needed in names, f"{needed} is not in the sdist"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    with zipfile.ZipFile(built["wheel"]) as whl:
        licence = whl.read(f"tableside-{VERSION}.dist-info/licenses/LICENSE").decode()
        metadata = whl.read(f"tableside-{VERSION}.dist-info/METADATA").decode()
        books = {n for n in whl.namelist() if n.startswith("tableside/rulebooks/")}
    assert {f"tableside/rulebooks/{b}.txt" for b in ("vnm", "venom", "vegas", "v2140")} <= books, books
    assert licence.startswith("MIT License") and licence == (ROOT / "LICENSE").read_text()
    for meta in (metadata, pkg_info):
        assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
        assert "Classifier: Topic :: Games/Entertainment :: Board Games" in meta


def _serves_from_elsewhere(python: Path, elsewhere: Path) -> None:
    """``--version`` (both ways) and ``serve`` from a folder that is not the source tree."""
    tableside = python.with_name("tableside")
    assert _run([tableside, "--version"], elsewhere).strip() == f"tableside {VERSION}"
    assert _run([python, "-m", "tableside", "--version"], elsewhere).strip() == f"tableside {VERSION}"
    where = _run([python, "-c", "import tableside; print(tableside.__file__, tableside.__version__)"], elsewhere)
    assert str(python.parent.parent) in where.split()[0] and where.split()[1] == VERSION  # the installed copy
    shelf = _run([python, "-c", "from tableside.core.rulebook_search import shelf; print(shelf())"], elsewhere)
    assert str(python.parent.parent) in shelf  # the rulebooks came along as package data (#35)
    port = free_port()
    argv = [tableside, "serve", "--simulate", "--data", elsewhere / "data", "--host", "127.0.0.1", "--port", port]
    proc = subprocess.Popen(
        [str(a) for a in argv],
        cwd=elsewhere,
        env={**ENV, "TABLESIDE_JOIN_CODE": CODE},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                if request(port, "GET", "/healthz", auth=False)[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "serve did not answer within 90 s"
                time.sleep(0.2)
        status, page, _ = request(port, "GET", "/")
        assert status == 200 and b"<html" in page.lower()  # the templates came along
        status, systems, _ = request(port, "GET", "/api/systems")
        assert status == 200 and {"vnm", "venom", "v2140", "vegas"} <= {s["id"] for s in systems}
        status, found, _ = request(port, "GET", "/api/rules/search?q=gone+gone+gone")
        assert status == 200 and (found["results"][0]["book"], found["results"][0]["line"]) == ("v2140", 218)
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0 and "Tableside is serving on http://127.0.0.1:" in out, out


@pytest.mark.slow  # builds and installs: ~20 s, still in the default run
def test_the_wheel_installs_and_serves_from_another_folder(built):
    python = _venv(built["base"] / "venv-wheel")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", built["wheel"]], built["base"])
    elsewhere = built["base"] / "elsewhere-wheel"
    elsewhere.mkdir()
    _serves_from_elsewhere(python, elsewhere)


@pytest.mark.slow  # builds and installs: ~20 s, still in the default run
def test_the_sdist_installs_serves_and_runs_its_tests(built):
    python = _venv(built["base"] / "venv-sdist")
    install = ["install", "-q", "--no-deps", "--no-build-isolation", built["sdist"]]
    _run([sys.executable, "-m", "pip", "--python", python, *install], built["base"])
    elsewhere = built["base"] / "elsewhere-sdist"
    elsewhere.mkdir()
    _serves_from_elsewhere(python, elsewhere)
    # Its tests, the way the README runs them from a source folder: an editable install there (the folders
    # map into the tableside namespace, which only an install provides).
    python = _venv(built["base"] / "venv-sdist-tests")
    editable = ["install", "-q", "--no-deps", "--no-build-isolation", "-e", built["unpacked"]]
    _run([sys.executable, "-m", "pip", "--python", python, *editable], built["base"])
    tests = ["tests/test_dice.py", "tests/test_cli.py", "tests/test_golden.py"]
    out = _run([python, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", *tests], built["unpacked"], 600)
    assert re.search(r"^\d+ passed in ", out, re.M) and "failed" not in out and "error" not in out, out[-2000:]
