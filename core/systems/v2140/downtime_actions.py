"""Downtime, healing, training and Connections: tests between conflicts, rolled through ``ctx.dice``."""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import downtime, effects
from tableside.core.systems.v2140.pool_actions import draw_with
from tableside.core.systems.v2140.state import State, participant, who
from tableside.core.text import N_
from tableside.core.words import plural


def _no_conflict_running(state: State) -> None:
    if state["exchange"]:
        ex = state["exchange"]
        raise RuleError(
            N_("resolve {actor}'s exchange against {target} (B) first", actor=ex["actor"], target=ex["target"])
        )


def _record(state: State, record: dict) -> None:
    state["tests"] = [*state["tests"], record][-downtime.TESTS_KEEP :]


def _player(state: State, name: str) -> dict:
    p = participant(state, name)
    if p["role"] != "player":
        raise RuleError(N_("{name} is the GM: downtime, training and Connections are the characters'", name=name))
    return p


def downtime_test(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """ "The player or his doctor makes a test against three dice for each level of the wound. It costs 2
    books to get rid of a wound, and 3 to make a wound permanent." The doctor may be anyone at the table
    (another character, an NPC the GM plays), so any seat may make the test."""
    _no_conflict_running(state)
    e = effects.find(state, action["effect"])
    if e["reads"] != effects.WOUND or e["permanent"]:
        raise RuleError(N_("{describe} is not a wound that downtime can change", describe=effects.describe(e)))
    name = e["character"]
    if effects.permanent_count(state, name) >= effects.HEALING_AT:
        raise RuleError(
            N_(
                "{name} goes into downtime with {permanent_count} permanent effects: this downtime is spent healing "
                "(heal), half of them disappear",
                name=name,
                permanent_count=effects.permanent_count(state, name),
            ),
            rule="healing",
        )
    against = downtime.downtime_dice(e["level"])
    test = downtime.run_test(action["dice"], against, draw_with(ctx, name, state["gm"]), f"{name} downtime")
    cost = downtime.DOWNTIME_COSTS[action["buy"]]
    if test.books >= cost:
        if action["buy"] == downtime.RID_OF_WOUND:
            e["ended"] = True
            state["effects"] = effects.active(state)
            outcome = f"gets rid of the {e['effect']}"
        else:
            e["permanent"] = True
            outcome = f"makes the {e['effect']} permanent"
    else:
        outcome = f"needs {plural(cost, 'book')} to {action['buy']}: the {e['effect']} stays as it was"
    _record(state, {"test": "downtime", "who": name, "effect": e["id"], **test.to_dict(), "outcome": outcome})
    summary = (
        f"Downtime: {name} tests {plural(action['dice'], 'die')} against {against} (three per level of the wound): "
        f"{plural(test.books, 'book')}; {name} {outcome}"
    )
    return state, {"summary": summary, "books": test.books, **test.to_dict()}


def heal(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A healing downtime: "the GM and players should work out a reason to have half of the effects disappear"."""
    _no_conflict_running(state)
    name = action["character"]
    count = effects.permanent_count(state, name)
    if count < effects.HEALING_AT:
        raise RuleError(
            N_(
                "{name} has {effects}; a downtime is spent healing at {healing_at} or more",
                name=name,
                effects=plural(count, "permanent effect"),
                healing_at=effects.HEALING_AT,
            )
        )
    chosen = [effects.find(state, i) for i in action["effects"]]
    wrong = [e for e in chosen if e["character"] != name or not e["permanent"]]
    if wrong:
        raise RuleError(
            N_("{describe} is not one of {name}'s permanent effects", describe=effects.describe(wrong[0]), name=name)
        )
    half = count // 2
    if len({e["id"] for e in chosen}) < half:
        raise RuleError(
            N_("half of {name}'s {count} permanent effects disappear: pick {half}", name=name, count=count, half=half)
        )
    for e in chosen:
        e["ended"] = True
    state["effects"] = effects.active(state)
    gone = "; ".join(effects.describe(e) for e in chosen)
    return state, {"summary": N_("Healing downtime: {name}'s effects disappear: {gone}", name=name, gone=gone)}


def train(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """ "Make a test with a skill you plan to use against two racks. Every book you pull out is worth a player
    point in the next session, when you're using that skill." The points are restricted to that skill and
    last "up until the next time they can do training"."""
    _no_conflict_running(state)
    name = who(state, action)  # left out (the table's phone): whose move it is, as the form says
    p = _player(state, name)
    if effects.permanent_count(state, name) >= effects.HEALING_AT:
        raise RuleError(
            N_(
                "{name} spends this downtime healing ({healing_at} or more permanent effects)",
                name=name,
                healing_at=effects.HEALING_AT,
            ),
            rule="healing",
        )
    skill = action["skill"].strip()
    if not skill:
        raise RuleError(N_("name the skill you plan to use"))
    rack = state["participants"][state["gm"]]["rack"]
    against = downtime.training_dice(rack)
    test = downtime.run_test(action["dice"], against, draw_with(ctx, name, state["gm"]), f"{name} training")
    session = state["campaign"]["session"] + 1
    p["restricted"] = [{"skill": skill, "points": test.books, "usable_from": session}] if test.books else []
    _record(state, {"test": "training", "who": name, "skill": skill, **test.to_dict()})
    summary = (
        f"Training: {name} tests {skill} ({plural(action['dice'], 'die')}) against two racks ({against}): "
        f"{plural(test.books, 'book')}, worth {plural(test.books, 'Player Point')} in session {session}, "
        f"only with {skill}"
    )
    return state, {"summary": summary, "books": test.books, **test.to_dict()}


def connections(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A Connections test: two dice per relevant lifestyle (two more for a Network memento), against what the
    GM sets. "Each book represents maybe a piece of information, a skill for design, a loan of something, or
    a 20% discount." """
    _no_conflict_running(state)
    name = who(state, action)  # left out (the table's phone): whose move it is, as the form says
    _player(state, name)
    own = downtime.connection_dice(action["lifestyles"], action["secondary_skills"], action["network"])
    if own < 1:
        raise RuleError(N_("a Connections test needs a relevant lifestyle, a secondary skill or a Network"))
    test = downtime.run_test(own, action["against"], draw_with(ctx, name, state["gm"]), f"{name} Connections")
    seeking = action["seeking"] or "help"
    _record(state, {"test": "connections", "who": name, "seeking": seeking, **test.to_dict()})
    summary = (
        f"Connections: {name} seeks {seeking} with {plural(own, 'die')} against {action['against']}: "
        f"{plural(test.books, 'book')} (each a piece of information, a loan, a 20% discount...)"
    )
    return state, {"summary": summary, "books": test.books, **test.to_dict()}
