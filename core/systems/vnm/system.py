"""The `vnm` game system: action types, button map and the GameSystem object.

See docs/systems/vnm.md for every action with an example request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.system import Action, ActionSpec, Binding, Field, GameSystem, Screen, State
from tableside.core.systems.vnm import fleet, population, research, rules, setup, turns, zap
from tableside.core.systems.vnm.screen import screen as _screen

_AREA = Field("area", "text", help="a land area's name, as in the setup")
_COUNT = Field("count", "count", required=False, default=1, minimum=1, help="population units")
_INFECTED = Field("infected", "flag", required=False, default=False, help="yellow chips (Enhanced)")
_TARGET_FIELDS = (
    Field("area_type", "pick", required=False, choices=rules.AREA_TYPES,
          help="where the target is: space (incl. Orbit), land or ocean; picks its Defense"),
    Field("weapon", "pick", required=False, choices=("card", "gatling", "q_ray"),
          help="Enhanced: the Weapon card's dice, Gatling Lasers, or Venus's Q-Ray"),
)

ACTIONS: dict[str, ActionSpec] = {spec.type: spec for spec in (
    ActionSpec("build", "Build", "Build Action: new spaceships (Basic: Titan 2, Pluto 3, others 1 per action).",
               fleet.build,
               (Field("count", "count", required=False, minimum=1, maximum=6,
                      help="default: all the action allows, as far as the reserve lasts"),
                Field("area", "text", required=False, help="Earth only: the populated land area")),
               example={"count": 1}),
    ActionSpec("move", "Move", "Move Action: records the choice; where ships go stays on the board.", turns.move),
    ActionSpec("declare_target", "Declare target", "Declare the enemy fleet you attack: shows the chance to destroy.",
               fleet.declare_target, (Field("target", "text", help="the target's home world"), *_TARGET_FIELDS),
               example={"target": "Mars", "area_type": "land"}),
    ActionSpec("attack", "Attack", "Attack Action: one spaceship's attack roll (button A); fields default to the "
               "declared target.", fleet.attack,
               (Field("target", "text", required=False), *_TARGET_FIELDS), rolls=True,
               example={"target": "Mars", "area_type": "land", "faces": [3, 9]}),
    ActionSpec("follow_up_roll", "Follow up roll", "The Q-Ray re-roll of a 4-5, or the teleport die (button B).",
               fleet.follow_up_roll, rolls=True, example={"faces": [7]}),
    ActionSpec("collect", "Collect", "Population Action: population from a land area to your home world (Earth: "
               "the Refuge).", population.collect, (_AREA, _COUNT, _INFECTED),
               example={"area": "China", "count": 2}),
    ActionSpec("infect", "Infect", "Population Action (Enhanced, Titan): healthy population becomes infected.",
               population.infect, (_AREA, _COUNT), example={"area": "India", "count": 1}),
    ActionSpec("destroy_population", "Destroy population",
               "Population Action (Enhanced): population destroyed on Earth.",
               population.destroy_population, (_AREA, _COUNT, _INFECTED),
               example={"area": "Europe", "count": 1, "infected": True}),
    ActionSpec("receive_population", "Receive population",
               "A Zap card (Natural Disaster, Alien Plague) gives several players "
               "population at once; shared victory if several reach the threshold.",
               population.receive_population,
               (Field("gains", "json", minimum=1, help="[{world, count, area?, infected?}]"),
                Field("card", "text", required=False, help="the card's name, for the log")),
               example={"card": "Natural Disaster",
                        "gains": [{"world": "Venus", "count": 3, "area": "China"}, {"world": "Mars", "count": 2}]}),
    ActionSpec("choose_upgrade", "Choose upgrade", "Research: choose the Upgrade card; shows the chance (Enhanced).",
               research.choose_upgrade,
               (Field("upgrade", "text"), Field("roll_needed", "count", required=False, minimum=1, maximum=10,
                                               help="the number on the card; known for Gatling Lasers, "
                                                    "Yttrium Alloys")),
               example={"upgrade": "Gatling Lasers"}),
    ActionSpec("research", "Research", "Research Action: one die against the Upgrade's number (button B; Enhanced).",
               research.research,
               (Field("upgrade", "text", required=False), Field("roll_needed", "count", required=False,
                                                              minimum=1, maximum=10)),
               rolls=True, example={"upgrade": "Yttrium Alloys", "faces": [6]}),
    ActionSpec("set_tech", "Set tech",
               "Enter a planet's values from its Technology cards (Enhanced).", research.set_tech,
               (Field("world", "text"), *setup.TECH_FIELDS),
               example={"world": "Mars", "weapon_dice": 1, "defense_space": 7, "defense_land": 6,
                        "defense_ocean": 8}),
    ActionSpec("extend", "Extend", "Discard Zap cards (up to three a turn) to extend this turn's action.", zap.extend,
               (Field("cards", "count", required=False, default=1, minimum=1, maximum=rules.MAX_EXTENSIONS),),
               example={"cards": 1}),
    ActionSpec("play_zap", "Play zap", "Play a Zap card (any time): hand to discard; its number decides priority.",
               zap.play_zap,
               (Field("world", "text", required=False, help="who plays it (default: whose turn it is)"),
                Field("number", "count", required=False, minimum=1, help="the number in the lower right corner")),
               example={"world": "Mars", "number": 23}),
    ActionSpec("draw_zap", "Draw zap", "Draw Zap cards by hand; never more than three in hand.", zap.draw_zap,
               (Field("world", "text", required=False),
                Field("count", "count", required=False, minimum=1, maximum=rules.ZAP_HAND)),
               example={"world": "Venus", "count": 1}),
    ActionSpec("end_turn", "End turn",
               "End the turn: next player clockwise, who draws Zap cards up to three (button C).",
               turns.end_turn),
    ActionSpec("destroy_ship", "Destroy ship",
               "A spaceship lost to a card (not an attack roll) returns to the reserve.",
               fleet.destroy_ship, (Field("world", "text"), Field("count", "count", required=False, default=1,
                                                                 minimum=1)),
               example={"world": "Titan"}),
)}


def _button_a(state: State) -> Action | None:
    """A: the attack roll against the declared target (or the waiting follow-up roll)."""
    if state["winners"]:
        return None
    if state["pending_roll"]:
        return {"type": "follow_up_roll"}
    return {"type": "attack"}


def _button_b(state: State) -> Action | None:
    """B: the waiting follow-up roll, else the chosen research roll, else a single d10."""
    if state["winners"]:
        return None
    if state["pending_roll"]:
        return {"type": "follow_up_roll"}
    if state["version"] == "Enhanced" and state["upgrade_choice"]:
        return {"type": "research"}
    return {"type": "roll", "expr": "1d10"}


def _button_c(state: State) -> Action | None:
    return None if state["winners"] else {"type": "end_turn"}


class VenusNeedsMen(GameSystem):
    """Venus Needs Men: the counts people miscount, the win threshold and the d10 arithmetic."""

    id = "vnm"
    name = "Venus Needs Men"
    description = ("Earth's population by land area, home worlds and the win threshold, spaceship fleets, "
                   "Zap deck counts, d10 attacks and research with exact odds.")
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = (
        Binding("A", False, "Attack", _button_a),
        Binding("B", False, "Research / d10", _button_b),
        Binding("C", False, "End turn", _button_c),
        Binding("D", False, "Undo", "undo"),
        Binding("D", True, "Redo", "redo"),
    )

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return setup.validate_options(raw)

    def initial_state(self, options: Mapping[str, Any]) -> State:
        return setup.initial_state(options)

    def screen(self, state: State) -> Screen:
        return _screen(state)


SYSTEM = VenusNeedsMen()
