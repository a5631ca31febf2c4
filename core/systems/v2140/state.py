"""The scene's state: participants, whose move it is, and when each action is available.

State is plain data. Each participant (a player character, or the GM with all the NPCs and
gangs) has a scene pool (faces, private to its seat), books, and for players Player Points.
The GM also holds the Murphy's Pool and the session pool of racks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.text import N_

State = dict[str, Any]


def names(state: State) -> list[str]:
    return list(state["seating"])


def player_names(state: State) -> list[str]:
    return [n for n in state["seating"] if state["participants"][n]["role"] == "player"]


def participant(state: State, name: str) -> dict[str, Any]:
    try:
        return state["participants"][name]
    except KeyError:
        raise RuleError(
            N_(
                "{name} is not in this scene; participants: {seating}",
                name=repr(name),
                seating=", ".join(state["seating"]),
            )
        ) from None


def current(state: State) -> str:
    return state["order"][state["turn"]]


def leader(state: State) -> str:
    """Who starts the next exchange: "The side that captured last time starts a new exchange until someone
    is out of dice"; with no such capture standing, whose move it is."""
    lead = state.get("lead")
    return lead if lead in state["participants"] else current(state)


def who(state: State, action: Mapping[str, Any], key: str = "participant") -> str:
    """The participant an action names, defaulting to whose move it is (the actor of an exchange: who leads)."""
    name = action.get(key) or (leader(state) if key == "actor" else current(state))
    participant(state, name)
    return name


def is_gm(state: State, name: str) -> bool:
    return name == state["gm"]


def side_of(state: State, name: str) -> str:
    return "gm" if is_gm(state, name) else "players"


def opponents_have_dice(state: State, name: str) -> bool:
    mine = side_of(state, name)
    return any(p["pool"] for n, p in state["participants"].items() if side_of(state, n) != mine)


def derive(state: State) -> State:
    """Derived values: every pool's dice count (what everyone may see) and its order, high to low."""
    for p in state["participants"].values():
        p["pool"] = sorted(p["pool"], reverse=True)
        p["dice"] = len(p["pool"])
    return state


refresh = derive  # the pure rules' name for it


def no_exchange(state: State, seat: str | None) -> str | None:
    ex = state["exchange"]
    return (
        N_(
            "{actor}'s exchange against {target} is waiting; resolve it with button B",
            actor=ex["actor"],
            target=ex["target"],
        )
        if ex
        else None
    )


def forward_now(state: State, seat: str | None) -> str | None:
    """Putting dice forward: no exchange waiting, and a seated phone's own pool holds dice ("until
    someone is out of dice"). A seated phone puts forward only its own seat's dice, so an empty pool
    has nothing to offer there: no dead end of a form with no dice (the table's phone acts for anyone)."""
    busy = no_exchange(state, seat)
    if busy:
        return busy
    p = state["participants"].get(seat) if seat else None
    if p is not None and not p["dice"]:  # the count: the public view has no faces
        return N_("{seat} has no dice in the scene pool to put forward", seat=seat)
    return None


def pool_to_roll(state: State, seat: str | None) -> str | None:
    """Rolling a scene pool: a seated phone rolls only its own seat's dice, so a seat with none drawn is
    not offered it ("Shred: roll the scene pool" is Shred's; the table's phone rolls for anyone)."""
    p = state["participants"].get(seat) if seat else None
    if p is not None and not p["prepared"]:
        return N_("{seat} has no dice drawn to roll: draw dice for a scene pool first", seat=seat)
    return None


def awaiting_answer(state: State, seat: str | None) -> str | None:
    ex = state["exchange"]
    if not ex:
        return N_("no exchange is waiting for an answer")
    if ex["answer"] is not None:
        return N_("{target} has answered; resolve it with button B", target=ex["target"])
    if not ex["answer_count"]:
        return N_("{target} has no dice to answer; resolve it with button B", target=ex["target"])
    if seat is not None and seat in state["participants"] and seat != ex["target"]:
        # The answer comes from the target's own pool, private to the target's phone: another seat's
        # phone would open a form it can only be refused from.
        return N_("{target} answers with their own dice", target=ex["target"])
    return None


def pending_exchange(state: State, seat: str | None) -> str | None:
    return None if state["exchange"] else N_("no exchange is waiting: put dice forward first")


def round_name(state: State) -> str | None:
    """The conflict being played ("Conflict 2"): a conflict's end passes its dice on to the next conflict's
    pools."""
    return N_("Conflict {conflict}", conflict=state["conflict"]) if isinstance(state.get("conflict"), int) else None


def round_numbers(state: State) -> dict[str, dict[str, int]]:
    """Each participant's books, player points and reputation: what a conflict's summary compares. A die
    captured in an exchange becomes its captor's book, so books tell the captures (the ledger's own count is
    the dice law's, both sides' dice, not one participant's). A pool's faces are its owner's and never read here."""
    return {
        name: {
            "books": int(p.get("books") or 0),
            "player points": int(p.get("player_points") or 0),
            "reputation": int(p.get("reputation") or 0),
        }
        for name, p in state["participants"].items()
    }


def round_events(state: State) -> dict[str, tuple[int, dict[int, dict[str, str]]]]:
    """The goals bought in each conflict the state's record names (``goals``, each with its conflict): the
    rulebook names no winner of a conflict; "A goal represents something that your actions have accomplished
    during the conflict", and a conflict ends when the players agree "they have gotten what they want out of
    the current conflict or they are ready to admit it is impossible". The state after a follow-up still holds
    the goals of the conflict it ended."""
    out: dict[str, tuple[int, dict[int, dict[str, str]]]] = {}
    for goal in state.get("goals") or []:
        name = f"Conflict {goal.get('conflict')}"
        count, shown = out.get(name, (0, {}))
        shown[count + 1] = {"who": str(goal["who"]), "goal": str(goal["goal"]), "target": str(goal.get("target") or "")}
        out[name] = (count + 1, shown)
    if isinstance(state.get("conflict"), int):
        out.setdefault(f"Conflict {state['conflict']}", (0, {}))
    return out


def round_outcome(goals: list[dict[str, str]], names: list[str]) -> tuple[dict[str, list[str]], str]:
    """What each participant accomplished in the conflict, as the rulebook tells it: the goals they bought
    ("bought Scar on GM"); the table's sentence names them all, or says none was bought."""
    told: dict[str, list[str]] = {}
    for g in goals:
        words = (
            N_("bought {goal} on {target}", goal=g["goal"], target=g["target"])
            if g["target"]
            else N_("bought {goal}", goal=g["goal"])
        )
        told.setdefault(g["who"], []).append(words)
    if not goals:
        return told, N_("No goal was bought in this conflict: the rulebook names no winner, only goals bought")
    said = "; ".join(f"{who} {', '.join(words)}" for who, words in told.items())
    return told, N_("What each accomplished (the goals bought): {goals}", goals=said)
