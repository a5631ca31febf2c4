"""Follow-up conflicts, taking it on the chin, and whose move it is (C).

Follow Up: "Everyone takes half their dice in their scene pool (rounding down) and tosses
them out. The remaining dice are rerolled and left in the pool." The kept dice wait as
follow-up dice and are rolled with the new conflict's pool (A), as Shred's are: "He also has
two follow up dice from the previous conflict ... Shred is rolling 8 dice."
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import campaign_actions, effects, goals, pool
from tableside.core.systems.v2140.state import current, participant, who
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]


def follow_up(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Start a follow-up conflict: every pool tosses half (rounded down); the rest roll in with the new pool."""
    if state["exchange"]:
        raise RuleError(N_("resolve the pending exchange before a follow-up conflict"))
    words = []
    for name in state["seating"]:
        p = state["participants"][name]
        tossed, kept = pool.follow_up_split(len(p["pool"]))
        p["follow_up"] += kept
        p["pool"] = []
        p["prepared"] = None
        if tossed or kept:
            # (#36: "keeps 3" read as a pool of 3 while the pool showed 0: the kept dice come with the new pool.)
            comes = "comes" if kept == 1 else "come"
            words.append(f"{name} tosses {tossed} of {plural(tossed + kept, 'die')}, {kept} {comes} into the new pool")
    state["conflict"] += 1
    campaign_actions.new_conflict(state)
    state["round"] = 1
    state["turn"] = 0
    state["order"] = list(state["seating"])
    state["initiative"] = {}
    state["acted"] = {}
    state["lead"] = None
    detail = "; ".join(words) or "no dice left in any pool"
    then = N_("Draw the new pools (roll them with button A)")
    return state, {
        "summary": N_(
            "Follow-up conflict {conflict}: {detail}. {then}", conflict=state["conflict"], detail=detail, then=then
        )
    }


def take_on_the_chin(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Out of dice first: the opponent's leftover dice become follow-up dice, two for one."""
    name = who(state, action)
    opponent = action["opponent"]
    if opponent == name:
        raise RuleError(N_("name the opponent who keeps the leftover dice"))
    p, o = participant(state, name), participant(state, opponent)
    if p["pool"]:
        raise RuleError(
            N_(
                "{name} still has {dice}: only a participant out of dice takes it on the chin",
                name=name,
                dice=plural(len(p["pool"]), "die"),
            )
        )
    if state["exchange"]:
        raise RuleError(N_("resolve the pending exchange first"), rule="next_exchange")
    leftover = len(o["pool"])
    extra = goals.chin_dice(leftover)
    if not leftover:
        raise RuleError(N_("{opponent} has no leftover dice", opponent=opponent))
    o["pool"] = []
    o["follow_up"] += extra
    return state, {
        "summary": N_(
            "{name} takes it on the chin: {opponent}'s {leftover} make {extra} in the next follow-up",
            name=name,
            opponent=opponent,
            leftover=plural(leftover, "leftover die"),
            extra=plural(extra, "extra die"),
        )
    }


def next_participant(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """C: the next participant's turn; after the last, a new round."""
    if state["exchange"]:
        ex = state["exchange"]
        raise RuleError(
            N_(
                "resolve {actor}'s exchange against {target} (B) before moving on",
                actor=ex["actor"],
                target=ex["target"],
            )
        )
    skipped = []
    for _ in state["order"]:
        state["turn"] = (state["turn"] + 1) % len(state["order"])
        if state["turn"] == 0:
            state["round"] += 1
        # A knocked-out participant "stop[s] doing anything": the move goes past them (logged since #36 as
        # ``skip_stopped``; an older log's C replays as it was played).
        if not action.get("skip_stopped") or effects.stopped(state, current(state)) is None:
            break
        skipped.append(current(state))
    now = current(state)
    state["acted"].pop(now, None)
    state["lead"] = None
    if skipped:
        past = " and ".join(skipped)
        return state, {
            "summary": N_(
                "{name}'s move (round {round}), past {past} (knocked out)", name=now, round=state["round"], past=past
            )
        }
    return state, {"summary": N_("{name}'s move (round {round})", name=now, round=state["round"])}
