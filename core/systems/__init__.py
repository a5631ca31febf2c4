"""The registry of game systems, imported lazily so start-up stays lean.

Each module named here exposes ``SYSTEM``, an instance of ``core.system.GameSystem``.
"""

from __future__ import annotations

import importlib

from tableside.core.errors import NotFound
from tableside.core.system import GameSystem

SYSTEM_MODULES: dict[str, str] = {
    "vnm": "tableside.core.systems.vnm",
    "venom": "tableside.core.systems.venom",
    "vegas": "tableside.core.systems.vegas",
    "v2140": "tableside.core.systems.v2140",
}

_loaded: dict[str, GameSystem] = {}


def get_system(system_id: str) -> GameSystem:
    """The system with this id, or NotFound naming the ids there are."""
    if system_id not in SYSTEM_MODULES:
        known = ", ".join(SYSTEM_MODULES)
        raise NotFound(f"unknown game system {system_id!r}; known: {known}")
    if system_id not in _loaded:
        _loaded[system_id] = importlib.import_module(SYSTEM_MODULES[system_id]).SYSTEM
    return _loaded[system_id]


def all_systems() -> list[GameSystem]:
    return [get_system(system_id) for system_id in SYSTEM_MODULES]
