"""The rulebook passages Venus 2140's refusals rest on (#35): docs/rulebooks/v2140.txt, quoted as printed.

``RULES`` names each passage once; ``DEFAULTS`` gives the key of a refusal that names none (by the
``module.function`` or the module that refuses), ``ACTIONS`` the key of an action's "not now" reasons.
The book's first part has no headings of its own: its passages stand under the title.
"""

from __future__ import annotations

from tableside.core.rulebook_refs import book, input_limit, table_choice

BOOK = "Venus 2140"  # the heading of every passage before the System Glossary

RULES = {
    "goal_price": book(
        BOOK, "A price in captures for this goal is agreed to by all in the room, using the Goal Guidelines Chart."
    ),
    "skills": book(BOOK, "The initiator of the conflict selects a primary skill for each player in the conflict."),
    "dice_draw": book(
        BOOK,
        "You get two dice for each skill your character has that matches either the Primary Skill or its parents. "
        "You get one die for each skill that matches the secondary skill.",
    ),
    "rack": book(BOOK, "The GM starts the scene with a Rack of dice per named opposition NPC or Gang."),
    "roll_in": book(
        BOOK,
        "Any dice that show 3 or lower are tossed aside. For each 6 that you roll, add an additional die into the "
        "pool.",
    ),
    "own_pool": book(BOOK, "Each participant has their own scene pool, which they use for both defense and offense."),
    "d6": book(BOOK, "All dice in Venus are six sided normal dice."),
    "initiative": book(
        BOOK,
        "If you like, each player can put in a number of dice from their scene pool. The GM can add dice for any "
        "individual character he wants to go first.",
    ),
    "exchange": book(
        BOOK,
        "The acting player then selects one or several dice from his scene pool and places them on the table between "
        "him and his opposition. They say what they do. You shouldn't use more than half of your dice in one pull.",
    ),
    "answer": book(BOOK, "The target player then does the same thing, matching the number of dice the actor drew."),
    "next_exchange": book(BOOK, "The side that captured last time starts a new exchange until someone is out of dice."),
    "leftovers": book(BOOK, "Any leftover dice can be used two at a time as books."),
    "books": book(BOOK, "Captured dice are put aside as books until you are ready to spend them to buy goals."),
    "one_goal": book(BOOK, "You can only buy one goal or give one book per round."),
    "books_separate": book(
        BOOK, "Each player keeps their books separate unless they give them to another player during this phase."
    ),
    "reputation": book(BOOK, "Unused or extra books can be spent at the end of a conflict to increase reputations."),
    "chin": book(
        BOOK,
        "If a player runs out of dice before their opponent, but before either party has achieved enough books to "
        "accomplish their goal, the player may choose to have their character take it on the chin",
    ),
    "points_buy": book(BOOK, "Or, they may buy off the rest of their required books with Player Points."),
    "follow_up": book(BOOK, "Everyone takes half their dice in their scene pool (rounding down) and tosses them out."),
    "fly_dice": book(
        BOOK,
        "If a character decides to deviate from their initial goal to a similar goal (ex. shoot in the face to shoot "
        "the gas main beside the opponent) you should use Fly- Dice.",
    ),
    "fly_goals": book(
        BOOK, "Any goals from the skill used can be purchased in the original conflict by the winning party only."
    ),
    "murphy": book(BOOK, "In general, each Murphy's point can be spent just like it was a book."),
    "player_points": book(BOOK, "Player points are books. No rolling, no fighting, they spend them and it happens."),
    "outnumbered": book(
        BOOK,
        "If you enter a conflict where you are outnumbered by a full sleeve of dice, you are entitled to one player "
        "point, assuming that the conflict is germane to the story.",
    ),
    "scale": book(
        "System Glossary",
        "Generally, to buy a goal for a lot of people or places, it works on a logarithmic scale. Powers of ten.",
    ),
    "downtime": book("System Glossary", "These characters can plan and train for their upcoming adventures."),
    "train": book("System Glossary", "Make a test with a skill you plan to use against two racks."),
    "trained": book(
        "System Glossary",
        "Every book you pull out is worth a player point in the next session, when you're using that skill.",
    ),
    "wounds": book(
        "System Glossary", "During downtime, wounds may be transformed into permanent effects of one sort or another."
    ),
    "healing": book(
        "System Glossary",
        "If a character goes into downtime with four or more permanent effects, they spend that downtime period "
        "healing. In effect, the GM and players should work out a reason to have half of the effects disappear.",
    ),
    "scar": book(
        "System Glossary",
        "you'll have a circumstance against you when you go against the person who did this to you.",
    ),
    "treated": book(
        "System Glossary",
        "Kind of like a scar, except that it is a permanent physical penalty. Until it's treated, it's a wound and a "
        "scar.",
    ),
    "connections": book(
        "System Glossary",
        "Typical Connections tests will use Personability or Authority skills as a secondary skill, but use your "
        "imagination.",
    ),
    "effects": book("Effects", "Effects are the lasting results of buying a [Goals|Goal]."),
    "resist": book(
        "Resist Dice",
        "That means that whenever the gear would help you resist what's happening to you, you immediately roll a "
        "number of dice (usually the quality of the device), and add any dice with four or higher to the scene pool.",
    ),
    "session": book(
        "Session Budget",
        "The GM gets one rack for each player to throw in where it can make things tougher for the PCs.",
    ),
    "names": table_choice(
        "Player characters / GM",
        "The book names no characters: the participants are the table's, each with a name of its own.",
    ),
    "effect_readings": table_choice(
        "Effects", "Which of the book's paragraphs each effect of this campaign reads as is the table's setup."
    ),
    "chart_goals": table_choice(
        "Chart goals", "The book's goal charts are cut short: each root skill's goals are the table's setup."
    ),
    "pool_limit": input_limit(
        "The book sets no most dice a pool or a roll may hold: Tableside's cap (rules.py MAX_POOL, MAX_DICE_IN_ROLL, "
        "MAX_ROLL_INS) is far above any table's, so a typo cannot fill the card."
    ),
    "effects_limit": input_limit(
        "The book sets no most standing effects: Tableside's cap (effects.py MAX_EFFECTS) is far above any "
        "campaign's, so a typo cannot fill the card."
    ),
}

