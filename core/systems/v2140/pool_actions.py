"""Actions that put dice into scene pools: prepare, roll (A), session racks, resist, Fly-Dice.

Every roll goes through ``ctx.dice`` (Tableside's dice, or the faces typed in, roll-ins
included), and a roll into a pool is logged privately to the pool's seat: everyone else
reads how many dice went in and how many stayed.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import campaign_actions, effects, flydice, initiative, pool, rules
from tableside.core.systems.v2140.downtime import AGAINST
from tableside.core.systems.v2140.pool import PoolDice
from tableside.core.systems.v2140.state import is_gm, participant, who
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]
PREPARED_KEYS = (
    "primary_skills",
    "secondary_skills",
    "assist_quality",
    "secondary_assist_quality",
    "gear_circumstances",
    "circumstances",
    "racks",
    "session_racks",
)


def draw_with(ctx: Any, by: str, against: str | None = None):
    """The recorded dice as a ``draw(label, count)`` for the pure pool functions; each roll reads on
    the table as the dice that stay (4-6) and the dice tossed (1-3). ``by``: the participant whose pool
    (and luck) the dice are; ``against``: who rolls a test's dice against them (``downtime.run_test``'s
    "...: against" roll), the GM."""

    def draw(label: str, count: int) -> list[int]:
        owner = against if against is not None and label.endswith(AGAINST) else by
        faces = ctx.dice.faces(label, count, by=owner)
        if faces:
            stay = [pool.stays(f) for f in faces if isinstance(f, int)]
            if len(stay) == len(faces):
                ctx.dice.mark(
                    ["kept" if s else "tossed" for s in stay], f"{sum(stay)} stay, {len(faces) - sum(stay)} tossed"
                )
        return faces

    return draw


def pool_dice(state: State, name: str, prepared: dict[str, Any]) -> PoolDice:
    p = participant(state, name)
    return PoolDice(
        primary_skills=prepared["primary_skills"],
        secondary_skills=prepared["secondary_skills"],
        assists=(prepared["assist_quality"],) if prepared["assist_quality"] else (),
        secondary_assists=(prepared["secondary_assist_quality"],) if prepared["secondary_assist_quality"] else (),
        gear_circumstances=prepared["gear_circumstances"],
        circumstances=prepared["circumstances"] + len(prepared.get("effects", ())),
        racks=prepared["racks"] + prepared["session_racks"],
        rack=p["rack"],
        follow_up=p["follow_up"],
    )


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _rolled_words(rolled: pool.RollIn, pool_size: int) -> str:
    """A roll into the scene pool in the rulebook's terms: "Roll In - Add an additional die for each 6
    rolled", "Toss all 1s, 2s, and 3s", the rest "rolled into the scene pool and left there". Counts
    only: the summary is public, the faces are the owner's."""
    extra = rolled.rolled_in
    more = f", {extra} more rolled in for {'a six' if extra == 1 else 'sixes'}" if extra else ""
    kept = len(rolled.kept)
    now = f" (it holds {pool_size})" if pool_size != kept else ""
    return f"{more}: {len(rolled.tossed)} tossed (1s to 3s), {kept} left in the pool{now}"


def _counts_only(summary: str, rolled: pool.RollIn, p: dict) -> dict:
    """A private roll's result: counts only, because an action's result also reaches whoever undoes or
    redoes it. The faces are in the owner's view (the roll on the table, ``pool``) and in the log's rolls."""
    return {
        "summary": summary,
        "rolled": len(rolled.waves[0]) if rolled.waves else 0,
        "rolled_in": rolled.rolled_in,
        "stay": len(rolled.kept),
        "dice": len(p["pool"]),
    }


