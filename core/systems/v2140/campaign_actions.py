"""A campaign's lasting record: effects on characters, scenes and sessions, the conflict's skills, the
full-sleeve Player Point.

A Tableside game of Venus 2140 is a campaign: scenes follow scenes (``new_scene``) and play
sessions follow sessions (``new_session``), and the characters keep their effects across both
until they are treated, end, or are healed in downtime.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import effects, goals, rules
from tableside.core.systems.v2140.state import State, participant, side_of
from tableside.core.text import N_
from tableside.core.words import plural

# "If you enter a conflict where you are outnumbered by a full sleeve of dice, you are entitled to one
# player point ... This pertains to both the GM and the players."
OUTNUMBERED_POINTS = 1


def place_effect(state: State, character: str, name: str, by: str | None, **detail: Any) -> str:
    """Record an effect; a stopped participant's scene pool is gone. Returns what happened, in words."""
    made = effects.new_effect(state, character, name, by=by, **detail)
    words = "; ".join(effects.describe(e) for e in made)
    stopped = [e for e in made if e["reads"] == effects.STOPPED]
    p = state["participants"].get(character)
    if stopped and p is not None:
        ex = state["exchange"]
        if ex and character in (ex["actor"], ex["target"]):
            raise RuleError(
                N_("{character} has dice in the pending exchange: resolve it (B) first", character=character)
            )
        gone = len(p["pool"])
        p["pool"], p["prepared"], p["follow_up"] = [], None, 0
        words += (
            f"; {character} stops doing anything: {plural(gone, 'die')} in the scene pool "
            f"{'is' if gone == 1 else 'are'} gone gone gone, "
            "only spending books is left"
        )
    return words


