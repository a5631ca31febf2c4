"""Setup: the options players confirm, the starting state and the setup increases.

Setup data the rulebook leaves open (players confirm it when the session starts):
- ``vp_spaces``: which track spaces are VP spaces ("Some spaces are VP spaces" without
  saying which). Default: none.
- ``vp_below_zero``: whether VP may go below zero. Default: no, a loss stops at 0 and says so.
- ``reveal_low``: what a revealed 1-5 card scores. The round ends with each card's "round bonus -
  the larger of the two bonuses printed on it", but for 1-5 the round bonus (1 VP) is the smaller
  one. Default: the round bonus as printed (1 VP); "larger bonus" scores the trick bonus's 2 VP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import Choice, Field
from tableside.core.systems.vegas import rules, tracks
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]

SETUP = "Setup"
ROUND_START = "Round start"
TRICKS = "Tricks"
REVEAL = "Reveal"
ROUND_OVER = "Round over"
GAME_OVER = "Game over"
PHASES = (SETUP, ROUND_START, TRICKS, REVEAL, ROUND_OVER, GAME_OVER)

MAX_NAME = 24


def vp_space_choices() -> list[str]:
    """Every space a marker can reach: "Team 2" ... "Mobster 5" (level 1 is where it starts)."""
    return [f"{t} {level}" for t in rules.TRACKS for level in range(rules.BOTTOM_LEVEL + 1, rules.TOP_LEVEL + 1)]


OPTIONS = (
    Field(
        "players",
        "texts",
        label=N_("Players"),
        default=["Player 1", "Player 2"],
        required=False,
        minimum=rules.MIN_PLAYERS,
        maximum=rules.MAX_PLAYERS,
        max_length=MAX_NAME,
        help=N_("2-5 names in seating order (clockwise)"),
    ),
    Field(
        "vp_spaces",
        "picks",
        label=N_("VP spaces"),
        required=False,
        default=[],
        choices=tuple(vp_space_choices()),
        help=N_("the track spaces printed as VP spaces (the rulebook does not list them); default none"),
    ),
    Field(
        "vp_below_zero",
        "flag",
        label=N_("VP may go below zero"),
        required=False,
        default=False,
        help=N_("off (default): a loss stops at 0 VP and says so"),
    ),
    Field(
        "reveal_low",
        "pick",
        label=N_("A revealed 1-5 scores"),
        required=False,
        default=rules.REVEAL_ROUND_BONUS,
        choices=(
            Choice(rules.REVEAL_ROUND_BONUS, N_("its round bonus as printed: 1 VP")),
            Choice(rules.REVEAL_LARGER_BONUS, N_("the larger of its two bonuses: 2 VP")),
        ),
        help=N_(
            '"takes each card\'s round bonus, the larger of the two bonuses printed on it": for 1-5 the two '
            "readings differ"
        ),
    ),
)


def check_options(options: Mapping[str, Any]) -> None:
    """Names present, short and distinct; 2-5 of them; VP spaces real and not repeated."""
    players, vp_spaces = list(options["players"]), list(options.get("vp_spaces") or [])
    if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
        raise RuleError(
            N_(
                "options: players: Venusian Vegas is for {min_players}-{max_players} players, got {n_players}",
                min_players=rules.MIN_PLAYERS,
                max_players=rules.MAX_PLAYERS,
                n_players=len(players),
            )
        )
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RuleError(N_("options: players: every player needs a name"), rule="names")
        if len(name) > MAX_NAME:
            raise RuleError(
                N_(
                    "options: players: {name}... is longer than {max_name} characters",
                    name=repr(name[:MAX_NAME]),
                    max_name=MAX_NAME,
                ),
                rule="names",
            )
    folded = [n.strip().casefold() for n in players]
    for name, key in zip(players, folded, strict=True):
        if folded.count(key) > 1:
            raise RuleError(
                N_("options: players: names must differ, {name} appears twice", name=repr(name.strip())), rule="names"
            )
    known = vp_space_choices()
    for space in vp_spaces:
        if space not in known:
            raise RuleError(
                N_(
                    "options: vp_spaces: {space} is not a space a marker can reach (e.g. 'Game 3'; level 1 is the "
                    "start)",
                    space=repr(space),
                ),
                rule="vp_spaces",
            )
        if list(vp_spaces).count(space) > 1:
            raise RuleError(N_("options: vp_spaces: {space} appears twice", space=repr(space)), rule="vp_spaces")


def initial_state(options: Mapping[str, Any]) -> State:
    """Everyone has drawn 7 cards; boards at the bottom; no tokens until the setup increases."""
    players = [n.strip() for n in options["players"]]
    vp_spaces = list(options.get("vp_spaces") or [])
    check_options({"players": players, "vp_spaces": vp_spaces})
    return {
        "players": players,
        "rounds": rules.rounds_for(len(players)),
        "round": 0,
        "phase": SETUP,
        "vp_spaces": vp_spaces,
        "vp_below_zero": bool(options.get("vp_below_zero", False)),
        "reveal_low": options.get("reveal_low") or rules.REVEAL_ROUND_BONUS,
        "boards": {p: tracks.new_board() for p in players},
        "vp": {p: 0 for p in players},
        "hand": {p: rules.SETUP_HAND for p in players},
        "tokens": {p: {c: 0 for c in rules.TOKEN_COLOURS} for p in players},
        "setup_tracks": {p: [] for p in players},
        "trump": rules.NO_TRUMP,
        "rank": rules.HIGH_WINS,
        "furthest_behind": [],
        "chosen": None,
        "leader": None,
        "round_leader": None,
        "trick": None,
        "playing": [],  # cards played seat by seat in the trick under way (face up: public)
        "last_trick": None,
        "tricks_played": 0,
        "revealer": None,
        "revealed": [],
        "played": [],
        "hands": {p: None for p in players},
        "hand_entered": {p: False for p in players},
        "vp_log": [],
        "last_pick": None,
        "ranking": None,
    }


def choose_setup_tracks(state: State, player: str, chosen: Sequence[str]) -> dict[str, Any]:
    """Setup: ``player`` increases 2 different tracks (3 at 5 players); they score and pay at once."""
    if state["phase"] != SETUP:
        raise RuleError(N_("the setup increases are chosen before round 1; the game is past setup"))
    require_player(state, player)
    if state["setup_tracks"][player]:
        raise RuleError(
            N_(
                "{player} already chose the setup increases: {setup_tracks}",
                player=player,
                setup_tracks=", ".join(state["setup_tracks"][player]),
            )
        )
    wanted = rules.setup_increases(len(state["players"]))
    for track in chosen:
        if track not in rules.TRACKS:
            raise RuleError(
                N_(
                    "{track} is not a track; the tracks are {tracks}", track=repr(track), tracks=", ".join(rules.TRACKS)
                ),
                rule="tracks",
            )
    twice = sorted({t for t in chosen if list(chosen).count(t) > 1})
    if twice:
        raise RuleError(
            N_(
                "{player} chose {twice} twice: the setup increases must be {wanted} different tracks",
                player=player,
                twice=twice[0],
                wanted=wanted,
            )
        )
    if len(chosen) != wanted:
        raise RuleError(
            N_(
                "at {n_players} players each player increases {wanted} different tracks at setup, got {n_chosen}",
                n_players=len(state["players"]),
                wanted=wanted,
                n_chosen=len(chosen),
            )
        )
    steps = [tracks.increase(state, player, track, "setup") for track in chosen]
    state["setup_tracks"][player] = list(chosen)
    tracks.pay_income(state, player)
    waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
    text = f"Setup: {'; '.join(s['text'] for s in steps)}; {player} holds {plural(state['hand'][player], 'card')}"
    return {"summary": text, "steps": steps, "waiting": waiting}


def require_player(state: State, player: Any) -> str:
    if player not in state["players"]:
        raise RuleError(
            N_(
                "{player} is not playing; the players are {players}",
                player=repr(player),
                players=", ".join(state["players"]),
            )
        )
    return player


def setup_complete(state: State) -> bool:
    return all(state["setup_tracks"][p] for p in state["players"])
