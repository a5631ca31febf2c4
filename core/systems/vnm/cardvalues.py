"""Venus Needs Men's Technology card values an attack brings (Enhanced game): the attacker's Weapon dice
and the target's Defense per area type, entered once from the cards and kept for the game.

Apart from fleet.py so the attack's own rules stay one room (#37); the attack form asks these where the
seed does not print them.
"""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.system import Action, State
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import current_world, who, whose
from tableside.core.text import N_
from tableside.core.words import plural

# The card values an attack form asks where they were not entered yet (the seed does not print them).
CARD_VALUES: tuple[str, ...] = ("weapon_dice", *(f"defense_{t}" for t in rules.AREA_TYPES))


def missing_defense(state: State, area_type: str) -> list[str]:
    """The enemy fleets whose Defense in ``area_type`` areas is not entered yet."""
    mine = state["worlds"][current_world(state)]["player"]
    return [
        w
        for w, v in state["worlds"].items()
        if v["player"] != mine and v["tech"] is not None and v["tech"]["defense"][area_type] is None
    ]


def enter_card_values(state: State, action: Action, target: str | None) -> list[str]:
    """Card values an attack (or a declared target) brings because they were not entered yet: the
    attacker's Weapon dice, the target's Defense in an area type. Kept for the rest of the game, as
    Technology values sets them; a value already entered is not changed here (Technology values does)."""
    given = {k: action[k] for k in CARD_VALUES if action.get(k) is not None}
    if not given:
        return []
    if state["version"] != "Enhanced":
        raise RuleError(
            N_("{key}: Technology cards are only in the Enhanced game", key=next(iter(given))), rule="enhanced_only"
        )
    attacker = current_world(state)
    notes = []
    if "weapon_dice" in given:
        dice = given["weapon_dice"]
        notes += _enter(state, attacker, "weapon_dice", dice, f"Weapon {plural(dice, 'die')}")
    for area_type in rules.AREA_TYPES:
        key = f"defense_{area_type}"
        if key not in given:
            continue
        if target not in state["worlds"] or state["worlds"][target]["player"] == state["worlds"][attacker]["player"]:
            raise RuleError(N_("{key}: a Defense is entered for the target; choose an enemy fleet first", key=key))
        notes += _enter(state, target, key, given[key], f"Defense {given[key]} {AREA_WORDS[area_type]}")
    return notes


AREA_WORDS: dict[str, str] = {"space": N_("in space"), "land": N_("on land"), "ocean": N_("at sea")}


def _enter(state: State, world: str, key: str, value: int, said: str) -> list[str]:
    tech = state["worlds"][world]["tech"]
    area_type = key.removeprefix("defense_")
    now = tech["weapon_dice"] if key == "weapon_dice" else tech["defense"][area_type]
    if now == value:
        return []
    if now is not None:
        what = f"Weapon {plural(now, 'die')}" if key == "weapon_dice" else f"Defense {now} {AREA_WORDS[area_type]}"
        raise RuleError(
            N_(
                "{key}: {world}'s card says {what}, entered before; Technology values (under Card effects "
                "and setup values) changes it",
                key=key,
                world=who(state, world),
                what=what,
            )
        )
    if key == "weapon_dice":
        tech["weapon_dice"] = value
    else:
        tech["defense"][area_type] = value
    return [f"{whose(state, world)} {said}"]
