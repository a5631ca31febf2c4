"""The `vnm` game system: action types, seats, prompts, laws, corrections, buttons and the GameSystem object.

See docs/systems/vnm.md for every action with an example request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import (
    UNDO_REDO,
    Action,
    ActionSpec,
    Binding,
    Field,
    GameSystem,
    Seat,
    State,
)
from tableside.core.systems.vnm import fleet, mind, population, prompts, research, rules, setup, turns, zap
from tableside.core.systems.vnm.choices import (
    GAIN_FIELDS,
    INFECTED,
    TARGET_FIELDS,
    UPGRADE_FIELDS,
    WORLD,
    area_field,
    areas_with_healthy,
    areas_with_population,
    attack_help,
    attack_targets,
    attacker_weapons,
    builds_left,
    count_field,
    declared_target,
    earth_builds,
    enemies,
    enhanced,
    own_worlds,
    world_choices,
)
from tableside.core.systems.vnm.screen import player_colour
from tableside.core.systems.vnm.state import (
    current_world,
    game_over,
    label_of,
    not_enhanced,
    team_population,
    turn_closed,
)
from tableside.core.text import N_

# --- availability: the reason in words, or None ----------------------------------------


def _chosen(name: str) -> Callable[[State], Any]:
    """What the Upgrade chosen for research says for ``name`` (its card, its roll), else nothing."""
    return lambda state: (state.get("upgrade_choice") or {}).get(name) if name != "other_name" else None


def _open(state: State, seat: str | None) -> str | None:
    return game_over(state)


def _tech_open(state: State, seat: str | None) -> str | None:
    return game_over(state) or not_enhanced(state, "Technology")


def _turn(state: State, seat: str | None) -> str | None:
    return turn_closed(state, seat)


def _upgrade_left_closed(state: State, seat: str | None) -> str | None:
    return research.research_closed(state, seat)


TURN, ATTACK, POPULATION, RESEARCH, ZAP, CARDS = (
    N_("Your turn"),
    N_("Attack"),
    N_("Population"),
    N_("Research"),
    N_("Zap cards"),
    N_("Card effects and setup values"),
)

ACTIONS: dict[str, ActionSpec] = {
    spec.type: spec
    for spec in (
        ActionSpec(
            "build",
            N_("Build spaceships"),
            N_("Build Action: new spaceships (Basic: Titan 2, Pluto 3, others 1 per action; one more per Zap card)."),
            fleet.build,
            (
                Field(
                    "count",
                    "count",
                    label=N_("Spaceships"),
                    required=False,
                    minimum=1,
                    maximum=6,
                    help=N_("default: all the action allows, as far as the reserve lasts"),
                    upto=builds_left,
                    applies=lambda state: builds_left(state) > 1,  # one to build: nothing to ask
                ),
                Field(
                    "area",
                    "pick",
                    label=N_("Land area"),
                    required=False,
                    choices=areas_with_population,
                    help=N_("the populated land area Earth builds the spaceship in"),
                    applies=earth_builds,
                ),
            ),
            group=TURN,
            available=fleet.build_closed,
            example={"count": 1},
        ),
        ActionSpec(
            "move",
            N_("Move spaceships"),
            N_("Move Action: records the choice; where the spaceships go stays on the board."),
            turns.move,
            group=TURN,
            available=turns.move_closed,
        ),
        ActionSpec(
            "declare_target",
            N_("Declare target"),
            N_("Declare the enemy fleet you attack: shows the chance to destroy before the roll."),
            fleet.declare_target,
            (
                Field("target", "pick", label=N_("Target"), choices=enemies, help=N_("the target spaceship's fleet")),
                *TARGET_FIELDS,
            ),
            group=ATTACK,
            available=_turn,
            example={"target": "Mars", "area_type": "land"},
        ),
        ActionSpec(
            "attack",
            N_("Attack"),
            N_(
                "Attack Action: one spaceship's attack roll (button A); the fields default to the "
                "declared target. One attack per spaceship on the board, one more per Zap card."
            ),
            fleet.attack,
            (
                Field(
                    "target",
                    "pick",
                    label=N_("Target"),
                    # "You must declare which enemy spaceship you are attacking": always a fleet, never none.
                    # Left out of a request (button A), it is the declared target (validate_action).
                    # The chance shows before the tap that rolls: in the help, or on each target where they differ.
                    choices=attack_targets,
                    help=N_("default: the declared target"),
                    help_now=attack_help,
                    prefill=declared_target,
                ),
                *TARGET_FIELDS,
            ),
            group=ATTACK,
            available=fleet.attack_closed,
            rolls=True,
            example={"target": "Mars", "area_type": "land"},
        ),
        ActionSpec(
            "follow_up_roll",
            N_("Roll the follow-up die"),
            N_("The Q-Ray re-roll of a 4-5, or the teleport die (button A or B)."),
            fleet.follow_up_roll,
            group=ATTACK,
            available=fleet.follow_up_closed,
            rolls=True,
        ),
        ActionSpec(
            "collect",
            N_("Collect population"),
            N_(
                "Population Action: population from a land area to your home world (Earth: the Refuge); "
                "one unit per spaceship on the board (Alluring Venus two), one more per Zap card."
            ),
            population.collect,
            (
                area_field(areas_with_population, N_("where the population is collected from")),
                count_field(N_("Population"), True),
                INFECTED,
            ),
            group=POPULATION,
            available=population.collect_closed,
            example={"area": "China", "count": 2},
        ),
        ActionSpec(
            "infect",
            N_("Infect population"),
            N_("Population Action (Enhanced, Titan): healthy population becomes infected."),
            population.infect,
            (
                area_field(areas_with_healthy, N_("where the population is infected in")),
                count_field(N_("Population"), False),
            ),
            group=POPULATION,
            available=population.infect_closed,
            applies=enhanced,
            example={"area": "India", "count": 1},
        ),
        ActionSpec(
            "destroy_population",
            N_("Destroy population"),
            N_("Population Action (Enhanced): population destroyed on Earth goes to the destroyed pile."),
            population.destroy_population,
            (
                area_field(areas_with_population, N_("where the population is destroyed in")),
                count_field(N_("Population"), False),
                INFECTED,
            ),
            group=POPULATION,
            available=population.destroy_closed,
            applies=enhanced,
            example={"area": "Europe", "count": 1, "infected": True},
        ),
        ActionSpec(
            "receive_population",
            N_("Population from a Zap card"),
            N_(
                "A Zap card (Natural Disaster, Alien Plague) gives several players population at once, "
                "each unit from a land area; shared victory if several reach the threshold."
            ),
            population.receive_population,
            (
                Field(
                    "gains",
                    "rows",
                    label=N_("Gains"),
                    fields=GAIN_FIELDS,
                    minimum=1,
                    maximum=12,
                    help=N_("who receives how much, from which land area"),
                ),
                Field(
                    "card",
                    "text",
                    label=N_("Card"),
                    required=False,
                    max_length=40,
                    help=N_("the card's name, for the log"),
                ),
            ),
            group=CARDS,
            available=_open,
            example={
                "card": "Natural Disaster",
                "gains": [
                    {"world": "Venus", "count": 3, "area": "China"},
                    {"world": "Mars", "count": 2, "area": "India"},
                ],
            },
        ),
        ActionSpec(
            "choose_upgrade",
            N_("Choose an Upgrade"),
            N_("Research (Enhanced): choose the Upgrade card; shows the chance before the roll."),
            research.choose_upgrade,
            UPGRADE_FIELDS,
            group=RESEARCH,
            available=research.choose_closed,
            applies=enhanced,
            example={"upgrade": "Gatling Lasers"},
        ),
        ActionSpec(
            "research",
            N_("Research"),
            N_(
                "Research Action (Enhanced): one die against the Upgrade's number (button B); one more "
                "roll per Zap card."
            ),
            research.research,
            tuple(
                Field(
                    f.name,
                    f.kind,
                    label=f.label,
                    help=f.help,
                    required=False,
                    choices=f.choices,
                    minimum=f.minimum,
                    maximum=f.maximum,
                    max_length=f.max_length,
                    # The Upgrade chosen already (choose_upgrade) is where the form starts: not asked again (#36).
                    prefill=_chosen(f.name),
                )
                for f in UPGRADE_FIELDS
            ),
            group=RESEARCH,
            available=_upgrade_left_closed,
            applies=enhanced,
            rolls=True,
            example={"upgrade": "Yttrium Alloys"},
        ),
        ActionSpec(
            "set_tech",
            N_("Technology values"),
            N_("Enter a planet's values from its Technology cards (Enhanced)."),
            research.set_tech,
            (WORLD, *setup.TECH_FIELDS),
            group=CARDS,
            available=_tech_open,
            applies=enhanced,
            example={"world": "Mars", "weapon_dice": 1, "defense_space": 7, "defense_land": 6, "defense_ocean": 8},
        ),
        ActionSpec(
            "extend",
            N_("Extend with Zap cards"),
            N_(
                "Discard Zap cards (up to three a turn) to extend this turn's action: one extra unit "
                "each, Technology and Special cards do not apply."
            ),
            zap.extend,
            (
                Field(
                    "cards",
                    "count",
                    label=N_("Zap cards"),
                    required=False,
                    default=1,
                    minimum=1,
                    maximum=rules.MAX_EXTENSIONS,
                ),
            ),
            group=ZAP,
            available=zap.extend_closed,
            example={"cards": 1},
        ),
        ActionSpec(
            "play_zap",
            N_("Play a Zap card"),
            N_("Play a Zap card (any time): hand to discard; its number decides priority."),
            zap.play_zap,
            (
                Field(
                    "world",
                    "pick",
                    label=N_("Played for"),
                    required=False,
                    choices=world_choices,
                    help=N_("the planet it is played for (default: whose turn it is)"),
                    of_seats=own_worlds,
                ),
                Field(
                    "number",
                    "count",
                    label=N_("Card number"),
                    required=False,
                    minimum=1,
                    maximum=999,
                    help=N_("the number in the lower right corner"),
                ),
            ),
            group=ZAP,
            available=_open,
            example={"world": "Mars", "number": 23},
        ),
        ActionSpec(
            "draw_zap",
            N_("Draw Zap cards"),
            N_("Draw Zap cards by hand (a missed draw, or a card that says so); never more than three in hand."),
            zap.draw_zap,
            (
                Field(
                    "world",
                    "pick",
                    label=N_("Planet"),
                    required=False,
                    choices=world_choices,
                    help=N_("default: whose turn it is"),
                ),
                Field(
                    "count",
                    "count",
                    label=N_("Cards"),
                    required=False,
                    minimum=1,
                    maximum=rules.ZAP_HAND,
                    help=N_("default: up to three in hand"),
                ),
            ),
            group=ZAP,
            available=_open,
            example={"world": "Venus", "count": 1},
        ),
        ActionSpec(
            "end_turn",
            N_("End turn"),
            N_("End the turn: next player clockwise, who draws Zap cards up to three (button C)."),
            turns.end_turn,
            group=TURN,
            available=_turn,
        ),
        ActionSpec(
            "release_ship",
            N_("Release a controlled spaceship"),
            N_(
                "Mind Control: a controlled spaceship goes back to its original owner (at the end of a "
                "turn, where an area has more controlled spaceships than the controller's own)."
            ),
            mind.release_ship,
            (
                Field(
                    "ship",
                    "pick",
                    label=N_("Controlled spaceship"),
                    choices=mind.released_choices,
                    help=N_("the fleet (colour) of the spaceship lying on its side"),
                ),
            ),
            group=ATTACK,
            available=mind.release_closed,
            applies=enhanced,
            example={"ship": "Pluto"},
        ),
        ActionSpec(
            "destroy_ship",
            N_("Spaceship lost to a card"),
            N_("A spaceship lost to a card (not an attack roll) returns to the reserve."),
            fleet.destroy_ship,
            (WORLD, Field("count", "count", label=N_("Spaceships"), required=False, default=1, minimum=1, maximum=6)),
            group=CARDS,
            available=_open,
            example={"world": "Titan"},
        ),
    )
}

NAME_FIELDS = ("area", "target", "world", "ship")


# --- buttons: A/B/C/D, with the pending prompt's action first ----------------------------


def _button_a(state: State) -> Action | None:
    """A: the waiting follow-up roll, else the attack roll against the declared target."""
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


BINDINGS = (
    Binding("A", False, N_("Attack"), _button_a),
    Binding("B", False, N_("Research / d10"), _button_b),
    Binding("C", False, N_("End turn"), _button_c),
    *UNDO_REDO,
)


class VenusNeedsMen(GameSystem):
    """Venus Needs Men: the counts people miscount, the win threshold and the d10 arithmetic."""

    id = "vnm"
    name = "Venus Needs Men"
    description = (
        "Earth's population by land area, home worlds and the win threshold, spaceship fleets, "
        "Zap deck counts, d10 attacks and research with exact odds."
    )
    # v2: collections and attacks bounded by ships and Zap extensions, population never created
    # (every gain names its land area, destroyed units counted), an Enhanced extension attack by the
    # general rule, one roll record per turn.
    rules_version = 2
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = BINDINGS

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return setup.validate_options(raw)

    def chart_series(self, state: State) -> dict[str, float]:
        """Population per player: the race to the win threshold (named as the board names them)."""
        names = [_chart_name(p, i) for i, p in enumerate(state.get("players") or [])]
        totals = dict.fromkeys(names, 0.0)
        for world in (state.get("worlds") or {}).values():
            i = world.get("player")
            if isinstance(i, int) and 0 <= i < len(names):
                totals[names[i]] += world.get("population") or 0
        return totals

    def chart_title(self) -> str:
        return N_("Population per player")

    def chart_colours(self, state: State) -> dict[str, int]:
        """Each player in their first home world's colour, as on the board and the e-paper."""
        out = {}
        for i, p in enumerate(state.get("players") or []):
            worlds = p.get("home_worlds") or []
            if worlds and worlds[0] in rules.PLANETS:
                out[_chart_name(p, i)] = player_colour(state, i)
        return out

    def scores(self, state: State) -> dict[str, str]:
        return {p["name"]: str(team_population(state, i)) for i, p in enumerate(state["players"])}

    def seat_colours(self, state: State) -> dict[str, int]:
        players = state.get("players") or []
        return {
            p["name"]: player_colour(state, i)
            for i, p in enumerate(players)
            if (p.get("home_worlds") or [""])[0] in rules.PLANETS
        }

    def validate_action(self, raw: Mapping[str, Any], state: State | None = None) -> Action:
        """Names are read in any case ("china" is China), then the fields are checked against the state."""
        if state is not None and isinstance(raw, Mapping):
            raw = _canonical_names(raw, state)
        weapon = raw.get("weapon") if isinstance(raw, Mapping) else None
        if state is not None and isinstance(weapon, str) and weapon in fleet.WEAPON_WORDS and attacker_weapons(state):
            fleet.check_weapon(state, current_world(state), weapon)  # said as the rules say it, not "not one of"
        if isinstance(raw, Mapping) and raw.get("type") == "attack" and raw.get("target") in (None, ""):
            # An attack always has a target; left out (button A), it is the one declared this turn.
            if state is None:  # only the request's shape is checked: the target is filled in when it runs
                action = super().validate_action({**raw, "target": ""}, state)
                del action["target"]
                return action
            declared = declared_target(state)
            if not declared:  # the rules' words, not "'Target' is required"
                raise RuleError(N_("Attack: declare a target first: which enemy fleet's spaceship do you attack?"))
            raw = {**raw, "target": declared}
        return super().validate_action(raw, state)

    # -- who acts, what the table waits for -------------------------------------
    def seats(self, state: State) -> list[Seat]:
        return [Seat(p["name"], label=label_of(p)) for p in state["players"]]

    def button_labels(self, state: State) -> dict[tuple[str, bool], str]:
        """A names the declared target, B the chosen Upgrade; the core puts the prompt's button first."""
        return prompts.button_labels(state)

    # -- derived values, laws, corrections --------------------------------------
    def derive(self, state: State) -> State:
        return _derive(state)

    def roll_belongs_to(self, state: State) -> int:
        """A roll belongs to the turn it was made in: the next player starts with a clean screen."""
        return state["turn_no"]


