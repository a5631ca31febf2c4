"""The project stands on other libraries' public APIs only (issue #37): a library that changes its
internals must not silently stop or corrupt the live updates, the schema or the routes.

Read from the sources themselves (``ast``), over every package of the project, the benchmarks and the
tests: no class of a third-party library is subclassed, no name starting with ``_`` is imported from
one or reached on one of its modules or on an object it made, and none of the internals the old server,
app and store used is named. The standard library is not counted (``asyncio.Protocol`` is how asyncio
is meant to be used); this file is left out of the literal search only, since it names what it looks for.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "device", "display", "webui", "tableside", "benchmarks", "tests")
# Internals of waitress, werkzeug and sqlite-utils the project once wrote or called.
INTERNALS = ("_flush_some", "outbufs", "outbuf_lock", "requests_lock", "_compile_builder", "_sqlite_migrations")
# Classes whose library documents subclassing as the way to use them; a subclass still may not reach
# the base's private names. Hypothesis: "Stateful tests" (RuleBasedStateMachine); python-sdbus: "Interfaces"
# (DbusInterfaceCommonAsync) and bluezoo's interfaces built on it; gpiozero: "API - Pins", MockFactory's
# pin_class and its mock pin classes.
MADE_TO_SUBCLASS = {
    "hypothesis.stateful.RuleBasedStateMachine",
    "sdbus.dbus_proxy_async_interfaces.DbusInterfaceCommonAsync",
    "bluezoo.interfaces.GattService.GattServiceInterface",
    "gpiozero.pins.mock.MockFactory",
    "gpiozero.pins.mock.MockPin",
    "gpiozero.pins.mock.MockPWMPin",
}


def sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for name in PACKAGES for p in (root / name).rglob("*.py") if ".venv" not in p.parts)


def own_modules(root: Path = ROOT) -> set[str]:
    """Top-level names that are the project's own: its packages and the benchmarks' sibling scripts."""
    return {"tableside", *PACKAGES, *(p.stem for p in (root / "benchmarks").glob("*.py"))}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) and name != "_"


class Reach(ast.NodeVisitor):
    """Finds, in one module, what reaches past a third-party library's public API."""

    def __init__(self, own: set[str]) -> None:
        self.own = own
        self.foreign: set[str] = set()  # names bound to a third-party module or something taken from one
        self.origin: dict[str, str] = {}  # an imported name: the dotted path it came from
        self.found: list[tuple[int, str]] = []

    def third_party(self, module: str | None) -> bool:
        root = (module or "").split(".")[0]
        return bool(root) and root not in sys.stdlib_module_names and root not in self.own and root != "__future__"

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if self.third_party(alias.name):
                if any(_private(part) for part in alias.name.split(".")):
                    self.found.append((node.lineno, f"import {alias.name}"))
                bound = alias.asname or alias.name.split(".")[0]  # import a.b binds a; import a.b as c binds c
                self.foreign.add(bound)
                self.origin[bound] = alias.name if alias.asname else bound

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not self.third_party(node.module):
            return
        if any(_private(part) for part in (node.module or "").split(".")):
            self.found.append((node.lineno, f"from {node.module} import ..."))
        for alias in node.names:
            if _private(alias.name):
                self.found.append((node.lineno, f"from {node.module} import {alias.name}"))
            self.foreign.add(alias.asname or alias.name)
            self.origin[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def rooted(self, node: ast.AST) -> bool:
        """An expression made from a third-party name: ``lib.x``, ``lib.X(...)``, ``made.attr``..."""
        while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
            node = node.func if isinstance(node, ast.Call) else node.value
        return isinstance(node, ast.Name) and node.id in self.foreign

    def bind(self, target: ast.AST) -> None:
        """``name = lib.thing(...)`` (or a tuple of names): the name holds a third-party object."""
        if isinstance(target, ast.Name):
            self.foreign.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind(element)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        if self.rooted(node.value):
            for target in node.targets:
                self.bind(target)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            if item.optional_vars is not None and self.rooted(item.context_expr):
                self.bind(item.optional_vars)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _private(node.attr) and self.rooted(node.value):
            self.found.append((node.lineno, f"{ast.unparse(node)}"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
            what = node.args[1]
            private = isinstance(what, ast.Constant) and isinstance(what.value, str) and _private(what.value)
            if private and self.rooted(node.args[0]):
                self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            if self.rooted(base):
                self.subclass(node, base)
        self.generic_visit(node)

    def resolve(self, base: ast.AST):
        """The base class itself (imported), or None when it cannot be imported here."""
        parts = []
        while isinstance(base, ast.Attribute):
            parts.insert(0, base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in self.origin:
            return None
        path = ".".join([self.origin[base.id], *parts])
        module, _, name = path.rpartition(".")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return None

    def subclass(self, node: ast.ClassDef, base: ast.AST) -> None:
        cls = self.resolve(base)
        named = f"{cls.__module__}.{cls.__qualname__}" if isinstance(cls, type) else ast.unparse(base)
        if named not in MADE_TO_SUBCLASS:
            self.found.append((node.lineno, f"class {node.name}({ast.unparse(base)})"))
            return
        theirs = "\n".join(_source(k) for k in cls.__mro__ if self.third_party(k.__module__))
        for used in ast.walk(node):
            name = None
            if isinstance(used, ast.FunctionDef | ast.AsyncFunctionDef) and _private(used.name):
                name = used.name
            elif isinstance(used, ast.Attribute) and _private(used.attr):
                on = used.value
                if (
                    isinstance(on, ast.Name)
                    and on.id == "self"
                    or isinstance(on, ast.Call)
                    and ast.unparse(on) == "super()"
                ):
                    name = used.attr
            if name and re.search(rf"(self\.|def ){re.escape(name)}\b", theirs):
                self.found.append((used.lineno, f"class {node.name}({ast.unparse(base)}) uses its base's {name}"))


def _source(cls: type) -> str:
    try:
        return inspect.getsource(cls)
    except (OSError, TypeError):
        return ""


def reaches(root: Path = ROOT) -> list[str]:
    """Every reach past a third-party public API in the project's sources, as ``path:line: what``."""
    own = own_modules(root)
    out = []
    for path in sources(root):
        visitor = Reach(own)
        visitor.visit(ast.parse(path.read_text(), str(path)))
        out += [f"{path.relative_to(root)}:{line}: {what}" for line, what in visitor.found]
    return out


def internals_named(root: Path = ROOT) -> list[str]:
    this = Path(__file__).resolve()
    out = []
    for path in sources(root):
        if path.resolve() == this:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            out += [f"{path.relative_to(root)}:{number}: {name}" for name in INTERNALS if name in line]
    return out


def test_no_subclass_or_private_name_of_another_library():
    assert reaches() == []


def test_no_internal_the_old_server_app_or_store_used_is_named():
    assert internals_named() == []


@pytest.mark.parametrize(
    "code, what",
    [
        ("from waitress.channel import HTTPChannel\nclass C(HTTPChannel): pass", "class C(HTTPChannel)"),
        ("import waitress.server\nclass S(waitress.server.TcpWSGIServer): pass", "class S("),
        ("from werkzeug.routing import Rule\nx = Rule('/')\nx._compile_builder()", "x._compile_builder"),
        ("import sqlite_utils\ndb = sqlite_utils.Database(':memory:')\ndb._tracer", "db._tracer"),
        ("from flask import _app_ctx_stack", "from flask import _app_ctx_stack"),
        ("import h11\nc = h11.Connection(h11.SERVER)\ngetattr(c, '_cstate')", "getattr(c, '_cstate')"),
        ("import waitress\nwith waitress.x() as s:\n    s._map", "s._map"),
    ],
)
def test_the_search_finds_what_it_looks_for(code, what):
    """Each kind of reach is seen (a search that cannot fail would pass on the old server too)."""
    visitor = Reach(own_modules())
    visitor.visit(ast.parse(code))
    assert any(what in found for _, found in visitor.found), visitor.found


def test_the_standard_library_and_the_project_own_names_are_not_counted():
    code = (
        "import asyncio, os\nfrom tableside.core import store\nclass P(asyncio.Protocol): pass\n"
        "os._exit\nstore._migrate\nimport flask\nflask.Flask.__name__\n"
    )
    visitor = Reach(own_modules())
    visitor.visit(ast.parse(code))
    assert visitor.found == []