DEFAULTS = {
    "campaign_actions.treat_effect": "treated",
    "campaign_actions.set_skills": "skills",
    "campaign_actions.outnumbered_point": "outnumbered",
    "campaign_actions": "next_exchange",
    "downtime_actions._player": "downtime",
    "downtime_actions.downtime_test": "wounds",
    "downtime_actions.heal": "healing",
    "downtime_actions.train": "train",
    "downtime_actions.connections": "connections",
    "downtime_actions": "next_exchange",
    "effects.check_readings": "effect_readings",
    "effects.confirmed": "scar",
    "effects": "effects",
    "exchange.check_forward": "exchange",
    "exchange_actions.put_forward": "exchange",
    "exchange_actions.answer": "answer",
    "exchange_actions.resolve": "answer",
    "exchange_actions": "exchange",
    "followup.take_on_the_chin": "chin",
    "followup": "next_exchange",
    "goal_actions._once_per_round": "one_goal",
    "goal_actions._check_chart_goal": "fly_goals",
    "goal_actions._restricted": "trained",
    "goal_actions.buy_goal": "goal_price",
    "goal_actions.give_book": "books_separate",
    "goal_actions.pair_leftovers": "leftovers",
    "goal_actions.reputation": "reputation",
    "goal_actions._player": "player_points",
    "goal_actions.murphy": "murphy",
    "goal_actions": "goal_price",
    "goals.guide_price": "scale",
    "goals.pay": "books",
    "goals.check_gift": "one_goal",
    "goals.leftover_books": "leftovers",
    "goals": "goal_price",
    "pool.check_face": "d6",
    "pool.roll_in": "roll_in",
    "pool.roll_in_all_faces": "roll_in",
    "pool.resist": "resist",
    "pool.take_from": "own_pool",
    "pool_actions._check_racks": "pool_limit",
    "pool_actions.prepare_pool": "dice_draw",
    "pool_actions.roll_pool": "dice_draw",
    "pool_actions.session_rack": "session",
    "pool_actions.resist": "pool_limit",
    "pool_actions.fly_dice": "fly_dice",
    "pool_actions.bid_initiative": "initiative",
    "pool_actions.settle_initiative": "initiative",
    "setup": "names",
    "state": "names",
    "system._check_d6": "d6",
}

ACTIONS = {
    "prepare_pool": "dice_draw",
    "roll_pool": "dice_draw",
    "resist": "resist",
    "fly_dice": "fly_dice",
    "bid_initiative": "initiative",
    "settle_initiative": "initiative",
    "put_forward": "exchange",
    "answer": "answer",
    "resolve": "answer",
    "withdraw": "exchange",
    "follow_up": "follow_up",
    "take_on_the_chin": "chin",
    "next_participant": "next_exchange",
    "set_skills": "skills",
    "new_scene": "rack",
    "new_session": "session",
    "downtime": "wounds",
    "heal": "healing",
    "train": "train",
    "connections": "connections",
}
