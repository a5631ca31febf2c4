"""The rulebook passages Venusian Vegas's refusals rest on (#35): docs/rulebooks/vegas.txt, quoted as printed.

``RULES`` names each passage once; ``DEFAULTS`` gives the key of a refusal that names none (by the
``module.function`` or the module that refuses), ``ACTIONS`` the key of an action's "not now" reasons.
"""

from __future__ import annotations

from tableside.core.rulebook_refs import book, table_choice

RULES = {
    "players": book("Venusian Vegas", "A trick-taking game for 2–5 players."),
    "goal": book("Goal", "Score the most victory points over 4 rounds (3 rounds in a 2-player game)."),
    "cards": book(
        "The cards", "65 employee cards in 5 suits — Team, Game, Inspector, Bot and Mobster — numbered 1 to 13."
    ),
    "steal": book("The cards", "Game: pay 1 VP to steal a random card / steal up to 2 VP."),
    "bot_ability": book("The cards", "Bot: take a modifier token / increase any track."),
    "tracks": book(
        "Your player board", "Five tracks, one per suit. Each starts at the bottom and rises as you increase it."
    ),
    "setup": book("Setup", "Draw 7 cards, then choose 2 different tracks to increase (3 at 5 players)."),
    "furthest_behind": book(
        "Each round",
        "Whoever is furthest behind (fewest VP plus track increases) takes a free increase and leads the round.",
    ),
    "tokens_income": book(
        "Each round", "Everyone draws up to their Team value and collects tokens up to each track's value."
    ),
    "follow": book("Playing a trick", "Follow the led suit if you can; otherwise play anything."),
    "winner": book(
        "Playing a trick",
        "The highest card of the led suit wins — unless trump has been set, in which case the highest trump wins.",
    ),
    "trick_bonus": book(
        "Playing a trick",
        "The winner then chooses one opponent's card from the trick and takes that card's trick bonus. "
        "You may decline.",
    ),
    "one_token": book("Modifier tokens", "You may play one modifier token face up along with your card."),
    "token_colour": book(
        "Modifier tokens",
        "Only one token of each color may be played per trick, so playing a token also denies it to everyone after you",
    ),
    "game_token": book("Modifier tokens", "Game — move the Trump Indicator to any suit, or to No Trump."),
    "token_kinds": book(
        "Modifier tokens",
        "Game — move the Trump Indicator to any suit, or to No Trump. Inspector — flip the Rank Indicator between "
        "High Wins and Low Wins. Bot — you also take a trick bonus from this trick, even if you did not win it. "
        "Mobster — take one card out of this trick into your hand.",
    ),
    "mobster": book("Modifier tokens", "Mobster — take one card out of this trick into your hand."),
    "round_end": book(
        "Ending a round",
        "The round ends when only one player still holds cards. That player reveals their remaining hand one card "
        "at a time and takes each card's round bonus",
    ),
    "names": table_choice(
        "Players", "The book gives the number of players, not their names: the names are the table's, told apart."
    ),
    "vp_spaces": table_choice(
        "VP spaces", '"Some spaces are VP spaces", but the book prints no list: which are is the table\'s setup.'
    ),
    "vp_below_zero": table_choice(
        "VP may go below zero", "The book does not say whether VP may go below zero: the table chooses at New game."
    ),
}

DEFAULTS = {
    "actions.random_choice": "furthest_behind",
    "actions.random_pick": "furthest_behind",
    "actions.play_card": "follow",
    "actions.claim_bonus": "trick_bonus",
    "bonuses._target": "trick_bonus",
    "bonuses.trick_bonus": "steal",
    "bonuses.round_bonus": "bot_ability",
    "hands": "cards",
    "laws": "tracks",
    "referee.winning_card": "winner",
    "referee.check_tokens": "token_kinds",
    "referee": "cards",
    "rounds.start_round": "goal",
    "rounds": "furthest_behind",
    "setup.check_options": "players",
    "setup.choose_setup_tracks": "setup",
    "setup.require_player": "names",
    "tracks": "tracks",
    "tricks.require_trick_phase": "round_end",
    "tricks._check_players": "follow",
    "tricks._check_mobster": "mobster",
    "tricks.play_trick": "follow",
    "tricks.trick_winner": "round_end",
    "tricks.mobster_take": "mobster",
    "tricks._mobster_first": "mobster",
    "tricks.claim_of": "trick_bonus",
    "tricks.claim_bonus": "trick_bonus",
    "tricks.next_trick": "trick_bonus",
    "tricks.reveal_card": "round_end",
    "tricks.play_card": "follow",
}

ACTIONS = {
    "setup_tracks": "setup",
    "start_round": "goal",
    "choose_furthest_behind": "furthest_behind",
    "free_increase": "furthest_behind",
    "play_card": "follow",
    "play_trick": "follow",
    "trick_winner": "trick_bonus",
    "enter_hand": "tokens_income",
    "claim_bonus": "trick_bonus",
    "mobster_take": "mobster",
    "decline_bonus": "trick_bonus",
    "next_trick": "trick_bonus",
    "reveal_card": "round_end",
}
