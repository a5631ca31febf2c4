"""Turns: the Move action (positions stay on the board) and ending a turn.

Ending a turn applies upgrades acquired this turn, passes play clockwise (in a
two-player game, to the other team's planet) and draws the next player's Zap
hand back up to three.
"""

from __future__ import annotations

from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import mind, rules
from tableside.core.systems.vnm.research import apply_pending_upgrades
from tableside.core.systems.vnm.state import begin, current_world, other_action_chosen, turn_closed, who
from tableside.core.systems.vnm.zap import draw_for_turn
from tableside.core.text import N_


def move_closed(state: State, seat: str | None = None) -> str | None:
    return turn_closed(state, seat) or other_action_chosen(state, "move")


def move(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Move Action: "all your spaceships must move (or do nothing)"; Tableside records the choice."""
    world = current_world(state)
    begin(state, "move")["count"] += 1
    return state, {"summary": N_("{world} moves their spaceships", world=who(state, world))}


def end_turn(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Play passes to the left (clockwise); the next player draws Zap cards up to three."""
    world = current_world(state)
    chosen = state["turn_action"]
    did = rules.ACTIONS[chosen["kind"]] if chosen else "no action"
    notes = mind.end_of_turn(state)
    notes += apply_pending_upgrades(state, world)
    state["turn"] = (state["turn"] + 1) % len(state["turn_order"])
    if state["turn"] == 0:
        state["round"] += 1
    state.update(turn_action=None, aim=None, upgrade_choice=None, zap_played=[], turn_no=state["turn_no"] + 1)
    following = current_world(state)
    before = state["players"][state["worlds"][following]["player"]]["zap"]["hand"]
    drawn = draw_for_turn(state, following)
    state["drawn"] = state["players"][state["worlds"][following]["player"]]["zap"]["hand"] - before
    state["prompt"] = N_("{following} plays next and {drawn}", following=who(state, following), drawn=drawn)
    summary = N_("{world} ends the turn ({did})", world=who(state, world), did=did)
    if notes:
        summary += "; " + "; ".join(notes)
    summary += f". {state['prompt']}"
    return state, {"summary": summary, "next": following, "round": state["round"], "upgrades": notes}
