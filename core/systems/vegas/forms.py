"""Venusian Vegas's action forms: the fields each action asks, and the choices a phone offers from the state
(the cards of a trick or a hand to tap, the tokens each player holds), apart from the action types (system.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tableside.core.fields import Choice
from tableside.core.system import (
    Field,
    State,
)
from tableside.core.systems.vegas import bonuses, hands, referee, rules, tricks
from tableside.core.systems.vegas.setup import TRICKS
from tableside.core.text import N_


def _players(state: State) -> list[str]:
    return list(state.get("players", []))


def lead_rows(state: State) -> list[dict[str, str]] | None:
    """A whole trick's rows start as one per player, in lead order."""
    if state.get("phase") != TRICKS or state.get("leader") is None:
        return None
    return [{"player": p} for p in tricks.lead_order(state)]


def trick_cards(state: State) -> list[Choice]:
    """The cards of the trick waiting for its bonuses, to tap: those some open claim may take (never
    a card taken by a Mobster token, nor a lone claimer's own card)."""
    trick = state.get("trick") or {}
    return [
        Choice(
            c["card"],
            N_(
                "{player}: {card} ({offer})",
                player=c["player"],
                card=c["card"],
                offer=bonuses.offer(*referee.parse_card(c["card"])),
            ),
        )
        for c in (tricks.on_offer(trick) if trick else [])
    ]


def cards_by_claimer(state: State) -> dict[str, list[str]]:
    """Per player, the cards of the trick their bonus may come from: a claimer's opponents' cards,
    none for a player with no claim open. With two claims open (the winner and a Bot token's player)
    each phone offers only its own choices, never its own card."""
    per = tricks.claims_by_player(state.get("trick"))
    return {p: per.get(p, []) for p in _players(state)}


def takeable(state: State) -> list[Choice]:
    """The cards of the trick a Mobster token may take: any of them, its player's own too."""
    return [Choice(c["card"], f"{c['player']}: {c['card']}") for c in (state.get("trick") or {}).get("cards") or []]


def take_open(state: State, seat: str | None) -> str | None:
    """Why Take a card (Mobster) is not open now, or None: only while a Mobster token waits for its take."""
    if state["phase"] == TRICKS and (state.get("trick") or {}).get("mobster") is not None:
        return None
    return N_("no Mobster token is waiting to take a card of a trick")


def _asked_once_the_trick_is_complete(state: State) -> bool:
    """A card's form never asks what its Mobster token takes: the cards after it are not down yet. The take is
    tapped once the trick is complete (Take a card, Mobster); the field stays for a request that names it."""
    return False


def no_trick_cards(state: State) -> bool:
    """No card of the trick to tap: the claim form asks a card's suit and number instead."""
    return not trick_cards(state)


# A claim's extras, asked once a card whose bonus uses them is tapped (a form with no card of the trick
# to tap, named by suit and number, shows them all). The rules check them the same either way.
BOT_TOKEN = {"from_card": tuple(f"Bot {n}" for n in range(6, 10))}
GAME_STEAL = {"from_card": tuple(f"Game {n}" for n in range(6, 10))}


def hand_holder(state: State, action: dict[str, Any]) -> str | None:
    """A hand is its holder's: only that seat's phone (or the table) enters it."""
    return action.get("player") or None


def behind(state: State) -> list[str]:
    """The players furthest behind now: whom a tie's pick may name."""
    return list(state.get("furthest_behind") or [])


def tie_open(state: State) -> bool:
    """Who takes the free increase is still open (a tie nobody settled): once it is settled, or when
    one player alone is furthest behind, the form does not ask again."""
    return state.get("chosen") is None


def _tokens_held(state: State) -> dict[str, list[str]]:
    """The modifier tokens each player can play now: the colours they hold, less any colour already
    played in this trick (one token of each colour per trick)."""
    played = {r.get("token") for r in state.get("playing") or []}
    return {
        p: [c for c in rules.TOKEN_COLOURS if held.get(c, 0) > 0 and c not in played]
        for p, held in (state.get("tokens") or {}).items()
    }


