"""The fields of VNM's actions and the choices they offer, taken from the state (the phone draws them).

The Enhanced attack asks only what applies to this attacker, and card values not entered yet."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tableside.core.fields import Choice
from tableside.core.system import (
    Field,
    State,
)
from tableside.core.systems.vnm import cardvalues, fleet, mind, population, research, rules, setup
from tableside.core.systems.vnm.state import (
    current_world,
    many,
    who,
)
from tableside.core.text import N_

# --- choices from the state -----------------------------------------------------------


def world_choices(state: State) -> list[Choice]:
    """Each home world in play, named as every screen names its player ("Ann (Venus)")."""
    return [Choice(w, who(state, w)) for w in state.get("worlds", {})]


def own_worlds(state: State) -> dict[str, str]:
    """Each seat's own home world, for what a player plays for themself: the one whose turn it is, else the first."""
    if not state.get("worlds"):
        return {}
    now = current_world(state)
    return {p["name"]: now if now in p["home_worlds"] else p["home_worlds"][0] for p in state["players"]}


def enemies(state: State) -> list[Choice]:
    """Fleets the player whose turn it is may attack: every other team's, with its ships on the board."""
    if not state.get("worlds"):
        return []
    mine = state["worlds"][current_world(state)]["player"]
    return [
        Choice(
            w,
            N_(
                "{fleet}, {ships}{taken}",
                fleet=who(state, w),
                ships=many(v["on_board"], "ship"),
                taken=_taken(state, w),
            ),
        )
        for w, v in state["worlds"].items()
        if v["player"] != mine
    ]


def _plans(state: State) -> dict[str, dict[str, Any]]:
    """Each target's attack plan while nothing else in the form changes its chance (a Basic game, a Zap extension,
    Venus's Q-Ray), else none: the tap on a target rolls at once, so its chance must show before it."""
    if not state.get("worlds") or any(asked(state) for asked in _CHANCE_CHANGERS):
        return {}
    plans = {c.value: fleet.plan_against(state, c.value) for c in enemies(state)}
    return {w: p for w, p in plans.items() if p is not None}


def _shared(plans: dict[str, dict[str, Any]]) -> str | None:
    """The chance every target has alike (the Basic Game's 51%), said once; None if they differ or none is known."""
    kinds = {(p["chance"], p["robotic"], p["weapon"]) for p in plans.values()}
    if len(kinds) != 1:
        return None
    chance, robotic, weapon = kinds.pop()
    return None if robotic or weapon == mind.MIND else chance


def attack_targets(state: State) -> list[Choice]:
    """The attack's targets; each says its own chance where the chances differ (else the help says it once)."""
    plans = _plans(state)
    if not plans or _shared(plans):
        return enemies(state)
    return [
        Choice(c.value, N_("{target}, {chance}", target=c.label, chance=plans[c.value]["chance"]))
        if c.value in plans
        else c
        for c in enemies(state)
    ]


def attack_help(state: State) -> str:
    """The target's help: the chance every target has alike, then the declared target a request falls back on."""
    chance = _shared(_plans(state))
    default = declared_help(state)
    if chance is None:
        return default
    words = N_("{chance} to destroy, whichever fleet", chance=chance)
    return N_("{chance_words}; {default}", chance_words=words, default=default) if default else words


def _taken(state: State, world: str) -> str:
    """How many of a fleet's spaceships another player controls (Mind Control), said in its choice."""
    by = {c["by"] for c in state.get("controlled") or [] if c["ship"] == world}
    n = sum(1 for c in state.get("controlled") or [] if c["ship"] == world)
    return N_(" ({n} controlled by {by})", n=n, by=" and ".join(who(state, b) for b in sorted(by))) if n else ""


def area_label(area: dict[str, Any]) -> str:
    infected = N_(", {infected} infected", infected=area["infected"]) if area["infected"] else ""
    return N_(
        "{area} ({population} left{infected})", area=area["name"], population=area["population"], infected=infected
    )