def most_racks(state: State) -> int:
    """The GM's racks one draw may hold. The rulebook names no most ("a Rack of dice per named opposition NPC
    or Gang", and no count of them), so the bound is what one roll starts with (``rules.MAX_DICE_IN_ROLL``)
    over the GM's rack (setup: one die per Lifestyle), less the GM's follow-up dice, which roll with it."""
    gm = participant(state, state["gm"])
    return max(0, (rules.MAX_DICE_IN_ROLL - gm["follow_up"]) // gm["rack"])


def _check_racks(state: State, racks: int) -> None:
    most = most_racks(state)
    if racks > most:
        gm = participant(state, state["gm"])
        rack, follow = gm["rack"], gm["follow_up"]
        words = {"racks": plural(racks, "rack"), "rack": rack, "dice": racks * rack, "most": plural(most, "rack")}
        words.update(max_dice_in_roll=rules.MAX_DICE_IN_ROLL, follow=plural(follow, "follow-up die"))
        if follow:
            raise RuleError(
                N_(
                    "racks: {racks} of {rack} dice are {dice} dice, and one roll starts with at most "
                    "{max_dice_in_roll} "
                    "dice ({follow} among them): at most {most}",
                    **words,
                )
            )
        raise RuleError(
            N_(
                "racks: {racks} of {rack} dice are {dice} dice, and one roll starts with at most {max_dice_in_roll} "
                "dice: at most {most}",
                **words,
            )
        )


def prepare_pool(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Enter the dice a participant draws (skills, gear, circumstances, racks); roll them with button A."""
    name = who(state, action)
    p = participant(state, name)
    prepared = {key: action[key] for key in PREPARED_KEYS}
    confirmed = effects.confirmed(state, name, action["effects"])
    prepared["effects"] = [c["value"] for c in confirmed]
    if not is_gm(state, name) and (prepared["racks"] or prepared["session_racks"]):
        raise RuleError(
            N_("racks are the GM's dice; {name} draws skills, gear and circumstances", name=name), rule="rack"
        )
    _check_racks(state, prepared["racks"])
    if prepared["session_racks"] > state["session_racks"]:
        raise RuleError(
            N_(
                "the GM's session pool holds {racks}, cannot use {session_racks}",
                racks=plural(state["session_racks"], "rack"),
                session_racks=prepared["session_racks"],
            ),
            rule="session",
        )
    count = pool_dice(state, name, prepared).count()
    if count > rules.MAX_DICE_IN_ROLL:
        raise RuleError(
            N_(
                "{name} would roll {count} dice; one roll starts with at most {max_dice_in_roll}",
                name=name,
                count=count,
                max_dice_in_roll=rules.MAX_DICE_IN_ROLL,
            ),
            rule="pool_limit",
        )
    if count == 0:
        raise RuleError(
            N_("{name} draws no dice: name at least one matching skill, gear, circumstance or rack", name=name)
        )
    p["prepared"] = prepared
    parts = {k: v for k, v in pool_dice(state, name, prepared).parts().items() if v}
    racks = prepared["racks"] + prepared["session_racks"]
    # Dice from each source: "6 primary", "1 from secondary gear", "6 from 1 rack" (never "1 circumstances").
    words = {
        "assists": "from gear",
        "secondary_assists": "from secondary gear",
        "gear_circumstances": "from gear as a circumstance",
        "circumstances": "from circumstances",
        "racks": f"from {plural(racks, 'rack')}",
        "follow_up": "follow-up",
    }
    detail = ", ".join(f"{v} {words.get(k, k.replace('_', ' '))}" for k, v in parts.items())
    counted = "; effects counted: " + ", ".join(c["label"] for c in confirmed) if confirmed else ""
    left = [c["label"] for c in effects.candidates(state, name) if c["value"] not in prepared["effects"]]
    offered = "; effects that may apply, not counted: " + ", ".join(left) if left else ""
    dice = "die" if count == 1 else "dice"
    return state, {
        "summary": f"{name} draws {count} {dice} ({detail}){counted}{offered}; "
        "roll them with button A into the scene pool",
        "dice": count,
        "parts": parts,
    }


def roll_pool(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Roll the prepared dice in: sixes roll in again, 1-3 are tossed, the rest join the scene pool."""
    name = who(state, action)
    p = participant(state, name)
    if not p["prepared"]:
        raise RuleError(N_("{name} has no dice prepared: enter skills, gear and circumstances first", name=name))
    spec = pool_dice(state, name, p["prepared"])
    used = p["prepared"]["session_racks"]
    if used > state["session_racks"]:
        raise RuleError(
            N_(
                "the GM's session pool holds {racks}, cannot use {used}",
                racks=plural(state["session_racks"], "rack"),
                used=used,
            ),
            rule="session",
        )
    rolled = pool.roll_in(spec.count(), draw_with(ctx, name), label=f"{name} scene pool")
    if len(p["pool"]) + len(rolled.kept) > rules.MAX_POOL:
        raise RuleError(N_("a scene pool holds at most {max_pool} dice", max_pool=rules.MAX_POOL), rule="pool_limit")
    state["session_racks"] -= used
    state["drawn"][name] = state["drawn"].get(name, 0) + spec.count()
    p["pool"] = pool.high_to_low(p["pool"] + list(rolled.kept))
    p["prepared"] = None
    p["follow_up"] = 0
    summary = f"{name} rolled {_dice(spec.count())} into the scene pool{_rolled_words(rolled, len(p['pool']))}"
    ctx.private(name, summary)
    return state, _counts_only(summary, rolled, p)


def session_rack(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """ "The GM can add another rack of dice to their Scene Pool at any time ... from their Session Pool"."""
    gm = state["gm"]
    p = participant(state, gm)
    if state["session_racks"] < 1:
        raise RuleError(N_("the GM's session pool is empty (one rack per player per session)"))
    rolled = pool.roll_in(p["rack"], draw_with(ctx, gm), label=f"{gm} session rack")
    if len(p["pool"]) + len(rolled.kept) > rules.MAX_POOL:
        raise RuleError(N_("a scene pool holds at most {max_pool} dice", max_pool=rules.MAX_POOL), rule="pool_limit")
    state["session_racks"] -= 1
    state["drawn"][gm] = state["drawn"].get(gm, 0) + p["rack"]
    p["pool"] = pool.high_to_low(p["pool"] + list(rolled.kept))
    racks = state["session_racks"]
    summary = (
        f"{gm} rolled a rack of {p['rack']} from the session pool{_rolled_words(rolled, len(p['pool']))}; "
        f"{plural(racks, 'rack')} left"
    )
    ctx.private(gm, summary)
    return state, _counts_only(summary, rolled, p)


def resist(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Resist Dice: roll the gear's quality, the 4+ join the scene pool."""
    name = who(state, action)
    p = participant(state, name)
    rolled = pool.resist(draw_with(ctx, name), action["quality"], label=f"{name} resist")
    if len(p["pool"]) + len(rolled.kept) > rules.MAX_POOL:
        raise RuleError(N_("a scene pool holds at most {max_pool} dice", max_pool=rules.MAX_POOL))
    p["pool"] = pool.high_to_low(p["pool"] + list(rolled.kept))
    joined = len(rolled.kept)
    summary = (
        f"{name} rolled {plural(action['quality'], 'resist die')}: "
        f"{joined} {'joins' if joined == 1 else 'join'} the scene pool"
    )
    ctx.private(name, summary)
    return state, _counts_only(summary, rolled, p)


def fly_dice(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Fly-Dice: a one-off roll of the base attack against a rack or the opponent's skill, in the open.

    The winner adds the dice their own roll kept to their scene pool (see flydice.py for the reading).
    """
    attacker = who(state, action, "attacker")
    defender = action["defender"]
    participant(state, defender)
    if attacker == defender:
        raise RuleError(N_("Fly-Dice need two sides: pick the opponent"))
    a = pool.roll_in(action["attack_dice"], draw_with(ctx, attacker), label=f"{attacker} Fly-Dice")
    d = pool.roll_in(action["defense_dice"], draw_with(ctx, defender), label=f"{defender} Fly-Dice")
    side = flydice.winner(a.kept, d.kept)
    show = {attacker: "".join(map(str, a.kept)) or "nothing", defender: "".join(map(str, d.kept)) or "nothing"}
    winner_name = None if side is None else attacker if side == flydice.ATTACKER else defender
    if action["skill"].strip():
        # "Any goals from the skill used can be purchased in the original conflict by the winning party only."
        skill = action["skill"].strip()
        state["fly_goals"] = [
            *state["fly_goals"],
            {"skill": skill, "root": campaign_actions.root(skill), "winner": winner_name},
        ]
    if side is None:
        summary = f"Fly-Dice: {attacker} {show[attacker]} against {defender} {show[defender]}: a tie, nobody gains"
        return state, {"summary": summary, "winner": None}
    name, kept = (attacker, a.kept) if side == flydice.ATTACKER else (defender, d.kept)
    p = participant(state, name)
    if len(p["pool"]) + len(kept) > rules.MAX_POOL:
        raise RuleError(N_("a scene pool holds at most {max_pool} dice", max_pool=rules.MAX_POOL), rule="pool_limit")
    p["pool"] = pool.high_to_low(p["pool"] + list(kept))
    summary = (
        f"Fly-Dice: {attacker} {show[attacker]} against {defender} {show[defender]}: {name} wins and "
        f"adds {''.join(map(str, kept))} to the scene pool"
    )
    return state, {
        "summary": summary,
        "winner": name,
        "added": list(kept),
        "attacker_kept": list(a.kept),
        "defender_kept": list(d.kept),
    }


def bid_initiative(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Put dice from the scene pool in for initiative; the GM may add dice for any one character."""
    name = who(state, action)
    credit = action.get("for") or name
    participant(state, credit)
    if credit != name and not is_gm(state, name):
        raise RuleError(N_("only the GM adds initiative dice for another character, not {name}", name=name))
    if state["exchange"]:
        raise RuleError(N_("finish the pending exchange before bidding for initiative"))
    p = participant(state, name)
    held, p["pool"] = p["pool"], pool.take_from(p["pool"], action["dice"], name, seen=ctx.seat != name)
    state["initiative"].setdefault(credit, []).extend(action["dice"])
    total = sum(state["initiative"][credit])
    words = {"name": name, "dice": "".join(map(str, action["dice"])), "credit": credit, "total": total}
    said = (
        N_("{name} puts in {dice} for {credit} for initiative: {credit} totals {total}", **words)
        if credit != name
        else N_("{name} puts in {dice} for initiative: {credit} totals {total}", **words)
    )
    return state, {
        "summary": pool.seen_summary(ctx, held, action["dice"], name, said),
        "totals": initiative.totals(state["seating"], state["initiative"]),
    }


def settle_initiative(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Highest initiative total goes first; no bids or a choice of seating order keeps the seats."""
    if state["exchange"]:
        raise RuleError(N_("finish the pending exchange before changing the order"))
    if action["seating"] or not state["initiative"]:
        state["order"] = initiative.seating_order(state["seating"], reverse=action["reverse"])
        how = "seating order" + (", the other way" if action["reverse"] else "")
    else:
        state["order"] = initiative.bid_order(state["seating"], state["initiative"])
        totals = initiative.totals(state["seating"], state["initiative"])
        how = "initiative: " + ", ".join(f"{n} {totals[n]}" for n in state["order"])
    state["initiative"] = {}
    state["turn"] = 0
    state["acted"] = {}
    state["lead"] = None
    return state, {
        "summary": N_("Order by {how}; {order} goes first", how=how, order=state["order"][0]),
        "order": list(state["order"]),
    }
