"""What must always hold in a Venusian Vegas state, and the numbers a correction may set.

The laws: VP equal the ledger's gains and losses (with the floor); track levels 1-5; no negative
tokens or cards; no card played twice in a round, none in two entered hands. A VP correction goes into
the ledger, so VP still add up afterwards.
"""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.system import State, Tracked
from tableside.core.systems.vegas import hands, rounds, rules, tracks, vp
from tableside.core.text import N_

MAX_HAND = 99  # a correction's ceiling for cards in hand or tokens: far above anything the game reaches


def _split_key(state: State, key: str) -> tuple[str, str, str | None]:
    """ "vp.0" -> ("vp", "Ann", None); "boards.1.Team" -> ("boards", "Bob", "Team"). Indexes, since names
    may hold dots."""
    parts = key.split(".")
    if len(parts) not in (2, 3) or not parts[1].isdigit() or int(parts[1]) >= len(state["players"]):
        raise RuleError(N_("correct: {key} is not a number that can be set", key=repr(key)))
    return parts[0], state["players"][int(parts[1])], parts[2] if len(parts) == 3 else None


def broken(state: State) -> list[str]:
    """VP equal the ledger's gains and losses (with the floor); levels 1-5; no negative tokens or cards;
    no card played twice in a round."""
    return vp.ledger_problems(state) + tracks.problems(state) + hands.problems(state)


def tracked(state: State) -> list[Tracked]:
    out: list[Tracked] = []
    for i, p in enumerate(state["players"]):
        floor = 0 if vp.floor_applies(state) else None
        out.append(Tracked(f"vp.{i}", N_("{player}'s VP", player=p), state["vp"][p], floor, None))
        out.append(Tracked(f"hand.{i}", N_("{player}'s cards in hand", player=p), state["hand"][p], 0, MAX_HAND))
        for t in rules.TRACKS:
            out.append(
                Tracked(
                    f"boards.{i}.{t}",
                    N_("{player}'s {track} track level", player=p, track=t),
                    state["boards"][p][t],
                    rules.BOTTOM_LEVEL,
                    rules.TOP_LEVEL,
                )
            )
        for c in rules.TOKEN_COLOURS:
            out.append(
                Tracked(
                    f"tokens.{i}.{c}",
                    N_("{player}'s {colour} tokens", player=p, colour=c),
                    state["tokens"][p][c],
                    0,
                    MAX_HAND,
                )
            )
    return out


def correct(state: State, key: str, value: int) -> State:
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
        raise RuleError(N_("correct: {key} is not a number that can be set", key=repr(key)))
    return state
