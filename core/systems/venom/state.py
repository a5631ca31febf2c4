"""The session state of a VENOM Assault game and the checks every handler shares.

State is plain JSON. Derived values the panel shows (the VENOM Strikes! chance,
the capture chance, the live combat verdict) are refreshed after every action
by ``refresh`` so they can never disagree with the counts they come from.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.odds import percent
from tableside.core.systems.venom import combat, deck, rules

State = dict[str, Any]


def new_combat() -> dict[str, Any]:
    """Nothing allocated, nothing rolled: the state at the start of every Turn."""
    return {
        "combat_leader": "",
        "combat_value": 0,
        "support_dice": 0,
        "dice_count": 0,
        "rolled": False,
        "dice": [],
        "abilities_applied": False,
        "aborted": None,
        "successes": None,
        "verdict": None,
    }


def new_state(options: dict[str, Any]) -> State:
    names: list[str] = options["players"]
    state: State = {
        "mission": options["mission"],
        "players": [{"name": n, "leaders": [], "rewards": []} for n in names],
        "commander": None,
        "roll_off": {"contenders": list(range(len(names))), "rounds": []},
        "round": 0,
        "active_player": None,
        "phase": rules.SETUP,
        "event_track": rules.EVENT_TRACK_START,
        "event_deck": deck.build_event_deck(
            len(names),
            options["venom_strikes_removed"],
            options["freedom_squadron_events"],
            options["venom_events"],
        ),
        "event_drawn_this_phase": False,
        "active_events": [],
        "event_discard": [],
        "leader": None,
        "health_track": rules.TRACK_START,
        "defense_track": rules.TRACK_START,
        "combat": new_combat(),
        "last_roll": None,
        "game_over": None,
    }
    if options["commander"]:
        start_game(state, player_index(state, options["commander"]))
    return refresh(state)


def start_game(state: State, commander: int) -> None:
    """The Commander Token is given: Round 1 starts with the Commander's Event Phase."""
    state["commander"] = commander
    state["active_player"] = commander
    state["round"] = 1
    state["phase"] = rules.EVENT
    state["event_drawn_this_phase"] = False


def reset_tracks(state: State) -> None:
    """End of Turn: the markers go back to the start and the Turn's combat is cleared."""
    state["leader"] = None
    state["health_track"] = rules.TRACK_START
    state["defense_track"] = rules.TRACK_START
    state["combat"] = new_combat()


def player_index(state: State, name: str) -> int:
    """A player by name (case does not matter), or a RuleError listing the players."""
    for i, p in enumerate(state["players"]):
        if p["name"].casefold() == name.strip().casefold():
            return i
    known = ", ".join(p["name"] for p in state["players"])
    raise RuleError(f"no player named {name!r}; players are {known}")


def require_text(value: str, what: str) -> str:
    """Names typed on the phone: an empty one is a mistake, not a card."""
    if not value:
        raise RuleError(f"{what} must not be empty")
    return value


def active_name(state: State) -> str:
    return state["players"][state["active_player"]]["name"]


def require_playing(state: State, what: str) -> None:
    """Most actions need a Commander and a game that is not over."""
    if state["phase"] == rules.GAME_OVER:
        raise RuleError(f"{what}: the game is over")
    if state["phase"] == rules.SETUP:
        raise RuleError(f"{what}: choose the Commander first (commander_roll_off or set_commander)")


def require_phase(state: State, phases: tuple[str, ...], what: str) -> None:
    require_playing(state, what)
    if state["phase"] not in phases:
        allowed = " or ".join(f"{p} Phase" for p in phases)
        raise RuleError(f"{what} happens in the {allowed}, not the {state['phase']} Phase")


def require_leader(state: State, what: str) -> dict[str, Any]:
    require_phase(state, (rules.TACTICAL, rules.COMBAT), what)
    if state["leader"] is None:
        raise RuleError(f"{what}: no VENOM Leader chosen this Turn (choose_leader)")
    return state["leader"]


def require_rolled(state: State, what: str) -> list[dict[str, Any]]:
    require_leader(state, what)
    fight = state["combat"]
    if not fight["rolled"]:
        raise RuleError(f"{what}: the Combat Dice have not been rolled yet")
    return fight["dice"]


def refresh(state: State) -> State:
    """Recompute what the panel shows from the counts and tracks."""
    fight = state["combat"]
    if fight["rolled"]:
        fight["successes"] = combat.count_successes(fight["dice"], state["defense_track"])
        fight["verdict"] = combat.verdict(fight["successes"], state["health_track"])
    elif fight["aborted"]:
        fight["successes"], fight["verdict"] = None, "aborted"
    else:
        fight["successes"], fight["verdict"] = None, None
    vs = deck.venom_strikes_chance(state["event_deck"])
    odds: dict[str, Any] = {
        "venom_strikes_next": str(vs) if vs is not None else None,
        "venom_strikes_next_percent": percent(vs) if vs is not None else None,
        "capture": None,
        "capture_percent": None,
        "abort": None,
    }
    if state["leader"] is not None and not fight["rolled"] and not fight["aborted"]:
        dice, health, defense = fight["dice_count"], state["health_track"], state["defense_track"]
        chance = combat.capture_chance(dice, defense, health)
        odds["capture"], odds["capture_percent"] = str(chance), percent(chance)
        odds["abort"] = combat.abort_reason(dice, health, defense)
    state["odds"] = odds
    state["final_effect"] = state["event_track"] >= rules.EVENT_TRACK_FINAL
    return state
