"""Handlers for the Tactical and Combat Phases: the VENOM Leader, its tracks and the Combat Dice.

When each handler may run is the action's ``available`` check (``state.py``);
the derived values (verdict, odds, a capture in the Victory Point pile) come
from ``derive`` after the handler.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.systems.venom import combat, rules
from tableside.core.systems.venom.state import (
    State,
    active_name,
    captured_by,
    odds_now,
    verdict_now,
    whose_turn,
)
from tableside.core.text import N_

Result = dict[str, Any]

# Not a rule ("You may generate more dice than the game has included"): a cap on
# typing mistakes, so "500" dice is refused rather than rolled.
MAX_DICE = 100


LEADER_CARD = ("name", "zone", "health", "defense", "support")
# The words of a Leader card's values on the phone's form (its fields' labels), and in a refusal naming what is missing.
LEADER_LABELS = {
    "name": N_("Leader's name"),
    "zone": N_("Zone"),
    "health": N_("Health"),
    "defense": N_("Defense"),
    "support": N_("Support Value"),
}


def _missing(action: dict[str, Any]) -> str:
    """The Leader card's values not given, by their labels ("Leader's name and Support Value"); "" if none."""
    labels = [LEADER_LABELS[key] for key in LEADER_CARD if action.get(key) in (None, "")]
    if len(labels) < 2:
        return "".join(labels)
    return f"{', '.join(labels[:-1])} and {labels[-1]}"


def on_board(state: State) -> dict[str, dict[str, Any]]:
    """The Leader cards entered so far, by Zone, that are still on the board (not in a VP pile)."""
    zones = state.get("zones") or {}
    return {zone: card for zone, card in zones.items() if not captured_by(state, card["name"])}


def in_deck(state: State) -> list[dict[str, Any]]:
    """Leader cards of the VENOM Leader Deck (setup data) not entered in a Zone and not captured:
    the ones a player may find on the board that Tableside has not been told about yet."""
    placed = {card["name"].casefold() for card in (state.get("zones") or {}).values()}
    return [
        card
        for card in state.get("leader_deck") or []
        if card["name"].casefold() not in placed and not captured_by(state, card["name"])
    ]


