"""Earth's population: collecting, infecting and destroying chips, and card gains.

Healthy (green) and infected (yellow, Enhanced) chips are counted apart per land
area. Collected population goes to the home world, or to the Secret
Underground Refuge for Earth, where it is safe and counts toward the win.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import BadRequest, RuleError
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.table import (
    EARTH_MUST_WAIT,
    begin,
    check_winners,
    current_world,
    enhanced_only,
    guard_open,
    guard_turn,
    land_area,
    progress,
    world_in_game,
)


def _take(area: dict[str, Any], count: int, infected: bool, verb: str) -> None:
    """Remove chips from an area, or refuse naming what is there."""
    key = "infected" if infected else "population"
    kind = "infected" if infected else "healthy"
    have = area[key]
    if have == 0:
        other = area["population"] if infected else area["infected"]
        hint = f" ({other} {'healthy' if infected else 'infected'} there)" if other else ""
        raise RuleError(f"area: {area['name']} has no {kind} population left to {verb}{hint}")
    if count > have:
        raise RuleError(f"area: {area['name']} has only {have} {kind} population, so {count} cannot be {_PAST[verb]}")
    area[key] -= count


_PAST = {"collect": "collected", "infect": "infected", "destroy": "destroyed", "take": "taken"}


def _home(world: str) -> str:
    return rules.REFUGE if world == "Earth" else world


def collect(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Population Action: chips from a land area onto the home world (Earth: the Refuge)."""
    guard_turn(state)
    world = current_world(state)
    if world == "Earth" and not state["earth_may_collect"]:
        raise RuleError(EARTH_MUST_WAIT)
    area = land_area(state, action["area"])
    count, infected = action["count"], action["infected"]
    _take(area, count, infected, "collect")
    begin(state, "population")["count"] += count
    state["worlds"][world]["population"] += count
    notes = []
    if world != "Earth" and not state["earth_may_collect"]:
        state["earth_may_collect"] = True
        notes.append("Earth may now collect population")
    win = check_winners(state)
    kind = " infected" if infected else ""
    summary = f"{world} collects {count}{kind} from {area['name']} to {_home(world)}: {progress(state, world)}"
    summary += "".join(f"; {n}" for n in notes)
    if win:
        summary += f". {win}"
    return state, {"summary": summary, "population": state["worlds"][world]["population"],
                   "winners": list(state["winners"])}


def infect(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Titanian parasites (Titan Special, Enhanced): healthy chips become yellow ones. Not a trigger."""
    guard_turn(state)
    enhanced_only(state, "Infecting population")
    world = current_world(state)
    if world != "Titan":
        raise RuleError(f"{world} cannot infect population: infection is described on Titan's Special card")
    area = land_area(state, action["area"])
    count = action["count"]
    _take(area, count, False, "infect")
    area["infected"] += count
    begin(state, "population")["count"] += count
    return state, {"summary": f"Titan infects {count} in {area['name']}: {area['population']} healthy, "
                              f"{area['infected']} infected", "area": area["name"]}


def destroy_population(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Destroying population is part of the population action in the Enhanced game (by a card's power)."""
    guard_turn(state)
    enhanced_only(state, "Destroying population")
    world = current_world(state)
    area = land_area(state, action["area"])
    count, infected = action["count"], action["infected"]
    _take(area, count, infected, "destroy")
    begin(state, "population")["count"] += count
    notes = ""
    if world != "Earth" and not state["earth_may_collect"]:
        state["earth_may_collect"] = True
        notes = "; Earth may now collect population"
    kind = " infected" if infected else ""
    return state, {"summary": f"{world} destroys {count}{kind} population in {area['name']}{notes}",
                   "area": area["name"]}


def receive_population(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Zap cards such as Natural Disaster and Alien Plague give several players population at once.

    The card texts are not in the seed, so the players enter who receives how
    much (and from which land area, if any); then everyone who reached the
    threshold shares the victory.
    """
    guard_open(state)
    gains = action["gains"]
    if not gains:
        raise RuleError("gains: list at least one world that receives population")
    parts = []
    for index, gain in enumerate(gains):
        world, count, area_name, infected = _gain(state, gain, index)
        if area_name is not None:
            area = land_area(state, area_name)
            _take(area, count, infected, "take")
            parts.append(f"{world} +{count} from {area['name']}")
        else:
            parts.append(f"{world} +{count}")
        state["worlds"][world]["population"] += count
    card = f"{action['card']}: " if action.get("card") else ""
    summary = card + ", ".join(parts)
    win = check_winners(state)
    if win:
        summary += f". {win}"
    return state, {"summary": summary, "winners": list(state["winners"])}


def _gain(state: State, gain: Any, index: int) -> tuple[str, int, str | None, bool]:
    where = f"gains {index + 1}"
    if not isinstance(gain, Mapping):
        raise BadRequest(f"{where} must be {{\"world\": ..., \"count\": ...}}")
    extra = sorted(set(gain) - {"world", "count", "area", "infected"})
    if extra:
        raise BadRequest(f"{where}: unknown field(s) {', '.join(extra)}")
    world, count = gain.get("world"), gain.get("count")
    area, infected = gain.get("area"), gain.get("infected", False)
    if not isinstance(world, str):
        raise BadRequest(f"{where}: 'world' must be a home world's name")
    if isinstance(count, bool) or not isinstance(count, int):
        raise BadRequest(f"{where}: 'count' must be a whole number")
    if area is not None and not isinstance(area, str):
        raise BadRequest(f"{where}: 'area' must be a land area's name")
    if not isinstance(infected, bool):
        raise BadRequest(f"{where}: 'infected' must be true or false")
    if count < 1:
        raise RuleError(f"{where}: count must be at least 1, got {count}")
    return world_in_game(state, world, where), count, area, infected
