"""Research and Technology (Enhanced game only).

Only two Upgrade cards are in the seed (Gatling Lasers, Yttrium Alloys); for
any other the players enter the number to roll and, once acquired, any changed
Weapon dice or Defense values (set_tech, shown as Technology values). Upgrades take effect at the end of
the turn, as the rulebook says.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Choice
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import d10, rules
from tableside.core.systems.vnm.state import (
    begin,
    current_world,
    not_enhanced,
    other_action_chosen,
    player_of,
    turn_closed,
    who,
    whose,
    world_in_game,
)
from tableside.core.text import N_
from tableside.core.words import plural

# Every card name the seed mentions, so "gatling lasers" finds "Gatling Lasers".
KNOWN_NAMES: tuple[str, ...] = tuple(
    sorted(
        {
            rules.QRAY,
            *rules.QRAY_REROLL_UPGRADES,
            *rules.UPGRADE_ROLL_NEEDED,
            *(n for names in rules.DUPLICATES.values() for n in names),
            *(n for names in rules.OBSOLETED_BY.values() for n in names),
        }
    )
)


# Of the names above, these are Technology Upgrade cards by the seed's own words (the rest may be a
# planet's starting Technology card); any other Upgrade card is entered as OTHER plus its name.
UPGRADES: tuple[str, ...] = ("Gatling Lasers", "Yttrium Alloys", *rules.QRAY_REROLL_UPGRADES)
OTHER = "other"


def upgrade_choices(state: State) -> list[Any]:
    """The Upgrade cards a player can pick: those the seed names that the current planet may still attempt,
    then every other name the seed mentions, then "another card" (typed in)."""
    world = current_world(state)
    now, later = [], []
    for name in (*UPGRADES, *(n for n in KNOWN_NAMES if n not in UPGRADES and n != rules.QRAY)):
        needed = rules.UPGRADE_ROLL_NEEDED.get(name)
        label = f"{name} ({needed}+)" if needed else name
        if state.get("version") == "Enhanced" and state["worlds"][world]["tech"] is not None:
            try:
                check_attemptable(state, world, name)
            except RuleError:
                later.append(Choice(name, N_("{name} (not for {world} now)", name=name, world=who(state, world))))
                continue
        now.append(Choice(name, label))
    return [*now, Choice(OTHER, N_("Another Upgrade card (type its name)")), *later]


def research_closed(state: State, seat: str | None = None) -> str | None:
    reason = not_enhanced(state, "Research") or turn_closed(state, seat) or other_action_chosen(state, "research")
    if reason:
        return reason
    chosen = state["turn_action"]
    if chosen and chosen["count"] >= 1 + chosen["extensions"]:
        return N_(
            "{world} has rolled for research this turn; extend with a Zap card to roll again",
            world=who(state, current_world(state)),
        )
    return None


def choose_closed(state: State, seat: str | None = None) -> str | None:
    return not_enhanced(state, "Research") or turn_closed(state, seat) or other_action_chosen(state, "research")


def upgrade_name(name: str) -> str:
    if not name.strip():
        raise RuleError(N_("upgrade: name the Technology Upgrade card"))
    return rules.canonical(name, KNOWN_NAMES) or name.strip()


def _owned(state: State, world: str) -> list[str]:
    tech = state["worlds"][world]["tech"]
    pending = [p["upgrade"] for p in state["pending_upgrades"] if p["world"] == world]
    return tech["cards"] + tech["upgrades"] + pending


def check_attemptable(state: State, world: str, upgrade: str) -> None:
    """ "You may not attempt to acquire an upgrade which duplicates or is obsoleted by a card you already have"."""
    owned = _owned(state, world)
    folded = {o.casefold(): o for o in owned}
    if upgrade.casefold() in folded:
        raise RuleError(N_("upgrade: {world} already has {upgrade}", world=who(state, world), upgrade=upgrade))
    for card in owned:
        if card in rules.DUPLICATES.get(upgrade, ()) or upgrade in rules.DUPLICATES.get(card, ()):
            raise RuleError(
                N_(
                    "upgrade: {upgrade} duplicates {card}, which {world} already has",
                    upgrade=upgrade,
                    card=card,
                    world=who(state, world),
                )
            )
        if card in rules.OBSOLETED_BY.get(upgrade, ()) and not _kept_by_qray(owned, upgrade, card):
            raise RuleError(
                N_(
                    "upgrade: {upgrade} is obsoleted by {card}, which {world} already has",
                    upgrade=upgrade,
                    card=card,
                    world=who(state, world),
                )
            )


def _kept_by_qray(owned: list[str], old: str, new: str) -> bool:
    """Gatling Lasers with the Q-Ray "is not obsoleted by Auto Fire Control or Energy Amplifier"."""
    return old == "Gatling Lasers" and rules.QRAY in owned and new in rules.QRAY_REROLL_UPGRADES


def _choice(state: State, action: Action) -> dict[str, Any]:
    """The upgrade and its roll: from the action, else the chosen one, else the seed's number."""
    chosen = state["upgrade_choice"] or {}
    raw = action.get("upgrade") or chosen.get("upgrade")
    if raw == OTHER:
        raw = action.get("other_name") or ""
        if not raw.strip():
            raise RuleError(N_("other_name: type the name of the Upgrade card"))
    if not raw:
        raise RuleError(N_("upgrade: choose an Upgrade card first"))
    upgrade = upgrade_name(raw)
    needed = action.get("roll_needed")
    if needed is None and chosen.get("upgrade") == upgrade:
        needed = chosen.get("roll_needed")
    if needed is None:
        needed = rules.UPGRADE_ROLL_NEEDED.get(upgrade)
    if needed is None:
        raise RuleError(N_("roll_needed: enter the number printed on the {upgrade} card", upgrade=upgrade))
    return {"upgrade": upgrade, "roll_needed": needed, **d10.show(d10.research_chance(needed))}