def _playable(state: State) -> dict[str, list[str]]:
    """Per player, the cards of their entered hand they may play now (in lead order's turn or not): the hand as
    this phone sees it (only its own seat's is there, ``redact``), following the led suit when it can."""
    led = (state.get("playing") or [{}])[0].get("suit")
    out = {}
    for player, hand in (state.get("hands") or {}).items():
        if not hand:
            continue
        follow = [c for c in hand if referee.parse_card(c)[0] == led] if led else []
        out[player] = follow or list(hand)
    return out


def _hand_cards(state: State) -> list[str]:
    return sorted({c for cards in _playable(state).values() for c in cards}, key=hands.card_order)


def _no_hand_shown(state: State) -> bool:
    """A hand is offered to tap only where this phone sees one (its seat entered it): else suit and number."""
    return not _playable(state)


SUIT = Field("suit", "pick", label=N_("Suit"), choices=rules.SUITS)
NUMBER = Field("number", "count", label=N_("Number"), minimum=rules.LOWEST_CARD, maximum=rules.HIGHEST_CARD)
_TOKEN_FIELDS = (
    Field(
        "trump",
        "pick",
        label=N_("Trump to"),
        required=False,
        default="",
        choices=rules.TRUMP_CHOICES,
        help=N_("a Game token used for its ability: the suit the Trump Indicator moves to, or No Trump"),
        # asked exactly when the rules need it: a Game token not played purely to block
        shown_when={"token": ("Game",), "block": (False,)},
    ),
    Field(
        "block",
        "flag",
        label=N_("Token played only to block"),
        required=False,
        default=False,
        help=N_("the token is played purely to block; its ability is not used"),
        shown_when={"token": rules.TOKEN_COLOURS},
    ),
)
_TAKE = Field(
    "take",
    "pick",
    label=N_("Mobster takes"),
    required=False,
    default="",
    choices=tuple(referee.all_cards()),
    help=N_("the card a Mobster token takes out of the trick into the hand"),
    shown_when={"token": ("Mobster",)},
)
CARD_ROW = (
    Field("player", "seat", label=N_("Player")),
    SUIT,
    NUMBER,
    Field(
        "token",
        "pick",
        label=N_("Token"),
        required=False,
        default="",
        choices=rules.TOKEN_COLOURS,
        help=N_("a modifier token played with the card"),
        choices_by="player",
        choices_of=_tokens_held,
        sends=True,
    ),
    *_TOKEN_FIELDS,
    replace(_TAKE, applies=_asked_once_the_trick_is_complete),
)


def card_to_tap(name: str, label: str, cards: Any, per_player: Any, help: str) -> Field:
    """Cards to tap (a trick's, a hand's): asked only where there are some, each player offered its own."""
    return Field(
        name,
        "pick",
        label=label,
        required=False,
        default="",
        choices=cards,
        applies=cards,
        help=help,
        choices_by="player",
        choices_of=per_player,
    )


# One seat's card: its entered hand's cards to tap (one tap plays it), else its suit and number.
PLAY_CARD = (
    card_to_tap(
        "from_hand",
        N_("Your card"),
        _hand_cards,
        _playable,
        N_("a card of your entered hand (only the led suit's while you hold one)"),
    ),
    CARD_ROW[0],
    # Asked as required where no hand is shown (the form waits for both before its token buttons ask a trump);
    # the rules refuse a card given neither way, in words.
    replace(SUIT, required=False, default="", applies=_no_hand_shown, required_now=_no_hand_shown),
    replace(NUMBER, required=False, applies=_no_hand_shown, required_now=_no_hand_shown),
    *CARD_ROW[3:],
)
TOKEN_ROW = (
    Field("player", "seat", label=N_("Player")),
    Field(
        "token", "pick", label=N_("Token"), choices=rules.TOKEN_COLOURS, choices_by="player", choices_of=_tokens_held
    ),
    *_TOKEN_FIELDS,
    _TAKE,
)
