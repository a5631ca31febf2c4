"""Spaceships: building, attacking (Basic, Enhanced Weapon, Q-Ray) and losses.

Tableside counts ships on the board and in reserve per fleet; where each ship
stands stays on the board, so an attack names the target's fleet and the type
of area it is in (which picks its Defense in the Enhanced game).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import d10, mind, rules
from tableside.core.systems.vnm.cardvalues import AREA_WORDS, enter_card_values
from tableside.core.systems.vnm.state import (
    begin,
    current_player,
    current_world,
    has_earth,
    land_area,
    many,
    other_action_chosen,
    player_label,
    player_of,
    ships_commanded,
    turn_closed,
    who,
    whose,
    winner_names,
    world_in_game,
)
from tableside.core.text import N_
from tableside.core.words import faces_words


def reserve(state: State, world: str) -> int:
    w = state["worlds"][world]
    return w["fleet"] - w["on_board"]


def fleet_full(state: State, world: str) -> str | None:
    """Why ``world`` cannot build: its whole fleet is on the board (None when ships are in reserve)."""
    if reserve(state, world) > 0:
        return None
    fleet = state["worlds"][world]["fleet"]
    return N_(
        "all {fleet} of {world}'s spaceships are on the board; none can be built until some are destroyed",
        fleet=fleet,
        world=who(state, world),
    )


def builds_left(state: State) -> int:
    """Spaceships the player whose turn it is may still build this turn: the build action's allowance
    (and its Zap extensions) less what was built, as far as the reserve lasts."""
    world = current_world(state)
    w = state["worlds"][world]
    chosen = state["turn_action"]
    built, extensions = (chosen["count"], chosen["extensions"]) if chosen and chosen["kind"] == "build" else (0, 0)
    return max(0, min(w["builds_per_action"] + extensions - built, reserve(state, world)))


def build_closed(state: State, seat: str | None = None) -> str | None:
    """Closed outside the turn, after another action, and with no ship in reserve (never offered only to be refused)."""
    return turn_closed(state, seat) or other_action_chosen(state, "build") or fleet_full(state, current_world(state))


def build(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Build: new ships on the home world (Earth: any populated area), never more than the fleet."""
    world = current_world(state)
    w = state["worlds"][world]
    in_reserve = reserve(state, world)
    full = fleet_full(state, world)
    if full:
        raise RuleError(full, rule="build")
    where = _build_area(state, world, action.get("area"))
    chosen = begin(state, "build")
    allowed = w["builds_per_action"] + chosen["extensions"]
    left = allowed - chosen["count"]
    if left <= 0:
        raise RuleError(
            N_(
                "{world} has built {count} this turn, all its build action allows; extend with a Zap card "
                "to build one more",
                world=who(state, world),
                count=chosen["count"],
            )
        )
    count = action.get("count")
    note = ""
    if count is None:
        count = min(left, in_reserve)
        if count < left:
            note = N_(" ({left} allowed, but only {in_reserve} left in reserve)", left=left, in_reserve=in_reserve)
    elif count > left:
        raise RuleError(
            N_(
                "{world} may build {spaceships} this turn, not {count}",
                world=who(state, world),
                spaceships=many(left, "more spaceship"),
                count=count,
            )
        )
    elif count > in_reserve:
        raise RuleError(
            N_(
                "{world} has only {spaceships} in reserve, so they cannot build {count}",
                world=who(state, world),
                spaceships=many(in_reserve, "spaceship"),
                count=count,
            ),
            rule="build",
        )
    chosen["count"] += count
    w["on_board"] += count
    summary = N_(
        "{world} builds {spaceships}{where}{note}: {on_board} on the board, {reserve} in reserve",
        world=who(state, world),
        spaceships=many(count, "spaceship"),
        where=where,
        note=note,
        on_board=w["on_board"],
        reserve=reserve(state, world),
    )
    return state, {"summary": summary, "built": count, "on_board": w["on_board"], "reserve": reserve(state, world)}


