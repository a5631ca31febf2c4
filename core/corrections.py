"""The ``correct`` action every system has: set one tracked number, logged with from, to and why.

A number is one of the system's ``tracked(state)``; a conserved one (``Tracked.balance``) may take its
difference from another of its group, so one correction moves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Choice, Field
from tableside.core.recorder import Context
from tableside.core.specs import Action, ActionSpec, Result, State, Tracked
from tableside.core.text import N_

CORRECT = "correct"


def get_path(state: Any, key: str) -> Any:
    """``"players.0.population"`` -> state["players"][0]["population"]."""
    node = state
    for part in key.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def set_path(state: Any, key: str, value: Any) -> None:
    *parents, last = key.split(".")
    node = get_path(state, ".".join(parents)) if parents else state
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def check_range(system: Any, state: State, checked: Mapping[str, Any]) -> None:
    """A correction within the tracked number's range, and a change."""
    numbers = {t.key: t for t in system.tracked(state)}
    t = numbers[checked["key"]]
    if t.minimum is not None and checked["value"] < t.minimum:
        raise RuleError(
            N_("{label} must be at least {minimum}, got {got}", label=t.label, minimum=t.minimum, got=checked["value"])
        )
    if t.maximum is not None and checked["value"] > t.maximum:
        raise RuleError(
            N_("{label} must be at most {maximum}, got {got}", label=t.label, maximum=t.maximum, got=checked["value"])
        )
    if checked["value"] == t.value:
        raise RuleError(N_("{label} is already {value}", label=t.label, value=t.value))
    if checked.get("balance"):
        pile = _pile(numbers, t, checked["balance"])
        if pile is None:
            raise RuleError(
                N_(
                    "{label} cannot take its difference from {pile}",
                    label=t.label,
                    pile=repr(checked["balance"][:40]),
                )
            )
        more = checked["value"] - t.value
        if more > pile.value:
            raise RuleError(
                N_(
                    "{label}: {more} more cannot come from {pile}, which holds {value}",
                    label=t.label,
                    more=more,
                    pile=pile.pile or pile.label,
                    value=pile.value,
                )
            )


def _pile(numbers: Mapping[str, Tracked], t: Tracked, key: Any) -> Tracked | None:
    """The number of ``t``'s balance group named ``key`` (not ``t`` itself), or None."""
    pile = numbers.get(key) if isinstance(key, str) else None
    return pile if pile is not None and t.balance and pile.balance == t.balance and pile.key != t.key else None


def _correct(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Set one tracked number. The system's laws are checked by the core afterwards."""
    system = ctx.system
    tracked = {t.key: t for t in system.tracked(state)}
    t = tracked.get(action["key"])
    if t is None:
        raise RuleError(N_("{key} is not a number that can be set now", key=repr(str(action["key"])[:40])))
    pile = _pile(tracked, t, action.get("balance"))
    if pile is None:
        state = system.correct(state, t.key, action["value"])
    else:
        state = system.correct(state, t.key, action["value"], balance=pile.key)
    why = f" ({action['reason']})" if action["reason"] else ""
    correction = {"key": t.key, "label": t.label, "from": t.value, "to": action["value"], "reason": action["reason"]}
    moved = ""
    if pile is not None:
        delta = action["value"] - t.value
        moved = f", {abs(delta)} {'from' if delta > 0 else 'to'} {pile.pile or pile.label}"
        correction["balance"] = {
            "key": pile.key,
            "label": pile.pile or pile.label,
            "from": pile.value,
            "to": pile.value - delta,
        }
    return state, {
        "summary": f"Corrected {t.label}: {t.value} -> {action['value']}{moved}{why}",
        "correction": correction,
    }


def correct_spec(system: Any) -> ActionSpec:
    def numbers(state: State) -> list[Choice]:
        return [Choice(t.key, t.label) for t in system.tracked(state)] if state else []

    def piles(state: State) -> list[Choice]:
        return [Choice(t.key, t.pile or t.label) for t in system.tracked(state) if t.balance] if state else []

    def available(state: State, seat: str | None) -> str | None:
        return None if system.tracked(state) else "nothing to correct yet"

    return ActionSpec(
        CORRECT,
        "Correct a number",
        "Set one tracked number to a new value; logged as a correction (from, to, why).",
        _correct,
        (
            Field("key", "pick", label="Number", choices=numbers),
            Field("value", "count", label="New value"),
            Field("reason", "text", label="Why", required=False, default="", max_length=120),
            Field(
                "balance",
                "pick",
                label="From or to",
                required=False,
                default="",
                choices=piles,
                help="a conserved number (population): where the difference comes from or goes to",
            ),
        ),
        group="Corrections",
        available=available,
        example={"key": "score", "value": 3, "reason": "miscounted"},
    )
