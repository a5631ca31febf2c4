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
from tableside.core.fields import Choice, Field
from tableside.core.system import UNDO_REDO, ActionSpec, Binding, GameSystem, Seat
from tableside.core.systems.v2140 import (
    campaign_actions,
    downtime,
    downtime_actions,
    effects,
    exchange_actions,
    followup,
    goal_actions,
    goals,
    pool_actions,
    rules,
    setup,
)
from tableside.core.systems.v2140.screen import screen_colour
from tableside.core.systems.v2140.state import (
    awaiting_answer,
    current,
    forward_now,
    leader,
    names,
    no_exchange,
    pending_exchange,
    player_names,
    pool_to_roll,
)

State = dict[str, Any]


def _names(state: State) -> list[str]:
    return names(state) if state else []


def _players(state: State) -> list[str]:
    return player_names(state) if state else []


def _who(
    name: str = "participant", label: str = "Who", required: bool = False, choices=_names, differs_from: str = ""
) -> Field:
    return Field(
        name,
        "pick",
        label=label,
        required=required,
        choices=choices,
        help="" if required else "default: whose move it is",
        differs_from=differs_from,
    )


def _count(
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


_EXCEPTION = Field("exception", "flag", label="Table allows it as the exception", required=False, default=False)


def _own_pool(state: State) -> list[int] | None:
    """The scene pool this phone may see: its own seat's (in the seat's view only that one is a list)."""
    pools = [p["pool"] for p in state.get("participants", {}).values() if isinstance(p.get("pool"), list)]
    held = [pool for pool in pools if pool]  # an empty pool hides nothing, so every seat sees it as []
    if len(held) == 1:
        return held[0]
    return [] if pools and not held else None


_DICE = Field("dice", "faces", label="Dice", help="dice from the scene pool, by their faces", offer=_own_pool)
_SAYS = Field("says", "text", label="What they do", required=False, default="", max_length=rules.MAX_TEXT)


# --- who may do what ------------------------------------------------------------


def _participant(state: State, action: dict) -> str:
    """Whose scene pool the action uses: the participant named, else whose move it is. (A seated phone
    that leaves the participant out means itself: the core fills it in, then checks it is its own.)"""
    return action.get("participant") or current(state)


def _actor(state: State, action: dict) -> str:
    return action.get("actor") or leader(state)


def _target(state: State, action: dict) -> str:
    """The pending exchange's target answers with its own pool."""
    return state["exchange"]["target"] if state["exchange"] else current(state)


def _gm(state: State, action: dict) -> str:
    """The GM's actions: the session pool, Player Points, the Murphy's Pool, racks."""
    return state["gm"]


def _session_racks(state: State) -> int | None:
    """The racks left in the GM's session pool (None before a game: the field keeps its own range)."""
    return state.get("session_racks") if state else None


def _most_racks(state: State) -> int | None:
    return pool_actions.most_racks(state) if state else None


def _racks_help(state: State) -> str:
    if not state:
        return ""
    rack, most = state["participants"][state["gm"]]["rack"], pool_actions.most_racks(state)
    return (
        f"a rack is the GM's rack, {rack} dice: at most {most} racks, as one roll starts with at most "
        f"{rules.MAX_DICE_IN_ROLL} dice"
    )


_PREPARE_FIELDS = (
    _who(),
    # The GM's dice, first on the GM's phone (racks are what the GM draws); a player's phone leaves them out
    # (the rules refuse them for a player anyway).
    # "A Rack of dice per named opposition NPC or Gang": no most in the rulebook, so at most what one roll holds of
    # the GM's rack (a stepper to 99 offered 594 dice), and its help says why.
    replace(
        _count(
            "racks", "Racks (GM: one per named NPC or gang)", help="a rack is the GM's rack size in dice", for_role="gm"
        ),
        upto=_most_racks,
        help_now=_racks_help,
    ),
    # At most what the session pool holds now (a stepper to 99 with 2 racks in it offered what the rules refuse),
    # and not asked once it is empty.
    replace(
        _count("session_racks", "Racks from the session pool (GM)", for_role="gm"),
        upto=_session_racks,
        applies=lambda state: bool(_session_racks(state)),
    ),
    _count(
        "primary_skills",
        "Matching primary skills",
        rules.MAX_MATCHING_SKILLS,
        help="the primary skill and its parents you have: two dice each",
    ),
    _count("secondary_skills", "Matching secondary skills", rules.MAX_MATCHING_SKILLS, help="one die each"),
    _count("assist_quality", "Assisting gear quality (primary)", rules.MAX_QUALITY, help="adds half, rounded down"),
    _count(
        "secondary_assist_quality",
        "Assisting gear quality (secondary)",
        rules.MAX_QUALITY,
        help="half value: a quarter, rounded down",
    ),
    _count("gear_circumstances", "Gear used as a circumstance", help="one die each"),
    _count("circumstances", "Circumstances in your favour", help="one die each; penalties to the other side too"),
    Field(
        "effects",
        "picks",
        label="Effects that count here (+1 die each)",
        required=False,
        default=[],
        choices=effects.choices,
        help="effects on the other side offered as circumstances: confirm the ones that apply",
    ),
)


def _effect_ids(state: State) -> list[Choice]:
    return [Choice(e["id"], effects.describe(e)) for e in effects.active(state)] if state else []


def _treatable(state: State) -> list[Choice]:
    return (
        [Choice(e["id"], effects.describe(e)) for e in effects.active(state) if effects.treatable(e)] if state else []
    )


def _wounds(state: State) -> list[Choice]:
    if not state:
        return []
    return [
        Choice(e["id"], effects.describe(e))
        for e in effects.active(state)
        if e["reads"] == effects.WOUND and not e["permanent"]
    ]


def _effect_names(state: State) -> list[str]:
    return list(state.get("readings", {})) if state else []


def _characters(state: State) -> list[str]:
    """Everyone who bears an effect, participants first."""
    if not state:
        return []
    bearers = [e["character"] for e in effects.active(state)]
    return [*state["seating"], *sorted({b for b in bearers if b not in state["seating"]})]


def _outnumbered(state: State) -> list[str]:
    return campaign_actions.outnumbered(state) if state else []


_TEXT = {"required": False, "default": "", "max_length": rules.MAX_TEXT}

ACTIONS: dict[str, ActionSpec] = {
    # The GM's actions (the GM's scene pool, points, racks, effects, scenes) are the GM seat's: a player's phone
    # does not offer them.
    spec.type: replace(spec, for_role="gm") if spec.acts_for is _gm else spec
    for spec in (
        ActionSpec(
            "prepare_pool",
            "Draw dice for a scene pool",
            "Enter skills, gear, circumstances and racks as counts; A rolls them.",
            pool_actions.prepare_pool,
            _PREPARE_FIELDS,
            group="Scene pool",
            example={"participant": "Shred", "primary_skills": 3, "secondary_skills": 3, "secondary_assist_quality": 4},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "roll_pool",
            "Roll the scene pool (A)",
            "Roll the prepared dice in: every 6 rolls one more die in, 1-3 are tossed. Type physical dice in "
            'as "faces" (a count per face is fine), roll-ins included.',
            pool_actions.roll_pool,
            (_who(),),
            group="Scene pool",
            available=pool_to_roll,
            rolls=True,
            example={"participant": "Shred", "faces": {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "session_rack",
            "Roll a rack from the session pool (GM)",
            "The GM adds a rack to the scene pool from the session budget (one rack per player per session).",
            pool_actions.session_rack,
            group="Scene pool",
            rolls=True,
            example={"faces": [6, 5, 4, 3, 2, 1, 4]},
            acts_for=_gm,
        ),
        ActionSpec(
            "resist",
            "Roll resist dice",
            "Gear that resists: roll its quality, the 4+ join the scene pool.",
            pool_actions.resist,
            (_who(), Field("quality", "count", label="Gear quality", minimum=1, maximum=rules.MAX_QUALITY)),
            group="Scene pool",
            rolls=True,
            example={"participant": "Shred", "quality": 3, "faces": [5, 3, 4]},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "fly_dice",
            "Fly-Dice",
            "A one-off open roll of the base attack against a rack or the opponent's skill; the winner adds "
            "the dice their roll kept to their scene pool.",
            pool_actions.fly_dice,
            (
                _who("attacker", "Attacker"),
                _who("defender", "Defender", required=True),
                Field("attack_dice", "count", label="Base attack dice", minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
                Field("defense_dice", "count", label="Rack or skill dice", minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
                Field(
                    "skill",
                    "text",
                    label="Skill used",
                    help="its root's goals go to the winner only",
                    **_TEXT,
                ),
            ),
            group="Scene pool",
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
            "Bid dice for initiative",
            "Put dice from the scene pool in for initiative (they leave the pool); the GM may add dice for "
            "any one character.",
            pool_actions.bid_initiative,
            # "The GM can add dice for any individual character he wants to go first": the GM's right, so a
            # player's phone does not offer it (a player's dice count for that player).
            (_who(), _DICE, Field("for", "pick", label="For", required=False, choices=_names, for_role="gm")),
            group="Initiative",
            available=no_exchange,
            example={"participant": "Shred", "dice": [4]},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "settle_initiative",
            "Settle the order",
            "Highest initiative total first (ties and no bids keep seating order), or seating order.",
            pool_actions.settle_initiative,
            (
                Field("seating", "flag", label="Seating order instead", required=False, default=False),
                Field("reverse", "flag", label="The other way round", required=False, default=False),
            ),
            group="Initiative",
            available=no_exchange,
            example={},
        ),
        ActionSpec(
            "put_forward",
            "Put dice forward",
            "The actor puts forward dice from the scene pool against a target (at most half the pool, rounded "
            "up, unless the table marks the exception); risky: totals, winner takes all.",
            exchange_actions.put_forward,
            (
                _who("actor", "Actor"),
                _who("target", "Target", required=True, differs_from="actor"),  # "cannot be their own target"
                _DICE,
                Field("risky", "flag", label="Risky (winner takes all)", required=False, default=False),
                _EXCEPTION,
                _SAYS,
            ),
            group="Exchange",
            available=forward_now,
            example={"actor": "Shred", "target": "GM", "dice": [6], "says": "I snap a shot on top of him"},
            seat_field="actor",
            acts_for=_actor,
        ),
        ActionSpec(
            "answer",
            "Answer the exchange",
            "The target puts forward as many dice as the actor did, or every die left if fewer.",
            exchange_actions.answer,
            (_DICE, _SAYS),
            group="Exchange",
            available=awaiting_answer,
            example={"dice": [4], "says": "Jack lurches to the side"},
            acts_for=_target,
        ),
        ActionSpec(
            "resolve",
            "Resolve the exchange (B)",
            "Compare the dice: captures become books, unmatched dice return and are rolled back in.",
            exchange_actions.resolve,
            group="Exchange",
            available=pending_exchange,
            rolls=True,
            example={},
        ),
        ActionSpec(
            "withdraw",
            "Take back the exchange",
            "A slip: the dice put forward go back to their pools.",
            exchange_actions.withdraw,
            group="Exchange",
            available=pending_exchange,
            example={},
        ),
        ActionSpec(
            "buy_goal",
            "Buy a goal",
            "Spend books (and Player Points, or the GM's Murphy points) on a goal; one goal or one gift a round.",
            goal_actions.buy_goal,
            (
                _who(),
                Field("goal", "text", label="Goal", required=False, default="", max_length=rules.MAX_TEXT),
                Field("guide", "pick", label="Guide price", required=False, choices=tuple(rules.GOAL_GUIDE)),
                _count("price", "Price in books", help="0: the guide price"),
                _count("scale", "Powers of ten people", 20, help="+1 book each"),
                _count("zones", "Extra zones", 20, help="+1 book each"),
                _count("points", "Player Points (GM: Murphy) spent"),
                Field("target", "pick", label="On whom", required=False, choices=_names),
                Field(
                    "chart_goal",
                    "pick",
                    label="Goal from the charts",
                    required=False,
                    default="",
                    choices=goals.offered_chart_goals,
                    help="on offer: the roots of the conflict's skills; a Fly-Dice skill's only to its winner",
                ),
                Field(
                    "effect",
                    "pick",
                    label="Effect it leaves",
                    required=False,
                    default="",
                    choices=_effect_names,
                    help="a chart goal named like an effect leaves it without this",
                ),
                Field(
                    "character",
                    "text",
                    label="Character who bears it",
                    required=False,
                    default="",
                    max_length=24,
                    help="default: on whom; name the NPC when that is the GM",
                ),
                Field("applies_to", "text", label="Counts when", **_TEXT),
                Field("until", "text", label="Until", **_TEXT),
                _count("restricted", "Restricted points spent", help="trained for a skill this conflict uses"),
                _EXCEPTION,
            ),
            group="Books",
            example={"participant": "Shred", "guide": "knock out one person", "target": "GM"},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "give_book",
            "Give a book",
            "Give one book to another participant (instead of buying a goal).",
            goal_actions.give_book,
            (_who(), Field("to", "pick", label="To", choices=_names, differs_from="participant"), _EXCEPTION),
            group="Books",
            example={"participant": "Wire", "to": "Shred"},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "pair_leftovers",
            "Leftover dice into books",
            "Once the other side is out of dice: leftover dice two at a time as books.",
            goal_actions.pair_leftovers,
            (_who(), _count("count", "Dice to pair", rules.MAX_POOL, help="0: as many as pair up")),
            group="Books",
            example={"participant": "Shred", "count": 4},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "reputation",
            "Books into reputation",
            "At the end of a conflict: unused books raise reputation.",
            goal_actions.reputation,
            (
                _who(),
                _count("books", "Books", help="0: all of them"),
                Field("note", "text", label="Reputation", required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group="Books",
            example={"participant": "Wire", "books": 1, "note": "Took on the Vid-Dronz"},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "award_player_points",
            "Award Player Points (GM)",
            "A compel, being outnumbered by a full rack, training, an enemy: Player Points for a player.",
            goal_actions.award_player_points,
            (
                _who("player", "Player", required=True, choices=_players),
                Field("count", "count", label="Points", minimum=1, maximum=rules.MAX_COUNT),
                Field("reason", "text", label="Why", required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group="Points",
            example={"player": "Sven", "count": 1, "reason": "outnumbered by a full rack"},
            acts_for=_gm,
        ),
        ActionSpec(
            "grant_player_points",
            "Grant Player Points for Murphy (GM)",
            "A player begs: Player Points at one Murphy die each, against that character.",
            goal_actions.grant_player_points,
            (
                _who("player", "Player", required=True, choices=_players),
                Field("count", "count", label="Points", minimum=1, maximum=rules.MAX_COUNT),
            ),
            group="Points",
            example={"player": "Sven", "count": 2},
            acts_for=_gm,
        ),
        ActionSpec(
            "murphy",
            "Murphy's Pool (GM)",
            "Add (a refused compel, an enemy, gear with PMP) or spend Murphy points.",
            goal_actions.murphy,
            (
                _count("add", "Add"),
                _count("spend", "Spend"),
                Field("against", "pick", label="Against", required=False, choices=_players),
                Field("reason", "text", label="Why", required=False, default="", max_length=rules.MAX_TEXT),
            ),
            group="Points",
            example={"add": 1, "reason": "Wire refused a compel"},
            acts_for=_gm,
        ),
        ActionSpec(
            "set_rack",
            "Set a rack (Lifestyles)",
            "The dice in a rack: one per Lifestyle, usually six.",
            goal_actions.set_rack,
            (_who(), Field("rack", "count", label="Rack (Lifestyles)", minimum=1, maximum=rules.MAX_QUALITY)),
            group="Setup",
            example={"participant": "GM", "rack": 7},
            acts_for=_gm,
        ),
        ActionSpec(
            "follow_up",
            "Follow-up conflict",
            "Everyone tosses half their pool (rounded down); the rest roll in with the new pools.",
            followup.follow_up,
            group="Conflict",
            available=no_exchange,
            example={},
        ),
        ActionSpec(
            "take_on_the_chin",
            "Take it on the chin",
            "Out of dice first: the opponent's leftover dice become follow-up dice, two for one.",
            followup.take_on_the_chin,
            (_who(), Field("opponent", "pick", label="Opponent", choices=_names, differs_from="participant")),
            group="Conflict",
            available=no_exchange,
            example={"participant": "Jack", "opponent": "Shred"},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "next_participant",
            "Next participant (C)",
            "The next participant's move; after the last, a new round.",
            followup.next_participant,
            group="Conflict",
            available=no_exchange,
            example={},
        ),
        ActionSpec(
            "set_skills",
            "Set the conflict's skills",
            "The primary skill (the initiator's) and the secondary (the target's); their roots' goal charts "
            "are on offer.",
            campaign_actions.set_skills,
            (
                Field("primary", "text", label="Primary skill", max_length=rules.MAX_TEXT),
                Field("secondary", "text", label="Secondary skill", **_TEXT),
            ),
            group="Conflict",
            available=no_exchange,
            example={
                "primary": "Coordination: Projectiles: Airgun",
                "secondary": "Coordination: Acrobatics: Gymnastics",
            },
        ),
        ActionSpec(
            "outnumbered_point",
            "Outnumbered: one point (GM)",
            "A side outnumbered by a full sleeve of dice in this conflict: one Player Point (the GM: a Murphy "
            "point), once per conflict, when the conflict is germane to the story.",
            campaign_actions.outnumbered_point,
            (Field("participant", "pick", label="Who", choices=_outnumbered),),
            group="Points",
            example={"participant": "Sven"},
            acts_for=_gm,
        ),
        ActionSpec(
            "add_effect",
            "Note an effect (GM)",
            "An effect on a character (a participant or an NPC): a wound with what it counts for and until "
            "when, a scar against whom, crippling, knocked out.",
            campaign_actions.add_effect,
            (
                Field("character", "text", label="Character", max_length=24),
                Field("effect", "pick", label="Effect", choices=_effect_names),
                Field("by", "pick", label="Done by", required=False, default="", choices=_names),
                Field("applies_to", "text", label="Counts when", **_TEXT),
                Field("until", "text", label="Until", **_TEXT),
                Field("level", "count", label="Level", required=False, default=1, minimum=1, maximum=10),
                Field("note", "text", label="How it shows", **_TEXT),
            ),
            group="Effects",
            example={"character": "Sven", "effect": "Wound", "by": "GM", "applies_to": "anything physical"},
            acts_for=_gm,
        ),
        ActionSpec(
            "treat_effect",
            "Treat an effect (GM)",
            "A scar or crippling treated: no longer a wound.",
            campaign_actions.treat_effect,
            (Field("effect", "pick", label="Effect", choices=_treatable),),
            group="Effects",
            example={"effect": 2},
            acts_for=_gm,
        ),
        ActionSpec(
            "end_effect",
            "End an effect (GM)",
            "An effect runs out (a day, medical attention) or the table lets it go.",
            campaign_actions.end_effect,
            (
                Field("effect", "pick", label="Effect", choices=_effect_ids),
                Field("reason", "text", label="Why", **_TEXT),
            ),
            group="Effects",
            example={"effect": 1, "reason": "medical attention"},
            acts_for=_gm,
        ),
        ActionSpec(
            "new_scene",
            "New scene (GM)",
            "The next scene of the campaign: pools empty, the knocked out come round, effects stay.",
            campaign_actions.new_scene,
            group="Campaign",
            available=no_exchange,
            example={},
            acts_for=_gm,
        ),
        ActionSpec(
            "new_session",
            "New session (GM)",
            "The next play session: the GM's session pool refills, trained points become usable, effects stay.",
            campaign_actions.new_session,
            group="Campaign",
            available=no_exchange,
            example={},
            acts_for=_gm,
        ),
        ActionSpec(
            "downtime",
            "Downtime test for a wound",
            "A test against three dice per level of the wound: 2 books rid of it, 3 make it permanent.",
            downtime_actions.downtime_test,
            (
                Field("effect", "pick", label="Wound", choices=_wounds),
                Field(
                    "dice", "count", label="Dice (the player or the doctor)", minimum=1, maximum=rules.MAX_DICE_IN_ROLL
                ),
                Field("buy", "pick", label="Books buy", choices=tuple(downtime.DOWNTIME_COSTS)),
            ),
            group="Downtime",
            available=no_exchange,
            rolls=True,
            example={"effect": 1, "dice": 6, "buy": "get rid of it"},
        ),
        ActionSpec(
            "heal",
            "Healing downtime",
            "Four or more permanent effects: the downtime is spent healing; half of them disappear.",
            downtime_actions.heal,
            (
                Field("character", "pick", label="Character", choices=_characters),
                Field("effects", "picks", label="Effects that disappear", choices=_effect_ids),
            ),
            group="Downtime",
            available=no_exchange,
            example={"character": "Sven", "effects": [1, 2]},
            acts_for=_gm,
        ),
        ActionSpec(
            "train",
            "Training",
            "A test with a skill you plan to use against two racks; each book is a Player Point next session, "
            "only with that skill.",
            downtime_actions.train,
            (
                _who(choices=_players),
                Field("skill", "text", label="Skill", max_length=rules.MAX_TEXT),
                Field("dice", "count", label="Dice for the skill", minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
            ),
            group="Downtime",
            available=no_exchange,
            rolls=True,
            example={"participant": "Shred", "skill": "Coordination: Projectiles: Airgun", "dice": 6},
            seat_field="participant",
            acts_for=_participant,
        ),
        ActionSpec(
            "connections",
            "Connections test",
            "Two dice per lifestyle that relates to what is sought (two more for a Network), against what the GM "
            "sets; each book a piece of information, a loan, a 20% discount.",
            downtime_actions.connections,
            (
                _who(choices=_players),
                Field("seeking", "text", label="Seeking", **_TEXT),
                _count("lifestyles", "Lifestyles that relate", 20, help="two dice each"),
                _count("secondary_skills", "Matching secondary skills", rules.MAX_MATCHING_SKILLS, help="one die each"),
                Field("network", "flag", label="Network memento", required=False, default=False),
                Field("against", "count", label="Against (dice)", minimum=0, maximum=rules.MAX_DICE_IN_ROLL),
            ),
            group="Downtime",
            available=no_exchange,
            rolls=True,
            example={"participant": "Wire", "seeking": "who hired Jack", "lifestyles": 2, "against": 6},
            seat_field="participant",
            acts_for=_participant,
        ),
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
            raise RuleError(f"{key}: a d6 face is 1-6, got {face}")


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
    description = (
        "Role-playing conflicts with d6 scene pools: roll-ins and tosses, exchanges normal and risky, "
        "books and goals, racks, Murphy's Pool and Player Points, follow-up conflicts."
    )
    rules_version = 2  # 2: the lead follows the last capture; effects, campaign, tests
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = (
        Binding("A", False, "Roll pool", _button_a),
        Binding("B", False, "Resolve exchange", lambda state: {"type": "resolve"}),
        Binding("C", False, "Next participant", lambda state: {"type": "next_participant"}),
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
        return "Books per participant"

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
