"""The trick referee: which card wins, and the modifier tokens played into a trick.

Pure functions over plain data. A card is ``(suit, number)``; a trick is its cards
in playing order, the first card's suit being the led suit. The rulebook: "The
highest card of the led suit wins - unless trump has been set, in which case the
highest trump wins. If the Rank Indicator has been flipped to Low Wins, the lowest
card wins instead." Low Wins applies to trumps too ("the lowest card wins").
Tokens change the indicators "immediately", so the trick is judged under the
indicators as they stand once every card is in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rules
from tableside.core.text import N_

Card = tuple[str, int]


def check_card(suit: Any, number: Any, where: str = "card") -> Card:
    """The card, or RuleError naming why no such card exists (the deck is 5 suits x 1-13)."""
    if suit not in rules.SUITS:
        raise RuleError(
            N_(
                "{where}: {suit} is not a suit; the suits are {suits}",
                where=where,
                suit=repr(suit),
                suits=", ".join(rules.SUITS),
            )
        )
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or not (rules.LOWEST_CARD <= number <= rules.HIGHEST_CARD)
    ):
        raise RuleError(
            N_(
                "{where}: there is no {suit} {number}; cards are numbered {lowest_card}-{highest_card}",
                where=where,
                suit=suit,
                number=number,
                lowest_card=rules.LOWEST_CARD,
                highest_card=rules.HIGHEST_CARD,
            )
        )
    return suit, number


def parse_card(text: Any, where: str = "card") -> Card:
    """ "Game 7" -> ("Game", 7). Two words, the second a number in decimal digits ("Game ²" is no card)."""
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or not words[1].isdecimal():
        raise RuleError(
            N_("{where}: {text} is not a card; write the suit and number, e.g. 'Game 7'", where=where, text=repr(text))
        )
    return check_card(words[0], int(words[1]), where)


def all_cards() -> list[str]:
    """The 65 card names, suit by suit."""
    return [rules.card_name(s, n) for s in rules.SUITS for n in range(rules.LOWEST_CARD, rules.HIGHEST_CARD + 1)]


def winning_card(cards: Sequence[Card], trump: str, rank: str) -> int:
    """Index of the card that wins the trick under these indicators."""
    if not cards:
        raise RuleError(N_("a trick needs at least one card"))
    led = cards[0][0]
    trumps = [i for i, (suit, _) in enumerate(cards) if trump != rules.NO_TRUMP and suit == trump]
    contenders = trumps or [i for i, (suit, _) in enumerate(cards) if suit == led]
    pick = min if rank == rules.LOW_WINS else max
    return pick(contenders, key=lambda i: cards[i][1])


def why(cards: Sequence[Card], trump: str, rank: str) -> str:
    """Words for why the winning card wins: "highest trump (Bot)", "lowest of the led suit (Game)"."""
    word = "lowest" if rank == rules.LOW_WINS else "highest"
    if trump != rules.NO_TRUMP and any(suit == trump for suit, _ in cards):
        return f"{word} trump ({trump})"
    return f"{word} of the led suit ({cards[0][0]})"


def check_tokens(state: dict[str, Any], plays: Sequence[dict[str, Any]], *, one_per_player: bool = True) -> None:
    """One token per player and one of each colour per trick, held by the player who plays it, used as allowed.

    ``plays``: ``{"player", "colour", "trump", "block"}`` in playing order. A Game token
    used (not played purely to block) names the suit the Trump Indicator moves to, or No Trump.
    ``one_per_player`` False only replays a log recorded before that check.
    """
    first: dict[str, str] = {}
    played: dict[str, str] = {}
    for play in plays:
        player, colour = play["player"], play["colour"]
        if colour not in rules.TOKEN_COLOURS:
            raise RuleError(
                N_(
                    "{colour} is not a modifier token; they are {token_colours}",
                    colour=repr(colour),
                    token_colours=", ".join(rules.TOKEN_COLOURS),
                )
            )
        if one_per_player and player in played:
            raise RuleError(
                N_(
                    "You may play one modifier token face up along with your card: {player} already played the "
                    "{played} token in this trick, so cannot also play the {colour} token",
                    player=player,
                    played=played[player],
                    colour=colour,
                ),
                rule="one_token",
            )
        played[player] = colour
        if colour in first:
            raise RuleError(
                N_(
                    "only one token of each colour may be played per trick: {first} already played the {colour} "
                    "token, so {player} cannot play another",
                    first=first[colour],
                    colour=colour,
                    player=player,
                ),
                rule="token_colour",
            )
        first[colour] = player
        if state["tokens"][player][colour] < 1:
            raise RuleError(N_("{player} holds no {colour} token", player=player, colour=colour), rule="tokens_income")
        trump = play.get("trump") or ""
        if colour == "Game" and not play.get("block") and trump not in rules.TRUMP_CHOICES:
            raise RuleError(
                N_(
                    "{player}'s Game token moves the Trump Indicator: say to which suit or No Trump (or play it to "
                    "block)",
                    player=player,
                ),
                rule="game_token",
            )
        if trump and (colour != "Game" or play.get("block")):
            raise RuleError(
                N_("{player}: only a Game token used for its ability moves the Trump Indicator", player=player),
                rule="game_token",
            )


def apply_tokens(state: dict[str, Any], plays: Sequence[dict[str, Any]]) -> list[str]:
    """Spend the tokens and move the indicators at once; returns what changed, in words."""
    notes: list[str] = []
    for play in plays:
        player, colour = play["player"], play["colour"]
        state["tokens"][player][colour] -= 1
        if play.get("block"):
            notes.append(f"{player} plays {rules.a_token(colour)} to block")
        elif colour == "Game":
            state["trump"] = play["trump"]
            notes.append(f"{player}'s Game token: Trump {play['trump']}")
        elif colour == "Inspector":
            state["rank"] = rules.LOW_WINS if state["rank"] == rules.HIGH_WINS else rules.HIGH_WINS
            notes.append(f"{player}'s Inspector token: {state['rank']}")
        else:
            notes.append(f"{player} plays {rules.a_token(colour)}")
    return notes
