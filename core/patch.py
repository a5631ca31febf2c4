"""What changed between two JSON values, as a short list of edits a phone applies to what it holds.

A phone that already shows the table's moment needs only the few values one action changed (a
score, a die, whose turn), not the whole view and every form again. ``diff(old, new)`` gives
``[[path, value], ...]`` and ``[path, ...]`` (keys gone); ``apply`` (and the phone's ``applyPatch``
in ``webui/static/app.js``) turns ``old`` into ``new`` with them. Objects are compared key by key
and lists of the same length item by item; anything else that differs is sent whole.
"""

from __future__ import annotations

from typing import Any

Path = list[str | int]


def diff(old: Any, new: Any) -> dict[str, list]:
    """``{"set": [[path, value], ...], "del": [path, ...]}`` that turn ``old`` into ``new``."""
    sets: list[list] = []
    dels: list[Path] = []
    todo: list[tuple[Path, Any, Any]] = [([], old, new)]
    while todo:
        path, a, b = todo.pop()
        if type(a) is type(b) and isinstance(a, dict):
            for key, value in b.items():
                if key not in a:
                    sets.append([[*path, key], value])
                elif not _same(a[key], value):
                    todo.append(([*path, key], a[key], value))
            dels.extend([*path, key] for key in a if key not in b)
        elif type(a) is type(b) and isinstance(a, list) and len(a) == len(b):
            todo.extend(([*path, i], x, y) for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        elif not _same(a, b):
            sets.append([path, b])
    return {"set": sets, "del": dels}


def _same(a: Any, b: Any) -> bool:
    """Equal and of one type: ``True == 1`` in Python, but a phone shows them differently."""
    return type(a) is type(b) and a == b


def apply(value: Any, patch: dict[str, list]) -> Any:
    """``value`` with ``patch`` applied (a copy where it changed): the server's check of its own diff."""
    import copy

    out = copy.deepcopy(value)
    for path, new in patch.get("set", []):
        if not path:
            out = copy.deepcopy(new)
            continue
        node = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = copy.deepcopy(new)
    for path in patch.get("del", []):
        node = out
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return out
