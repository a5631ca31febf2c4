"""Nothing outside ``core`` touches a private member of a core object (#37): the layers above use the
core's public calls (``Table.held()``, not ``table._lock``), so the core may change its insides freely.

Read from the source with ``ast``: the private names the core defines (``_name`` methods, attributes,
module functions and constants), then every ``x._name`` (x not ``self``/``cls``), every
``getattr(x, "_name")`` and every ``from tableside.core... import _name`` in display/, device/, webui/,
tableside/ and benchmarks/ that names one of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ABOVE_CORE = ("display", "device", "webui", "tableside", "benchmarks")
REFLECTION = ("getattr", "setattr", "hasattr", "delattr")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def core_privates(root: Path = ROOT) -> set[str]:
    """Every private name the core defines: functions, classes, attributes (``self._x = ...``), constants."""
    names: set[str] = set()
    for path in (root / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if _private(n)}


def _own(value: ast.expr) -> bool:
    """``self``, ``cls`` or ``super()``: a class's own members, wherever its class lives."""
    if isinstance(value, ast.Name):
        return value.id in ("self", "cls")
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def _reflected(node: ast.AST, private: set[str]) -> bool:
    """``getattr(x, "_name")`` and its kin, with a private name of the core."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in REFLECTION
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value in private
    )


def reaches(source: str, private: set[str]) -> list[tuple[int, str]]:
    """(line, what) for each reach into one of the ``private`` names in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        attribute = isinstance(node, ast.Attribute) and node.attr in private and not _own(node.value)
        if attribute or _reflected(node, private):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tableside.core"):
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names if _private(a.name)]
    return found


def everywhere(root: Path = ROOT) -> list[str]:
    private = core_privates(root)
    out = []
    for folder in ABOVE_CORE:
        for path in sorted((root / folder).rglob("*.py")):
            out += [f"{path.relative_to(root)}:{line}: {what}" for line, what in reaches(path.read_text(), private)]
    return out


def test_the_reaches_are_found():
    private = {"_lock", "_live", "_marked"}
    source = (
        "from tableside.core.table import Table, _marked\n"
        "with table._lock:\n"
        "    live = getattr(table, '_live')\n"
        "self._lock.acquire()\n"  # its own lock, whatever its class
        "x = super()._live\n"
        "os._exit(1)\n"  # not a name the core defines: this test is about the core
    )
    assert reaches(source, private) == [
        (1, "from tableside.core.table import _marked"),
        (2, "table._lock"),
        (3, "getattr(table, '_live')"),
    ]
    assert {"_lock", "_live", "_require_live", "_marked", "_decode"} <= core_privates()


def test_nothing_above_the_core_touches_its_private_members():
    assert everywhere() == []
