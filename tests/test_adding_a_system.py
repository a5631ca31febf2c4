"""docs/adding-a-system.md holds a whole fifth system, Pig: built from the page into a wheel, played.

The page's Python blocks (each starts with its path, ``# core/systems/pig/...``) are written into
a copy of the repository, which pip builds into a wheel and installs (not editable) into a new
virtual environment; its ``tableside serve`` then plays Pig over HTTP: the system is listed,
a game starts, a typed-in die is rolled and shown on the table, button B holds, undo works and
the e-paper frame is drawn. The new environment gets its dependencies from this one's
site-packages (``--no-deps``, a ``.pth`` line), so nothing is downloaded.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.live import Process

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "adding-a-system.md"
SHAPE = {"__init__", "system", "setup", "rules", "state", "laws", "prompts", "screen"}


def guide_files() -> dict[str, str]:
    """path -> text of every Python block of the guide that names its file on its first line."""
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    out = {}
    for block in blocks:
        first, _, rest = block.partition("\n")
        if first.startswith("# core/systems/"):
            out[first[2:].strip()] = rest
    return out


def test_the_guide_gives_every_file_of_the_folder_shape() -> None:
    files = guide_files()
    assert {Path(p).stem for p in files} >= SHAPE
    assert all(p.startswith("core/systems/pig/") for p in files)


class _Installed(Process):
    """``tableside serve --simulate`` from the new environment's own console script."""

    def __init__(self, data: Path, tableside: Path) -> None:
        super().__init__(data)
        self.tableside = tableside
        self.env = {k: v for k, v in self.env.items() if k != "PYTHONPATH"}

    def argv(self) -> list[str]:
        return [str(self.tableside), *super().argv()[1:]]


def _copy_repository(to: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, to / name)
    for folder in ("tableside", "core", "device", "display", "webui"):
        shutil.copytree(ROOT / folder, to / folder, ignore=ignore)


@pytest.mark.slow
def test_pig_from_the_guide_builds_into_a_wheel_and_plays_over_http(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _copy_repository(repo)
    assert not (repo / "core" / "systems" / "pig").exists()
    for path, text in guide_files().items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    # This environment's dependencies (Flask, Pillow, ...) for the new one, after its own packages.
    Path(packages, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(repo)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import tableside, tableside.core.systems.pig as pig; print(tableside.__file__, pig.SYSTEM.id)",
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    ).stdout.split()
    assert where[0].startswith(packages) and where[1] == "pig", where  # the wheel's copy, not the repository

    server = _Installed(tmp_path / "data", venv / "bin" / "tableside").start()
    try:
        status, systems = server.request("GET", "/api/systems")
        assert status == 200 and "pig" in [s["id"] for s in systems]
        status, view = server.request(
            "POST", "/api/sessions", {"system": "pig", "options": {"players": ["Ann", "Bob"]}}
        )
        assert status == 201, view
        assert view["pending"][0]["text"] == "Ann: roll the die (A)"
        status, done = server.request("POST", "/api/sessions/active/actions", {"type": "roll_die", "faces": [5]})
        assert status == 200 and done["result"]["summary"] == "Ann rolled 5: 5 this turn", done
        status, view = server.request("GET", "/api/sessions/active")
        dice = [e for e in view["screen"]["elements"] if e["kind"] == "dice"]
        assert [d["face"] for d in dice[0]["dice"]] == [5] and view["roll"]["rolls"][0]["marks"] == ["hit"]
        status, held = server.request("POST", "/api/buttons/B", {})
        assert status == 200 and held["result"]["summary"] == "Ann holds 5: 5 in all", held
        status, refused = server.request("POST", "/api/sessions/active/actions", {"type": "hold"})
        assert status == 422 and "nothing to hold yet" in refused["error"]
        status, _ = server.request("POST", "/api/sessions/active/undo", {})
        assert status == 200
        status, view = server.request("GET", "/api/sessions/active")
        assert view["state"]["scores"] == {"Ann": 0, "Bob": 0} and view["state"]["turn_total"] == 5
        for _ in range(100):  # the simulated e-paper draws the frame in its own thread
            status, png = server.request("GET", "/display.png")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        out = server.stop()
    assert "Traceback" not in out, out[-3000:]