def place_leader(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """A VENOM Leader card face up in a Zone (at setup, or replenishing the board): entered once,
    then choosing it to attack is one tap. ``card`` takes a card of the deck given at setup."""
    if action.get("card"):
        deck_card = {c["name"]: c for c in in_deck(state)}.get(action["card"])
        if deck_card is None:
            raise RuleError(N_("{card} is not a Leader card of the deck still to be placed", card=action["card"]))
        action = {**action, **deck_card}
    missing = _missing(action)
    if missing:
        how = N_("tap a card of the deck, or fill in") if in_deck(state) else N_("fill in")
        raise RuleError(N_("Enter a Leader on the board: {how} {missing}", how=how, missing=missing))
    card = {key: action[key] for key in LEADER_CARD}
    holder = captured_by(state, card["name"])
    if holder:
        raise RuleError(
            N_("{name} is already in {holder}'s Victory Point pile", name=card["name"], holder=holder), rule="captured"
        )
    state["zones"] = {**(state.get("zones") or {}), card["zone"]: card}
    return state, {
        "summary": N_(
            "{card} in {zone}: Health {health}, Defense {defense}, Support {support}",
            card=card["name"],
            zone=card["zone"],
            health=card["health"],
            defense=card["defense"],
            support=card["support"],
        )
    }


def choose_leader(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Tactical Phase: the VENOM Leader to attack; its Health and Defense set the tracks.

    ``on_board`` (a Zone) takes the Leader card entered there; ``card`` takes a card of the VENOM
    Leader Deck given at setup (its Zone is still asked); otherwise the card's values are given.
    """
    if action.get("card"):
        card = {c["name"]: c for c in in_deck(state)}.get(action["card"])
        if card is None:
            raise RuleError(
                N_("{card} is not a Leader card of the deck still to be found on the board", card=action["card"])
            )
        if not action.get("zone"):
            raise RuleError(N_("Choose the VENOM Leader: tap the Zone {card} stands in", card=card["name"]))
        action = {**action, **card}
    elif action.get("on_board"):
        card = on_board(state).get(action["on_board"])
        if card is None:
            raise RuleError(
                N_(
                    "no VENOM Leader is entered in {on_board}: give the Leader card's values",
                    on_board=action["on_board"],
                )
            )
        action = {**action, **card}
    missing = _missing(action)
    if missing:
        ways = [
            w
            for w, there in ((N_("a Leader on the board"), on_board(state)), (N_("a card of the deck"), in_deck(state)))
            if there
        ]
        how = N_("tap {ways}, or fill in", ways=" or ".join(ways)) if ways else N_("fill in")
        raise RuleError(N_("Choose the VENOM Leader: {how} {missing}", how=how, missing=missing))
    name = action["name"]
    if not name:
        raise RuleError(N_("Choose the VENOM Leader: the Leader's name must not be empty"))
    holder = captured_by(state, name)
    if holder:
        raise RuleError(
            N_("{name} is already in {holder}'s Victory Point pile", name=name, holder=holder), rule="captured"
        )
    zone = action["zone"]
    zone_type = rules.ZONES[zone]
    if action["zone_type"] and action["zone_type"] != zone_type:
        raise RuleError(
            N_(
                "{zone} is a Zone of type {zone_type}, not {typed}",
                zone=zone,
                zone_type=zone_type,
                typed=action["zone_type"],
            ),
            rule="zone_type",
        )
    replaced = state["leader"]["name"] if state["leader"] else None
    leader = {
        "name": name,
        "zone": zone,
        "zone_type": zone_type,
        "health": action["health"],
        "defense": action["defense"],
        "support": action["support"],
    }
    state["leader"] = leader
    state["leaders_met"] = [m for m in state["leaders_met"] if m["name"].casefold() != name.casefold()]
    state["leaders_met"].append({"name": name, "zone": zone, "support": action["support"]})
    state["zones"] = {**(state.get("zones") or {}), zone: {key: leader[key] for key in LEADER_CARD}}
    state["health_track"] = action["health"]
    state["defense_track"] = action["defense"]
    summary = N_(
        "{player} attacks {name} in {zone} ({zone_type}): Health {health}, Defense {defense}, Support {support}",
        player=active_name(state),
        name=name,
        zone=zone,
        zone_type=zone_type,
        health=action["health"],
        defense=action["defense"],
        support=action["support"],
    )
    if replaced:
        summary += f" (instead of {replaced})"
    return state, {"summary": summary, "capture_chance": odds_now(state)["capture"]}


def adjust_track(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """An Ability moves the Health or Defense marker by any amount; past 1 or 8 the rest is ignored.

    Glossary: "No Ability can adjust this track over eight, or under one. Any
    additional adjustments in that direction are ignored." So "+12" is a legal
    Ability: the marker stops at 8 and the result says how much was ignored.
    """
    if action["by"] == 0:
        raise RuleError(N_("Move a VENOM Leader track: 'by' must not be 0"))
    key = f"{action['track']}_track"
    old = state[key]
    new, ignored = combat.move_track(old, action["by"])
    state[key] = new
    if state["combat"]["rolled"]:
        state["combat"]["abilities_applied"] = True
    label = action["track"].capitalize()
    summary = N_("{label} track {old} -> {new}", label=label, old=old, new=new)
    notice = None
    if ignored:
        end = rules.TRACK_MAX if action["by"] > 0 else rules.TRACK_MIN
        notice = N_("the {label} Track ends at {end}: {ignored} ignored", label=label, end=end, ignored=ignored)
        summary += f" ({ignored} ignored: the track ends at {end})"
    result: Result = {"summary": summary, "track": action["track"], "value": new, "ignored": ignored}
    if notice:
        result["notice"] = notice
    return state, _with_odds(state, result) if not state["combat"]["rolled"] else result


def allocate_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Combat Dice = the Combat Leader's Combat Value plus dice from Freedom Support."""
    fight = state["combat"]
    total = action["combat_value"] + action["support_dice"]
    if total > MAX_DICE:
        raise RuleError(
            N_(
                "Allocate the Combat Dice: {total} Combat Dice is more than Tableside rolls ({max_dice})",
                total=total,
                max_dice=MAX_DICE,
            )
        )
    fight.update(
        combat_leader=action["combat_leader"],
        combat_value=action["combat_value"],
        support_dice=action["support_dice"],
        dice_count=total,
    )
    who = f"{action['combat_leader']} " if action["combat_leader"] else N_("Combat Leader ")
    summary = N_(
        "{who}{combat_value} + support {support_dice} = {total} Combat Dice",
        who=who,
        combat_value=action["combat_value"],
        support_dice=action["support_dice"],
        total=total,
    )
    return state, _with_odds(state, {"summary": summary, "dice": total})


def adjust_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Card effects add or remove Combat Dice before the roll (e.g. a Freedom Support card removed)."""
    fight = state["combat"]
    if action["by"] == 0:
        raise RuleError(N_("Add or remove Combat Dice: 'by' must not be 0"))
    total = fight["dice_count"] + action["by"]
    if total < 0:
        raise RuleError(
            N_(
                "Add or remove Combat Dice: only {dice_count} Combat Dice to remove, not {count}",
                dice_count=fight["dice_count"],
                count=-action["by"],
            )
        )
    if total > MAX_DICE:
        raise RuleError(
            N_(
                "Add or remove Combat Dice: {total} Combat Dice is more than Tableside rolls ({max_dice})",
                total=total,
                max_dice=MAX_DICE,
            ),
            rule="more_dice",
        )
    old, fight["dice_count"] = fight["dice_count"], total
    return state, _with_odds(
        state, {"summary": N_("Combat Dice {old} -> {total}", old=old, total=total), "dice": total}
    )


def _with_odds(state: State, result: Result) -> Result:
    odds = odds_now(state)
    if odds["abort"]:
        result["summary"] += f"; Combat would abort: {odds['abort']}"
        if combat.only_abilities_reach(state["defense_track"]) and odds["abort"].startswith("no die"):
            result["summary"] += ", unless an Ability can reach it"
    elif odds["capture_percent"]:
        result["summary"] += f"; capture chance {odds['capture_percent']}"
    result["capture_chance"] = odds["capture"]
    return result


def combat_roll(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Roll the Combat Dice (or abort first when the roll cannot succeed).

    Against a Defense of 7 or 8 no face succeeds, but "Rolled Values can go above six" and Abilities
    declare Automatic Successes after the roll: ``abilities_can_reach`` (the table knows such an
    Ability is in play) rolls anyway, and the Abilities are applied to the dice rolled.
    """
    fight = state["combat"]
    n = state["combat"]["dice_count"] if action.get("dice") is None else action["dice"]
    if n < 1:
        raise RuleError(N_("Combat roll needs at least 1 Combat Die: allocate the Combat Dice first"))
    health, defense = state["health_track"], state["defense_track"]
    chance = combat.capture_chance(n, defense, health)
    fight["dice_count"] = n
    state["phase"] = rules.COMBAT
    reason = combat.abort_reason(n, health, defense, by_abilities=bool(action.get("abilities_can_reach")))
    if reason:
        fight["aborted"] = reason
        summary = N_("Combat against {leader} aborted: {reason}", leader=state["leader"]["name"], reason=reason)
        if ctx.dice.typed:
            summary += " (typed faces ignored: nothing is rolled)"
        return state, {"summary": summary, "verdict": "aborted", "capture_chance": str(chance)}
    roll = ctx.dice.roll("Combat", f"{n}d6", by=whose_turn(state))
    faces = list(roll.rolls)
    fight["dice"] = [{"face": f, "value": f, "auto": False} for f in faces]
    fight["rolled"] = True
    marks = combat.hit_marks(faces, [False] * n, defense)
    ctx.dice.mark(marks, combat.successes_text(marks.count("hit")), hit_chance=combat.die_hit_chance(defense))
    result = _roll_result(state, f"Rolled {','.join(map(str, faces))}", str(chance))
    if combat.only_abilities_reach(defense):
        result["notice"] = N_(
            "no face reaches Defense {defense}: declare the Automatic Successes, then change the Rolled Values",
            defense=defense,
        )
    return state, result


def combat_fails(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """An Event or Ability makes the Combat fail at once: the player advances to the Retirement Phase.

    Event Ability Conflict: "Combat may only occur in Sea and Air Zones. However, because 'VENOM
    Mountain Defense' is an Arctic Zone, the combat instantly fails". ``zone_types`` are the Zone
    types the Events still allow; a Leader standing in one of them is fought as normal.
    """
    leader = state["leader"]
    reason = action["reason"].strip()
    if not reason:
        raise RuleError(N_("The Combat fails: say which Event or Ability makes it fail"))
    allowed = list(action.get("zone_types") or [])
    if leader["zone_type"] in allowed:
        raise RuleError(
            N_(
                "Combat can continue as normal: {leader} is in {zone} ({zone_type}), where Combat may occur",
                leader=leader["name"],
                zone=leader["zone"],
                zone_type=leader["zone_type"],
            )
        )
    if allowed:
        where = f"{leader['zone']} ({leader['zone_type']})"
        reason += f": Combat may only occur in {' and '.join(allowed)} Zones, not in {where}"
    state["combat"]["aborted"] = reason
    state["phase"] = rules.RETIREMENT
    summary = N_(
        "Combat against {leader} instantly fails ({reason}); {player}: Retirement Phase",
        leader=leader["name"],
        reason=reason,
        player=active_name(state),
    )
    return state, {"summary": summary, "verdict": "aborted", "phase": rules.RETIREMENT}


def _roll_result(state: State, head: str, chance: str | None = None) -> Result:
    fight = state["combat"]
    leader = state["leader"]["name"]
    health, defense = state["health_track"], state["defense_track"]
    successes, verdict = verdict_now(state)
    word = N_("captures") if verdict == "captured" else N_("does not capture")
    summary = N_(
        "{head} vs Defense {defense}: {successes} vs Health {health} {word} {leader}",
        head=head,
        defense=defense,
        successes=combat.successes_text(successes or 0),
        health=health,
        word=word,
        leader=leader,
    )
    if verdict == "captured":
        summary += f" (in {active_name(state)}'s Victory Point pile)"
    result: Result = {
        "summary": summary,
        "successes": successes,
        "verdict": verdict,
        "values": [d["value"] for d in fight["dice"]],
    }
    if chance is not None:
        result["capture_chance"] = chance
    return result


def modify_die(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """An Ability changes one die's Rolled Value; it may go above 6 or below 1."""
    dice = state["combat"]["dice"]
    if action["by"] == 0:
        raise RuleError(N_("Change a die's Rolled Value: 'by' must not be 0"))
    n = action["die"]
    die = dice[n - 1]
    old = die["value"]
    die["value"] += action["by"]
    state["combat"]["abilities_applied"] = True
    return state, _roll_result(state, f"Die {n} {old} -> {die['value']}")


def automatic_success(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Declare dice Automatic Successes: after the roll, before any card's Abilities take place."""
    dice = state["combat"]["dice"]
    numbers = action["dice"]
    if not numbers:
        raise RuleError(N_("Automatic Success: choose at least one die"))
    already = [n for n in numbers if dice[n - 1]["auto"]]
    if already:
        raise RuleError(N_("Automatic Success: die {already} is already an Automatic Success", already=already[0]))
    for n in numbers:
        dice[n - 1]["auto"] = True
    return state, _roll_result(state, f"Automatic Success: die {', '.join(map(str, numbers))}")


def reroll_dice(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Re-roll chosen dice: each gets a new Rolled Value and loses any Automatic Success."""
    dice = state["combat"]["dice"]
    numbers = action["dice"]
    if not numbers:
        raise RuleError(N_("Re-roll dice: choose at least one die"))
    roll = ctx.dice.roll("Re-roll", f"{len(numbers)}d6", by=whose_turn(state))
    faces = list(roll.rolls)
    lost = [n for n in numbers if dice[n - 1]["auto"]]
    for n, face in zip(numbers, faces, strict=True):
        dice[n - 1] = {"face": face, "value": face, "auto": False}
    state["combat"]["abilities_applied"] = True
    marks = combat.hit_marks(faces, [False] * len(faces), state["defense_track"])
    chance = combat.die_hit_chance(state["defense_track"])  # the re-rolled dice only: the rest are not rolled
    ctx.dice.mark(marks, combat.successes_text(marks.count("hit")), hit_chance=chance)
    head = f"Re-rolled die {', '.join(map(str, numbers))}: {','.join(map(str, faces))}"
    if lost:
        head += f" (Automatic Success lost on die {', '.join(map(str, lost))})"
    return state, _roll_result(state, head)