def add_effect(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Note an effect bought as a goal (or agreed) on a character: a participant or an NPC the GM plays."""
    by = action["by"] or None
    if by:
        participant(state, by)
    words = place_effect(
        state,
        action["character"],
        action["effect"],
        by,
        applies_to=action["applies_to"],
        until=action["until"],
        level=action["level"],
        note=action["note"],
    )
    effects.settle_due(state, action["effect"], by)  # a goal's effect waiting for its bearer is noted
    return state, {"summary": N_("Effect: {words}", words=words)}


def treat_effect(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Treatment: a scar is no longer "just a wound"; crippling is no longer "a wound and a scar"."""
    e = effects.find(state, action["effect"])
    if not effects.treatable(e):
        raise RuleError(
            N_("{describe}: only an untreated scar or crippling effect is treated", describe=effects.describe(e))
        )
    e["treated"] = True
    if e["reads"] == effects.MARKED:
        after = f"a scar against {e['by'] or 'the one who did it'}"
    else:
        after = "a permanent physical penalty"
    return state, {
        "summary": N_(
            "{character}'s {effect} is treated: now {after}", character=e["character"], effect=e["effect"], after=after
        )
    }


def end_effect(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """An effect runs out ("An ordinary wound probably lasts a day or until medical attention") or is undone."""
    e = effects.find(state, action["effect"])
    e["ended"] = True
    state["effects"] = effects.active(state)
    why = f" ({action['reason']})" if action["reason"] else ""
    return state, {"summary": f"{effects.describe(e)} ends{why}"}


def _clear_scene(state: State) -> list[str]:
    """Pools, follow-up dice, the order and the conflict's skills go; the knocked out come round."""
    if state["exchange"]:
        ex = state["exchange"]
        raise RuleError(
            N_("resolve {actor}'s exchange against {target} (B) first", actor=ex["actor"], target=ex["target"])
        )
    for p in state["participants"].values():
        p["pool"], p["prepared"], p["follow_up"] = [], None, 0
    woke = [e for e in effects.active(state) if e["reads"] == effects.STOPPED]
    for e in woke:
        e["ended"] = True
    state["effects"] = effects.active(state)
    state["conflict"] += 1
    state["round"], state["turn"] = 1, 0
    state["order"] = list(state["seating"])
    state["initiative"], state["acted"] = {}, {}
    state["lead"] = None
    state["effects_due"] = []  # a goal's effect nobody noted: the scene it was bought in is over
    new_conflict(state)
    return [e["character"] for e in woke]


def new_conflict(state: State) -> None:
    """What belongs to one conflict only: its skills, Fly-Dice goals, the dice drawn, the full-sleeve point."""
    state["skills"] = {"primary": "", "secondary": ""}
    state["fly_goals"] = []
    state["drawn"] = {}
    state["outnumbered_claimed"] = []


def new_scene(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A new scene of the campaign: the effects stay with the characters; knocked out ends."""
    woke = _clear_scene(state)
    state["campaign"]["scene"] += 1
    words = {"scene": state["campaign"]["scene"], "kept": effects.describe_all(state) or N_("no effects")}
    if woke:
        words["woke"] = " and ".join(woke)
        return state, {"summary": N_("Scene {scene}: pools empty; {woke} come round; standing: {kept}", **words)}
    return state, {"summary": N_("Scene {scene}: pools empty; standing: {kept}", **words)}


def new_session(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A new play session: the GM's session pool is full again; points trained for become usable."""
    woke = _clear_scene(state)
    state["campaign"]["session"] += 1
    state["campaign"]["scene"] = 1
    players = [n for n in state["seating"] if state["participants"][n]["role"] == "player"]
    state["session_racks"] = len(players) * rules.SESSION_RACKS_PER_PLAYER
    usable = []
    for name in players:
        for r in state["participants"][name]["restricted"]:
            if r["usable_from"] == state["campaign"]["session"]:
                usable.append(f"{name} {r['points']} for {r['skill']}")
    back = f"; {' and '.join(woke)} come round" if woke else ""
    trained = f"; trained points usable now: {', '.join(usable)}" if usable else ""
    return state, {
        "summary": f"Session {state['campaign']['session']}: the GM's session pool holds "
        f"{plural(state['session_racks'], 'rack')}{back}{trained}; "
        f"standing: {effects.describe_all(state) or 'no effects'}"
    }


def root(skill: str) -> str:
    """ "Coordination: Projectiles: Airgun" -> "Coordination" (the root field names the goal chart)."""
    return skill.split(":")[0].strip()


def set_skills(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """The conflict's primary and secondary skills; their roots open their goal charts."""
    primary, secondary = action["primary"].strip(), action["secondary"].strip()
    if not primary:
        raise RuleError(N_("name the primary skill (e.g. Coordination: Projectiles: Airgun)"))
    state["skills"] = {"primary": primary, "secondary": secondary}
    opened = goals.chart_goals(state, {root(primary), root(secondary)} - {""})
    offer = ", ".join(opened) or "none in the charts the table entered"
    return state, {
        "summary": N_(
            "Primary {primary}, secondary {secondary}; goals on offer: {offer}",
            primary=primary,
            secondary=secondary or "-",
            offer=offer,
        )
    }


def outnumbered(state: State) -> list[str]:
    """Who may take the full-sleeve Player Point now: the participants of a side that drew at least a full
    sleeve (the GM's rack) fewer dice for this conflict than the other side, not yet given it."""
    drawn = state.get("drawn") or {}
    totals = {"players": 0, "gm": 0}
    for name, count in drawn.items():
        totals[side_of(state, name)] += count
    if not totals["players"] or not totals["gm"]:
        return []
    sleeve = state["participants"][state["gm"]]["rack"]
    out = []
    for name in drawn:
        mine = side_of(state, name)
        theirs = "gm" if mine == "players" else "players"
        if totals[theirs] - totals[mine] >= sleeve and name not in state["outnumbered_claimed"]:
            out.append(name)
    return out


def outnumbered_point(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """The full-sleeve point, once per conflict, when the GM agrees the conflict is germane to the story."""
    name = action["participant"]
    participant(state, name)
    if name not in outnumbered(state):
        if name in state["outnumbered_claimed"]:
            raise RuleError(
                N_(
                    "{name} is not outnumbered by a full sleeve of dice in this conflict (already given the point)",
                    name=name,
                )
            )
        raise RuleError(N_("{name} is not outnumbered by a full sleeve of dice in this conflict", name=name))
    state["outnumbered_claimed"].append(name)
    p = state["participants"][name]
    if p["role"] == "gm":
        state["murphy"] += OUTNUMBERED_POINTS
        what = f"a Murphy point (the GM's points): {state['murphy']}"
    else:
        p["player_points"] += OUTNUMBERED_POINTS
        what = f"a Player Point: {p['player_points']}"
    return state, {
        "summary": N_("{name} is outnumbered by a full sleeve of dice and gains {what}", name=name, what=what)
    }
