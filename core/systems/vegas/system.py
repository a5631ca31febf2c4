"""The ``vegas`` game system: options, action types, prompts, laws, corrections, buttons, screen.

See docs/systems/vegas.md for every action with an example request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import (
    UNDO_REDO,
    ActionSpec,
    Binding,
    Field,
    GameSystem,
    Prompt,
    Seat,
    State,
    Tracked,
)
from tableside.core.systems.vegas import actions, referee, rounds, rules, setup, tracks, vp
from tableside.core.systems.vegas import screen as view
from tableside.core.systems.vegas.setup import GAME_OVER, REVEAL, ROUND_OVER, ROUND_START, SETUP, TRICKS

MAX_HAND = 99  # a correction's ceiling for cards in hand or tokens: far above anything the game reaches

OPTIONS = (
    Field(
        "players",
        "texts",
        label="Players",
        default=["Player 1", "Player 2"],
        required=False,
        minimum=rules.MIN_PLAYERS,
        maximum=rules.MAX_PLAYERS,
        max_length=setup.MAX_NAME,
        help="2-5 names in seating order (clockwise)",
    ),
    Field(
        "vp_spaces",
        "picks",
        label="VP spaces",
        required=False,
        default=[],
        choices=tuple(setup.vp_space_choices()),
        help="the track spaces printed as VP spaces (the rulebook does not list them); default none",
    ),
    Field(
        "vp_below_zero",
        "flag",
        label="VP may go below zero",
        required=False,
        default=False,
        help="off (default): a loss stops at 0 VP and says so",
    ),
)


def _players(state: State) -> list[str]:
    return list(state.get("players", []))


def _behind(state: State) -> list[str]:
    return list(state.get("furthest_behind") or [])


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
    ),
    Field(
        "block",
        "flag",
        label="Only to block",
        required=False,
        default=False,
        help="the token is played purely to block; its ability is not used",
    ),
    Field(
        "take",
        "pick",
        label="Mobster takes",
        required=False,
        default="",
        choices=tuple(referee.all_cards()),
        help="the card a Mobster token takes out of the trick into the hand",
    ),
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
    ),
    *_TOKEN_FIELDS,
)
_TOKEN_ROW = (
    Field("player", "seat", label="Player"),
    Field("token", "pick", label="Token", choices=rules.TOKEN_COLOURS),
    *_TOKEN_FIELDS,
)


def _logged(handler: Any) -> Any:
    """Every result carries the VP gains and losses it made (``vp_changes``), so the log accounts for them."""

    def run(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, dict[str, Any]]:
        start = len(state["vp_log"])
        state, result = handler(state, action, ctx)
        changes = state["vp_log"][start:]
        if changes:
            result = {**result, "vp_changes": changes}
        return state, result

    run.__doc__ = handler.__doc__
    return run


def _in_phase(*phases: str) -> Any:
    def available(state: State, seat: str | None) -> str | None:
        if state["phase"] in phases:
            return None
        return f"only in {' or '.join(phases)}; now: {state['phase']}"

    return available


def _round_can_start(state: State, seat: str | None) -> str | None:
    if state["phase"] == SETUP:
        waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
        return f"waiting for the setup increases of {', '.join(waiting)}" if waiting else None
    if state["phase"] == ROUND_OVER:
        return None
    if state["phase"] == GAME_OVER:
        return f"the game is over after {state['rounds']} rounds"
    return f"round {state['round']} is still being played ({state['phase']})"


def _tie_open(state: State, seat: str | None) -> str | None:
    return None if actions.tie_open(state) else "nobody ties for furthest behind right now"


def _trick_to_play(state: State, seat: str | None) -> str | None:
    if state["phase"] != TRICKS:
        return f"only while tricks are played; now: {state['phase']}"
    if state["trick"] is not None:
        return "the last trick's bonuses are still open: take or decline them, or press A to go on"
    return None


def _trick_open(state: State, seat: str | None) -> str | None:
    if state["phase"] == TRICKS and state["trick"] is not None:
        return None
    return "no trick is waiting for its bonuses"


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
        available=_in_phase(SETUP),
        example={"player": "Ann", "tracks": ["Team", "Game"]},
    ),
    ActionSpec(
        "start_round",
        "Next round",
        "A new round: tokens return, No Trump, High Wins; names the player furthest behind (button C).",
        actions.start_round,
        group="Round",
        available=_round_can_start,
    ),
    ActionSpec(
        "choose_furthest_behind",
        "Settle the tie",
        "A tie for furthest behind: the players choose who takes the free increase.",
        actions.choose_furthest_behind,
        (Field("player", "pick", label="Player", choices=_behind),),
        group="Round",
        available=_tie_open,
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
                help="only when several tie (or use choose_furthest_behind / button B)",
            ),
        ),
        group="Round",
        available=_in_phase(ROUND_START),
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
        "play_trick",
        "Enter a trick",
        "The cards of one trick in playing order, with any tokens; Tableside "
        "names the winner under the Trump and Rank Indicators.",
        actions.play_trick,
        (
            Field(
                "cards", "rows", label="Cards", fields=_CARD_ROW, minimum=rules.MIN_PLAYERS, maximum=rules.MAX_PLAYERS
            ),
        ),
        group="Tricks",
        available=_trick_to_play,
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
        available=_trick_to_play,
        example={"winner": "Bob", "tokens": [{"player": "Ann", "token": "Game", "trump": "Mobster"}]},
    ),
    ActionSpec(
        "claim_bonus",
        "Take a trick bonus",
        "The winner (or a Bot token's player) takes the trick bonus of "
        "an opponent's card; a Game 6-9 steal picks the card at random.",
        actions.claim_bonus,
        (
            Field("player", "seat", label="Player"),
            _SUIT,
            _NUMBER,
            Field(
                "target",
                "seat",
                label="Opponent",
                required=False,
                default="",
                help="Game 6-9: whom to steal from (random if not given)",
            ),
            Field(
                "colour",
                "pick",
                label="Token colour",
                required=False,
                default="",
                choices=rules.TOKEN_COLOURS,
                help="Bot 6-9: the modifier token taken",
            ),
            Field(
                "card",
                "count",
                label="Card picked",
                required=False,
                minimum=1,
                maximum=MAX_HAND,
                help="Game 6-9: the card already picked at random by hand (1 = leftmost)",
            ),
        ),
        group="Tricks",
        available=_trick_open,
        example={"player": "Ann", "suit": "Bot", "number": 2},
        rolls=True,
    ),
    ActionSpec(
        "decline_bonus",
        "Decline a trick bonus",
        "A player declines the trick bonus they could take.",
        actions.decline_bonus,
        (Field("player", "seat", label="Player"),),
        group="Tricks",
        available=_trick_open,
        example={"player": "Ann"},
    ),
    ActionSpec(
        "next_trick",
        "Next trick",
        "Close the trick (bonuses not taken are declined) and go on (button A).",
        actions.next_trick,
        group="Tricks",
        available=_trick_open,
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
        available=_in_phase(REVEAL),
        example={"suit": "Mobster", "number": 8},
    ),
)

ACTIONS: dict[str, ActionSpec] = {spec.type: replace(spec, handler=_logged(spec.handler)) for spec in _SPECS}


def _button_a(state: State) -> dict[str, Any] | None:
    """A: close the trick and go on."""
    return {"type": "next_trick"} if _trick_open(state, None) is None else None


def _button_b(state: State) -> dict[str, Any] | None:
    """B: a random pick (the tie for furthest behind when there is one)."""
    return None if state["phase"] == GAME_OVER else {"type": "random_pick"}


def _button_c(state: State) -> dict[str, Any] | None:
    """C: the next round."""
    return {"type": "start_round"} if _round_can_start(state, None) is None else None


BINDINGS = (
    Binding("A", False, "Next trick", _button_a),
    Binding("B", False, "Random pick", _button_b),
    Binding("C", False, "Next round", _button_c),
    *UNDO_REDO,
)


def pending(state: State) -> list[Prompt]:
    """What the table waits for, in order; short, since the e-paper's prompt line is one line."""
    phase = state["phase"]
    if phase == SETUP:
        n = rules.setup_increases(len(state["players"]))
        waiting = [
            Prompt(p, f"{p}: choose {n} different tracks to increase", "setup_tracks")
            for p in state["players"]
            if not state["setup_tracks"][p]
        ]
        return waiting or [Prompt(None, "Press C to start round 1", "start_round")]
    if phase == ROUND_START:
        if state["chosen"] is None:
            tied = ", ".join(state["furthest_behind"])
            return [Prompt(None, f"{tied} tie for furthest behind: choose one, or B", "choose_furthest_behind")]
        who = state["chosen"]
        return [Prompt(who, f"{who}: choose a free increase and lead", "free_increase")]
    if phase == TRICKS:
        if state["trick"] is not None:
            return [
                Prompt(c["player"], f"{c['player']}: take or decline a trick bonus", "claim_bonus")
                for c in state["trick"]["claims"]
            ]
        leader = state["leader"]
        return [Prompt(leader, f"Trick {state['tricks_played'] + 1}: {leader} leads", "play_trick")]
    if phase == REVEAL:
        who = state["revealer"]
        return [Prompt(who, f"{who}: reveal {state['hand'][who]} card(s) for round bonuses", "reveal_card")]
    if phase == ROUND_OVER:
        return [Prompt(None, f"Press C to start round {state['round'] + 1} of {state['rounds']}", "start_round")]
    return []


