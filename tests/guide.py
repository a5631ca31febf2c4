"""docs/adding-a-system.md's files: every block of the page that names its file on its first line.

A Python block starts with ``# <path>`` (``# core/systems/pig/turns.py``, ``# tests/scenarios/pig.py``);
a page is a ````` ````markdown ````` block starting with ``<!-- <path> -->`` (``docs/systems/pig.md``).
``checkout(to)`` writes a copy of the repository with them in it: the guide followed literally.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "adding-a-system.md"
FOLDERS = ("tableside", "core", "device", "display", "webui", "tests", "docs")


def guide_files() -> dict[str, str]:
    """path -> text of every block of the guide that names its file on its first line."""
    text = GUIDE.read_text(encoding="utf-8")
    out = {}
    for block in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M):
        first, _, rest = block.partition("\n")
        if re.fullmatch(r"# [\w/.]+\.py", first):
            out[first[2:]] = rest
    for block in re.findall(r"^````markdown\n(.*?)^````$", text, re.S | re.M):
        first, _, rest = block.partition("\n")
        named = re.fullmatch(r"<!-- ([\w/.]+\.md) -->", first)
        if named:
            out[named.group(1)] = rest
    return out


def checkout(to: Path) -> Path:
    """A copy of the repository at ``to`` with the guide's files written into it; returns ``to``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "_output")
    to.mkdir(parents=True, exist_ok=True)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, to / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, to / folder, ignore=ignore)
    for path, text in guide_files().items():
        target = to / path
        assert not target.exists(), f"the guide's {path} is already in the repository"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return to


# Imported first by every Python started with ``environment(checkout)`` (and pytest-xdist's workers):
# ``tableside.*`` comes from the checkout's folders, as an editable install of it would map them.
_SITECUSTOMIZE = """
import sys
from importlib.util import spec_from_file_location

ROOT = {root!r}
FOLDERS = {{"tableside": "tableside", "tableside.core": "core", "tableside.device": "device",
           "tableside.display": "display", "tableside.webui": "webui"}}


class CheckoutFinder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name in FOLDERS:
            return spec_from_file_location(name, f"{{ROOT}}/{{FOLDERS[name]}}/__init__.py")
        return None


sys.meta_path.insert(0, CheckoutFinder)
"""


def environment(root: Path) -> dict[str, str]:
    """os.environ for a Python that imports ``tableside`` from the checkout at ``root``, not this one."""
    import os

    boot = root.parent / f"{root.name}-site"
    boot.mkdir(exist_ok=True)
    (boot / "sitecustomize.py").write_text(_SITECUSTOMIZE.format(root=str(root)), encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(boot)}
