"""The fields of Venus 2140's actions, the choices they offer (taken from the state) and whose each action is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tableside.core.fields import Choice, Field
from tableside.core.system import State
from tableside.core.systems.v2140 import (
    campaign_actions,
    effects,
    pool_actions,
    rules,
)
from tableside.core.systems.v2140.state import (
    current,
    leader,
    names,
    player_names,
)
from tableside.core.text import N_


def name_choices(state: State) -> list[str]:
    return names(state) if state else []


def players(state: State) -> list[str]:
    return player_names(state) if state else []


def who_field(
    name: str = "participant",
    label: str = N_("Who"),
    required: bool = False,
    choices=name_choices,
    differs_from: str = "",
) -> Field:
    return Field(
        name,
        "pick",
        label=label,
        required=required,
        choices=choices,
        help="" if required else N_("default: whose move it is"),
        differs_from=differs_from,
    )


def count_field(
    name: str,
    label: str,
    maximum: int = rules.MAX_COUNT,
    minimum: int = 0,
    default: int = 0,
    help: str = "",
    for_role: str = "",
) -> Field:
    return Field(
        name,
        "count",
        label=label,
        required=False,
        default=default,
        minimum=minimum,
        maximum=maximum,
        help=help,
        for_role=for_role,
    )


EXCEPTION = Field("exception", "flag", label=N_("Table allows it as the exception"), required=False, default=False)


def own_pool(state: State) -> list[int] | None:
    """The scene pool this phone may see: its own seat's (in the seat's view only that one is a list)."""
    pools = [p["pool"] for p in state.get("participants", {}).values() if isinstance(p.get("pool"), list)]
    held = [pool for pool in pools if pool]  # an empty pool hides nothing, so every seat sees it as []
    if len(held) == 1:
        return held[0]
    return [] if pools and not held else None


DICE = Field("dice", "faces", label=N_("Dice"), help=N_("dice from the scene pool, by their faces"), offer=own_pool)
SAYS = Field("says", "text", label=N_("What they do"), required=False, default="", max_length=rules.MAX_TEXT)


# --- who may do what ------------------------------------------------------------


def participant_of(state: State, action: dict) -> str:
    """Whose scene pool the action uses: the participant named, else whose move it is. (A seated phone
    that leaves the participant out means itself: the core fills it in, then checks it is its own.)"""
    return action.get("participant") or current(state)


def actor_of(state: State, action: dict) -> str:
    return action.get("actor") or leader(state)


def target_of(state: State, action: dict) -> str:
    """The pending exchange's target answers with its own pool."""
    return state["exchange"]["target"] if state["exchange"] else current(state)


def gm_of(state: State, action: dict) -> str:
    """The GM's actions: the session pool, Player Points, the Murphy's Pool, racks."""
    return state["gm"]


def session_racks(state: State) -> int | None:
    """The racks left in the GM's session pool (None before a game: the field keeps its own range)."""
    return state.get("session_racks") if state else None


def most_racks(state: State) -> int | None:
    return pool_actions.most_racks(state) if state else None


def racks_help(state: State) -> str:
    if not state:
        return ""
    rack, most = state["participants"][state["gm"]]["rack"], pool_actions.most_racks(state)
    return (
        f"a rack is the GM's rack, {rack} dice: at most {most} racks, as one roll starts with at most "
        f"{rules.MAX_DICE_IN_ROLL} dice"
    )


PREPARE_FIELDS = (
    who_field(),
    # The GM's dice, first on the GM's phone (racks are what the GM draws); a player's phone leaves them out
    # (the rules refuse them for a player anyway).
    # "A Rack of dice per named opposition NPC or Gang": no most in the rulebook, so at most what one roll holds of
    # the GM's rack (a stepper to 99 offered 594 dice), and its help says why.
    replace(
        count_field(
            "racks",
            N_("Racks (GM: one per named NPC or gang)"),
            help=N_("a rack is the GM's rack size in dice"),
            for_role="gm",
        ),
        upto=most_racks,
        help_now=racks_help,
    ),
    # At most what the session pool holds now (a stepper to 99 with 2 racks in it offered what the rules refuse),
    # and not asked once it is empty.
    replace(
        count_field("session_racks", N_("Racks from the session pool (GM)"), for_role="gm"),
        upto=session_racks,
        applies=lambda state: bool(session_racks(state)),
    ),
    count_field(
        "primary_skills",
        N_("Matching primary skills"),
        rules.MAX_MATCHING_SKILLS,
        help=N_("the primary skill and its parents you have: two dice each"),
    ),
    count_field(
        "secondary_skills", N_("Matching secondary skills"), rules.MAX_MATCHING_SKILLS, help=N_("one die each")
    ),
    count_field(
        "assist_quality", N_("Assisting gear quality (primary)"), rules.MAX_QUALITY, help=N_("adds half, rounded down")
    ),
    count_field(
        "secondary_assist_quality",
        N_("Assisting gear quality (secondary)"),
        rules.MAX_QUALITY,
        help=N_("half value: a quarter, rounded down"),
    ),
    count_field("gear_circumstances", N_("Gear used as a circumstance"), help=N_("one die each")),
    count_field(
        "circumstances", N_("Circumstances in your favour"), help=N_("one die each; penalties to the other side too")
    ),
    Field(
        "effects",
        "picks",
        label=N_("Effects that count here (+1 die each)"),
        required=False,
        default=[],
        choices=effects.choices,
        help=N_("effects on the other side offered as circumstances: confirm the ones that apply"),
    ),
)


def effect_ids(state: State) -> list[Choice]:
    return [Choice(e["id"], effects.describe(e)) for e in effects.active(state)] if state else []


def treatable(state: State) -> list[Choice]:
    return (
        [Choice(e["id"], effects.describe(e)) for e in effects.active(state) if effects.treatable(e)] if state else []
    )


def wounds(state: State) -> list[Choice]:
    if not state:
        return []
    return [
        Choice(e["id"], effects.describe(e))
        for e in effects.active(state)
        if e["reads"] == effects.WOUND and not e["permanent"]
    ]


def effect_names(state: State) -> list[str]:
    return list(state.get("readings", {})) if state else []


def characters(state: State) -> list[str]:
    """Everyone who bears an effect, participants first."""
    if not state:
        return []
    bearers = [e["character"] for e in effects.active(state)]
    return [*state["seating"], *sorted({b for b in bearers if b not in state["seating"]})]


def outnumbered_choices(state: State) -> list[str]:
    return campaign_actions.outnumbered(state) if state else []


TEXT = {"required": False, "default": "", "max_length": rules.MAX_TEXT}


def attacker_of(state: State, action: dict) -> str:
    return action.get("attacker") or current(state)


def acting(owner: Callable[[State, dict], str], base: Callable[..., str | None] | None = None) -> Callable[..., Any]:
    """An availability: ``base``'s reason, then, for the action itself, whether the one who acts (``owner``)
    may act at all (a participant stopped by an effect spends books only): the core asks it before the
    handler runs, so the handlers do not check it again."""

    def available(state: State, seat: str | None = None, action: dict | None = None) -> str | None:
        reason = base(state, seat) if base is not None else None
        if reason or action is None:
            return reason
        return effects.stopped(state, owner(state, action))

    return available
