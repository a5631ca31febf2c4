"""Shared look-ups and availability checks: whose turn it is, which action they chose, who has won.

Every check returns the reason in words (or None) and is an action's ``available``: the phone
greys the action out and says why, and the core refuses the action with that reason before its
handler runs, so no handler checks it again.
"""

from __future__ import annotations

from typing import Any

from tableside.core import words
from tableside.core.errors import RuleError
from tableside.core.system import State
from tableside.core.systems.vnm import rules
from tableside.core.text import N_

EARTH_MUST_WAIT = N_(
    "Earth may not collect population yet: no alien spaceship has attacked an Earth spaceship "
    "or collected or destroyed population (infecting doesn't count)"
)


def current_world(state: State) -> str:
    """The home world whose turn it is (in a two-player game, one planet of a team)."""
    return state["turn_order"][state["turn"]]


def player_of(state: State, world: str) -> dict[str, Any]:
    return state["players"][state["worlds"][world]["player"]]


def current_player(state: State) -> str:
    """The seat whose turn it is: the player's name (a team's name in a two-player game)."""
    return player_of(state, current_world(state))["name"]


def start_player(state: State) -> str:
    """The seat that took the first turn: the player of the first home world of the turn order."""
    return player_of(state, state["turn_order"][0])["name"]


def world_in_game(state: State, name: str, field: str = "world") -> str:
    """The home world called ``name`` (any case), or a RuleError naming the ones in play."""
    world = rules.canonical(name, list(state["worlds"]))
    if world is None:
        raise RuleError(
            N_(
                "{field}: {name} is not a home world in this game (playing: {worlds})",
                field=field,
                name=repr(name),
                worlds=", ".join(state["worlds"]),
            )
        )
    return world


def land_area(state: State, name: str) -> dict[str, Any]:
    """The land area called ``name``; the Refuge, an ocean or a typo is refused by name."""
    for area in state["land_areas"]:
        if area["name"].casefold() == name.strip().casefold():
            return area
    if rules.canonical(name, [rules.REFUGE]):
        raise RuleError(N_("area: the {refuge} is not a land area; no spaceship can go there", refuge=rules.REFUGE))
    known = ", ".join(a["name"] for a in state["land_areas"])
    raise RuleError(N_("area: unknown land area {name}; the land areas are {known}", name=repr(name), known=known))


# --- why an action cannot be taken now (None: it can) ------------------------------


def game_over(state: State) -> str | None:
    """After a win nothing more happens (undo is the core's)."""
    return N_("the game is over: {winners} won", winners=winner_names(state)) if state["winners"] else None


def follow_up_waiting(state: State) -> str | None:
    pending = state["pending_roll"]
    if pending:
        return N_("first roll the {label} (button A or B, or Roll the follow-up die)", label=pending["label"])
    return None


def not_your_turn(state: State, seat: str | None) -> str | None:
    """A phone holding a seat acts only on its own turn; buttons and the CLI act for the table (seat None)."""
    if seat is None or seat == current_player(state):
        return None
    return N_(
        "it is {current}'s turn, not {seat}'s", current=who(state, current_world(state)), seat=seat_label(state, seat)
    )


def turn_closed(state: State, seat: str | None = None) -> str | None:
    """Why the player whose turn it is cannot act now: game over, a follow-up roll waiting, another seat."""
    return game_over(state) or follow_up_waiting(state) or not_your_turn(state, seat)


def other_action_chosen(state: State, kind: str) -> str | None:
    """ "You can never combine actions"."""
    chosen = state["turn_action"]
    if chosen is not None and chosen["kind"] != kind:
        return N_(
            "{world} already chose the {action} action this turn, and actions can never be combined",
            world=who(state, current_world(state)),
            action=rules.ACTIONS[chosen["kind"]],
        )
    return None


def not_enhanced(state: State, what: str) -> str | None:
    if state["version"] != "Enhanced":
        return N_("{what} is only in the Enhanced game; this is the Basic game", what=what)
    return None


def begin(state: State, kind: str) -> dict[str, Any]:
    """This turn's action; the ships on the board when it starts bound what it may do. (That no other
    action was chosen this turn is each action's ``available`` check, which the core ran first.)"""
    chosen = state["turn_action"]
    if chosen is None:
        ships = ships_commanded(state, current_world(state))
        chosen = {"kind": kind, "count": 0, "extensions": 0, "ships": ships}
        state["turn_action"] = chosen
    return chosen


def controlled(state: State) -> list[dict[str, Any]]:
    """The spaceships taken over by Mind Control, one row each: ``{"ship": its fleet, "by": the controlling
    world, "turn_no": the turn it was taken}`` (a state from before Mind Control was modelled has none)."""
    return state.get("controlled") or []


def controls(state: State, world: str) -> list[dict[str, Any]]:
    """The other fleets' spaceships ``world`` controls now."""
    return [c for c in controlled(state) if c["by"] == world]


def taken_from(state: State, world: str) -> int:
    """How many of ``world``'s spaceships another player controls: "Its original owner no longer controls it"."""
    return sum(1 for c in controlled(state) if c["ship"] == world)


def own_ships(state: State, world: str) -> int:
    """``world``'s spaceships on the board that it still controls itself."""
    return state["worlds"][world]["on_board"] - taken_from(state, world)


def ships_commanded(state: State, world: str) -> int:
    """The spaceships ``world`` acts with: its own that it still controls, and those it controls by Mind
    Control ("you can use the controlled spaceship just as if it were one of your own spaceships")."""
    return own_ships(state, world) + len(controls(state, world))


def has_earth(state: State) -> bool:
    return "Earth" in state["worlds"]


