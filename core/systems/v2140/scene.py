"""The scene's state: participants, seats, whose move it is, and the guards every action uses.

State is plain data. Each participant (a player character, or the GM with all the NPCs and
gangs) has a scene pool (faces, private to its seat), books, and for players Player Points.
The GM also holds the Murphy's Pool and the session pool of racks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import rules

State = dict[str, Any]

SEAT_NAME_CHARS = "."  # a name is a key in dotted correction paths


def initial_state(options: Mapping[str, Any]) -> State:
    """A new scene: every participant with an empty pool; the GM's session pool holds one rack per player."""
    players = list(options["players"])
    gm = options["gm"]
    names = [*players, gm]
    for name in names:
        if not name:
            raise RuleError("options: a participant needs a name")
        if any(c in name for c in SEAT_NAME_CHARS):
            raise RuleError(f"options: {name!r}: a name cannot contain '.'")
    folded = [n.casefold() for n in names]
    dupes = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if dupes:
        raise RuleError(f"options: {', '.join(dupes)} named twice (the GM is a participant too)")
    rack = options["rack"]
    participants = {name: _participant("player", rack, options["player_points"]) for name in players}
    participants[gm] = _participant("gm", rack, 0)
    return {
        "seating": names,
        "gm": gm,
        "participants": participants,
        "order": list(names),
        "turn": 0,
        "round": 1,
        "conflict": 1,
        "initiative": {},
        "session_racks": len(players) * rules.SESSION_RACKS_PER_PLAYER,
        "murphy": options["murphy"],
        "murphy_against": {},
        "exchange": None,
        "ledger": [],
        "last_exchange": None,
        "acted": {},
        "goals": [],
        "note": "",
    }


def _participant(role: str, rack: int, player_points: int) -> dict[str, Any]:
    return {
        "role": role,
        "rack": rack,
        "pool": [],
        "dice": 0,
        "books": 0,
        "player_points": player_points if role == "player" else 0,
        "reputation": 0,
        "prepared": None,
        "follow_up": 0,
        "last_roll": None,
    }


def names(state: State) -> list[str]:
    return list(state["seating"])


def player_names(state: State) -> list[str]:
    return [n for n in state["seating"] if state["participants"][n]["role"] == "player"]


def participant(state: State, name: str) -> dict[str, Any]:
    try:
        return state["participants"][name]
    except KeyError:
        raise RuleError(f"{name!r} is not in this scene; participants: {', '.join(state['seating'])}") from None


def current(state: State) -> str:
    return state["order"][state["turn"]]


def who(state: State, action: Mapping[str, Any], key: str = "participant") -> str:
    """The participant an action names, defaulting to whose move it is."""
    name = action.get(key) or current(state)
    participant(state, name)
    return name


def is_gm(state: State, name: str) -> bool:
    return name == state["gm"]


def side_of(state: State, name: str) -> str:
    return "gm" if is_gm(state, name) else "players"


def opponents_have_dice(state: State, name: str) -> bool:
    mine = side_of(state, name)
    return any(p["pool"] for n, p in state["participants"].items() if side_of(state, n) != mine)


def may_act_for(state: State, seat: str | None, name: str) -> str | None:
    """A seated phone acts for its own participant only; the table (no seat) and buttons act for anyone."""
    if seat is None or seat == name:
        return None
    return f"{seat} cannot act for {name} (a scene pool is its owner's)"


def refresh(state: State) -> State:
    """Derived values: every pool's dice count (what everyone may see) and its order, high to low."""
    for p in state["participants"].values():
        p["pool"] = sorted(p["pool"], reverse=True)
        p["dice"] = len(p["pool"])
    return state
