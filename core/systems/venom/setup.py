"""Setup: the options players confirm and the starting state of a VENOM Assault game.

The Freedom Squadron / VENOM split of the Event deck is setup data (the rulebook does not
print it): give both counts or neither. The Commander is chosen by hand here or rolled off
for once the game starts (button B).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import Choice, Field
from tableside.core.systems.venom import deck, rules
from tableside.core.systems.venom import state as state_
from tableside.core.systems.venom.state import State
from tableside.core.text import N_

NAME_LENGTH = 40  # a player's or a card's name

# A VENOM Leader card as printed: the rulebook gives no card's numbers, so the players type them at setup.
LEADER_CARD_FIELDS = (
    Field("name", "text", label=N_("Leader"), max_length=NAME_LENGTH, help=N_("the card's name")),
    Field("health", "count", label=N_("Health"), minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX, help="1-8"),
    Field("defense", "count", label=N_("Defense"), minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX, help="1-8"),
    Field(
        "support",
        "count",
        label=N_("Support Value"),
        minimum=0,
        maximum=rules.VENOM_SUPPORT_CARDS,
        help=N_("its Victory Points when captured"),
    ),
)

OPTIONS = (
    Field(
        "players",
        "texts",
        label=N_("Players"),
        required=False,
        default=["Player 1", "Player 2"],
        minimum=rules.MIN_PLAYERS,
        maximum=rules.MAX_PLAYERS,
        max_length=NAME_LENGTH,
        help=N_("2-5 player names, in clockwise seating order"),
    ),
    Field(
        "mission",
        "text",
        label=N_("Mission Card"),
        required=False,
        default=rules.SUGGESTED_MISSION,
        max_length=NAME_LENGTH,
        help=N_("the Mission Card in play; first games: {mission}", mission=rules.SUGGESTED_MISSION),
    ),
    Field(
        "venom_strikes_removed",
        "pick",
        label=N_("Difficulty"),
        required=False,
        default=0,
        choices=tuple(Choice(n, words) for n, words in rules.DIFFICULTY_NAMES.items()),
        help=N_("VENOM Strikes! cards taken out of the Event deck to slow VENOM down (0-4)"),
    ),
    Field(
        "freedom_squadron_events",
        "count",
        label=N_("Freedom Squadron Events (optional)"),
        required=False,
        minimum=0,
        maximum=rules.OTHER_EVENT_CARDS,
        help=N_("how many of the 18 Freedom Squadron / VENOM Events are Freedom Squadron; give both or neither"),
    ),
    Field(
        "venom_events",
        "count",
        label=N_("VENOM Events (optional)"),
        required=False,
        minimum=0,
        maximum=rules.OTHER_EVENT_CARDS,
        help=N_("how many of the 18 are VENOM Events; the two add up to 18"),
    ),
    Field(
        "commander",
        "text",
        label=N_("Commander (optional)"),
        required=False,
        default="",
        max_length=NAME_LENGTH,
        help=N_("a player's name if you chose the Commander by hand; empty: roll off for it (button B)"),
    ),
    Field(
        "leader_deck",
        "rows",
        label=N_("VENOM Leader cards"),
        required=False,
        default=[],
        fields=LEADER_CARD_FIELDS,
        minimum=0,
        maximum=rules.LEADER_CARDS,
        help=N_(
            "optional: the VENOM Leader Deck the Mission Card makes, each card as printed; a card is "
            "then chosen to attack with a tap, and a tap on its Zone"
        ),
    ),
)


def check_options(options: dict[str, Any]) -> None:
    """Beyond the fields: names present and distinct, the FS/VENOM split adds up, commander known."""
    names = options["players"]
    if any(not n for n in names):
        raise RuleError(N_("options: every player needs a name"))
    folded = [n.casefold() for n in names]
    dupes = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
    if dupes:
        raise RuleError(N_("options: player names must differ, {name} appears twice", name=repr(dupes[0])))
    fs, vn = options["freedom_squadron_events"], options["venom_events"]
    if (fs is None) != (vn is None):
        raise RuleError(N_("options: give both Freedom Squadron Events and VENOM Events, or neither"), rule="event_mix")
    deck.build_event_deck(len(names), options["venom_strikes_removed"], fs, vn)
    if options["commander"] and options["commander"].casefold() not in folded:
        raise RuleError(
            N_("options: commander {commander} is not one of the players", commander=repr(options["commander"])),
            rule="commander",
        )
    deck_names = [card["name"].casefold() for card in options.get("leader_deck") or []]
    if any(not n for n in deck_names):
        raise RuleError(N_("options: every VENOM Leader card in the deck needs its name"), rule="leader_cards")
    twice = sorted({c["name"] for c in options["leader_deck"] if deck_names.count(c["name"].casefold()) > 1})
    if twice:
        raise RuleError(
            N_(
                "options: the VENOM Leader Deck lists {name} twice; Leaders are told apart by name", name=repr(twice[0])
            ),
            rule="leader_cards",
        )
    if not options["mission"]:
        raise RuleError(
            N_("options: mission must not be empty (first games: {mission})", mission=repr(rules.SUGGESTED_MISSION)),
            rule="mission",
        )


def initial_state(options: Mapping[str, Any]) -> State:
    """The state before the first action: the Event deck built, Setup, or Round 1 with a chosen Commander."""
    names: list[str] = options["players"]
    event_deck = deck.build_event_deck(
        len(names), options["venom_strikes_removed"], options["freedom_squadron_events"], options["venom_events"]
    )
    state: State = {
        "mission": options["mission"],
        "players": [{"name": n, "leaders": [], "rewards": []} for n in names],
        "commander": None,
        "roll_off": {"contenders": list(range(len(names))), "rounds": []},
        "round": 0,
        "turn": 0,
        "active_player": None,
        "phase": rules.SETUP,
        "event_track": rules.EVENT_TRACK_START,
        "event_deck": event_deck,
        "event_deck_start": dict(event_deck),
        "event_drawn_this_phase": False,
        "active_events": [],
        "event_discard": [],
        "leader": None,
        "leaders_met": [],
        "leader_deck": [dict(card) for card in options.get("leader_deck") or []],
        "health_track": rules.TRACK_START,
        "defense_track": rules.TRACK_START,
        "combat": state_.new_combat(),
        "game_over": None,
    }
    if options["commander"]:
        state_.start_game(state, state_.player_index(state, options["commander"]))
    return state_.derive(state)