def team_population(state: State, player: int) -> int:
    """A player's population: their home world, or a two-player team's two home worlds combined."""
    worlds = state["players"][player]["home_worlds"]
    return sum(state["worlds"][w]["population"] for w in worlds)


def winner_names(state: State) -> str:
    return " and ".join(player_label(state, i) for i in state["winners"])


def check_winners(state: State) -> str | None:
    """Announce a win the moment the threshold is reached; several at once share the victory."""
    if state["winners"]:
        return None
    reached = [i for i in range(len(state["players"])) if team_population(state, i) >= state["threshold"]]
    if not reached:
        return None
    state["winners"] = reached
    if len(reached) > 1:
        return N_(
            "Shared victory: {winners} reach {threshold} together!",
            winners=winner_names(state),
            threshold=state["threshold"],
        )
    score = team_population(state, reached[0])
    return N_(
        "{winners} wins with {score} of {threshold} population!",
        winners=winner_names(state),
        score=score,
        threshold=state["threshold"],
    )


def progress(state: State, world: str) -> str:
    """How far ``world``'s player is towards the threshold: "population 12/34", for a two-player
    team "team population 30/51" (their two home worlds together)."""
    player = state["worlds"][world]["player"]
    whose = "team population" if len(state["players"][player]["home_worlds"]) > 1 else "population"
    return f"{whose} {team_population(state, player)}/{state['threshold']}"


def population_total(state: State) -> int:
    """Every population unit in the game, wherever it is now (the conservation law's left side)."""
    earth = sum(a["population"] + a["infected"] for a in state["land_areas"])
    homes = sum(w["population"] for w in state["worlds"].values())
    return earth + homes + state["destroyed"]


def named_for_worlds(player: dict[str, Any]) -> bool:
    """A player left unnamed at setup is named for their home world(s): "Pluto", "Mars & Venus"."""
    return player["name"] == " & ".join(player["home_worlds"])


def faction(state: State, seat: str) -> str | None:
    """The home world(s) of the player at ``seat``, as an unnamed player is named: "Mars & Venus"."""
    return next((" & ".join(p["home_worlds"]) for p in state["players"] if p["name"] == seat), None)


def label_of(player: dict[str, Any]) -> str:
    """A player as every screen, chart and log line names them: "Ann (Venus)", a two-player team
    "Wally (Mars, Venus)", a player left unnamed their world(s) alone ("Pluto"). The e-paper's
    short form, where it has no room, drops the parenthesis ("Ann"; docs/display.md)."""
    if named_for_worlds(player):
        return player["name"]
    return f"{player['name']} ({', '.join(player['home_worlds'])})"


def player_label(state: State, index: int) -> str:
    """``label_of`` the player at ``index`` of ``state["players"]``."""
    return label_of(state["players"][index])


def seat_label(state: State, seat: str) -> str:
    """A seat (a player's name) as every screen names the player: "Bob" is "Bob (Mars)"."""
    for i, player in enumerate(state["players"]):
        if player["name"] == seat:
            return player_label(state, i)
    return seat


# The things the rules count, marked one form each (#38), so a German phone says "3 Raumschiffe" inside a German
# sentence; the English is core.words.plural's, word for word (tests/test_vnm_venom_german.py checks it).
_COUNTED = {
    "spaceship": (lambda n: N_("{count} spaceship", count=n), lambda n: N_("{count} spaceships", count=n)),
    "more spaceship": (
        lambda n: N_("{count} more spaceship", count=n),
        lambda n: N_("{count} more spaceships", count=n),
    ),
    "own spaceship": (lambda n: N_("{count} own spaceship", count=n), lambda n: N_("{count} own spaceships", count=n)),
    "ship": (lambda n: N_("{count} ship", count=n), lambda n: N_("{count} ships", count=n)),
    "Zap card": (lambda n: N_("{count} Zap card", count=n), lambda n: N_("{count} Zap cards", count=n)),
    "card": (lambda n: N_("{count} card", count=n), lambda n: N_("{count} cards", count=n)),
    "Zap extension": (lambda n: N_("{count} Zap extension", count=n), lambda n: N_("{count} Zap extensions", count=n)),
    "more chip": (lambda n: N_("{count} more chip", count=n), lambda n: N_("{count} more chips", count=n)),
    "time": (lambda n: N_("{count} time", count=n), lambda n: N_("{count} times", count=n)),
}


def many(count: int, thing: str) -> str:
    """A count said as a person says it: "1 spaceship", "2 spaceships", "0 Zap cards" (``core.words``' rule)."""
    return words.counted(count, thing, _COUNTED)


def who(state: State, world: str) -> str:
    """The player acting for ``world``, named as every screen names them: "Ann (Pluto)"; one planet
    of a two-player team "Wally (Mars)"; just "Pluto" when the player is named for the world."""
    team = player_of(state, world)
    return world if named_for_worlds(team) else f"{team['name']} ({world})"


def whose(state: State, world: str) -> str:
    """The possessive of ``who``: "Ann (Pluto)'s", "Pluto's"."""
    return f"{who(state, world)}'s"


def round_name(state: State) -> str | None:
    """The round being played ("Round 2": a round ends once every player took a turn, play passing to the left);
    None once a player won."""
    return None if state.get("winners") else N_("Round {round}", round=state["round"])


def round_numbers(state: State) -> dict[str, dict[str, int]]:
    """Each player's population and spaceships on the board, over their home worlds: what a round's summary
    compares (the Zap cards in a hand are no one else's)."""
    out: dict[str, dict[str, int]] = {}
    for i, player in enumerate(state["players"]):
        worlds = [w for w in state["worlds"].values() if w["player"] == i]
        out[label_of(player)] = {
            "population": sum(w["population"] for w in worlds),
            "spaceships on the board": sum(w["on_board"] for w in worlds),
        }
    return out
