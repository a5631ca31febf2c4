"""The ``vegas`` game system: options, action types, prompts, laws, corrections, buttons, screen.

See docs/systems/vegas.md for every action with an example request.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tableside.core.fields import Choice
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
from tableside.core.systems.vegas import actions, bonuses, hands, laws, referee, rules, setup, tricks
from tableside.core.systems.vegas.setup import GAME_OVER, REVEAL, ROUND_START, SETUP, TRICKS
from tableside.core.systems.vegas.state import (
    card_to_play,
    round_can_start,
    tie_open_reason,
    trick_open,
    trick_to_play,
)


def _players(state: State) -> list[str]:
    return list(state.get("players", []))


def _lead_rows(state: State) -> list[dict[str, str]] | None:
    """A whole trick's rows start as one per player, in lead order."""
    if state.get("phase") != TRICKS or state.get("leader") is None:
        return None
    return [{"player": p} for p in tricks.lead_order(state)]


def _trick_cards(state: State) -> list[Choice]:
    """The cards of the trick waiting for its bonuses, to tap: those some open claim may take (never
    a card taken by a Mobster token, nor a lone claimer's own card)."""
    trick = state.get("trick") or {}
    return [
        Choice(c["card"], f"{c['player']}: {c['card']} ({bonuses.offer(*referee.parse_card(c['card']))})")
        for c in (tricks.on_offer(trick) if trick else [])
    ]


def _cards_by_claimer(state: State) -> dict[str, list[str]]:
    """Per player, the cards of the trick their bonus may come from: a claimer's opponents' cards,
    none for a player with no claim open. With two claims open (the winner and a Bot token's player)
    each phone offers only its own choices, never its own card."""
    per = tricks.claims_by_player(state.get("trick"))
    return {p: per.get(p, []) for p in _players(state)}


def _takeable(state: State) -> list[Choice]:
    """The cards of the trick a Mobster token may take: any of them, its player's own too."""
    return [Choice(c["card"], f"{c['player']}: {c['card']}") for c in (state.get("trick") or {}).get("cards") or []]


def _take_open(state: State, seat: str | None) -> str | None:
    if state["phase"] == TRICKS and (state.get("trick") or {}).get("mobster") is not None:
        return None
    return "no Mobster token is waiting to take a card of a trick"


def _asked_once_the_trick_is_complete(state: State) -> bool:
    """A card's form never asks what its Mobster token takes: the cards after it are not down yet. The take is
    tapped once the trick is complete (Take a card, Mobster); the field stays for a request that names it."""
    return False


def _no_trick_cards(state: State) -> bool:
    return not _trick_cards(state)


# A claim's extras, asked once a card whose bonus uses them is tapped (a form with no card of the trick
# to tap, named by suit and number, shows them all). The rules check them the same either way.
_BOT_TOKEN = {"from_card": tuple(f"Bot {n}" for n in range(6, 10))}
_GAME_STEAL = {"from_card": tuple(f"Game {n}" for n in range(6, 10))}


def _holder(state: State, action: dict[str, Any]) -> str | None:
    """A hand is its holder's: only that seat's phone (or the table) enters it."""
    return action.get("player") or None


def _behind(state: State) -> list[str]:
    return list(state.get("furthest_behind") or [])


def _tie_open(state: State) -> bool:
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


_SUIT = Field("suit", "pick", label="Suit", choices=rules.SUITS)
_NUMBER = Field("number", "count", label="Number", minimum=rules.LOWEST_CARD, maximum=rules.HIGHEST_CARD)
_TOKEN_FIELDS = (
    Field(
        "trump",
        "pick",
        label="Trump to",
        required=False,
        default="",
        choices=rules.TRUMP_CHOICES,
        help="a Game token used for its ability: the suit the Trump Indicator moves to, or No Trump",
        # asked exactly when the rules need it: a Game token not played purely to block
        shown_when={"token": ("Game",), "block": (False,)},
    ),
    Field(
        "block",
        "flag",
        label="Token played only to block",
        required=False,
        default=False,
        help="the token is played purely to block; its ability is not used",
        shown_when={"token": rules.TOKEN_COLOURS},
    ),
)
_TAKE = Field(
    "take",
    "pick",
    label="Mobster takes",
    required=False,
    default="",
    choices=tuple(referee.all_cards()),
    help="the card a Mobster token takes out of the trick into the hand",
    shown_when={"token": ("Mobster",)},
)
_CARD_ROW = (
    Field("player", "seat", label="Player"),
    _SUIT,
    _NUMBER,
    Field(
        "token",
        "pick",
        label="Token",
        required=False,
        default="",
        choices=rules.TOKEN_COLOURS,
        help="a modifier token played with the card",
        choices_by="player",
        choices_of=_tokens_held,
        sends=True,
    ),
    *_TOKEN_FIELDS,
    replace(_TAKE, applies=_asked_once_the_trick_is_complete),
)