def _build_area(state: State, world: str, name: str | None) -> str:
    if world != "Earth":
        if name is not None:
            raise RuleError(
                N_(
                    "area: {world} builds on its home world; only Earth chooses a populated area",
                    world=who(state, world),
                )
            )
        return N_(" on their home world")
    populated = [a for a in state["land_areas"] if a["population"] + a["infected"] > 0]
    if not populated:
        raise RuleError(N_("Earth builds in a populated area, and no land area has population left"))
    if name is None:
        return ""
    area = land_area(state, name)
    if area not in populated:
        raise RuleError(N_("area: Earth builds in a populated area, and {area} has no population", area=area["name"]))
    return N_(" in {area}", area=area["name"])


def destroy_ship(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """A ship lost to a card or anything else Tableside did not roll: back to its fleet's reserve."""
    world = world_in_game(state, action["world"])
    w = state["worlds"][world]
    count = action["count"]
    if count > w["on_board"]:
        raise RuleError(
            N_(
                "{world} has only {spaceships} on the board, not {count}",
                world=who(state, world),
                spaceships=many(w["on_board"], "spaceship"),
                count=count,
            )
        )
    w["on_board"] -= count
    return state, {
        "summary": N_(
            "{world} loses {spaceships}: {on_board} on the board, {reserve} in reserve",
            world=who(state, world),
            spaceships=many(count, "spaceship"),
            on_board=w["on_board"],
            reserve=reserve(state, world),
        ),
        "on_board": w["on_board"],
    }


# --- attacks -----------------------------------------------------------------


def _attack_action(state: State) -> dict[str, Any] | None:
    chosen = state["turn_action"]
    return chosen if chosen is not None and chosen["kind"] == "attack" else None


def next_is_extension(state: State) -> bool:
    """Every spaceship has attacked: the next attack is one a Zap card bought."""
    chosen = _attack_action(state)
    return chosen is not None and chosen["count"] >= chosen["ships"]


def attack_closed(state: State, seat: str | None = None) -> str | None:
    """ "Each of your spaceships can attack one enemy spaceship", plus one attack per Zap extension."""
    reason = turn_closed(state, seat) or other_action_chosen(state, "attack")
    if reason:
        return reason
    world = current_world(state)
    if ships_commanded(state, world) == 0:
        return N_("{world} has no spaceships on the board to attack with", world=who(state, world))
    chosen = _attack_action(state)
    if chosen and chosen["count"] >= chosen["ships"] + chosen["extensions"]:
        return N_(
            "{world} has attacked {times}: {spaceships} and {extensions}; extend with a Zap card to attack once more",
            world=who(state, world),
            times=many(chosen["count"], "time"),
            spaceships=many(chosen["ships"], "spaceship"),
            extensions=many(chosen["extensions"], "Zap extension"),
        )
    return None


def attack_plan(
    state: State,
    attacker: str,
    target: str | None,
    area_type: str | None,
    weapon: str | None,
    extension: bool = False,
    armed: str | None = None,
) -> dict[str, Any]:
    """Who attacks whom with which dice, and the exact chance to destroy: shown before the roll.

    An attack bought with a Zap card in the Enhanced game follows "Technology and
    Special cards do not apply": the general rule, two dice, 8 or higher destroys.
    """
    if target is None:
        raise RuleError(
            N_("target: declare a target first: which enemy fleet's spaceship do you attack?"), rule="declare"
        )
    target = world_in_game(state, target, "target")
    area_type = area_type or "space"
    if target == attacker:
        raise RuleError(N_("target: {attacker} cannot attack its own spaceships", attacker=who(state, attacker)))
    if state["worlds"][target]["player"] == state["worlds"][attacker]["player"]:
        team = player_label(state, state["worlds"][attacker]["player"])
        raise RuleError(
            N_("target: {attacker} and {target} are one team, {team}", attacker=attacker, target=target, team=team),
            rule="team",
        )
    if state["worlds"][attacker]["on_board"] == 0:
        raise RuleError(N_("{attacker} has no spaceships on the board to attack with", attacker=who(state, attacker)))
    if state["worlds"][target]["on_board"] == 0:
        raise RuleError(N_("target: {target} has no spaceships on the board to attack", target=who(state, target)))
    plan: dict[str, Any] = {
        "attacker": attacker,
        "target": target,
        "area_type": area_type,
        "reroll": False,
        "robotic": False,
        "extension": extension,
    }
    if state["version"] == "Basic" or extension:
        if weapon is not None and state["version"] == "Basic":
            raise RuleError(N_("weapon: Weapon Technology cards are only in the Enhanced game"), rule="enhanced_only")
        plan.update(weapon="basic", dice=rules.BASIC_DICE, hit=rules.BASIC_HIT)
        chance = d10.basic_destroy_chance()
    else:
        plan.update(_enhanced_weapon(state, armed or attacker, target, area_type, weapon))
        plan["robotic"] = target == rules.ROBOTIC_WORLD and plan["weapon"] != mind.MIND
        if plan["weapon"] == mind.MIND:
            chance = Fraction(1)  # no roll: the target is taken over
        elif plan["weapon"] == "q_ray":
            chance = d10.qray_destroy_chance(plan["reroll"])
        else:
            chance = d10.destroy_chance(plan["dice"], plan["hit"])
    plan.update(d10.show(chance))
    verb = N_("disable (Robotic)") if plan["robotic"] else N_("destroy")
    if plan["weapon"] == mind.MIND:
        verb = N_("take over (Mind Control: the target in the same area)")
    how = (
        N_(" (Zap extension: 2 dice, 8+, no Technology cards)") if extension and state["version"] == "Enhanced" else ""
    )
    words = dict(attacker=who(state, attacker), target=who(state, target), chance=plan["chance"], verb=verb, how=how)
    if plan["weapon"] == "basic":  # two dice, 8+ in every area: naming one would read as if it were chosen
        plan["text"] = N_("{attacker} vs {target}: {chance} to {verb}{how}", **words)
    else:
        plan["text"] = N_("{attacker} vs {target} ({area_type}): {chance} to {verb}{how}", area_type=area_type, **words)
    return plan


WEAPON_WORDS: dict[str, str] = {
    "q_ray": "Q-Ray",
    "gatling": "Gatling Lasers",
    "card": "Weapon Technology card",
    mind.MIND: mind.WORDS,
}


def weapons(state: State, world: str) -> list[str]:
    """The weapons ``world`` may attack with now (Enhanced), the one used when none is chosen first:
    Venus's Q-Ray (its Weapon Technology card), Gatling Lasers once acquired, else the Weapon
    Technology card's dice (for a planet holding the Q-Ray, only where its dice were entered)."""
    tech = state["worlds"][world]["tech"]
    if tech is None:
        return []
    has_qray = rules.QRAY in tech["cards"]
    out = ["q_ray"] if has_qray else []
    if "Gatling Lasers" in tech["upgrades"]:
        out.append("gatling")
    if not has_qray or tech["weapon_dice"] is not None:
        out.append("card")
    if mind.has_mind_control(state, world):  # "either attack using your Weapon Technology or use mind control"
        out.append(mind.MIND)
    return out


def check_weapon(state: State, world: str, weapon: str) -> None:
    """A weapon ``world`` cannot attack with now is refused, saying why."""
    if weapon == mind.MIND:
        mind.check_may_use(state, world)
    if weapon in weapons(state, world):
        return
    if weapon == "q_ray":
        raise RuleError(
            N_("weapon: {world} has no Q-Ray (it is Venus's Weapon Technology)", world=who(state, world)), rule="qray"
        )
    if weapon == "gatling":
        raise RuleError(N_("weapon: {world} has not acquired Gatling Lasers", world=who(state, world)))
    raise RuleError(N_("weapon: {world}'s Weapon Technology card is the Q-Ray", world=who(state, world)))


def _enhanced_weapon(state: State, attacker: str, target: str, area_type: str, weapon: str | None) -> dict[str, Any]:
    """The dice of ``attacker``'s Technology cards (a controlled spaceship's own), or Mind Control's none."""
    if weapon == mind.MIND:
        return {"weapon": mind.MIND, "dice": 0, "hit": None}
    tech = state["worlds"][attacker]["tech"]
    has_qray = rules.QRAY in tech["cards"]
    has_gatling = "Gatling Lasers" in tech["upgrades"]
    weapon = weapon or ("q_ray" if has_qray else "gatling" if has_gatling else "card")
    if weapon in ("q_ray", "gatling"):
        check_weapon(state, attacker, weapon)
    if weapon == "q_ray":
        reroll = any(u in tech["upgrades"] for u in rules.QRAY_REROLL_UPGRADES)
        return {"weapon": "q_ray", "dice": 1, "hit": 8, "reroll": reroll}
    if weapon == "gatling":
        count = rules.GATLING_DICE
    else:
        count = tech["weapon_dice"]
        if count is None:
            raise RuleError(
                N_(
                    "{attacker}'s Weapon dice are not entered yet: the Attack form asks them, from the Weapon "
                    "Technology card",
                    attacker=who(state, attacker),
                )
            )
    defense = state["worlds"][target]["tech"]["defense"][area_type]
    if defense is None:
        raise RuleError(
            N_(
                "{target}'s Defense {area_words} is not entered yet: the Attack form asks it, from their "
                "Defense Technology card",
                target=who(state, target),
                area_words=AREA_WORDS[area_type],
            )
        )
    return {"weapon": weapon, "dice": count, "hit": defense}


def _declared(state: State, action: Action) -> dict[str, Any]:
    """The action's own fields, else the declared target's: what the player aims at."""
    aim = state["aim"] or {}
    target = action.get("target") or aim.get("target")
    same = aim.get("target") == target
    area_type = action.get("area_type") or (aim.get("area_type") if same else None)
    weapon = action.get("weapon") or (aim.get("chosen_weapon") if same else None)
    ship = action.get("ship") or (aim.get("ship") if same else None)
    return {"target": target, "area_type": area_type or "space", "chosen_weapon": weapon, "ship": ship}


def _plan_for(state: State, action: Action) -> dict[str, Any]:
    declared = _declared(state, action)
    extension = next_is_extension(state)
    if extension and action.get("weapon") and state["version"] == "Enhanced":
        raise RuleError(
            N_(
                "weapon: an attack bought with a Zap card uses no Technology cards (two dice, 8 or "
                "higher), so no weapon is chosen"
            )
        )
    weapon = None if extension else declared["chosen_weapon"]
    attacker = current_world(state)
    armed = mind.attacking_ship(state, declared)
    if weapon == mind.MIND:
        mind.check_take_over(state, attacker, armed)
    plan = attack_plan(state, attacker, declared["target"], declared["area_type"], weapon, extension, armed)
    mind.check_target_left(state, attacker, plan["target"])
    if armed != attacker:
        plan["text"] += f", with {whose(state, armed)} spaceship (Mind Control)"
    return {**plan, "chosen_weapon": declared["chosen_weapon"], "ship": declared["ship"], "armed": armed}


def plan_against(state: State, target: str) -> dict[str, Any] | None:
    """The plan an attack on ``target`` would roll now, from the function the roll itself uses (the phone shows its
    chance before the tap that rolls); None where the rules refuse that attack as things stand."""
    try:
        return _plan_for(state, {"target": target})
    except RuleError:
        return None


def aim_now(state: State) -> dict[str, Any] | None:
    """The declared target's plan as the state stands now (derive keeps the shown chance true)."""
    aim = state["aim"]
    if not aim or state["winners"]:
        return aim
    declared = {k: aim.get(k) for k in ("target", "area_type", "chosen_weapon", "ship")}
    try:
        return {**_plan_for(state, {}), **declared, "problem": None}
    except RuleError as problem:
        return {**declared, "text": problem.message, "chance": None, "chance_exact": None, "problem": problem.message}


def declare_target(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """ "You must declare which enemy spaceship you are attacking before you roll the dice"."""
    entered = enter_card_values(state, action, _declared(state, action)["target"])
    plan = _plan_for(state, action)
    state["aim"] = _aim(plan)
    summary = plan["text"] + (f" (entered from the cards: {', '.join(entered)})" if entered else "")
    return state, {"summary": summary, **plan}


def _aim(plan: dict[str, Any]) -> dict[str, Any]:
    """What the declared target keeps for the next attack (button A)."""
    keys = ("target", "area_type", "chosen_weapon", "ship")
    return {k: plan[k] for k in keys if k != "ship" or plan.get("ship")}


def attack(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """One spaceship's attack: one roll, the verdict, and the fleets' counts."""
    notes = enter_card_values(state, action, _declared(state, action)["target"])
    if notes:
        notes = ["entered from the cards: " + ", ".join(notes)]
    plan = _plan_for(state, action)
    chosen = begin(state, "attack")
    if plan["weapon"] == mind.MIND:
        return _take_over(state, plan, chosen, notes)
    label = f"{plan['attacker']} vs {plan['target']}"  # the roll's name in the log, which a replay checks
    fight = f"{who(state, plan['attacker'])} vs {who(state, plan['target'])}"
    faces = ctx.dice.faces(label, plan["dice"], sides=10, shown=fight, by=player_of(state, plan["attacker"])["name"])
    chosen["count"] += 1
    state["aim"] = _aim(plan)
    if plan["target"] == "Earth" and not state["earth_may_collect"] and has_earth(state):
        state["earth_may_collect"] = True
        notes.append(N_("{earth} may now collect population", earth=who(state, "Earth")))
    if plan["weapon"] == "q_ray":
        verdict, hits = _resolve_qray(state, plan, faces[0])
    else:
        hits = [face >= plan["hit"] for face in faces]
        verdict = _hit_target(state, plan) if any(hits) else N_("missed")
    ctx.dice.mark(["hit" if hit else "miss" for hit in hits], verdict, hit_chance=d10.die_hit_chance(plan))
    how = ", Zap extension" if plan["extension"] else ""
    how += f", with {whose(state, plan['armed'])} spaceship" if plan["armed"] != plan["attacker"] else ""
    words = dict(fight=fight, how=how, chance=plan["chance"], faces_words=faces_words(faces), verdict=verdict)
    if plan["weapon"] == "basic":  # the Basic Game's 8+ holds in every area: no area type in its words
        summary = N_("{fight} ({chance}{how}): rolled {faces_words}, {verdict}", **words)
    else:
        words["area_type"] = plan["area_type"]
        summary = N_("{fight} ({area_type}{how}, {chance}): rolled {faces_words}, {verdict}", **words)
    if notes:
        summary += "; " + "; ".join(notes)
    return state, {
        "summary": summary,
        "faces": faces,
        "hits": hits,
        "verdict": verdict,
        "chance": plan["chance"],
        "chance_exact": plan["chance_exact"],
    }


def _take_over(state: State, plan: dict[str, Any], chosen: dict[str, Any], notes: list[str]) -> tuple[State, Result]:
    """Mind Control instead of a roll: one of the action's attacks, no dice. (Not an attack roll on an Earth
    spaceship: "either attack ... or use mind control", so Earth may not collect from it.)"""
    chosen["count"] += 1
    state["aim"] = _aim(plan)
    summary = N_(
        "{attacker} vs {target} ({area_type}): ",
        attacker=who(state, plan["attacker"]),
        target=who(state, plan["target"]),
        area_type=plan["area_type"],
    )
    summary += mind.take_over(state, plan) + "".join(f"; {n}" for n in notes)
    return state, {"summary": summary, "faces": [], "hits": [], "verdict": "taken over", "chance": plan["chance"]}


def _hit_target(state: State, plan: dict[str, Any]) -> str:
    target = plan["target"]
    if plan["robotic"]:
        return N_("{target}'s spaceship disabled, not destroyed (Robotic)", target=who(state, target))
    state["worlds"][target]["on_board"] -= 1
    return N_("{target}'s spaceship destroyed", target=who(state, target))


def _resolve_qray(state: State, plan: dict[str, Any], face: int) -> tuple[str, list[bool]]:
    """The Q-Ray table (revised card); teleports and re-rolls wait for one more roll."""
    outcome = d10.qray_outcome(face, plan["reroll"])
    target, attacker = plan["target"], plan.get("armed") or plan["attacker"]  # a controlled ship is its colour's
    hits = [outcome in ("both_destroyed", "target_destroyed")]
    if outcome == "target_destroyed":
        return _hit_target(state, plan), hits
    if outcome == "both_destroyed":
        state["worlds"][attacker]["on_board"] -= 1
        return N_(
            "{hit_target}; {attacker}'s attacking spaceship destroyed",
            hit_target=_hit_target(state, plan),
            attacker=who(state, attacker),
        ), hits
    if outcome == "both_teleport":
        ships = [target, attacker]
    elif outcome == "target_teleports":
        ships = [target]
    elif outcome == "roll_again":
        state["pending_roll"] = {"kind": "qray_reroll", "label": N_("Q-Ray re-roll"), "dice": 1, "plan": plan}
        return N_("Q-Ray 4-5: roll again"), hits
    else:
        return N_("no effect"), hits
    state["pending_roll"] = {"kind": "teleport", "label": N_("teleport die"), "dice": len(ships), "ships": ships}
    both = " and ".join(who(state, ship) for ship in ships)
    return N_(
        "{qray_outcomes}: roll a die for the space area of {both}", qray_outcomes=d10.QRAY_OUTCOMES[outcome], both=both
    ), hits


def follow_up_closed(state: State, seat: str | None = None) -> str | None:
    if state["winners"]:
        return N_("the game is over: {winners} won", winners=winner_names(state))
    if not state["pending_roll"]:
        return N_("no follow-up roll is waiting (a Q-Ray re-roll or teleport die)")
    return None


def follow_up_roll(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """The Q-Ray re-roll of a 4-5, or the teleport die: "roll another die to see which"."""
    pending = state["pending_roll"]
    said = label = "Teleport"
    if pending["kind"] == "qray_reroll":  # the label is the roll's name in the log (a replay checks it)
        plan = pending["plan"]
        label = f"{plan['attacker']} vs {plan['target']} re-roll"
        said = f"{who(state, plan['attacker'])} vs {who(state, plan['target'])} re-roll"
    faces = ctx.dice.faces(label, pending["dice"], sides=10, shown=said, by=current_player(state))  # the attacker's
    state["pending_roll"] = None
    if pending["kind"] == "qray_reroll":
        verdict, hits = _resolve_qray(state, pending["plan"], faces[0])
    else:
        ships = zip(pending["ships"], faces, strict=True)
        parts = [f"{whose(state, ship)} spaceship to space area die {face}" for ship, face in ships]
        verdict, hits = "teleports: " + "; ".join(parts) + " (the board maps the die)", [False] * len(faces)
    chance = d10.die_hit_chance(pending["plan"]) if pending["kind"] == "qray_reroll" else None  # teleports: no hit
    ctx.dice.mark(["hit" if hit else "miss" for hit in hits], verdict, hit_chance=chance)
    return state, {
        "summary": N_(
            "{said}: rolled {faces_words}, {verdict}", said=said, faces_words=faces_words(faces), verdict=verdict
        ),
        "faces": faces,
        "verdict": verdict,
    }
