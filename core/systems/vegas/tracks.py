"""The player boards: five tracks, their values, increases, VP spaces and overflow VP.

A board is ``{track: level}`` with levels 1 (the bottom) to 5 (the top). Every
increase a track actually takes is one step up a marker, so a player's track
increases are their boards' levels above the bottom: the figure that breaks ties
and decides who is furthest behind, and one players can count on the table.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rules, vp
from tableside.core.text import N_

State = dict[str, Any]


def new_board() -> dict[str, int]:
    """Every track starts at the bottom."""
    return {track: rules.BOTTOM_LEVEL for track in rules.TRACKS}


def increases(board: dict[str, int]) -> int:
    """Track increases taken so far: the steps above the bottom on all five tracks."""
    return sum(level - rules.BOTTOM_LEVEL for level in board.values())


def value(board: dict[str, int], track: str) -> int:
    """What the track gives now: cards in hand (Team) or tokens each round."""
    return rules.track_value(track, board[track])


def gives(board: dict[str, int], track: str) -> str:
    """What the track's value means, in words: "9 cards" (Team: the hand size), "1 token" (a colour's tokens)."""
    n = value(board, track)
    if track in rules.TOKEN_COLOURS:
        return f"{n} token{'' if n == 1 else 's'}"
    return f"{n} card{'' if n == 1 else 's'}"


def is_vp_space(state: State, track: str, level: int) -> bool:
    """VP spaces are setup data the players confirm (the rulebook does not say which)."""
    return f"{track} {level}" in state["vp_spaces"]


def increase(state: State, player: str, track: str, reason: str) -> dict[str, Any]:
    """One increase of ``player``'s ``track``: up one level, or 1 VP if it is at its top.

    Reaching a VP space scores 1 VP at once. Returns what happened:
    ``{"track", "from", "to", "vp", "text"}``.
    """
    if track not in rules.TRACKS:
        raise RuleError(
            N_("{track} is not a track; the tracks are {tracks}", track=repr(track), tracks=", ".join(rules.TRACKS))
        )
    board = state["boards"][player]
    before = board[track]
    if before >= rules.TOP_LEVEL:
        entry = vp.change_vp(state, player, rules.VP_PER_INCREASE_AT_TOP, f"{track} track at its top ({reason})")
        return {
            "track": track,
            "from": before,
            "to": before,
            "vp": entry["applied"],
            "text": f"{player}'s {track} track is at its top: +1 VP instead",
        }
    board[track] = before + 1
    text = f"{player}'s {track} track {before} -> {before + 1} ({gives(board, track)})"
    gained = 0
    if is_vp_space(state, track, before + 1):
        entry = vp.change_vp(state, player, rules.VP_PER_VP_SPACE, f"{track} {before + 1} is a VP space ({reason})")
        gained = entry["applied"]
        text += ", a VP space: +1 VP"
    return {"track": track, "from": before, "to": before + 1, "vp": gained, "text": text}


def pay_income(state: State, player: str) -> None:
    """Draw up to the Team value and collect tokens up to each track's value."""
    board = state["boards"][player]
    state["hand"][player] = max(state["hand"][player], value(board, "Team"))
    for colour in rules.TOKEN_COLOURS:
        state["tokens"][player][colour] = max(state["tokens"][player][colour], value(board, colour))


def problems(state: State) -> list[str]:
    """Broken board laws: every level 1-5, no negative tokens or hand."""
    out: list[str] = []
    for player in state["players"]:
        for track in rules.TRACKS:
            level = state["boards"][player][track]
            if not rules.BOTTOM_LEVEL <= level <= rules.TOP_LEVEL:
                out.append(f"{player}'s {track} track is at {level}; levels run 1-5")
        for colour in rules.TOKEN_COLOURS:
            if state["tokens"][player][colour] < 0:
                out.append(f"{player} holds {state['tokens'][player][colour]} {colour} tokens; never below 0")
        if state["hand"][player] < 0:
            out.append(f"{player} holds {state['hand'][player]} cards; never below 0")
    return out
