"""The rulebook passages Venus Needs Men's refusals rest on (#35): docs/rulebooks/vnm.txt, quoted as printed.

``RULES`` names each passage once; ``DEFAULTS`` gives the key of a refusal that names none (by the
``module.function`` or the module that refuses), ``ACTIONS`` the key of an action's "not now" reasons
and ``FIELDS`` that of its fields' choices and ranges, where another passage.
"""

from __future__ import annotations

from tableside.core.rulebook_refs import book, table_choice

RULES = {
    "win": book(
        "Overview",
        "The first player to collect a plurality of Earth's total population (101) wins the game immediately.",
    ),
    "one_action": book(
        "Turns",
        "You can never combine actions. If you decide to move, all your spaceships must move (or do nothing) — "
        "you can't have some spaceships move while others attack or collect population.",
    ),
    "turn_order": book(
        "Turns",
        "Pluto takes the first turn, or else the first player clockwise from Pluto if no one is playing Pluto.",
    ),
    "hand": book(
        "Parts of the Game", "You can keep three Zap cards in your hand; each is played once and then discarded."
    ),
    "deck": book("Turns", "If you run out of cards, you don't get to draw any more, so use them wisely!"),
    "fleet": book(
        "Parts of the Game",
        "Each set has five spaceships, except Earth, which has four, and Ganymede, which has six.",
    ),
    "build": book(
        "Build Action",
        "If all of your spaceships are already on the board, you can't build any more, "
        "until some of them are destroyed.",
    ),
    "build_where": book(
        "Build Action",
        "Put a new spaceship of your color on your home world. If you are the Earth player, put it in any populated "
        "area except the Secret Underground Refuge.",
    ),
    "build_count": book(
        "Build Action",
        "In the Enhanced Game, you can normally only build one spaceship per action, but some Technology and Special "
        "cards let you build two.",
    ),
    "move": book("Move Action", "Each of your spaceships can move one area."),
    "refuge": book("Move Action", "No spaceships can move to the Secret Underground Refuge."),
    "earth_areas": book(
        "Parts of the Game",
        "13 Earth areas, including 8 land areas (green background) and 5 ocean areas (blue background).",
    ),
    "attack": book("Attack Action", 'Each of your spaceships can attack one enemy spaceship (a "target").'),
    "declare": book(
        "Attack Action", "You must declare which enemy spaceship you are attacking before you roll the dice."
    ),
    "weapon": book(
        "Attack Action",
        "The Enhanced Game is similar, but instead of always rolling two dice, roll the number of dice listed on your "
        "Weapon Technology card.",
    ),
    "team": book(
        "Two-Player Rules",
        "If you have only two players, each player should choose two planets (other than Earth) "
        "and play them as a team.",
    ),
    "collect": book(
        "Population Action",
        "Each of your spaceships can collect one population unit from the area it is in and send it back to your home "
        "world (or to the Secret Underground Refuge, if you are the Earth player).",
    ),
    "infected": book(
        "Population Action",
        "Infected population (described on Titan's Special card) may be collected by other players, or destroyed by "
        "Pluto, while it is still on Earth.",
    ),
    "research": book(
        "Research Action",
        "Then choose an Upgrade card and roll one die. If your roll is greater than or equal to the number indicated "
        "on the Upgrade card, you acquire the Upgrade.",
    ),
    "no_duplicate": book(
        "Research Action",
        "You may not attempt to acquire an upgrade which duplicates or is obsoleted by a card you already have.",
    ),
    "enhanced_only": book(
        "Technology & Special Cards", "Technology and Special cards are used only in the Enhanced Game."
    ),
    "tech_cards": book(
        "Parts of the Game",
        "Each player starts with three Tech cards: Weapon, Defense, and Movement. They are always in effect and last "
        "the entire game.",
    ),
    "qray": book(
        "Q-Ray (Venus, Technology — Weapon)",
        "When you perform an attack action, roll one die for each of your attacking spaceships:",
    ),
    "gatling": book(
        "Gatling Lasers (Technology Upgrade)",
        "If you already have the Q-Ray (Venus), each spaceship may choose whether to use the Q-Ray "
        "or the Gatling Lasers",
    ),
    "zap": book(
        "Zap Cards", "You can play a Zap card at any time, even if it is not your turn, unless the card says otherwise."
    ),
    "discard": book(
        "Zap Cards",
        "When you play a Zap card, follow the instructions on the card, and then put it on your discard pile face up.",
    ),
    "extend": book(
        "Zap Cards",
        "Instead of playing a Zap card normally, you can use it to extend your action. Discard up to three Zap cards.",
    ),
    "receive": book(
        "Zap Cards",
        "Certain Zap cards (Natural Disaster, Alien Plague) cause each player to receive population, which may result "
        "in two or more players obtaining enough population to win at the same time.",
    ),
    "extend_no_tech": book(
        "Zap Cards",
        "In the Enhanced Game, when you discard a Zap card to extend your action, Technology and Special cards do not "
        "apply.",
    ),
    "home_world": book(
        "Setup",
        "Choose a home world (one of the five alien planets or Earth), either randomly or according to your "
        "preference. Any combination of planets is allowed, with or without Earth.",
    ),
    "population": book(
        "Setup",
        "Put population chips on the eight land areas on Earth, as marked on each area — 27 units in China, 21 in "
        "India, 16 in Europe, and so on.",
    ),
    "game_length": book("Game Length", "For a shorter game, use less population; for a longer game, use more."),
    "land_areas": table_choice(
        "Earth's total population / Land areas",
        "The Game Length table stops after North America: the other land areas' population is the table's setup.",
    ),
    "names": table_choice(
        "Players",
        "The book names home worlds, not players: the players' names are the table's, told apart at New game.",
    ),
    "chips": book("Parts of the Game", "Population: The plastic chips represent Earth's population."),
    "mind_control": book(
        "Mind Control (Mars, Special)",
        "When you perform an attack action, each of your spaceships may either attack using your Weapon Technology "
        "or use mind control to take over one target spaceship in the same area.",
    ),
    "mind_own_cards": book(
        "Mind Control (Mars, Special)",
        "However, the controlled spaceship uses its own Movement, Weapon, and Defense Tech cards, not yours.",
    ),
    "mind_release": book(
        "Mind Control (Mars, Special)",
        "Each of your spaceships may only control one other spaceship at a time.",
    ),
}

