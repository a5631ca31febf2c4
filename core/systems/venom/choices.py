"""The fields of VENOM Assault's actions and the choices they offer, taken from the state (the phone draws them)."""

from __future__ import annotations

from typing import Any

from tableside.core.system import (
    Choice,
    Field,
)
from tableside.core.systems.venom import combat, rules, setup, state
from tableside.core.systems.venom import combat_actions as fight
from tableside.core.systems.venom.state import State
from tableside.core.text import N_

# --- choices taken from the state -----------------------------------------------------------


def player_choices(s: State) -> list[Choice]:
    return [Choice(n, n) for n in state.player_names(s)]


def event_kinds(s: State) -> list[Choice]:
    """The kinds of card in this game's Event deck, in words with the count left (0 left stays listed,
    so drawing it is refused by the rules with the reason, not by the form)."""
    cards = s.get("event_deck") or {}
    out = []
    for kind in rules.EVENT_KINDS:
        bucket = (
            kind
            if kind in cards
            else (
                rules.FS_OR_VENOM
                if rules.FS_OR_VENOM in cards and kind in (rules.FREEDOM_SQUADRON, rules.VENOM)
                else None
            )
        )
        if bucket is None:
            continue
        other = {rules.FREEDOM_SQUADRON: " with VENOM", rules.VENOM: " with Freedom Squadron"}
        shared = other[kind] if bucket == rules.FS_OR_VENOM else ""  # one count for both kinds
        out.append(
            Choice(
                kind,
                N_("{event} ({cards} left{shared})", event=rules.EVENT_NAMES[kind], cards=cards[bucket], shared=shared),
            )
        )
    return out


ZONES = tuple(Choice(zone, N_("{zone} ({kind})", zone=zone, kind=kind)) for zone, kind in rules.ZONES.items())
LEADER_CARD = (
    Field(
        "name",
        "text",
        label=fight.LEADER_LABELS["name"],
        max_length=setup.NAME_LENGTH,
        help=N_("the VENOM Leader card's name"),
    ),
    Field(
        "zone",
        "pick",
        label=fight.LEADER_LABELS["zone"],
        choices=ZONES,
        help=N_("where the Leader stands on the board"),
    ),
    Field(
        "health",
        "count",
        label=fight.LEADER_LABELS["health"],
        minimum=rules.TRACK_MIN,
        maximum=rules.TRACK_MAX,
        help=N_("the card's Health Value, 1-8"),
    ),
    Field(
        "defense",
        "count",
        label=fight.LEADER_LABELS["defense"],
        minimum=rules.TRACK_MIN,
        maximum=rules.TRACK_MAX,
        help=N_("the card's Defense Value, 1-8"),
    ),
    Field(
        "support",
        "count",
        label=fight.LEADER_LABELS["support"],
        minimum=0,
        maximum=rules.VENOM_SUPPORT_CARDS,
        help=N_("VENOM Support it commands; its Victory Points when captured"),
    ),
)


def board_open(st: State, seat: str | None = None) -> str | None:
    """Leader cards may be entered at any time until the game is over (setup, or replenishing)."""
    return N_("the game is over") if st["phase"] == rules.GAME_OVER else None


def leaders_on_board(st: State) -> list[Choice]:
    """Leader cards entered before and still on the board, to tap (their values are taken)."""
    return [
        Choice(
            zone,
            N_(
                "{card} ({zone}): Health {health}, Defense {defense}, Support {support}",
                card=c["name"],
                zone=zone,
                health=c["health"],
                defense=c["defense"],
                support=c["support"],
            ),
        )
        for zone, c in fight.on_board(st).items()
    ]


def leaders_in_deck(st: State) -> list[Choice]:
    """Leader cards of the deck given at setup that Tableside has not seen on the board yet, to tap."""
    return [
        Choice(
            c["name"],
            N_(
                "{card}: Health {health}, Defense {defense}, Support {support}",
                card=c["name"],
                health=c["health"],
                defense=c["defense"],
                support=c["support"],
            ),
        )
        for c in fight.in_deck(st)
    ]


def no_card_to_tap(st: State) -> bool:
    """No Leader on the board nor card of the deck to tap: the Leader card's values are the only way to give it."""
    return not fight.on_board(st) and not fight.in_deck(st)


def no_deck_card(st: State) -> bool:
    return not fight.in_deck(st)


DECK_CARD = Field(
    "card",
    "pick",
    label=N_("Leader card from the deck"),
    required=False,
    default="",
    choices=leaders_in_deck,
    applies=leaders_in_deck,
    help=N_("a card of the VENOM Leader Deck given at setup: its values are taken; then tap its Zone"),
)
TRACKS = (Choice("health", N_("Health")), Choice("defense", N_("Defense")))
WINNERS = tuple(Choice(w, words) for w, words in rules.WINNER_NAMES.items())


def die_words(n: int, die: dict[str, Any], defense: int) -> str:
    hit = "hit" if die["auto"] or die["value"] >= defense else "miss"
    auto = ", Automatic Success" if die["auto"] else ""
    return N_("Die {n}: {value} ({hit}{auto})", n=n, value=die["value"], hit=hit, auto=auto)


def only_abilities_reach(s: State) -> bool:
    """The combat roll asks whether an Ability can still reach the Defense only when no face can."""
    return combat.only_abilities_reach(s.get("defense_track") or rules.TRACK_MIN)


def dice_choices(s: State) -> list[Choice]:
    """The dice of this Turn's Combat roll, numbered as rolled."""
    fight_now = s.get("combat") or {}
    return [Choice(n, die_words(n, d, s["defense_track"])) for n, d in enumerate(fight_now.get("dice") or [], 1)]


def dice_not_auto(s: State) -> list[Choice]:
    fight_now = s.get("combat") or {}
    return [c for c, d in zip(dice_choices(s), fight_now.get("dice") or [], strict=True) if not d["auto"]]


def leader_choices(s: State) -> list[Choice]:
    """Leaders Tableside has seen this game and nobody has captured; the Leader in play first."""
    if not s.get("players"):
        return []
    in_play = (s.get("leader") or {}).get("name")
    met = sorted(s.get("leaders_met") or [], key=lambda m: m["name"] != in_play)
    return [
        Choice(m["name"], m["name"] + (" (in play)" if m["name"] == in_play else f" ({m['zone']})"))
        for m in met
        if state.captured_by(s, m["name"]) is None
    ]


PLAYER = Field(
    "player",
    "pick",
    label=N_("Player"),
    required=False,
    choices=player_choices,
    help=N_("empty: the player whose Turn it is"),
)
DIE_NUMBERS = Field(
    "dice",
    "picks",
    label=N_("Dice"),
    choices=dice_choices,
    minimum=1,
    maximum=fight.MAX_DICE,
    help=N_("die numbers as shown, 1 = the first die rolled"),
)

SETUP, EVENT, TURN, TACTICAL, COMBAT, SCORE, DICE = (
    N_("Setup"),
    N_("Event Phase"),
    N_("Turn"),
    N_("Tactical Phase"),
    N_("Combat Phase"),
    N_("Victory Points"),
    N_("Dice"),
)
