"""Earth's population: collecting, infecting and destroying chips, and card gains.

Healthy (green) and infected (yellow, Enhanced) chips are counted apart per land
area. Collected population goes to the home world, or to the Secret
Underground Refuge for Earth, where it is safe and counts toward the win.
Population is never created: every unit comes from a land area, and destroyed
units go to the destroyed pile, so Earth + infected + home worlds + Refuge +
destroyed is always the game's total.

The Population Action is bounded by the spaceships on the board: "Each of your
spaceships can collect one population unit" (Alluring Venus two, Enhanced), and
each Zap card discarded to extend the action adds one more unit, never two.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import (
    EARTH_MUST_WAIT,
    begin,
    check_winners,
    current_world,
    has_earth,
    land_area,
    many,
    other_action_chosen,
    progress,
    ships_commanded,
    turn_closed,
    who,
    world_in_game,
)
from tableside.core.text import N_

_PAST = {"collect": N_("collected"), "infect": N_("infected"), "destroy": N_("destroyed"), "take": N_("taken")}
_VERB = {"collect": N_("collect"), "infect": N_("infect"), "destroy": N_("destroy"), "take": N_("take")}
_KIND = {True: N_("infected"), False: N_("healthy")}  # which chips: yellow (infected) or green (healthy)


def _take(area: dict[str, Any], count: int, infected: bool, verb: str) -> None:
    """Remove chips from an area, or refuse naming what is there."""
    key = "infected" if infected else "population"
    kind = _KIND[infected]
    have = area[key]
    if have == 0:
        other = area["population"] if infected else area["infected"]
        hint = N_(" ({other} {kind} there)", other=other, kind=_KIND[not infected]) if other else ""
        raise RuleError(
            N_(
                "area: {area} has no {kind} population left to {verb}{hint}",
                area=area["name"],
                kind=kind,
                verb=_VERB[verb],
                hint=hint,
            )
        )
    if count > have:
        raise RuleError(
            N_(
                "area: {area} has only {have} {kind} population, so {count} cannot be {past}",
                area=area["name"],
                have=have,
                kind=kind,
                count=count,
                past=_PAST[verb],
            )
        )
    area[key] -= count


def _home(world: str) -> str:
    """Where collected population goes, said only for Earth (an alien's goes to their home world)."""
    return N_(" to the {refuge}", refuge=rules.REFUGE) if world == "Earth" else ""


# --- how many units the action may still move --------------------------------------


def per_ship(state: State, world: str) -> int:
    """Units one spaceship collects: two for Venus in the Enhanced game (Alluring), else one."""
    alluring = state["version"] == "Enhanced" and world == rules.ALLURING_WORLD
    return rules.ALLURING_UNITS if alluring else 1


def extensions_needed(ships: int, per_collect: int, collected: int, other: int) -> int:
    """Zap extensions these units need: ships cover ``per_collect`` collections or one infect/destroy each.

    The best use of the ships is found by trying every split (at most six ships).
    """
    return min(max(0, collected - per_collect * a) + max(0, other - (ships - a)) for a in range(ships + 1))


def units_left(state: State, collecting: bool = True) -> int:
    """How many more units the population action this turn may collect (or infect/destroy)."""
    world = current_world(state)
    chosen = state["turn_action"]
    ships = ships_commanded(state, world) if chosen is None else chosen["ships"]
    extensions = chosen["extensions"] if chosen else 0
    collected = chosen.get("collected", 0) if chosen else 0
    other = chosen.get("other", 0) if chosen else 0
    per = per_ship(state, world)
    n = 0
    while n < 100:
        more = (collected + n + 1, other) if collecting else (collected, other + n + 1)
        if extensions_needed(ships, per, *more) > extensions:
            break
        n += 1
    return n


def no_ship(state: State) -> str | None:
    world = current_world(state)
    if state["worlds"][world]["on_board"] == 0:
        return N_(
            "{world} has no spaceship on the board, so it cannot collect, infect or destroy population",
            world=who(state, world),
        )
    return None


def population_closed(state: State, seat: str | None = None) -> str | None:
    """Why the player whose turn it is cannot take a Population Action now."""
    return turn_closed(state, seat) or other_action_chosen(state, "population") or no_ship(state)


def collect_closed(state: State, seat: str | None = None) -> str | None:
    reason = turn_closed(state, seat) or other_action_chosen(state, "population")
    if reason:
        return reason
    if current_world(state) == "Earth" and not state["earth_may_collect"]:
        return EARTH_MUST_WAIT
    return no_ship(state)


def _spend(state: State, count: int, collecting: bool) -> dict[str, Any]:
    world = current_world(state)
    left = units_left(state, collecting)
    if count > left:
        chosen = state["turn_action"]
        ships = chosen["ships"] if chosen else ships_commanded(state, world)
        ext = chosen["extensions"] if chosen else 0
        done = chosen["count"] if chosen else 0
        unit = N_("two units") if collecting and per_ship(state, world) == 2 else N_("one unit")
        raise RuleError(
            N_(
                "{world} has {spaceships} on the board ({unit} each) and {extensions} (one unit each): "
                "{done} done, so {left} more, not {count}; extend with a Zap card for one more",
                world=who(state, world),
                spaceships=many(ships, "spaceship"),
                unit=unit,
                extensions=many(ext, "Zap extension"),
                done=done,
                left=left,
                count=count,
            )
        )
    chosen = begin(state, "population")
    chosen["count"] += count
    key = "collected" if collecting else "other"
    chosen[key] = chosen.get(key, 0) + count
    return chosen


def _earth_may_now_collect(state: State, world: str) -> list[str]:
    """An alien collecting or destroying lets Earth collect; said only in a game with Earth."""
    if world != "Earth" and has_earth(state) and not state["earth_may_collect"]:
        state["earth_may_collect"] = True
        return [N_("{earth} may now collect population", earth=who(state, "Earth"))]
    return []


def collect(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Population Action: chips from a land area onto the home world (Earth: the Refuge)."""
    world = current_world(state)
    area = land_area(state, action["area"])
    count, infected = action["count"], action["infected"]
    _take(area, count, infected, "collect")
    _spend(state, count, collecting=True)
    state["worlds"][world]["population"] += count
    notes = _earth_may_now_collect(state, world)
    win = check_winners(state)
    kind = " infected" if infected else ""
    summary = N_(
        "{world} collects {count}{kind} from {area}{home}: {progress}",
        world=who(state, world),
        count=count,
        kind=kind,
        area=area["name"],
        home=_home(world),
        progress=progress(state, world),
    )
    summary += "".join(f"; {n}" for n in notes)
    if win:
        summary += f". {win}"
    return state, {
        "summary": summary,
        "population": state["worlds"][world]["population"],
        "from": area["name"],
        "winners": list(state["winners"]),
    }


def infect_closed(state: State, seat: str | None = None) -> str | None:
    if state["version"] != "Enhanced":
        return N_("Infecting population is only in the Enhanced game; this is the Basic game")
    if current_world(state) != "Titan":
        return N_(
            "{world} cannot infect population: infection is described on Titan's Special card",
            world=who(state, current_world(state)),
        )
    return population_closed(state, seat)


def infect(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Titanian parasites (Titan Special, Enhanced): healthy chips become yellow ones. Not a trigger."""
    area = land_area(state, action["area"])
    count = action["count"]
    _take(area, count, False, "infect")
    area["infected"] += count
    _spend(state, count, collecting=False)
    return state, {
        "summary": N_(
            "{titan} infects {count} in {area}: {population} healthy, {infected} infected",
            titan=who(state, "Titan"),
            count=count,
            area=area["name"],
            population=area["population"],
            infected=area["infected"],
        ),
        "area": area["name"],
    }


def destroy_closed(state: State, seat: str | None = None) -> str | None:
    if state["version"] != "Enhanced":
        return N_("Destroying population is only in the Enhanced game; this is the Basic game")
    return population_closed(state, seat)


def destroy_population(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Destroying population is part of the population action in the Enhanced game (by a card's power)."""
    world = current_world(state)
    area = land_area(state, action["area"])
    count, infected = action["count"], action["infected"]
    _take(area, count, infected, "destroy")
    _spend(state, count, collecting=False)
    state["destroyed"] += count
    notes = "".join(f"; {n}" for n in _earth_may_now_collect(state, world))
    kind = " infected" if infected else ""
    return state, {
        "summary": N_(
            "{world} destroys {count}{kind} population in {area}{notes}",
            world=who(state, world),
            count=count,
            kind=kind,
            area=area["name"],
            notes=notes,
        ),
        "area": area["name"],
    }


def receive_population(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Zap cards such as Natural Disaster and Alien Plague give several players population at once.

    The card texts are not in the seed, so the players enter who receives how
    much and from which land area (population is never created); then everyone
    who reached the threshold shares the victory.
    """
    parts = []
    for gain in action["gains"]:
        world = world_in_game(state, gain["world"], "gains")
        area = land_area(state, gain["area"])
        count = gain["count"]
        _take(area, count, gain["infected"], "take")
        parts.append(f"{who(state, world)} +{count} from {area['name']}")
        state["worlds"][world]["population"] += count
    card = f"{action['card']}: " if action.get("card") else ""
    summary = card + ", ".join(parts)
    win = check_winners(state)
    if win:
        summary += f". {win}"
    return state, {"summary": summary, "winners": list(state["winners"])}
