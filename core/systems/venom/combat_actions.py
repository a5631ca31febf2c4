"""Handlers for the Tactical and Combat Phases: the VENOM Leader, its tracks and the Combat Dice."""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.systems.venom import combat, rules
from tableside.core.systems.venom.state import (
    State,
    active_name,
    refresh,
    require_leader,
    require_phase,
    require_rolled,
    require_text,
)

Result = dict[str, Any]

# Not a rule ("You may generate more dice than the game has included"): a cap on
# typing mistakes, so "500" dice is refused rather than rolled.
MAX_DICE = 100


def choose_leader(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Tactical Phase: the VENOM Leader to attack; its Health and Defense set the tracks."""
    require_phase(state, (rules.TACTICAL,), "choose_leader")
    require_text(action["name"], "choose_leader: name")
    zone = action["zone"]
    zone_type = rules.ZONES[zone]
    if action["zone_type"] and action["zone_type"] != zone_type:
        raise RuleError(f"{zone} is a Zone of type {zone_type}, not {action['zone_type']}")
    replaced = state["leader"]["name"] if state["leader"] else None
    state["leader"] = {
        "name": action["name"],
        "zone": zone,
        "zone_type": zone_type,
        "health": action["health"],
        "defense": action["defense"],
        "support": action["support"],
    }
    state["health_track"] = action["health"]
    state["defense_track"] = action["defense"]
    refresh(state)
    summary = (
        f"{active_name(state)} attacks {action['name']} in {zone} ({zone_type}): "
        f"Health {action['health']}, Defense {action['defense']}, Support {action['support']}"
    )
    if replaced:
        summary += f" (instead of {replaced})"
    return state, {"summary": summary, "capture_chance": state["odds"]["capture"]}


def adjust_track(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """An Ability moves the Health or Defense marker; past 1 or 8 the rest is ignored."""
    require_leader(state, "adjust_track")
    if action["by"] == 0:
        raise RuleError("adjust_track: 'by' must not be 0")
    key = f"{action['track']}_track"
    old = state[key]
    new, ignored = combat.move_track(old, action["by"])
    state[key] = new
    if state["combat"]["rolled"]:
        state["combat"]["abilities_applied"] = True
    refresh(state)
    label = action["track"].capitalize()
    summary = f"{label} track {old} -> {new}"
    if ignored:
        end = rules.TRACK_MAX if action["by"] > 0 else rules.TRACK_MIN
        summary += f" ({ignored} ignored: the track ends at {end})"
    return state, {"summary": summary, "track": action["track"], "value": new, "ignored": ignored}


def _require_not_rolled(state: State, what: str) -> dict[str, Any]:
    require_leader(state, what)
    fight = state["combat"]
    if fight["rolled"] or fight["aborted"]:
        raise RuleError(f"{what}: the Combat Dice were already rolled (or Combat aborted) this Turn")
    return fight


def allocate_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Combat Dice = the Combat Leader's Combat Value plus dice from Freedom Support."""
    fight = _require_not_rolled(state, "allocate_dice")
    total = action["combat_value"] + action["support_dice"]
    if total > MAX_DICE:
        raise RuleError(f"allocate_dice: {total} Combat Dice is more than Tableside rolls ({MAX_DICE})")
    fight.update(
        combat_leader=action["combat_leader"],
        combat_value=action["combat_value"],
        support_dice=action["support_dice"],
        dice_count=total,
    )
    refresh(state)
    who = f"{action['combat_leader']} " if action["combat_leader"] else "Combat Leader "
    summary = f"{who}{action['combat_value']} + support {action['support_dice']} = {total} Combat Dice"
    return state, _with_odds(state, {"summary": summary, "dice": total})


def adjust_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Card effects add or remove Combat Dice before the roll (e.g. a Freedom Support card removed)."""
    fight = _require_not_rolled(state, "adjust_dice")
    if action["by"] == 0:
        raise RuleError("adjust_dice: 'by' must not be 0")
    total = fight["dice_count"] + action["by"]
    if total < 0:
        raise RuleError(f"adjust_dice: only {fight['dice_count']} Combat Dice to remove, not {-action['by']}")
    if total > MAX_DICE:
        raise RuleError(f"adjust_dice: {total} Combat Dice is more than Tableside rolls ({MAX_DICE})")
    old, fight["dice_count"] = fight["dice_count"], total
    refresh(state)
    return state, _with_odds(state, {"summary": f"Combat Dice {old} -> {total}", "dice": total})


def _with_odds(state: State, result: Result) -> Result:
    odds = state["odds"]
    if odds["abort"]:
        result["summary"] += f"; Combat would abort: {odds['abort']}"
    elif odds["capture_percent"]:
        result["summary"] += f"; capture chance {odds['capture_percent']}"
    result["capture_chance"] = odds["capture"]
    return result


def _dice_to_roll(state: State, action: dict[str, Any]) -> int:
    dice = action.get("dice")
    return state["combat"]["dice_count"] if dice is None else dice


def combat_roll(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Roll the Combat Dice (or abort first when the roll cannot succeed)."""
    fight = _require_not_rolled(state, "combat_roll")
    n = _dice_to_roll(state, action)
    if n < 1:
        raise RuleError("combat_roll needs at least 1 Combat Die; allocate_dice first")
    health, defense = state["health_track"], state["defense_track"]
    chance = combat.capture_chance(n, defense, health)
    fight["dice_count"] = n
    state["phase"] = rules.COMBAT
    reason = combat.abort_reason(n, health, defense)
    if reason:
        fight["aborted"] = reason
        refresh(state)
        summary = f"Combat against {state['leader']['name']} aborted: {reason}"
        if ctx.dice.typed:
            summary += " (typed faces ignored: nothing is rolled)"
        return state, {"summary": summary, "verdict": "aborted", "capture_chance": str(chance)}
    faces = ctx.dice.faces("Combat", n)
    fight["dice"] = [{"face": f, "value": f, "auto": False} for f in faces]
    fight["rolled"] = True
    state["last_roll"] = {
        "expr": f"{n}d6",
        "rolls": faces,
        "kept": faces,
        "successes": combat.count_successes(fight["dice"], defense),
        "total": sum(faces),
        "label": "Combat",
    }
    refresh(state)
    return state, _roll_result(state, f"Rolled {','.join(map(str, faces))}", str(chance))


def _roll_result(state: State, head: str, chance: str | None = None) -> Result:
    fight = state["combat"]
    leader = state["leader"]["name"]
    health, defense = state["health_track"], state["defense_track"]
    word = "captures" if fight["verdict"] == "captured" else "does not capture"
    summary = (
        f"{head} vs Defense {defense}: {combat.successes_text(fight['successes'])} vs Health {health} "
        f"{word} {leader}"
    )
    result: Result = {
        "summary": summary,
        "successes": fight["successes"],
        "verdict": fight["verdict"],
        "values": [d["value"] for d in fight["dice"]],
    }
    if chance is not None:
        result["capture_chance"] = chance
    return result


def modify_die(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """An Ability changes one die's Rolled Value; it may go above 6 or below 1."""
    dice = require_rolled(state, "modify_die")
    if action["by"] == 0:
        raise RuleError("modify_die: 'by' must not be 0")
    (n,) = combat.check_die_numbers([action["die"]], dice, "modify_die")
    die = dice[n - 1]
    old = die["value"]
    die["value"] += action["by"]
    state["combat"]["abilities_applied"] = True
    refresh(state)
    return state, _roll_result(state, f"Die {n} {old} -> {die['value']}")


def automatic_success(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Declare dice Automatic Successes: after the roll, before any card's Abilities take place."""
    dice = require_rolled(state, "automatic_success")
    if state["combat"]["abilities_applied"]:
        raise RuleError(
            "automatic_success: Automatic Successes are chosen after the roll but before any "
            "card's Abilities take place, and Abilities have already changed this Combat"
        )
    numbers = combat.check_die_numbers(action["dice"], dice, "automatic_success")
    already = [n for n in numbers if dice[n - 1]["auto"]]
    if already:
        raise RuleError(f"automatic_success: die {already[0]} is already an Automatic Success")
    for n in numbers:
        dice[n - 1]["auto"] = True
    refresh(state)
    return state, _roll_result(state, f"Automatic Success: die {', '.join(map(str, numbers))}")


def reroll_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Re-roll chosen dice: each gets a new Rolled Value and loses any Automatic Success."""
    dice = require_rolled(state, "reroll_dice")
    numbers = combat.check_die_numbers(action["dice"], dice, "reroll_dice")
    faces = ctx.dice.faces("Re-roll", len(numbers))
    lost = [n for n in numbers if dice[n - 1]["auto"]]
    for n, face in zip(numbers, faces, strict=True):
        dice[n - 1] = {"face": face, "value": face, "auto": False}
    state["combat"]["abilities_applied"] = True
    state["last_roll"] = {
        "expr": f"{len(faces)}d6",
        "rolls": faces,
        "kept": faces,
        "successes": None,
        "total": sum(faces),
        "label": "Re-roll",
    }
    refresh(state)
    head = f"Re-rolled die {', '.join(map(str, numbers))}: {','.join(map(str, faces))}"
    if lost:
        head += f" (Automatic Success lost on die {', '.join(map(str, lost))})"
    return state, _roll_result(state, head)
