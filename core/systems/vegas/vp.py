"""Victory points with a floor, kept as a ledger so every point can be accounted for.

Every gain or loss is written to ``state["vp_log"]`` as ``{player, asked, applied,
capped, reason}``. Unless the players allowed it at setup (``vp_below_zero``), VP
never go below zero: a loss larger than what the player has is capped, and the
entry and the summary say so. ``ledger_problems`` re-adds the ledger for the
conservation law: each player's VP equal the sum of their applied changes, and
each applied change is what the floor allows.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def floor_applies(state: State) -> bool:
    return not state["vp_below_zero"]


def allowed_change(vp: int, asked: int, floor: bool) -> int:
    """The part of a change that happens: a loss stops at 0 VP when the floor applies."""
    if floor and asked < 0 and vp + asked < 0:
        return -max(vp, 0)
    return asked


def change_vp(state: State, player: str, asked: int, reason: str) -> dict[str, Any]:
    """Apply a gain (asked > 0) or loss (asked < 0) to ``player``; returns the ledger entry."""
    before = state["vp"][player]
    applied = allowed_change(before, asked, floor_applies(state))
    state["vp"][player] = before + applied
    entry = {"player": player, "asked": asked, "applied": applied, "capped": applied != asked, "reason": reason}
    state["vp_log"].append(entry)
    return entry


def describe(entry: dict[str, Any]) -> str:
    """Words for one entry: "Ann +2 VP", "Bob -1 VP", "Cy loses 0 of 1 VP (VP never go below zero)"."""
    player, asked, applied = entry["player"], entry["asked"], entry["applied"]
    if entry["capped"]:
        return f"{player} loses {-applied} of {-asked} VP (VP never go below zero)"
    return f"{player} {applied:+d} VP"


def ledger_problems(state: State) -> list[str]:
    """Broken VP laws, in words; [] when every player's VP match their ledger and the floor."""
    floor = floor_applies(state)
    running = {p: 0 for p in state["players"]}
    problems: list[str] = []
    for n, entry in enumerate(state["vp_log"], start=1):
        player = entry["player"]
        if player not in running:
            problems.append(f"VP ledger entry {n} names {player!r}, who is not playing")
            continue
        expected = allowed_change(running[player], entry["asked"], floor)
        if entry["applied"] != expected:
            problems.append(
                f"VP ledger entry {n}: {player} {entry['asked']:+d} should apply {expected:+d}, "
                f"not {entry['applied']:+d}"
            )
        running[player] += entry["applied"]
    for player in state["players"]:
        if state["vp"][player] != running[player]:
            problems.append(
                f"{player} has {state['vp'][player]} VP but the gains and losses add up to {running[player]}"
            )
        if floor and state["vp"][player] < 0:
            problems.append(f"{player} has {state['vp'][player]} VP: VP never go below zero in this game")
    return problems