def areas_with_population(state: State) -> list[Choice]:
    return [
        Choice(a["name"], area_label(a)) for a in state.get("land_areas", []) if a["population"] + a["infected"] > 0
    ]


def areas_with_healthy(state: State) -> list[Choice]:
    return [Choice(a["name"], area_label(a)) for a in state.get("land_areas", []) if a["population"] > 0]


def upgrades(state: State) -> list[Choice]:
    return research.upgrade_choices(state) if state.get("worlds") else []


AREA_TYPES = tuple(Choice(t, rules.AREA_TYPE_WORDS[t]) for t in rules.AREA_TYPES)


def enhanced(state: State) -> bool:
    """Fields and actions of the Enhanced game (Technology, Upgrades, infected chips, Infect, Destroy
    population, Research) are not offered in a Basic game."""
    return state.get("version") == "Enhanced"


def declared_target(state: State) -> str | None:
    """The target declared this turn, where an attack form starts."""
    aim = state.get("aim") or {}
    return aim.get("target")


def declared_help(state: State) -> str:
    """The attack's target help names a default only while there is one to fall back on, and names
    its player as every screen does ("Ann (Venus)", not the bare planet)."""
    target = declared_target(state)
    return N_("default: the declared target, {target}", target=who(state, target)) if target else ""


INFECTED = Field(
    "infected",
    "flag",
    label=N_("Infected (yellow) chips"),
    required=False,
    default=False,
    help=N_("Enhanced: take yellow chips instead of green ones"),
    applies=enhanced,
)


def area_field(choices: Any, help: str) -> Field:
    return Field("area", "pick", label=N_("Land area"), choices=choices, help=help)


def count_field(what: str, collecting: bool) -> Field:
    """Units of population: at most what the action has left this turn (its ships and Zap extensions)."""
    return Field(
        "count",
        "count",
        label=what,
        required=False,
        default=1,
        minimum=1,
        maximum=99,
        upto=lambda state: population.units_left(state, collecting),
    )


WORLD = Field("world", "pick", label=N_("Planet"), choices=world_choices)


def builds_left(state: State) -> int | None:
    return fleet.builds_left(state) if state.get("worlds") else None


def earth_builds(state: State) -> bool:
    """Only Earth chooses where it builds (a populated land area); the aliens build on their home world."""
    return bool(state.get("worlds")) and current_world(state) == "Earth"


# --- the Enhanced attack: only what applies to this attacker, and card values not entered yet ----------


def attacker_weapons(state: State) -> list[str]:
    """The weapons the player whose turn it is may attack with now; none in a Basic game or for an
    attack a Zap card bought (Technology cards do not apply to it)."""
    if not enhanced(state) or not state.get("worlds") or fleet.next_is_extension(state):
        return []
    return fleet.weapons(state, current_world(state))


def weapon_choices(state: State) -> list[Choice]:
    """The attacker's own weapons (never Venus's Q-Ray to Pluto); where no weapon applies (a Basic game,
    an attack a Zap card bought) every weapon's name, so the rules refuse it in their own words."""
    now = attacker_weapons(state)
    return [Choice(w, fleet.WEAPON_WORDS[w]) for w in (now or fleet.WEAPON_WORDS)]


def weapon_first(state: State) -> str | None:
    """The weapon used when none is chosen (Q-Ray, else Gatling Lasers, else the card): the form starts there."""
    now = attacker_weapons(state)
    return now[0] if now else None


def rolls_against_defense(state: State) -> bool:
    """The attack can use the target's Defense: a weapon other than the Q-Ray (whose table ignores Defense)."""
    return any(w != "q_ray" for w in attacker_weapons(state))


def asks_weapon_dice(state: State) -> bool:
    """The Weapon dice are asked in the form only while they are not entered and the card is a weapon here."""
    if "card" not in attacker_weapons(state):
        return False
    return state["worlds"][current_world(state)]["tech"]["weapon_dice"] is None


def weapon_dice_help(state: State) -> str:
    if not state.get("worlds"):
        return ""
    return N_(
        "not entered yet: check {world}'s Weapon Technology card (starts at the general "
        "rule's {basic_dice}; kept for the game)",
        world=who(state, current_world(state)),
        basic_dice=rules.BASIC_DICE,
    )