def _canonical_names(raw: Mapping[str, Any], state: State) -> dict[str, Any]:
    names = [*state["worlds"], *(a["name"] for a in state["land_areas"])]

    def fix(value: Any) -> Any:
        return (rules.canonical(value, names) or value) if isinstance(value, str) else value

    out = {k: fix(v) if k in NAME_FIELDS else v for k, v in raw.items()}
    if isinstance(out.get("upgrade"), str) and out["upgrade"] != research.OTHER:
        out["upgrade"] = rules.canonical(out["upgrade"], research.KNOWN_NAMES) or out["upgrade"]
    if isinstance(out.get("gains"), list):
        out["gains"] = [
            {k: fix(v) if k in NAME_FIELDS else v for k, v in g.items()} if isinstance(g, Mapping) else g
            for g in out["gains"]
        ]
    return out


# --- derive ------------------------------------------------------------------------------


def _derive(state: State) -> State:
    """Values computed from the rest, in one place: threshold, reserves, what the action has left,
    and the declared target's odds."""
    state["threshold"] = rules.threshold(state["total_population"], len(state["players"]))
    for w in state["worlds"].values():
        w["reserve"] = w["fleet"] - w["on_board"]
    mind.trim(state)
    mind.counts(state)
    chosen = state["turn_action"]
    if chosen is not None:
        chosen["left"] = _left(state, chosen)
    state["aim"] = fleet.aim_now(state)
    return state


def _left(state: State, chosen: dict[str, Any]) -> int:
    kind, ext = chosen["kind"], chosen["extensions"]
    if kind == "attack":
        return max(0, chosen["ships"] + ext - chosen["count"])
    if kind == "population":
        return population.units_left(state, collecting=True)
    if kind == "build":
        w = state["worlds"][current_world(state)]
        return max(0, min(w["builds_per_action"] + ext - chosen["count"], w["fleet"] - w["on_board"]))
    if kind == "research":
        return max(0, 1 + ext - chosen["count"])
    return 0


SYSTEM = VenusNeedsMen()


def _chart_name(player: dict, i: int) -> str:
    """The series' name, as the bars name the player ("Ann (Venus)"); a malformed row by its place."""
    if isinstance(player.get("name"), str) and isinstance(player.get("home_worlds"), list):
        return label_of(player)
    return str(player.get("name", i))
