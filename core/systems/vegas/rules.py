"""Venusian Vegas: the numbers and names the rulebook prints (docs/rulebooks/vegas.txt).

Everything here is transcribed from the rulebook. What it leaves open (which
spaces are VP spaces, whether VP may go below zero) is setup data the players
confirm (see setup.py and docs/systems/vegas.md), never a constant here.
"""

from __future__ import annotations

from tableside.core.text import N_

# "A trick-taking game for 2-5 players."
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Goal: "Score the most victory points over 4 rounds (3 rounds in a 2-player game)."
ROUNDS = 4
ROUNDS_TWO_PLAYERS = 3

# The cards: "65 employee cards in 5 suits - Team, Game, Inspector, Bot and Mobster -
# numbered 1 to 13."
SUITS: tuple[str, ...] = ("Team", "Game", "Inspector", "Bot", "Mobster")
LOWEST_CARD, HIGHEST_CARD = 1, 13
CARDS = len(SUITS) * HIGHEST_CARD  # 65

# Your player board: "Five tracks, one per suit. Each starts at the bottom and rises as you
# increase it." The value printed on each of the five levels (level 1 = the bottom).
TRACKS: tuple[str, ...] = SUITS
TRACK_VALUES: dict[str, tuple[int, ...]] = {
    "Team": (7, 9, 11, 12, 13),  # cards dealt to you each round
    "Game": (0, 1, 2, 2, 3),  # Game tokens each round
    "Inspector": (0, 1, 2, 2, 3),  # Inspector tokens each round
    "Bot": (0, 1, 2, 3, 4),  # Bot tokens each round
    "Mobster": (0, 1, 2, 3, 4),  # Mobster tokens each round
}
BOTTOM_LEVEL, TOP_LEVEL = 1, 5
# "Once a track is at its top, every further increase to it scores 1 VP instead."
VP_PER_INCREASE_AT_TOP = 1
# "Some spaces are VP spaces - reaching one scores 1 VP immediately."
VP_PER_VP_SPACE = 1

# Modifier tokens: one colour for each track but Team (Team's value is a hand size).
TOKEN_COLOURS: tuple[str, ...] = ("Game", "Inspector", "Bot", "Mobster")

# Setup: "Draw 7 cards, then choose 2 different tracks to increase (3 at 5 players)."
SETUP_HAND = 7
SETUP_INCREASES = 2
SETUP_INCREASES_FIVE_PLAYERS = 3

# Indicators. "The Trump Indicator resets to No Trump; the Rank Indicator resets to High Wins."
NO_TRUMP = "No Trump"
TRUMP_CHOICES: tuple[str, ...] = (NO_TRUMP, *SUITS)
HIGH_WINS, LOW_WINS = "High Wins", "Low Wins"
RANKS: tuple[str, ...] = (HIGH_WINS, LOW_WINS)

# "What a card offers depends on its number" (trick bonus / round bonus).
LOW_NUMBERS = range(1, 6)  # 1-5: gain 2 VP / gain 1 VP
MIDDLE_NUMBERS = range(6, 10)  # 6-9: the suit's special ability / the suit's stronger ability
HIGH_NUMBERS = range(10, 14)  # 10-13: increase that suit's track / increase it twice
TRICK_LOW_VP = 2
ROUND_LOW_VP = 1
# Ending a round: the revealer "takes each card's round bonus - the larger of the two bonuses printed
# on it". For 6-9 and 10-13 the round bonus is the larger one; for 1-5 it is not (gain 1 VP against the
# trick bonus's 2 VP), so what a revealed 1-5 scores is setup data the players confirm.
REVEAL_ROUND_BONUS = "round bonus"  # the round column as printed: a revealed 1-5 gains 1 VP
REVEAL_LARGER_BONUS = "larger bonus"  # the larger of the two printed: a revealed 1-5 gains 2 VP
REVEAL_READINGS: tuple[str, ...] = (REVEAL_ROUND_BONUS, REVEAL_LARGER_BONUS)


def reveal_low_vp(reading: str) -> int:
    """VP a revealed 1-5 card gains under the reading the players chose at setup."""
    return TRICK_LOW_VP if reading == REVEAL_LARGER_BONUS else ROUND_LOW_VP


TRICK_HIGH_INCREASES = 1
ROUND_HIGH_INCREASES = 2

# The 6-9 abilities, as printed: (trick bonus, round bonus).
ABILITIES: dict[str, tuple[str, str]] = {
    "Team": (N_("draw a card"), N_("draw 2 and take their round bonuses")),
    "Game": (N_("pay 1 VP to steal a random card"), N_("steal up to 2 VP")),
    "Inspector": (N_("opponents discard 1"), N_("opponents lose 2 VP")),
    "Bot": (N_("take a modifier token"), N_("increase any track")),
    "Mobster": (N_("opponents lose 1 VP"), N_("gain 3 VP")),
}
TEAM_TRICK_DRAW = 1
TEAM_ROUND_DRAW = 2
GAME_STEAL_PRICE = 1
GAME_ROUND_STEAL = 2
INSPECTOR_TRICK_DISCARD = 1
INSPECTOR_ROUND_LOSS = 2
BOT_TRICK_TOKENS = 1
MOBSTER_TRICK_LOSS = 1
MOBSTER_ROUND_GAIN = 3


def rounds_for(players: int) -> int:
    """4 rounds, or 3 in a 2-player game."""
    return ROUNDS_TWO_PLAYERS if players == 2 else ROUNDS


def setup_increases(players: int) -> int:
    """Tracks each player increases at setup: 2, or 3 at 5 players."""
    return SETUP_INCREASES_FIVE_PLAYERS if players == 5 else SETUP_INCREASES


def track_value(track: str, level: int) -> int:
    """The value printed on ``track`` at ``level`` (1-5)."""
    return TRACK_VALUES[track][level - 1]


def card_name(suit: str, number: int) -> str:
    return f"{suit} {number}"


def a_token(colour: str) -> str:
    """A token as said at the table: "a Game token", "an Inspector token" (never "a Inspector token")."""
    return f"{'an' if colour[:1] in 'AEIOU' else 'a'} {colour} token"


def spoken(names: list[str], last: str = "and") -> str:
    """Names as said at the table: "Ann", "Ann and Bob", "Ann, Bob and Cy" (never "Ann and Bob and Cy")."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"