def choose_upgrade(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """ "Choose an Upgrade card": shows the chance before the roll (button B then rolls)."""
    world = current_world(state)
    choice = _choice(state, action)
    check_attemptable(state, world, choice["upgrade"])
    state["upgrade_choice"] = choice
    return state, {
        "summary": (
            N_(
                "{world} chooses {upgrade}: needs {roll_needed}+, {chance}",
                world=who(state, world),
                upgrade=choice["upgrade"],
                roll_needed=choice["roll_needed"],
                chance=choice["chance"],
            )
        ),
        **choice,
    }


def research(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Research Action: one die against the Upgrade's number; a Zap card buys another roll."""
    world = current_world(state)
    choice = _choice(state, action)
    check_attemptable(state, world, choice["upgrade"])
    chosen = begin(state, "research")
    face = ctx.dice.faces(f"Research {choice['upgrade']}", 1, sides=10, by=player_of(state, world)["name"])[0]
    chosen["count"] += 1
    acquired = face >= choice["roll_needed"]
    upgrade = choice["upgrade"]
    if acquired:
        state["pending_upgrades"].append({"world": world, "upgrade": upgrade})
        state["upgrade_choice"] = None
        verdict = N_("{upgrade} acquired (effect at the end of the turn)", upgrade=upgrade)
    else:
        state["upgrade_choice"] = choice
        verdict = N_("not acquired")
    ctx.dice.mark(["hit" if acquired else "miss"], verdict, hit_chance=d10.research_chance(choice["roll_needed"]))
    return state, {
        "summary": N_(
            "{world} researches {upgrade} ({roll_needed}+, {chance}): rolled {face}, {verdict}",
            world=who(state, world),
            upgrade=upgrade,
            roll_needed=choice["roll_needed"],
            chance=choice["chance"],
            face=face,
            verdict=verdict,
        ),
        "acquired": acquired,
        "face": face,
    }


def apply_pending_upgrades(state: State, world: str) -> list[str]:
    """End of the turn: acquired upgrades take effect; an upgrade they obsolete is discarded."""
    notes = []
    for item in [p for p in state["pending_upgrades"] if p["world"] == world]:
        tech = state["worlds"][world]["tech"]
        new = item["upgrade"]
        for old in list(tech["upgrades"]):
            if new in rules.OBSOLETED_BY.get(old, ()) and not _kept_by_qray(tech["cards"], old, new):
                tech["upgrades"].remove(old)
                notes.append(f"{old} discarded (obsoleted by {new})")
        tech["upgrades"].append(new)
        if new == "Yttrium Alloys":
            tech["defense"] = dict(rules.YTTRIUM_DEFENSE)
            notes.append("Yttrium Alloys: Defense 8 space, 7 land, 9 ocean")
        elif new == "Gatling Lasers":
            notes.append("Gatling Lasers: two dice per attacking spaceship")
        else:
            notes.append(f"{new} in effect: enter any changed Weapon or Defense values under Technology values")
    state["pending_upgrades"] = [p for p in state["pending_upgrades"] if p["world"] != world]
    return notes


def set_tech(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Values from Technology cards whose text the seed does not give, entered by the players."""
    world = world_in_game(state, action["world"])
    w = state["worlds"][world]
    tech = w["tech"]
    changed = []
    if action.get("weapon_dice") is not None:
        tech["weapon_dice"] = action["weapon_dice"]
        changed.append(f"Weapon {plural(action['weapon_dice'], 'die')}")
    for area_type in rules.AREA_TYPES:
        value = action.get(f"defense_{area_type}")
        if value is not None:
            tech["defense"][area_type] = value
            changed.append(f"Defense {value} {area_type}")
    if action.get("builds_per_action") is not None:
        w["builds_per_action"] = action["builds_per_action"]
        changed.append(f"builds {action['builds_per_action']} per action")
    if action.get("cards") is not None:
        tech["cards"] = list(action["cards"])
        tech["cards_source"] = "players"
        changed.append("cards: " + (", ".join(action["cards"]) or "none"))
    if not changed:
        raise RuleError(N_("Technology values: give at least one value to change"))
    return state, {"summary": f"{whose(state, world)} Technology: " + ", ".join(changed), "tech": tech}