def _split_key(state: State, key: str) -> tuple[str, str, str | None]:
    """ "vp.0" -> ("vp", "Ann", None); "boards.1.Team" -> ("boards", "Bob", "Team"). Indexes, since names
    may hold dots."""
    parts = key.split(".")
    if len(parts) not in (2, 3) or not parts[1].isdigit() or int(parts[1]) >= len(state["players"]):
        raise RuleError(f"correct: {key!r} is not a number that can be set")
    return parts[0], state["players"][int(parts[1])], parts[2] if len(parts) == 3 else None


class VenusianVegas(GameSystem):
    """Venusian Vegas: the scoreboard, the five boards, the indicators and the referee of each trick."""

    id = "vegas"
    name = "Venusian Vegas"
    description = (
        "Victory points with a floor, five tracks per player, modifier tokens, the Trump and Rank "
        "Indicators, the referee of each trick, rounds and the final ranking."
    )
    rules_version = 1
    options = OPTIONS
    actions = ACTIONS
    bindings = BINDINGS

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        options = super().validate_options(raw)
        setup.check_options(options["players"], options["vp_spaces"])
        return options

    def initial_state(self, options: Mapping[str, Any]) -> State:
        return setup.new_state(options)

    def seats(self, state: State) -> list[Seat]:
        return [Seat(p) for p in state["players"]]

    def pending(self, state: State) -> list[Prompt]:
        return pending(state)

    def laws(self, state: State) -> list[str]:
        """VP equal the ledger's gains and losses (with the floor); levels 1-5; no negative tokens or cards."""
        return vp.ledger_problems(state) + tracks.problems(state)

    def tracked(self, state: State) -> list[Tracked]:
        out: list[Tracked] = []
        for i, p in enumerate(state["players"]):
            floor = 0 if vp.floor_applies(state) else None
            out.append(Tracked(f"vp.{i}", f"{p}'s VP", state["vp"][p], floor, None))
            out.append(Tracked(f"hand.{i}", f"{p}'s cards in hand", state["hand"][p], 0, MAX_HAND))
            for t in rules.TRACKS:
                out.append(
                    Tracked(
                        f"boards.{i}.{t}",
                        f"{p}'s {t} track level",
                        state["boards"][p][t],
                        rules.BOTTOM_LEVEL,
                        rules.TOP_LEVEL,
                    )
                )
            for c in rules.TOKEN_COLOURS:
                out.append(Tracked(f"tokens.{i}.{c}", f"{p}'s {c} tokens", state["tokens"][p][c], 0, MAX_HAND))
        return out

    def correct(self, state: State, key: str, value: int) -> State:
        """A VP correction goes into the ledger (so VP still add up); the others set the number."""
        part, player, sub = _split_key(state, key)
        if part == "vp" and sub is None:
            vp.change_vp(state, player, value - state["vp"][player], "correction")
        elif part == "hand" and sub is None:
            state["hand"][player] = value
            rounds.settle(state)
        elif part == "boards" and sub in rules.TRACKS:
            state["boards"][player][sub] = value
        elif part == "tokens" and sub in rules.TOKEN_COLOURS:
            state["tokens"][player][sub] = value
        else:
            raise RuleError(f"correct: {key!r} is not a number that can be set")
        return state

    def screen(self, state: State) -> Any:
        prompts = pending(state)
        return view.screen(state, prompts[0].text if prompts else None)


SYSTEM = VenusianVegas()
