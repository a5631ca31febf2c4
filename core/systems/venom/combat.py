"""Combat Phase arithmetic: tracks, successes, abort and the capture chance.

Pure functions over plain values so the rules (Health/Defense Track limits,
Rolled Value, Automatic Success, abort) are testable without a session.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tableside.core import words
from tableside.core.odds import at_least_k, face_chance
from tableside.core.systems.venom import rules
from tableside.core.text import N_

# The things VENOM's texts count, marked one form each (#38), so a German phone says "3 Karten" inside a German
# sentence; the English is core.words.plural's, word for word (tests/test_vnm_venom_german.py checks it).
_COUNTED = {
    "card": (lambda n: N_("{count} card", count=n), lambda n: N_("{count} cards", count=n)),
    "die": (lambda n: N_("{count} die", count=n), lambda n: N_("{count} dice", count=n)),
    "combat die": (lambda n: N_("{count} combat die", count=n), lambda n: N_("{count} combat dice", count=n)),
    "success": (lambda n: N_("{count} success", count=n), lambda n: N_("{count} successes", count=n)),
}


def counted(count: int, thing: str) -> str:
    """``count`` with ``thing`` as a person reads it ("1 die", "3 cards"), a marked text for the things VENOM counts."""
    return words.counted(count, thing, _COUNTED)


def move_track(value: int, by: int) -> tuple[int, int]:
    """Move a Health/Defense marker; returns (new value, steps ignored past an end).

    Glossary: no Ability can adjust the track over eight or under one, and
    "any additional adjustments in that direction are ignored".
    """
    target = value + by
    new = min(max(target, rules.TRACK_MIN), rules.TRACK_MAX)
    return new, abs(target - new)


def is_success(die: dict[str, Any], defense: int) -> bool:
    """A die succeeds when it is an Automatic Success or its Rolled Value meets the Defense Track."""
    return bool(die["auto"]) or die["value"] >= defense


def count_successes(dice: list[dict[str, Any]], defense: int) -> int:
    return sum(1 for die in dice if is_success(die, defense))


def only_abilities_reach(defense: int) -> bool:
    """True when no face of a Combat Die meets ``defense``: only an Ability can still make a success."""
    return defense > rules.COMBAT_DIE_SIDES


def abort_reason(dice: int, health: int, defense: int, by_abilities: bool = False) -> str | None:
    """Why Combat is aborted before rolling (Combat Phase), or None if it may go ahead.

    Aborted when there are fewer Combat Dice than the Health Track (every success is a die), or when
    no die can reach the Defense Track: a six-sided die never rolls above 6, but "Rolled Values can go
    above six" and Abilities declare Automatic Successes after the roll, so ``by_abilities`` (the table
    says an Ability can) lets a Defense of 7 or 8 be rolled against.
    """
    if dice < health:
        return N_("{dice} < Health {health}", dice=counted(dice, "combat die"), health=health)
    if only_abilities_reach(defense) and not by_abilities:
        return N_("no die can reach Defense {defense}", defense=defense)
    return None


def capture_chance(dice: int, defense: int, health: int) -> Fraction:
    """Exact chance that ``dice`` Combat Dice give at least ``health`` successes against ``defense``."""
    return at_least_k(dice, face_chance(rules.COMBAT_DIE_SIDES, defense), health)


def verdict(successes: int, health: int) -> str:
    """'captured' when successes >= Health Track (Health Value), else 'failed'."""
    return "captured" if successes >= health else "failed"


def successes_text(n: int) -> str:
    return counted(n, "success")


def die_hit_chance(defense: int) -> Fraction | None:
    """One rolled Combat Die's exact chance of a success against ``defense`` (its face reaching it: a die rolled
    is never an Automatic Success), for the recap to read a roll by its successes. None against a Defense of 7
    or 8: no face reaches it, only Abilities make successes, so no chance is said."""
    return None if only_abilities_reach(defense) else face_chance(rules.COMBAT_DIE_SIDES, defense)


def hit_marks(values: list[int], autos: list[bool], defense: int) -> list[str]:
    """``hit`` for each die meeting the Defense Track (or an Automatic Success), else ``miss``."""
    return ["hit" if auto or value >= defense else "miss" for value, auto in zip(values, autos, strict=True)]
