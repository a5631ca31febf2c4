"""The ``vegas`` game system: options, action types, prompts, laws, corrections, buttons, screen.

See docs/systems/vegas.md for every action with an example request.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tableside.core.system import (
    UNDO_REDO,
    ActionSpec,
    Binding,
    Field,
    GameSystem,
    Seat,
    State,
    in_phase,
)
from tableside.core.systems.vegas import actions, hands, laws, referee, rules, setup
from tableside.core.systems.vegas.forms import (
    BOT_TOKEN,
    CARD_ROW,
    GAME_STEAL,
    NUMBER,
    PLAY_CARD,
    SUIT,
    TOKEN_ROW,
    behind,
    card_to_tap,
    cards_by_claimer,
    hand_holder,
    lead_rows,
    no_trick_cards,
    take_open,
    takeable,
    tie_open,
    trick_cards,
)
from tableside.core.systems.vegas.setup import GAME_OVER, REVEAL, ROUND_START, SETUP, TRICKS
from tableside.core.systems.vegas.state import (
    card_to_play,
    round_can_start,
    tie_open_reason,
    trick_open,
    trick_to_play,
)
from tableside.core.text import N_

_SPECS = (
    ActionSpec(
        "setup_tracks",
        N_("Setup increases"),
        N_(
            "Setup: a player increases 2 different tracks (3 at 5 players); the increases score and pay their income "
            "at once."
        ),
        actions.setup_tracks,
        (
            Field("player", "seat", label=N_("Player")),
            Field(
                "tracks",
                "picks",
                label=N_("Tracks"),
                choices=rules.TRACKS,
                minimum=rules.SETUP_INCREASES,
                maximum=rules.SETUP_INCREASES_FIVE_PLAYERS,
            ),
        ),
        group=N_("Setup"),
        available=in_phase(SETUP),
        example={"player": "Ann", "tracks": ["Team", "Game"]},
    ),
    ActionSpec(
        "start_round",
        N_("Next round"),
        N_("A new round: tokens return, No Trump, High Wins; names the player furthest behind (button C)."),
        actions.start_round,
        group=N_("Round"),
        available=round_can_start,
    ),
    ActionSpec(
        "choose_furthest_behind",
        N_("Settle the tie"),
        N_("A tie for furthest behind: the players choose who takes the free increase."),
        actions.choose_furthest_behind,
        (Field("player", "pick", label=N_("Player"), choices=behind),),
        group=N_("Round"),
        available=tie_open_reason,
        example={"player": "Bob"},
    ),
    ActionSpec(
        "free_increase",
        N_("Free increase"),
        N_(
            "The player furthest behind increases a track and leads; everyone draws up to their Team value and "
            "collects tokens."
        ),
        actions.free_increase,
        (
            Field("track", "pick", label=N_("Track"), choices=rules.TRACKS),
            Field(
                "player",
                "pick",
                label=N_("Player"),
                required=False,
                default="",
                choices=behind,
                help=N_("only when several tie (or Settle the tie, or button B)"),
                applies=tie_open,
            ),
        ),
        group=N_("Round"),
        available=in_phase(ROUND_START),
        example={"track": "Team"},
    ),
    ActionSpec(
        "random_pick",
        N_("Random pick"),
        N_("A recorded random pick: who breaks a tie for furthest behind, or any player (button B)."),
        actions.random_pick,
        (
            Field(
                "among", "pick", label=N_("Among"), required=False, default="", choices=("furthest behind", "players")
            ),
        ),
        group=N_("Round"),
        example={"among": "players"},
        rolls=True,
    ),
    ActionSpec(
        "play_card",
        N_("Play a card"),
        N_(
            "One seat's card (and token) in the trick, in lead order; when every seat has played, Tableside names "
            "the winner under the Trump and Rank Indicators."
        ),
        actions.play_card,
        PLAY_CARD,
        group=N_("Tricks"),
        available=card_to_play,
        taps=("from_hand",),
        example={"player": "Ann", "suit": "Game", "number": 9},
    ),
    ActionSpec(
        "play_trick",
        N_("Enter a trick"),
        N_(
            "The cards of one trick in playing order, with any tokens; Tableside names the winner under the Trump "
            "and Rank Indicators."
        ),
        actions.play_trick,
        (
            Field(
                "cards",
                "rows",
                label=N_("Cards"),
                fields=CARD_ROW,
                minimum=rules.MIN_PLAYERS,
                maximum=rules.MAX_PLAYERS,
                prefill=lead_rows,
            ),
        ),
        group=N_("Tricks"),
        available=trick_to_play,
        example={
            "cards": [
                {"player": "Ann", "suit": "Game", "number": 9},
                {"player": "Bob", "suit": "Game", "number": 4, "token": "Inspector"},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ]
        },
    ),
    ActionSpec(
        "trick_winner",
        N_("Enter a trick's winner"),
        N_("Just the winner of a trick (and any tokens played, so the indicators and tokens follow)."),
        actions.trick_winner,
        (
            Field("winner", "seat", label=N_("Winner")),
            Field(
                "tokens",
                "rows",
                label=N_("Tokens played"),
                required=False,
                default=[],
                fields=TOKEN_ROW,
                maximum=len(rules.TOKEN_COLOURS),
            ),
        ),
        group=N_("Tricks"),
        available=trick_to_play,
        example={"winner": "Bob", "tokens": [{"player": "Ann", "token": "Game", "trump": "Mobster"}]},
    ),
    ActionSpec(
        "enter_hand",
        N_("Enter your hand"),
        N_(
            "A player enters the cards they hold (only their seat sees them); their plays are then checked: in the "
            "hand, not played before this round, following the led suit if they can."
        ),
        actions.enter_hand,
        (
            Field("player", "seat", label=N_("Player")),
            Field(
                "cards",
                "picks",
                label=N_("Cards in hand"),
                choices=tuple(referee.all_cards()),
                maximum=laws.MAX_HAND,
                help=N_("every card you hold now (a card played this round is refused, saying when)"),
            ),
        ),
        group=N_("Tricks"),
        available=in_phase(TRICKS),
        example={"player": "Ann", "cards": ["Game 4", "Bot 11"]},
        seat_field="player",
        acts_for=hand_holder,
    ),
    ActionSpec(
        "claim_bonus",
        N_("Take a trick bonus"),
        N_(
            "The winner (or a Bot token's player) takes the trick bonus of an opponent's card; a Game 6-9 steal "
            "picks the card at random."
        ),
        actions.claim_bonus,
        (
            card_to_tap(
                "from_card",
                N_("Card of the trick"),
                trick_cards,
                cards_by_claimer,
                N_("the card whose bonus is taken"),
            ),
            Field("player", "seat", label=N_("Player")),
            # Named by suit and number only where no card of the trick is offered to tap.
            replace(SUIT, required=False, default="", applies=no_trick_cards),
            replace(NUMBER, required=False, applies=no_trick_cards),
            Field(
                "target",
                "seat",
                label=N_("Opponent"),
                required=False,
                default="",
                help=N_("Game 6-9: whom to steal from (random if not given)"),
                shown_when=GAME_STEAL,
                differs_from="player",  # never the claimer (#36: it started at them, so every claim was refused)
            ),
            Field(
                "colour",
                "pick",
                label=N_("Token colour"),
                required=False,
                default="",
                choices=rules.TOKEN_COLOURS,
                help=N_("Bot 6-9: the modifier token taken"),
                shown_when=BOT_TOKEN,
            ),
            Field(
                "card",
                "count",
                label=N_("Card picked"),
                required=False,
                minimum=1,
                maximum=laws.MAX_HAND,
                help=N_("Game 6-9: the card already picked at random by hand (1 = leftmost)"),
                shown_when=GAME_STEAL,
            ),
        ),
        group=N_("Tricks"),
        available=trick_open,
        example={"player": "Ann", "suit": "Bot", "number": 2},
        rolls=True,
    ),
    ActionSpec(
        "mobster_take",
        N_("Take a card (Mobster)"),
        N_(
            "Mobster: take one card out of this trick into your hand. Tapped once the trick is complete, before the "
            "bonuses; the card taken gives no bonus and may be played again this round."
        ),
        actions.mobster_take,
        (
            Field("card", "pick", label=N_("Card of the trick"), choices=takeable),
            Field("player", "seat", label=N_("Player")),
        ),
        group=N_("Tricks"),
        available=take_open,
        example={"player": "Ann", "card": "Bot 7"},
    ),
    ActionSpec(
        "decline_bonus",
        N_("Decline a trick bonus"),
        N_("A player declines the trick bonus they could take."),
        actions.decline_bonus,
        (Field("player", "seat", label=N_("Player")),),
        group=N_("Tricks"),
        available=trick_open,
        example={"player": "Ann"},
    ),
    ActionSpec(
        "next_trick",
        N_("Next trick"),
        N_("Close the trick (bonuses not taken are declined) and go on (button A)."),
        actions.next_trick,
        group=N_("Tricks"),
        available=trick_open,
    ),
    ActionSpec(
        "reveal_card",
        N_("Reveal a card"),
        N_("The round's end: the last player holding cards reveals one and takes its round bonus."),
        actions.reveal_card,
        (
            SUIT,
            NUMBER,
            Field(
                "target",
                "seat",
                label=N_("Opponent"),
                required=False,
                default="",
                help=N_("Game 6-9: whom to steal up to 2 VP from"),
            ),
            Field(
                "track",
                "pick",
                label=N_("Track"),
                required=False,
                default="",
                choices=rules.TRACKS,
                help=N_("Bot 6-9: the track to increase"),
            ),
        ),
        group=N_("Reveal"),
        available=in_phase(REVEAL),
        example={"suit": "Mobster", "number": 8},
    ),
)

ACTIONS: dict[str, ActionSpec] = {spec.type: spec for spec in _SPECS}


def _button_a(state: State) -> dict[str, Any] | None:
    """A: close the trick and go on."""
    return {"type": "next_trick"} if trick_open(state, None) is None else None


def _button_b(state: State) -> dict[str, Any] | None:
    """B: a random pick (the tie for furthest behind when there is one)."""
    return None if state["phase"] == GAME_OVER else {"type": "random_pick"}


def _button_c(state: State) -> dict[str, Any] | None:
    """C: the next round."""
    return {"type": "start_round"} if round_can_start(state, None) is None else None


BINDINGS = (
    Binding("A", False, N_("Next trick"), _button_a),
    Binding("B", False, N_("Random pick"), _button_b),
    Binding("C", False, N_("Next round"), _button_c),
    *UNDO_REDO,
)


class VenusianVegas(GameSystem):
    """Venusian Vegas: the scoreboard, the five boards, the indicators and the referee of each trick."""

    id = "vegas"
    name = "Venusian Vegas"
    description = N_(
        "Victory points with a floor, five tracks per player, modifier tokens, the Trump and Rank "
        "Indicators, the referee of each trick, rounds and the final ranking."
    )
    rules_version = 2  # 2: a card played earlier in the round is refused; entered hands
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = BINDINGS

    def chart_series(self, state: State) -> dict[str, float]:
        """Victory Points per player."""
        return {str(k): float(v) for k, v in (state.get("vp") or {}).items() if isinstance(v, int | float)}

    def chart_title(self) -> str:
        return N_("Victory Points per player")

    def scores(self, state: State) -> dict[str, str]:
        return {p: str(state["vp"][p]) for p in state["players"]}

    def seats(self, state: State) -> list[Seat]:
        return [Seat(p) for p in state["players"]]

    def derive(self, state: State) -> State:
        """An entered hand that no longer matches the cards held is set aside; whether each seat entered one
        is public."""
        if "hands" in state:
            hands.settle(state)
            stale = state.get("hands_stale") or {}
            state["hand_entered"] = {p: state["hands"].get(p) is not None or p in stale for p in state["players"]}
        return state

    def redact(self, state: State, seat: str | None) -> State:
        """An entered hand is its holder's: every other seat, the e-paper and the stream see only that it was
        entered (``hand_entered``); a hand set aside quietly (``hands_stale``) is its seat's to know too."""
        stale = state.get("hands_stale") or {}
        if not any(state.get("hands", {}).values()) and not stale:
            return state
        return {
            **state,
            "hands": {p: (h if p == seat else None) for p, h in state["hands"].items()},
            "hands_stale": {p: n for p, n in stale.items() if p == seat},
        }

    def logged_changes(self, before: State, after: State) -> dict[str, Any]:
        """Every action's result carries the VP gains and losses it made (``vp_changes``), corrections
        included, so the log accounts for every point."""
        changes = after["vp_log"][len(before["vp_log"]) :]
        return {"vp_changes": changes} if changes else {}

    def roll_belongs_to(self, state: State) -> list:
        """A random pick belongs to the round, the phase and the trick it was made in."""
        return [state["round"], state["phase"], state["tricks_played"]]


SYSTEM = VenusianVegas()
