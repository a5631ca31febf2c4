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
from tableside.core.text import N_

SPECS = (
    ActionSpec(
        "add_effect",
        N_("Note an effect (GM)"),
        N_(
            "An effect on a character (a participant or an NPC): a wound with what it counts for and until when, a "
            "scar against whom, crippling, knocked out."
        ),
        campaign_actions.add_effect,
        (
            Field("character", "text", label=N_("Character"), max_length=24),
            Field("effect", "pick", label=N_("Effect"), choices=effect_names, prefill=effects.due_field("effect")),
            Field(
                "by",
                "pick",
                label=N_("Done by"),
                required=False,
                default="",
                choices=name_choices,
                prefill=effects.due_field("by"),  # a goal's effect waiting: its buyer
            ),
            Field("applies_to", "text", label=N_("Counts when"), **TEXT),
            Field("until", "text", label=N_("Until"), **TEXT),
            Field("level", "count", label=N_("Level"), required=False, default=1, minimum=1, maximum=10),
            Field("note", "text", label=N_("How it shows"), **TEXT),
        ),
        group=N_("Effects"),
        example={"character": "Sven", "effect": "Wound", "by": "GM", "applies_to": "anything physical"},
        acts_for=gm_of,
    ),
    ActionSpec(
        "treat_effect",
        N_("Treat an effect (GM)"),
        N_("A scar or crippling treated: no longer a wound."),
        campaign_actions.treat_effect,
        (Field("effect", "pick", label=N_("Effect"), choices=treatable),),
        group=N_("Effects"),
        example={"effect": 2},
        acts_for=gm_of,
    ),
    ActionSpec(
        "end_effect",
        N_("End an effect (GM)"),
        N_("An effect runs out (a day, medical attention) or the table lets it go."),
        campaign_actions.end_effect,
        (
            Field("effect", "pick", label=N_("Effect"), choices=effect_ids),
            Field("reason", "text", label=N_("Why"), **TEXT),
        ),
        group=N_("Effects"),
        example={"effect": 1, "reason": "medical attention"},
        acts_for=gm_of,
    ),
    ActionSpec(
        "new_scene",
        N_("New scene (GM)"),
        N_("The next scene of the campaign: pools empty, the knocked out come round, effects stay."),
        campaign_actions.new_scene,
        group=N_("Campaign"),
        available=no_exchange,
        example={},
        acts_for=gm_of,
    ),
    ActionSpec(
        "new_session",
        N_("New session (GM)"),
        N_("The next play session: the GM's session pool refills, trained points become usable, effects stay."),
        campaign_actions.new_session,
        group=N_("Campaign"),
        available=no_exchange,
        example={},
        acts_for=gm_of,
    ),
    ActionSpec(
        "downtime",
        N_("Downtime test for a wound"),
        N_("A test against three dice per level of the wound: 2 books rid of it, 3 make it permanent."),
        downtime_actions.downtime_test,
        (
            Field("effect", "pick", label=N_("Wound"), choices=wounds),
            Field(
                "dice", "count", label=N_("Dice (the player or the doctor)"), minimum=1, maximum=rules.MAX_DICE_IN_ROLL
            ),
            Field("buy", "pick", label=N_("Books buy"), choices=tuple(downtime.DOWNTIME_COSTS)),
        ),
        group=N_("Downtime"),
        available=no_exchange,
        rolls=True,
        example={"effect": 1, "dice": 6, "buy": "get rid of it"},
    ),
    ActionSpec(
        "heal",
        N_("Healing downtime"),
        N_("Four or more permanent effects: the downtime is spent healing; half of them disappear."),
        downtime_actions.heal,
        (
            Field("character", "pick", label=N_("Character"), choices=characters),
            Field("effects", "picks", label=N_("Effects that disappear"), choices=effect_ids),
        ),
        group=N_("Downtime"),
        available=no_exchange,
        example={"character": "Sven", "effects": [1, 2]},
        acts_for=gm_of,
    ),
    ActionSpec(
        "train",
        N_("Training"),
        N_(
            "A test with a skill you plan to use against two racks; each book is a Player Point next session, only "
            "with that skill."
        ),
        downtime_actions.train,
        (
            who_field(choices=players),
            Field("skill", "text", label=N_("Skill"), max_length=rules.MAX_TEXT),
            Field("dice", "count", label=N_("Dice for the skill"), minimum=1, maximum=rules.MAX_DICE_IN_ROLL),
        ),
        group=N_("Downtime"),
        available=no_exchange,
        rolls=True,
        example={"participant": "Shred", "skill": "Coordination: Projectiles: Airgun", "dice": 6},
        seat_field="participant",
        acts_for=participant_of,
    ),
    ActionSpec(
        "connections",
        N_("Connections test"),
        N_(
            "Two dice per lifestyle that relates to what is sought (two more for a Network), against what the GM "
            "sets; each book a piece of information, a loan, a 20% discount."
        ),
        downtime_actions.connections,
        (
            who_field(choices=players),
            Field("seeking", "text", label=N_("Seeking"), **TEXT),
            count_field("lifestyles", N_("Lifestyles that relate"), 20, help=N_("two dice each")),
            count_field(
                "secondary_skills", N_("Matching secondary skills"), rules.MAX_MATCHING_SKILLS, help=N_("one die each")
            ),
            Field("network", "flag", label=N_("Network memento"), required=False, default=False),
            Field("against", "count", label=N_("Against (dice)"), minimum=0, maximum=rules.MAX_DICE_IN_ROLL),
        ),
        group=N_("Downtime"),
        available=no_exchange,
        rolls=True,
        example={"participant": "Wire", "seeking": "who hired Jack", "lifestyles": 2, "against": 6},
        seat_field="participant",
        acts_for=participant_of,
    ),
)