def _card_to_tap(name: str, label: str, cards: Any, per_player: Any, help: str) -> Field:
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
_PLAY_CARD = (
    _card_to_tap(
        "from_hand",
        "Your card",
        _hand_cards,
        _playable,
        "a card of your entered hand (only the led suit's while you hold one)",
    ),
    _CARD_ROW[0],
    # Asked as required where no hand is shown (the form waits for both before its token buttons ask a trump);
    # the rules refuse a card given neither way, in words.
    replace(_SUIT, required=False, default="", applies=_no_hand_shown, required_now=_no_hand_shown),
    replace(_NUMBER, required=False, applies=_no_hand_shown, required_now=_no_hand_shown),
    *_CARD_ROW[3:],
)
_TOKEN_ROW = (
    Field("player", "seat", label="Player"),
    Field("token", "pick", label="Token", choices=rules.TOKEN_COLOURS, choices_by="player", choices_of=_tokens_held),
    *_TOKEN_FIELDS,
    _TAKE,
)


_SPECS = (
    ActionSpec(
        "setup_tracks",
        "Setup increases",
        "Setup: a player increases 2 different tracks (3 at 5 players); "
        "the increases score and pay their income at once.",
        actions.setup_tracks,
        (
            Field("player", "seat", label="Player"),
            Field(
                "tracks",
                "picks",
                label="Tracks",
                choices=rules.TRACKS,
                minimum=rules.SETUP_INCREASES,
                maximum=rules.SETUP_INCREASES_FIVE_PLAYERS,
            ),
        ),
        group="Setup",
        available=in_phase(SETUP),
        example={"player": "Ann", "tracks": ["Team", "Game"]},
    ),
    ActionSpec(
        "start_round",
        "Next round",
        "A new round: tokens return, No Trump, High Wins; names the player furthest behind (button C).",
        actions.start_round,
        group="Round",
        available=round_can_start,
    ),
    ActionSpec(
        "choose_furthest_behind",
        "Settle the tie",
        "A tie for furthest behind: the players choose who takes the free increase.",
        actions.choose_furthest_behind,
        (Field("player", "pick", label="Player", choices=_behind),),
        group="Round",
        available=tie_open_reason,
        example={"player": "Bob"},
    ),
    ActionSpec(
        "free_increase",
        "Free increase",
        "The player furthest behind increases a track and leads; everyone "
        "draws up to their Team value and collects tokens.",
        actions.free_increase,
        (
            Field("track", "pick", label="Track", choices=rules.TRACKS),
            Field(
                "player",
                "pick",
                label="Player",
                required=False,
                default="",
                choices=_behind,
                help="only when several tie (or Settle the tie, or button B)",
                applies=_tie_open,
            ),
        ),
        group="Round",
        available=in_phase(ROUND_START),
        example={"track": "Team"},
    ),
    ActionSpec(
        "random_pick",
        "Random pick",
        "A recorded random pick: who breaks a tie for furthest behind, or any player (button B).",
        actions.random_pick,
        (Field("among", "pick", label="Among", required=False, default="", choices=("furthest behind", "players")),),
        group="Round",
        example={"among": "players"},
        rolls=True,
    ),
    ActionSpec(
        "play_card",
        "Play a card",
        "One seat's card (and token) in the trick, in lead order; when every seat has played, "
        "Tableside names the winner under the Trump and Rank Indicators.",
        actions.play_card,
        _PLAY_CARD,
        group="Tricks",
        available=card_to_play,
        taps=("from_hand",),
        example={"player": "Ann", "suit": "Game", "number": 9},
    ),
    ActionSpec(
        "play_trick",
        "Enter a trick",
        "The cards of one trick in playing order, with any tokens; Tableside "
        "names the winner under the Trump and Rank Indicators.",
        actions.play_trick,
        (
            Field(
                "cards",
                "rows",
                label="Cards",
                fields=_CARD_ROW,
                minimum=rules.MIN_PLAYERS,
                maximum=rules.MAX_PLAYERS,
                prefill=_lead_rows,
            ),
        ),
        group="Tricks",
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
        "Enter a trick's winner",
        "Just the winner of a trick (and any tokens played, so the indicators and tokens follow).",
        actions.trick_winner,
        (
            Field("winner", "seat", label="Winner"),
            Field(
                "tokens",
                "rows",
                label="Tokens played",
                required=False,
                default=[],
                fields=_TOKEN_ROW,
                maximum=len(rules.TOKEN_COLOURS),
            ),
        ),
        group="Tricks",
        available=trick_to_play,
        example={"winner": "Bob", "tokens": [{"player": "Ann", "token": "Game", "trump": "Mobster"}]},
    ),
    ActionSpec(
        "enter_hand",
        "Enter your hand",
        "A player enters the cards they hold (only their seat sees them); their plays are then checked: "
        "in the hand, not played before this round, following the led suit if they can.",
        actions.enter_hand,
        (
            Field("player", "seat", label="Player"),
            Field(
                "cards",
                "picks",
                label="Cards in hand",
                choices=tuple(referee.all_cards()),
                maximum=laws.MAX_HAND,
                help="every card you hold now (a card played this round is refused, saying when)",
            ),
        ),
        group="Tricks",
        available=in_phase(TRICKS),
        example={"player": "Ann", "cards": ["Game 4", "Bot 11"]},
        seat_field="player",
        acts_for=_holder,
    ),
    ActionSpec(
        "claim_bonus",
        "Take a trick bonus",
        "The winner (or a Bot token's player) takes the trick bonus of "
        "an opponent's card; a Game 6-9 steal picks the card at random.",
        actions.claim_bonus,
        (
            _card_to_tap(
                "from_card", "Card of the trick", _trick_cards, _cards_by_claimer, "the card whose bonus is taken"
            ),
            Field("player", "seat", label="Player"),
            # Named by suit and number only where no card of the trick is offered to tap.
            replace(_SUIT, required=False, default="", applies=_no_trick_cards),
            replace(_NUMBER, required=False, applies=_no_trick_cards),
            Field(
                "target",
                "seat",
                label="Opponent",
                required=False,
                default="",
                help="Game 6-9: whom to steal from (random if not given)",
                shown_when=_GAME_STEAL,
                differs_from="player",  # never the claimer (#36: it started at them, so every claim was refused)
            ),
            Field(
                "colour",
                "pick",
                label="Token colour",
                required=False,
                default="",
                choices=rules.TOKEN_COLOURS,
                help="Bot 6-9: the modifier token taken",
                shown_when=_BOT_TOKEN,
            ),
            Field(
                "card",
                "count",
                label="Card picked",
                required=False,
                minimum=1,
                maximum=laws.MAX_HAND,
                help="Game 6-9: the card already picked at random by hand (1 = leftmost)",
                shown_when=_GAME_STEAL,
            ),
        ),
        group="Tricks",
        available=trick_open,
        example={"player": "Ann", "suit": "Bot", "number": 2},
        rolls=True,
    ),
    ActionSpec(
        "mobster_take",
        "Take a card (Mobster)",
        "Mobster: take one card out of this trick into your hand. Tapped once the trick is complete, before "
        "the bonuses; the card taken gives no bonus and may be played again this round.",
        actions.mobster_take,
        (
            Field("card", "pick", label="Card of the trick", choices=_takeable),
            Field("player", "seat", label="Player"),
        ),
        group="Tricks",
        available=_take_open,
        example={"player": "Ann", "card": "Bot 7"},
    ),
    ActionSpec(
        "decline_bonus",
        "Decline a trick bonus",
        "A player declines the trick bonus they could take.",
        actions.decline_bonus,
        (Field("player", "seat", label="Player"),),
        group="Tricks",
        available=trick_open,
        example={"player": "Ann"},
    ),
    ActionSpec(
        "next_trick",
        "Next trick",
        "Close the trick (bonuses not taken are declined) and go on (button A).",
        actions.next_trick,
        group="Tricks",
        available=trick_open,
    ),
    ActionSpec(
        "reveal_card",
        "Reveal a card",
        "The round's end: the last player holding cards reveals one and takes its round bonus.",
        actions.reveal_card,
        (
            _SUIT,
            _NUMBER,
            Field(
                "target",
                "seat",
                label="Opponent",
                required=False,
                default="",
                help="Game 6-9: whom to steal up to 2 VP from",
            ),
            Field(
                "track",
                "pick",
                label="Track",
                required=False,
                default="",
                choices=rules.TRACKS,
                help="Bot 6-9: the track to increase",
            ),
        ),
        group="Reveal",
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
    Binding("A", False, "Next trick", _button_a),
    Binding("B", False, "Random pick", _button_b),
    Binding("C", False, "Next round", _button_c),
    *UNDO_REDO,
)


class VenusianVegas(GameSystem):
    """Venusian Vegas: the scoreboard, the five boards, the indicators and the referee of each trick."""

    id = "vegas"
    name = "Venusian Vegas"
    description = (
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
        return "Victory Points per player"

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
