"""Shared look-ups and guards: whose turn it is, which action they chose, who has won.

Every handler raises RuleError before it could leave the table half-changed; the
core applies handlers to a copy, so a refused action changes nothing.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import State
from tableside.core.systems.vnm import rules

EARTH_MUST_WAIT = (
    "Earth may not collect population yet: no alien spaceship has attacked an Earth spaceship "
    "or collected or destroyed population (infecting doesn't count)"
)


def current_world(state: State) -> str:
    """The home world whose turn it is (in a two-player game, one planet of a team)."""
    return state["turn_order"][state["turn"]]


def player_of(state: State, world: str) -> dict[str, Any]:
    return state["players"][state["worlds"][world]["player"]]


def world_in_game(state: State, name: str, field: str = "world") -> str:
    """The home world called ``name`` (any case), or a RuleError naming the ones in play."""
    world = rules.canonical(name, list(state["worlds"]))
    if world is None:
        raise RuleError(f"{field}: {name!r} is not a home world in this game "
                        f"(playing: {', '.join(state['worlds'])})")
    return world


def land_area(state: State, name: str) -> dict[str, Any]:
    """The land area called ``name``; the Refuge, an ocean or a typo is refused by name."""
    for area in state["land_areas"]:
        if area["name"].casefold() == name.strip().casefold():
            return area
    if rules.canonical(name, [rules.REFUGE]):
        raise RuleError(f"area: the {rules.REFUGE} is not a land area; no spaceship can go there")
    known = ", ".join(a["name"] for a in state["land_areas"])
    raise RuleError(f"area: unknown land area {name!r}; the land areas are {known}")


def guard_open(state: State) -> None:
    """After a win nothing more happens (undo is the core's)."""
    if state["winners"]:
        raise RuleError(f"the game is over: {winner_names(state)} won")


def guard_turn(state: State) -> None:
    """A turn's action waits until an earlier roll's follow-up die is rolled."""
    guard_open(state)
    pending = state["pending_roll"]
    if pending:
        raise RuleError(f"first roll the {pending['label']} (button B, or follow_up_roll)")


def begin(state: State, kind: str) -> dict[str, Any]:
    """This turn's action: "You can never combine actions"."""
    chosen = state["turn_action"]
    if chosen is None:
        chosen = {"kind": kind, "count": 0, "extensions": 0}
        state["turn_action"] = chosen
    elif chosen["kind"] != kind:
        raise RuleError(f"{current_world(state)} already chose the {rules.ACTIONS[chosen['kind']]} action "
                        f"this turn, and actions can never be combined")
    return chosen


def enhanced_only(state: State, what: str) -> None:
    if state["version"] != "Enhanced":
        raise RuleError(f"{what} is only in the Enhanced game; this is the Basic game")


def team_population(state: State, player: int) -> int:
    """A player's population: their home world, or a two-player team's two home worlds combined."""
    worlds = state["players"][player]["home_worlds"]
    return sum(state["worlds"][w]["population"] for w in worlds)


def winner_names(state: State) -> str:
    return " and ".join(state["players"][i]["name"] for i in state["winners"])


def check_winners(state: State) -> str | None:
    """Announce a win the moment the threshold is reached; several at once share the victory."""
    if state["winners"]:
        return None
    reached = [i for i in range(len(state["players"])) if team_population(state, i) >= state["threshold"]]
    if not reached:
        return None
    state["winners"] = reached
    if len(reached) > 1:
        return f"Shared victory: {winner_names(state)} reach {state['threshold']} together!"
    score = team_population(state, reached[0])
    return f"{winner_names(state)} wins with {score} of {state['threshold']} population!"


def progress(state: State, world: str) -> str:
    """'Venus 12/34', or for a two-player team 'Wally 30/51'."""
    player = state["worlds"][world]["player"]
    name = state["players"][player]["name"]
    return f"{name} {team_population(state, player)}/{state['threshold']}"