def area_start(state: State) -> str | None:
    """The declared target's area type, else space (the rules' default)."""
    if not rolls_against_defense(state):
        return None
    return (state.get("aim") or {}).get("area_type") or "space"


def defense_when(area_type: str) -> Any:
    def when(state: State) -> dict[str, list[Any]]:
        """Shown for the targets whose Defense in this area type is not entered yet, in this area type,
        with a weapon that rolls against it."""
        out: dict[str, list[Any]] = {
            "target": cardvalues.missing_defense(state, area_type) if state.get("worlds") else [],
            "area_type": [area_type],
        }
        if len(attacker_weapons(state)) > 1:
            out["weapon"] = [w for w in attacker_weapons(state) if w not in ("q_ray", mind.MIND)]
        return out

    return when


def defense_field(area_type: str) -> Field:
    return Field(
        f"defense_{area_type}",
        "count",
        label=N_("Target's Defense {area_words}", area_words=cardvalues.AREA_WORDS[area_type]),
        required=False,
        minimum=1,
        maximum=10,
        help=(
            N_(
                "not entered yet: check the target's Defense Technology card (starts at the general "
                "rule's {basic_hit}; kept for the game)",
                basic_hit=rules.BASIC_HIT,
            )
        ),
        applies=rolls_against_defense,
        shown_now=defense_when(area_type),
        prefill=lambda state: rules.BASIC_HIT,
    )


# What the attack form may ask beside the target, each changing the chance: the target's area type (its Defense),
# the weapon, the Weapon dice, the attacking spaceship (Mind Control).
_CHANCE_CHANGERS = (
    rolls_against_defense,
    lambda state: len(attacker_weapons(state)) > 1,
    asks_weapon_dice,
    mind.commands_others,
)

TARGET_FIELDS = (
    Field(
        "area_type",
        "pick",
        label=N_("Target's area"),
        required=False,
        choices=AREA_TYPES,
        help=N_("it picks the target's Defense"),
        applies=rolls_against_defense,
        prefill=area_start,
    ),
    *(defense_field(t) for t in rules.AREA_TYPES),
    Field(
        "weapon",
        "pick",
        label=N_("Weapon"),
        required=False,
        choices=weapon_choices,
        applies=lambda state: len(attacker_weapons(state)) > 1,
        prefill=weapon_first,
    ),
    # The Technology value setup asks for, asked again while not entered: its range stays setup's.
    replace(
        setup.tech_field("weapon_dice"),
        help="",
        help_now=weapon_dice_help,
        applies=asks_weapon_dice,
        shown_when={"weapon": ("card",)},
        prefill=lambda state: rules.BASIC_DICE,
    ),
    Field(
        "ship",
        "pick",
        label=N_("Attacking spaceship"),
        required=False,
        choices=mind.ship_choices,
        help=N_("one of your own, or one you control by Mind Control (it uses its own Technology cards)"),
        applies=mind.commands_others,
        prefill=lambda state: current_world(state) if state.get("worlds") else None,
    ),
)
UPGRADE_FIELDS = (
    Field("upgrade", "pick", label=N_("Upgrade card"), choices=upgrades),
    Field(
        "other_name",
        "text",
        label=N_("Card name"),
        required=False,
        max_length=40,
        help=N_("only for another Upgrade card: its name as printed"),
    ),
    Field(
        "roll_needed",
        "count",
        label=N_("Roll needed"),
        required=False,
        minimum=1,
        maximum=10,
        help=N_("the number on the card; known for Gatling Lasers and Yttrium Alloys"),
    ),
)
GAIN_FIELDS = (
    Field("world", "pick", label=N_("Planet"), choices=world_choices),
    Field("count", "count", label=N_("Population"), minimum=1, maximum=99),
    Field(
        "area",
        "pick",
        label=N_("From land area"),
        choices=areas_with_population,
        help=N_("population is never created: every unit comes from a land area"),
    ),
    INFECTED,
)