DEFAULTS = {
    "mind.check_take_over": "mind_release",
    "mind.end_of_turn": "mind_release",
    "mind.release_ship": "mind_release",
    "mind.attacking_ship": "mind_own_cards",
    "mind": "mind_control",
    "fleet.build": "build_count",
    "fleet._build_area": "build_where",
    "fleet.destroy_ship": "fleet",
    "fleet.attack_plan": "attack",
    "fleet.check_weapon": "gatling",
    "cardvalues.enter_card_values": "weapon",
    "cardvalues._enter": "tech_cards",
    "fleet._enhanced_weapon": "weapon",
    "fleet._plan_for": "extend_no_tech",
    "fleet": "attack",
    "laws.correct": "chips",
    "population": "collect",
    "research.check_attemptable": "no_duplicate",
    "research.set_tech": "tech_cards",
    "research": "research",
    "setup._older_shapes": "home_world",
    "setup.resolve_players": "home_world",
    "setup.resolve_first_player": "turn_order",
    "setup.resolve_land_areas": "land_areas",
    "setup._given_area": "refuge",
    "setup.resolve_tech": "tech_cards",
    "setup": "home_world",
    "state.world_in_game": "home_world",
    "state.land_area": "earth_areas",
    "system.validate_action": "declare",
    "zap.play_zap": "hand",
    "zap.draw_zap": "hand",
    "zap.extend": "extend",
    "zap": "zap",
}

ACTIONS = {
    "release_ship": "mind_release",
    "build": "one_action",
    "move": "one_action",
    "declare_target": "declare",
    "attack": "one_action",
    "follow_up_roll": "qray",
    "collect": "one_action",
    "infect": "infected",
    "destroy_population": "infected",
    "receive_population": "receive",
    "choose_upgrade": "one_action",
    "research": "research",
    "set_tech": "enhanced_only",
    "extend": "extend",
    "play_zap": "zap",
    "draw_zap": "hand",
    "end_turn": "turn_order",
    "destroy_ship": "fleet",
}

FIELDS = {  # where a field's choices or range rest on the action's own passage, not on when it may be taken
    "build": "build_where",
    "move": "move",
    "declare_target": "attack",
    "attack": "attack",
    "collect": "collect",
    "choose_upgrade": "research",
}
