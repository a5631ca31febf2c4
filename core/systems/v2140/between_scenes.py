"""Venus 2140's actions between the exchanges: effects (wounds, scars) and the campaign's downtime.

Their ``ActionSpec``s, beside the handlers they name (``campaign_actions``, ``downtime_actions``);
``system.py`` lists them after the scene's actions."""

from __future__ import annotations

from tableside.core.fields import Field
from tableside.core.system import ActionSpec
from tableside.core.systems.v2140 import (
    campaign_actions,
    downtime,
    downtime_actions,
    effects,
    rules,
)
from tableside.core.systems.v2140.choices import (
    TEXT,
    characters,
    count_field,
    effect_ids,
    effect_names,
    gm_of,
    name_choices,
    participant_of,
    players,
    treatable,
    who_field,
    wounds,
)
from tableside.core.systems.v2140.state import (
    no_exchange,
)

SPECS = (
    ActionSpec(
        "add_effect",
        "Note an effect (GM)",
        "An effect on a character (a participant or an NPC): a wound with what it counts for and until "
        "when, a scar against whom, crippling, knocked out.",
        campaign_actions.add_effect,
        (
            Field("character", "text", label="Character", max_length=24),
            Field("effect", "pick", label="Effect", choices=effect_names, prefill=effects.due_field("effect")),
            Field(
                "by",
                "pick",
                label="Done by",
                required=False,
                default="",
                choices=name_choices,
                prefill=effects.due_field("by"),  # a goal's effect waiting: its buyer
            ),
            Field("applies_to", "text", label="Counts when", **TEXT),
            Field("until", "text", label="Until", **TEXT),
            Field("level", "count", label="Level", required=False, default=1, minimum=1, maximum=10),
            Field("note", "text", label="How it shows", **TEXT),
        ),
        group="Effects",
        example={"character": "Sven", "effect": "Wound", "by": "GM", "applies_to": "anything physical"},
        acts_for=gm_of,
    ),
    ActionSpec(
        "treat_effect",
        "Treat an effect (GM)",
        "A scar or crippling treated: no longer a wound.",
        campaign_actions.treat_effect,
        (Field("effect", "pick", label="Effect", choices=treatable),),
        group="Effects",
        example={"effect": 2},
        acts_for=gm_of,
    ),
    ActionSpec(
        "end_effect",
        "End an effect (GM)",
        "An effect runs out (a day, medical attention) or the table lets it go.",
        campaign_actions.end_effect,
        (
            Field("effect", "pick", label="Effect", choices=effect_ids),
            Field("reason", "text", label="Why", **TEXT),
        ),
        group="Effects",
        example={"effect": 1, "reason": "medical attention"},
        acts_for=gm_of,
    ),
    ActionSpec(
        "new_scene",
        "New scene (GM)",
        "The next scene of the campaign: pools empty, the knocked out come round, effects stay.",
        campaign_actions.new_scene,
        group="Campaign",
        available=no_exchange,
        example={},
        acts_for=gm_of,
    ),
    ActionSpec(
        "new_session",
        "New session (GM)",
        "The next play session: the GM's session pool refills, trained points become usable, effects stay.",
        campaign_actions.new_session,
        group="Campaign",
        available=no_exchange,
        example={},
        acts_for=gm_of,
    ),
    ActionSpec(
        "downtime",
        "Downtime test for a wound",
        "A test against three dice per level of the wound: 2 books rid of it, 3 make it permanent.",
        downtime_actions.downtime_test,
        (
            Field("effect", "pick", label="Wound", choices=wounds),
            Field("dice", "count", label="Dice (the player or the doctor)", minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
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
            Field("character", "pick", label="Character", choices=characters),
            Field("effects", "picks", label="Effects that disappear", choices=effect_ids),
        ),
        group="Downtime",
        available=no_exchange,
        example={"character": "Sven", "effects": [1, 2]},
        acts_for=gm_of,
    ),
    ActionSpec(
        "train",
        "Training",
        "A test with a skill you plan to use against two racks; each book is a Player Point next session, "
        "only with that skill.",
        downtime_actions.train,
        (
            who_field(choices=players),
            Field("skill", "text", label="Skill", max_length=rules.MAX_TEXT),
            Field("dice", "count", label="Dice for the skill", minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
        ),
        group="Downtime",
        available=no_exchange,
        rolls=True,
        example={"participant": "Shred", "skill": "Coordination: Projectiles: Airgun", "dice": 6},
        seat_field="participant",
        acts_for=participant_of,
    ),
    ActionSpec(
        "connections",
        "Connections test",
        "Two dice per lifestyle that relates to what is sought (two more for a Network), against what the GM "
        "sets; each book a piece of information, a loan, a 20% discount.",
        downtime_actions.connections,
        (
            who_field(choices=players),
            Field("seeking", "text", label="Seeking", **TEXT),
            count_field("lifestyles", "Lifestyles that relate", 20, help="two dice each"),
            count_field(
                "secondary_skills", "Matching secondary skills", rules.MAX_MATCHING_SKILLS, help="one die each"
            ),
            Field("network", "flag", label="Network memento", required=False, default=False),
            Field("against", "count", label="Against (dice)", minimum=0, maximum=rules.MAX_DICE_IN_ROLL),
        ),
        group="Downtime",
        available=no_exchange,
        rolls=True,
        example={"participant": "Wire", "seeking": "who hired Jack", "lifestyles": 2, "against": 6},
        seat_field="participant",
        acts_for=participant_of,
    ),
)
