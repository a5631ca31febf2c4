"""The registry of game systems: every folder here is one, found by name and imported lazily.

A folder with an ``__init__.py`` exposing ``SYSTEM`` (a ``core.system.GameSystem`` whose ``id`` is
the folder's name) is a game system: adding one is adding its folder (docs/adding-a-system.md).
Only the names are read at start-up; a system's modules are imported when it is first asked for.
"""

from __future__ import annotations

import importlib
import pkgutil

from tableside.core.errors import NotFound
from tableside.core.system import GameSystem
from tableside.core.text import N_

# The order the phone lists the systems in; a folder not named here comes after them, by name.
LISTED_FIRST = ("vnm", "venom", "vegas", "v2140")


def _found() -> dict[str, str]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_"))
    ordered = [n for n in LISTED_FIRST if n in names] + [n for n in names if n not in LISTED_FIRST]
    return {n: f"{__name__}.{n}" for n in ordered}


SYSTEM_MODULES: dict[str, str] = _found()

_loaded: dict[str, GameSystem] = {}


def get_system(system_id: str) -> GameSystem:
    """The system with this id, or NotFound naming the ids there are."""
    if system_id not in SYSTEM_MODULES:
        known = ", ".join(SYSTEM_MODULES)
        raise NotFound(N_("unknown game system {given}; known: {known}", given=repr(system_id), known=known))
    if system_id not in _loaded:
        system = importlib.import_module(SYSTEM_MODULES[system_id]).SYSTEM
        if system.id != system_id:
            raise RuntimeError(f"core/systems/{system_id}/ exposes a SYSTEM with id {system.id!r}: they must match")
        _loaded[system_id] = system
    return _loaded[system_id]


def all_systems() -> list[GameSystem]:
    return [get_system(system_id) for system_id in SYSTEM_MODULES]
