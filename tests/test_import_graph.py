"""No import circle anywhere in Tableside (core/, display/, device/, webui/, tableside/), counting
imports inside functions too.

A circle makes the import order matter (a half-initialised module at start-up) and hides which
layer depends on which. The graph is read from the source with ``ast``: every ``import`` and
``from ... import`` of a Tableside module, at any depth. ``from pkg import sub`` counts as an
import of ``pkg.sub`` only, as Python itself imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {
    "core": "tableside.core",
    "display": "tableside.display",
    "device": "tableside.device",
    "webui": "tableside.webui",
    "tableside": "tableside",
}


def modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & mods.keys()
                deps |= subs
                if node.module in mods and len(subs) < len(node.names):
                    deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names} & mods.keys()
        edges[name] = deps - {name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_imports_inside_functions():
    edges = graph(modules())
    assert "tableside.webui.pages" in edges["tableside.webui.app"]  # imported in a function
    assert "tableside.display.layout" in edges["tableside.display.render"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    assert circles(graph(modules())) == []


# Each layer imports its own package and those below it, never one above: the app package (``tableside``)
# wires the layers together in ``main()``, and a layer that reached up into it would depend on its wiring.
LAYERS = ("tableside.core", "tableside.display", "tableside.device", "tableside.webui", "tableside")


def layer(module: str) -> int:
    """The rank of ``module``'s layer: 0 for the core, up to the app package on top."""
    return next(i for i, top in enumerate(LAYERS) if module == top or module.startswith(top + "."))


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import of a module in a layer above the importer's."""
    return sorted((a, b) for a, deps in edges.items() for b in deps if layer(b) > layer(a))


def test_upward_imports_are_found():
    edges = {
        "tableside.device.display": {"tableside.frames", "tableside.display.panels"},
        "tableside.webui.api": {"tableside.core.table", "tableside.exports"},
        "tableside.serve": {"tableside.webui.app"},
    }
    assert upward(edges) == [
        ("tableside.device.display", "tableside.frames"),
        ("tableside.webui.api", "tableside.exports"),
    ]


def test_no_layer_imports_one_above_it():
    assert upward(graph(modules())) == []
