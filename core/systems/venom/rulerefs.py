"""The rulebook passages VENOM Assault's refusals rest on (#35): docs/rulebooks/venom.txt, quoted as printed.

``RULES`` names each passage once; ``DEFAULTS`` gives the key of a refusal that names none (by the
``module.function`` or the module that refuses), ``ACTIONS`` the key of an action's "not now" reasons.
"""

from __future__ import annotations

from tableside.core.rulebook_refs import book, table_choice

RULES = {
    "players": book("Difficulty", "In a game of 2-3 players, utilize the full Event Deck."),
    "strikes_removed": book(
        "Difficulty",
        'if the game is proving difficult, you may remove up to 4 of these "VENOM Strikes!" cards to slow '
        "VENOM's progression.",
    ),
    "event_mix": table_choice(
        "Freedom Squadron Events (optional) / VENOM Events (optional)",
        "The book counts the Event Deck but not how many of its other Events are Freedom Squadron's or VENOM's: "
        "the table gives both numbers, or neither.",
    ),
    "names": table_choice(
        "Players", "The book counts players, not their names: the names are the table's, told apart at New game."
    ),
    "leader_cards": table_choice(
        "VENOM Leader cards",
        "The book prints no list of VENOM Leader cards: the deck's cards are typed in at New game, told apart by name.",
    ),
    "mission": book("Scenario Selection", 'It is recommended that first-time players choose "World in Darkness".'),
    "commander": book(
        "Commander Token",
        "All players roll one die. The individual who rolls the highest is the Commander and will be the first "
        "player to take a Turn.",
    ),
    "card_precedence": book(
        "Card Abilities and Effects",
        "Many cards will alter the basic rules as stated in the rule book. When a card states something that clashes "
        "with the rules, the card's text will take precedence.",
    ),
    "phases": book("Turn Order", "Every player's Turn is divided into phases, which occur in the following order:"),
    "event_phase": book(
        "Event Phase",
        "Only the Commander begins their Turn with the Event Phase, all other players skip this phase and begin with "
        "the Recruitment Phase.",
    ),
    "event_draw": book("Event Phase", "Draw the top card from the Event Deck and resolve its text immediately."),
    "place_leaders": book(
        "Deck Shuffling and Placement",
        "Then place one VENOM Leader from the deck face up on each of the seven Zones of the board, on top of the "
        "previously placed Reward Cards.",
    ),
    "choose_leader": book("Tactical Phase", "Begin by deciding which VENOM Leader you'd like to attack."),
    "tracks_set": book(
        "Tactical Phase",
        "Move the Health and Defense Markers on their respective tracks to their appropriate positions, matching the "
        "Health and Defense on the chosen Leader's card.",
    ),
    "track_limits": book(
        "Tactical Phase",
        "The VENOM Leader's Health or Defense Track can never be increased beyond the highest value of their "
        "respective track, nor can it be decreased lower than the track allows.",
    ),
    "combat_dice": book("Tactical Phase", "Place Combat Dice equal to your Combat Leader's Combat Value on the card."),
    "more_dice": book(
        "Tactical Phase",
        "You may generate more dice than the game has included. If you do, either locate additional dice, or simply "
        "re-roll the needed dice after the first initial roll and add their successes.",
    ),
    "abort": book(
        "Combat Phase",
        "If the number of Combat Dice you have is less than the VENOM Leader's Health Track position, or you are "
        "unable to gain successes against the Defense Track due to too high a Defense Value, the Combat is aborted.",
    ),
    "modify": book(
        "Combat Phase", "Cards on both sides may modify the Combat Dice. Check all cards in the following order:"
    ),
    "rolled_value": book(
        "Combat Phase",
        "If a Combat Die's Rolled Value is adjusted by any Ability, the die should be rotated to display the new "
        "value.",
    ),
    "captured": book(
        "Combat Phase", "Place the VENOM Leader Card and the Reward Card underneath it in your Victory Point pile."
    ),
    "reward_vp": book("Combat Phase", "A Reward Card's Victory Point Value is displayed on the bottom of the card."),
    "support_vp": book(
        "Combat Phase", "Captured VENOM Leader's VENOM Support Value is considered their Victory Point Value."
    ),
    "game_end": book(
        "Winning the Game",
        "The game ends when the players collectively complete Freedom Squadron's Victory Conditions, as listed on the "
        "Mission Card, and thwart VENOM, or when VENOM succeeds in their nefarious plans.",
    ),
    "auto_success": book(
        "Glossary of Terms",
        "Automatic Success: Some Abilities can declare Combat Dice as Automatic Successes. Any Automatic Successes "
        "are chosen by the player after Combat Dice are rolled, but before any card's Abilities take place.",
    ),
    "zone_type": book(
        "Glossary of Terms", "These seven Zones each have a Zone type, such as Land, Air, Arctic, or Sea."
    ),
    "recruit": book(
        "Recruitment Phase",
        "You may recruit any number of cards from the Training Ground that have a total Cost equal to or less than "
        "your total Recruitment Points.",
    ),
    "refill_training_ground": book(
        "End of Turn Phase", "Refill the Training Ground to five cards by drawing from the Recruitment Deck."
    ),
}

DEFAULTS = {
    "recruitment.recruit": "recruit",
    "recruitment": "refill_training_ground",
    "combat_actions.place_leader": "place_leaders",
    "combat_actions.choose_leader": "choose_leader",
    "combat_actions.adjust_track": "track_limits",
    "combat_actions.allocate_dice": "more_dice",
    "combat_actions.adjust_dice": "combat_dice",
    "combat_actions.combat_roll": "abort",
    "combat_actions.combat_fails": "card_precedence",
    "combat_actions.modify_die": "rolled_value",
    "combat_actions.automatic_success": "auto_success",
    "combat_actions.reroll_dice": "modify",
    "combat_actions": "modify",
    "deck.build_event_deck": "players",
    "deck.bucket_for": "event_mix",
    "deck": "event_draw",
    "setup": "names",
    "state": "names",
    "turn_actions.add_reward": "reward_vp",
    "turn_actions.record_capture": "captured",
    "turn_actions": "phases",
}

ACTIONS = {
    "commander_roll_off": "commander",
    "set_commander": "commander",
    "draw_event": "event_phase",
    "next_phase": "phases",
    "place_leader": "place_leaders",
    "choose_leader": "choose_leader",
    "adjust_track": "track_limits",
    "allocate_dice": "combat_dice",
    "adjust_dice": "combat_dice",
    "combat_roll": "abort",
    "combat_fails": "card_precedence",
    "automatic_success": "auto_success",
    "modify_die": "rolled_value",
    "reroll_dice": "modify",
    "add_reward": "game_end",
    "record_capture": "game_end",
    "game_over": "game_end",
    "recruit": "recruit",
    "refill_training_ground": "refill_training_ground",
}
