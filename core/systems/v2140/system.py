"""The `v2140` game system: action types, seats, privacy, laws, buttons and the ``SYSTEM`` object.

See docs/systems/v2140.md for every action with an example request and the readings chosen
where the rulebook is ambiguous.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tableside.core import dice
from tableside.core.errors import RuleError, TablesideError
from tableside.core.fields import Field
from tableside.core.system import UNDO_REDO, ActionSpec, Binding, GameSystem, Seat
from tableside.core.systems.v2140 import (
    between_scenes,
    campaign_actions,
    exchange_actions,
    followup,
    goal_actions,
    goals,
    pool_actions,
    rules,
    setup,
)
from tableside.core.systems.v2140.choices import (
    DICE,
    EXCEPTION,
    PREPARE_FIELDS,
    SAYS,
    TEXT,
    acting,
    actor_of,
    attacker_of,
    count_field,
    effect_names,
    gm_of,
    name_choices,
    outnumbered_choices,
    participant_of,
    players,
    target_of,
    who_field,
)
from tableside.core.systems.v2140.screen import screen_colour
from tableside.core.systems.v2140.state import (
    awaiting_answer,
    current,
    forward_now,
    no_exchange,
    pending_exchange,
    pool_to_roll,
)
from tableside.core.text import N_

State = dict[str, Any]


ACTIONS: dict[str, ActionSpec] = {
    # The GM's actions (the GM's scene pool, points, racks, effects, scenes) are the GM seat's: a player's phone
    # does not offer them.
    spec.type: replace(spec, for_role="gm") if spec.acts_for is gm_of else spec
    for spec in (
        ActionSpec(
            "prepare_pool",
            N_("Draw dice for a scene pool"),
            N_("Enter skills, gear, circumstances and racks as counts; roll them with button A."),
            pool_actions.prepare_pool,
            PREPARE_FIELDS,
            available=acting(participant_of),
            group=N_("Scene pool"),
            example={"participant": "Shred", "primary_skills": 3, "secondary_skills": 3, "secondary_assist_quality": 4},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "roll_pool",
            N_("Roll the scene pool (A)"),
            N_(
                "Roll the prepared dice in: every 6 rolls one more die in, 1-3 are tossed. Type physical dice in as "
                '"faces" (a count per face is fine), roll-ins included.'
            ),
            pool_actions.roll_pool,
            (who_field(),),
            group=N_("Scene pool"),
            available=acting(participant_of, pool_to_roll),
            rolls=True,
            example={"participant": "Shred", "faces": {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "session_rack",
            N_("Roll a rack from the session pool (GM)"),
            N_("The GM adds a rack to the scene pool from the session budget (one rack per player per session)."),
            pool_actions.session_rack,
            group=N_("Scene pool"),
            rolls=True,
            example={"faces": [6, 5, 4, 3, 2, 1, 4]},
            acts_for=gm_of,
        ),
        ActionSpec(
            "resist",
            N_("Roll resist dice"),
            N_("Gear that resists: roll its quality, the 4+ join the scene pool."),
            pool_actions.resist,
            (who_field(), Field("quality", "count", label=N_("Gear quality"), minimum=1, maximum=rules.MAX_QUALITY)),
            available=acting(participant_of),
            group=N_("Scene pool"),
            rolls=True,
            example={"participant": "Shred", "quality": 3, "faces": [5, 3, 4]},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "fly_dice",
            N_("Fly-Dice"),
            N_(
                "A one-off open roll of the base attack against a rack or the opponent's skill; the winner adds the "
                "dice their roll kept to their scene pool."
            ),
            pool_actions.fly_dice,
            (
                who_field("attacker", N_("Attacker")),
                who_field("defender", N_("Defender"), required=True),
                Field("attack_dice", "count", label=N_("Base attack dice"), minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
                Field(
                    "defense_dice", "count", label=N_("Rack or skill dice"), minimum=1, maximum=rules.MAX_DICE_IN_ROLL
                ),
                Field(
                    "skill",
                    "text",
                    label=N_("Skill used"),
                    help=N_("its root's goals go to the winner only"),
                    **TEXT,
                ),
            ),
            available=acting(attacker_of),
            group=N_("Scene pool"),
            rolls=True,
            example={
                "attacker": "James",
                "defender": "GM",
                "attack_dice": 6,
                "defense_dice": 6,
                "faces": [5, 5, 4, 3, 2, 1, 6, 6, 5, 5, 4, 2, 5, 5],
            },
        ),
        ActionSpec(
            "bid_initiative",
            N_("Bid dice for initiative"),
            N_(
                "Put dice from the scene pool in for initiative (they leave the pool); the GM may add dice for any "
                "one character."
            ),
            pool_actions.bid_initiative,
            # "The GM can add dice for any individual character he wants to go first": the GM's right, so a
            # player's phone does not offer it (a player's dice count for that player).
            (
                who_field(),
                DICE,
                Field("for", "pick", label=N_("For"), required=False, choices=name_choices, for_role="gm"),
            ),
            group=N_("Initiative"),
            available=acting(participant_of, no_exchange),
            example={"participant": "Shred", "dice": [4]},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "settle_initiative",
            N_("Settle the order"),
            N_("Highest initiative total first (ties and no bids keep seating order), or seating order."),
            pool_actions.settle_initiative,
            (
                Field("seating", "flag", label=N_("Seating order instead"), required=False, default=False),
                Field("reverse", "flag", label=N_("The other way round"), required=False, default=False),
            ),
            group=N_("Initiative"),
            available=no_exchange,
            example={},
        ),
        ActionSpec(
            "put_forward",
            N_("Put dice forward"),
            N_(
                "The actor puts forward dice from the scene pool against a target (at most half the pool, rounded "
                "up, unless the table marks the exception); risky: totals, winner takes all."
            ),
            exchange_actions.put_forward,
            (
                who_field("actor", N_("Actor")),
                who_field("target", N_("Target"), required=True, differs_from="actor"),  # "cannot be their own target"
                DICE,
                Field("risky", "flag", label=N_("Risky (winner takes all)"), required=False, default=False),
                EXCEPTION,
                SAYS,
            ),
            group=N_("Exchange"),
            available=acting(actor_of, forward_now),
            example={"actor": "Shred", "target": "GM", "dice": [6], "says": "I snap a shot on top of him"},
            seat_field="actor",
            acts_for=actor_of,
        ),
        ActionSpec(
            "answer",
            N_("Answer the exchange"),
            N_("The target puts forward as many dice as the actor did, or every die left if fewer."),
            exchange_actions.answer,
            (DICE, SAYS),
            group=N_("Exchange"),
            available=awaiting_answer,
            example={"dice": [4], "says": "Jack lurches to the side"},
            acts_for=target_of,
        ),
        ActionSpec(
            "resolve",
            N_("Resolve the exchange (B)"),
            N_("Compare the dice: captures become books, unmatched dice return and are rolled back in."),
            exchange_actions.resolve,
            group=N_("Exchange"),
            available=pending_exchange,
            rolls=True,
            example={},
        ),
        ActionSpec(
            "withdraw",
            N_("Take back the exchange"),
            N_("A slip: the dice put forward go back to their pools."),
            exchange_actions.withdraw,
            group=N_("Exchange"),
            available=pending_exchange,
            example={},
        ),
        ActionSpec(
            "buy_goal",
            N_("Buy a goal"),
            N_("Spend books (and Player Points, or the GM's Murphy points) on a goal; one goal or one gift a round."),
            goal_actions.buy_goal,
            (
                who_field(),
                Field("goal", "text", label=N_("Goal"), required=False, default="", max_length=rules.MAX_TEXT),
                Field("guide", "pick", label=N_("Guide price"), required=False, choices=tuple(rules.GOAL_GUIDE)),
                count_field("price", N_("Price in books"), help=N_("0: the guide price")),
                count_field("scale", N_("Powers of ten people"), 20, help=N_("+1 book each")),
                count_field("zones", N_("Extra zones"), 20, help=N_("+1 book each")),
                count_field("points", N_("Player Points (GM: Murphy) spent")),
                Field("target", "pick", label=N_("On whom"), required=False, choices=name_choices),
                Field(
                    "chart_goal",
                    "pick",
                    label=N_("Goal from the charts"),
                    required=False,
                    default="",
                    choices=goals.offered_chart_goals,
                    help=N_("on offer: the roots of the conflict's skills; a Fly-Dice skill's only to its winner"),
                ),
                Field(
                    "effect",
                    "pick",
                    label=N_("Effect it leaves"),
                    required=False,
                    default="",
                    choices=effect_names,
                    help=N_("a chart goal named like an effect leaves it without this"),
                ),
                Field(
                    "character",
                    "text",
                    label=N_("Character who bears it"),
                    required=False,
                    default="",
                    max_length=24,
                    help=N_("default: on whom; name the NPC when that is the GM"),
                ),
                Field("applies_to", "text", label=N_("Counts when"), **TEXT),
                Field("until", "text", label=N_("Until"), **TEXT),
                count_field(
                    "restricted", N_("Restricted points spent"), help=N_("trained for a skill this conflict uses")
                ),
                EXCEPTION,
            ),
            group=N_("Books"),
            example={"participant": "Shred", "guide": "knock out one person", "target": "GM"},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "give_book",
            N_("Give a book"),
            N_("Give one book to another participant (instead of buying a goal)."),
            goal_actions.give_book,
            (
                who_field(),
                Field("to", "pick", label=N_("To"), choices=name_choices, differs_from="participant"),
                EXCEPTION,
            ),
            group=N_("Books"),
            example={"participant": "Wire", "to": "Shred"},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "pair_leftovers",
            N_("Leftover dice into books"),
            N_("Once the other side is out of dice: leftover dice two at a time as books."),
            goal_actions.pair_leftovers,
            (who_field(), count_field("count", N_("Dice to pair"), rules.MAX_POOL, help=N_("0: as many as pair up"))),
            group=N_("Books"),
            example={"participant": "Shred", "count": 4},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "reputation",
            N_("Books into reputation"),
            N_("At the end of a conflict: unused books raise reputation."),
            goal_actions.reputation,
            (
                who_field(),
                count_field("books", N_("Books"), help=N_("0: all of them")),
                Field("note", "text", label=N_("Reputation"), required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group=N_("Books"),
            example={"participant": "Wire", "books": 1, "note": "Took on the Vid-Dronz"},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "award_player_points",
            N_("Award Player Points (GM)"),
            N_("A compel, being outnumbered by a full rack, training, an enemy: Player Points for a player."),
            goal_actions.award_player_points,
            (
                who_field("player", N_("Player"), required=True, choices=players),
                Field("count", "count", label=N_("Points"), minimum=1, maximum=rules.MAX_COUNT),
                Field("reason", "text", label=N_("Why"), required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group=N_("Points"),
            example={"player": "Sven", "count": 1, "reason": "outnumbered by a full rack"},
            acts_for=gm_of,
        ),
        ActionSpec(
            "grant_player_points",
            N_("Grant Player Points for Murphy (GM)"),
            N_("A player begs: Player Points at one Murphy die each, against that character."),
            goal_actions.grant_player_points,
            (
                who_field("player", N_("Player"), required=True, choices=players),
                Field("count", "count", label=N_("Points"), minimum=1, maximum=rules.MAX_COUNT),
            ),
            group=N_("Points"),
            example={"player": "Sven", "count": 2},
            acts_for=gm_of,
        ),
        ActionSpec(
            "murphy",
            N_("Murphy's Pool (GM)"),
            N_("Add (a refused compel, an enemy, gear with PMP) or spend Murphy points."),
            goal_actions.murphy,
            (
                count_field("add", N_("Add")),
                count_field("spend", N_("Spend")),
                Field("against", "pick", label=N_("Against"), required=False, choices=players),
                Field("reason", "text", label=N_("Why"), required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group=N_("Points"),
            example={"add": 1, "reason": "Wire refused a compel"},
            acts_for=gm_of,
        ),
        ActionSpec(
            "set_rack",
            N_("Set a rack (Lifestyles)"),
            N_("The dice in a rack: one per Lifestyle, usually six."),
            goal_actions.set_rack,
            (who_field(), Field("rack", "count", label=N_("Rack (Lifestyles)"), minimum=1, maximum=rules.MAX_QUALITY)),
            group=N_("Setup"),
            example={"participant": "GM", "rack": 7},
            acts_for=gm_of,
        ),
        ActionSpec(
            "follow_up",
            N_("Follow-up conflict"),
            N_("Everyone tosses half their pool (rounded down); the rest roll in with the new pools."),
            followup.follow_up,
            group=N_("Conflict"),
            available=no_exchange,
            example={},
            every_seat=True,
        ),
        ActionSpec(
            "take_on_the_chin",
            N_("Take it on the chin"),
            N_("Out of dice first: the opponent's leftover dice become follow-up dice, two for one."),
            followup.take_on_the_chin,
            (
                who_field(),
                Field("opponent", "pick", label=N_("Opponent"), choices=name_choices, differs_from="participant"),
            ),
            group=N_("Conflict"),
            available=no_exchange,
            example={"participant": "Jack", "opponent": "Shred"},
            seat_field="participant",
            acts_for=participant_of,
        ),
        ActionSpec(
            "next_participant",
            N_("Next participant (C)"),
            N_("The next participant's move; after the last, a new round."),
            followup.next_participant,
            # Never asked (no phone draws it): logged as True, so a knocked-out participant is passed over, while
            # a log from before it replays its C as played.
            (Field("skip_stopped", "flag", required=False, default=True, applies=lambda state: False),),
            group=N_("Conflict"),
            available=no_exchange,
            example={},
        ),
        ActionSpec(
            "set_skills",
            N_("Set the conflict's skills"),
            N_(
                "The primary skill (the initiator's) and the secondary (the target's); their roots' goal charts are "
                "on offer."
            ),
            campaign_actions.set_skills,
            (
                Field("primary", "text", label=N_("Primary skill"), max_length=rules.MAX_TEXT),
                Field("secondary", "text", label=N_("Secondary skill"), **TEXT),
            ),
            group=N_("Conflict"),
            available=no_exchange,
            example={
                "primary": "Coordination: Projectiles: Airgun",
                "secondary": "Coordination: Acrobatics: Gymnastics",
            },
        ),
        ActionSpec(
            "outnumbered_point",
            N_("Outnumbered: one point (GM)"),
            N_(
                "A side outnumbered by a full sleeve of dice in this conflict: one Player Point (the GM: a Murphy "
                "point), once per conflict, when the conflict is germane to the story."
            ),
            campaign_actions.outnumbered_point,
            (Field("participant", "pick", label=N_("Who"), choices=outnumbered_choices),),
            group=N_("Points"),
            example={"participant": "Sven"},
            acts_for=gm_of,
        ),
        *between_scenes.SPECS,
    )
}


def _check_d6(value: Any, key: str) -> None:
    """Whole numbers outside 1-6 are refused here; anything not a number is left to the field (400).
    A count per face is read by the core's one reader of such maps (``dice.faces_from_counts``)."""
    if isinstance(value, Mapping):
        try:
            items = sorted(set(dice.faces_from_counts(value, rules.MAX_POOL * 10, key)))
        except TablesideError:  # not a count per face at all: the field says what is wrong
            return
    elif isinstance(value, list):
        items = [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
    else:
        return
    for face in items:
        if not 1 <= face <= rules.SIDES:
            raise RuleError(N_("{key}: a d6 face is 1-6, got {face}", key=key, face=face))


def _button_a(state: State) -> dict | None:
    """A: roll the prepared pool of whose move it is, else the first prepared pool."""
    now = current(state)
    if state["participants"][now]["prepared"]:
        return {"type": "roll_pool", "participant": now}
    for name in state["seating"]:
        if state["participants"][name]["prepared"]:
            return {"type": "roll_pool", "participant": name}
    return {"type": "roll_pool", "participant": now}


class Venus2140(GameSystem):
    """Venus 2140 conflicts: scene pools, exchanges and books, without taking the dice away from the table."""

    id = "v2140"
    name = "Venus 2140"
    ends = False  # the rules end scenes and conflicts, never the game: a game here is played, never won
    description = N_(
        "Role-playing conflicts with d6 scene pools: roll-ins and tosses, exchanges normal and risky, "
        "books and goals, racks, Murphy's Pool and Player Points, follow-up conflicts."
    )
    rules_version = 2  # 2: the lead follows the last capture; effects, campaign, tests
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = (
        Binding("A", False, N_("Roll pool"), _button_a),
        Binding("B", False, N_("Resolve exchange"), lambda state: {"type": "resolve"}),
        Binding("C", False, N_("Next participant"), lambda state: {"type": "next_participant"}),
        *UNDO_REDO,
    )

    def validate_action(self, raw: Any, state: State | None = None) -> dict:
        """A face outside 1-6 in the dice put forward or typed in is against the rules (422), named."""
        if isinstance(raw, Mapping):
            for key in ("dice", "faces"):
                _check_d6(raw.get(key), key)
        return super().validate_action(raw, state)

    def seats(self, state: State) -> list[Seat]:
        return [Seat(n, state["participants"][n]["role"]) for n in state["seating"]]

    def private_owner(self, state: State, action: Any, seat: str | None) -> str | None:
        """Every action a seat may take only for itself uses that participant's scene pool (the GM's
        for the GM's actions): its ``acts_for``."""
        spec = self.actions.get(action.get("type")) if isinstance(action, dict) else None
        if spec is None or spec.acts_for is None:
            return None
        owner = spec.owner(state, spec.seated(action, seat, list(state["participants"])))
        return owner if owner in state["participants"] else None

    def chart_series(self, state: State) -> dict[str, float]:
        return {str(name): float(p.get("books") or 0) for name, p in state["participants"].items()}

    def chart_title(self) -> str:
        return N_("Books per participant")

    def seat_colours(self, state: State) -> dict[str, int]:
        """Each participant in their colour on the Scene pools rows (seating order, the GM too)."""
        return {str(name): screen_colour(i) for i, name in enumerate(state.get("seating") or [])}

    def scores(self, state: State) -> dict[str, str]:
        """Books: what an exchange wins."""
        return {n: str(state["participants"][n]["books"]) for n in state["seating"]}

    def redact(self, state: State, seat: str | None) -> State:
        """Pool faces are their owner's; everyone else sees the count (a roll into a pool is private
        to its seat in the log, so the roll on the table reaches only the owner too)."""
        out = copy.deepcopy(state)
        for name, p in out["participants"].items():
            if name != seat:
                p["pool"] = None
        return out

    def roll_belongs_to(self, state: State) -> list:
        """A roll belongs to the exchange and the move it was made in: it goes when dice are put
        forward for the next exchange or the move passes on."""
        ex = state["exchange"]
        resolved = state["ledger"][-1]["n"] if state["ledger"] else 0
        return [state["conflict"], state["round"], state["turn"], resolved, ex["actor"] if ex else None]


SYSTEM = Venus2140()
