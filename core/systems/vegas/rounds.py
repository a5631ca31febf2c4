"""Rounds: the resets, the player furthest behind, the round's end and the final ranking.

"Each round All modifier tokens are returned and the deck is reshuffled. The Trump
Indicator resets to No Trump; the Rank Indicator resets to High Wins. Whoever is
furthest behind (fewest VP plus track increases) takes a free increase and leads the
round. Everyone draws up to their Team value and collects tokens up to each track's
value." A tie for furthest behind is the players' call: Tableside asks, or picks at
random when they press B.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import hands, rules, tracks
from tableside.core.systems.vegas.setup import (
    GAME_OVER,
    REVEAL,
    ROUND_OVER,
    ROUND_START,
    SETUP,
    TRICKS,
    require_player,
    setup_complete,
)
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]


def standing(state: State, player: str) -> int:
    """VP plus track increases: the figure that decides who is furthest behind."""
    return state["vp"][player] + tracks.increases(state["boards"][player])


def furthest_behind(state: State) -> list[str]:
    """Every player with the fewest VP plus track increases, in seating order."""
    low = min(standing(state, p) for p in state["players"])
    return [p for p in state["players"] if standing(state, p) == low]


def start_round(state: State) -> dict[str, Any]:
    """Tokens return, the indicators reset, and the player furthest behind is named (or the tie)."""
    if state["phase"] == SETUP and not setup_complete(state):
        waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
        raise RuleError(
            N_(
                "round 1 starts once everyone chose the setup increases; waiting for {waiting}",
                waiting=", ".join(waiting),
            ),
            rule="setup",
        )
    if state["phase"] not in (SETUP, ROUND_OVER):
        if state["phase"] == GAME_OVER:
            raise RuleError(N_("the game is over after {rounds} rounds", rounds=state["rounds"]))
        raise RuleError(
            N_("round {round} is still being played ({phase})", round=state["round"], phase=state["phase"]),
            rule="round_end",
        )
    state["round"] += 1
    for player in state["players"]:
        state["tokens"][player] = {c: 0 for c in rules.TOKEN_COLOURS}
    state["trump"] = rules.NO_TRUMP
    state["rank"] = rules.HIGH_WINS
    state["phase"] = ROUND_START
    state["trick"] = None
    state["last_trick"] = None
    state["tricks_played"] = 0
    state["revealer"] = None
    state["revealed"] = []
    hands.start_round(state)
    state["leader"] = None
    state["round_leader"] = None
    behind = furthest_behind(state)
    state["furthest_behind"] = behind
    state["chosen"] = behind[0] if len(behind) == 1 else None
    low = standing(state, behind[0])
    if len(behind) == 1:
        who = N_("{player} is furthest behind ({low}) and takes a free increase", player=behind[0], low=low)
    else:
        who = N_(
            "{spoken} tie for furthest behind ({low} each): the players choose who takes the free increase",
            spoken=rules.spoken(behind),
            low=low,
        )
    return {
        "summary": N_(
            "Round {round} of {rounds}: tokens returned, No Trump, High Wins; {who}",
            round=state["round"],
            rounds=state["rounds"],
            who=who,
        ),
        "furthest_behind": behind,
    }


def choose_furthest_behind(state: State, player: str, how: str = N_("chosen by the players")) -> dict[str, Any]:
    """Settle a tie for furthest behind: ``player`` (one of the tied) takes the free increase."""
    if state["phase"] != ROUND_START:
        raise RuleError(N_("who takes the free increase is settled at the start of a round"))
    require_player(state, player)
    if player not in state["furthest_behind"]:
        raise RuleError(
            N_(
                "{player} is not furthest behind; that is {spoken}",
                player=player,
                spoken=rules.spoken(state["furthest_behind"], "or"),
            )
        )
    state["chosen"] = player
    return {"summary": N_("{player} takes the free increase ({how})", player=player, how=how), "player": player}


def free_increase(state: State, track: str, player: str | None = None) -> dict[str, Any]:
    """The player furthest behind increases ``track`` and leads; everyone is dealt and collects tokens."""
    if state["phase"] != ROUND_START:
        raise RuleError(N_("the free increase is taken at the start of a round"))
    if player is not None:
        choose_furthest_behind(state, player)
    if state["chosen"] is None:
        raise RuleError(
            N_(
                "{spoken} tie for furthest behind: choose who takes the free increase, or press B for a random pick",
                spoken=rules.spoken(state["furthest_behind"]),
            )
        )
    who = state["chosen"]
    step = tracks.increase(state, who, track, f"round {state['round']} free increase")
    for p in state["players"]:
        tracks.pay_income(state, p)
    state["leader"] = who
    state["round_leader"] = who
    state["phase"] = TRICKS
    hands = ", ".join(f"{p} {state['hand'][p]}" for p in state["players"])
    return {
        "summary": N_(
            "Free increase: {text}; {who} leads round {round}; cards: {hands}",
            text=step["text"],
            who=who,
            round=state["round"],
            hands=hands,
        ),
        "step": step,
        "leader": who,
    }


def holders(state: State) -> list[str]:
    """Players still holding cards, in seating order."""
    return [p for p in state["players"] if state["hand"][p] > 0]


def next_holder(state: State, player: str) -> str | None:
    """``player`` if they still hold cards, else the next one clockwise who does."""
    seats = state["players"]
    start = seats.index(player)
    for step in range(len(seats)):
        candidate = seats[(start + step) % len(seats)]
        if state["hand"][candidate] > 0:
            return candidate
    return None


def check_round_end(state: State) -> str:
    """After a trick: "The round ends when only one player still holds cards." Returns words."""
    left = holders(state)
    if len(left) > 1:
        return ""
    if len(left) == 1:
        state["phase"] = REVEAL
        state["revealer"] = left[0]
        state["leader"] = None
        return (
            f"; only {left[0]} holds cards: the round ends and {left[0]} reveals "
            f"{plural(state['hand'][left[0]], 'card')} one at a time for their round bonuses"
        )
    return "; " + end_round(state)


def settle(state: State) -> str:
    """After a correction of cards in hand: who leads, and whether the round has ended. When that changes who
    plays the trick under way (a player holding cards or not, the leader, the phase), the cards played into it
    seat by seat go back to their hands and the trick is played again."""
    before = (state["phase"], state["leader"])
    words = _settle(state)
    playing = state.get("playing") or []
    holding = holders(state)
    played = [r["player"] for r in playing]
    stale = (state["phase"], state["leader"]) != before or any(p not in holding for p in played)
    if playing and (stale or all(p in played for p in holding)):  # all played: nobody left to judge it
        state["playing"] = []
        words = "; ".join(w for w in (words, "the cards played so far in this trick go back to their hands") if w)
    return words


def _settle(state: State) -> str:
    if state["phase"] == TRICKS and state["trick"] is None:
        end = check_round_end(state)
        if end:
            return end[2:]
        if state["hand"][state["leader"]] < 1:
            state["leader"] = next_holder(state, state["leader"])
            return f"{state['leader']} leads the next trick"
    if state["phase"] == REVEAL and state["hand"][state["revealer"]] < 1:
        return end_round(state)
    return ""


def end_round(state: State) -> str:
    """The round is over; after the last one the game is, and the ranking is final."""
    state["revealer"] = None
    state["leader"] = None
    if state["round"] >= state["rounds"]:
        state["phase"] = GAME_OVER
        state["ranking"] = ranking(state)
        top = state["ranking"][0]
        winners = [r["player"] for r in state["ranking"] if r["place"] == 1]
        return (
            f"round {state['round']} ends; game over: {' and '.join(winners)} "
            f"{'win' if len(winners) > 1 else 'wins'} with {top['vp']} VP and {top['increases']} track increases"
        )
    state["phase"] = ROUND_OVER
    return f"round {state['round']} ends"


def ranking(state: State) -> list[dict[str, Any]]:
    """Most VP first; "If VP are tied, the player with the most track increases takes it."

    Players equal on both share a place.
    """
    rows = [
        {"player": p, "vp": state["vp"][p], "increases": tracks.increases(state["boards"][p])} for p in state["players"]
    ]
    rows.sort(key=lambda r: (-r["vp"], -r["increases"]))
    for i, row in enumerate(rows):
        same = i > 0 and (rows[i - 1]["vp"], rows[i - 1]["increases"]) == (row["vp"], row["increases"])
        row["place"] = rows[i - 1]["place"] if same else i + 1
    return rows
