"""Inn's law (the coins held and in the purse make 10) and the numbers a correction may set."""

from __future__ import annotations

from tableside.core.system import Tracked

COINS = 10


def broken(state):
    held = sum(state["coins"].values()) + state["purse"]
    out = [f"coins held and in the purse make {held}, not {COINS}"] if held != COINS else []
    if state["purse"] < 0:
        out.append("the purse is below 0")
    if state["purse"] > 8:
        out.append("the purse holds at most 8")
    return out


def tracked(state):
    return [
        Tracked("coins.Ann", "Ann's coins", state["coins"]["Ann"], 0, 9, balance="coins", pile="Ann's pocket"),
        Tracked("coins.Bob", "Bob's coins", state["coins"]["Bob"], 0, 9, balance="coins"),
        Tracked("purse", "Purse", state["purse"], 0, None, balance="coins", pile="the purse"),
        Tracked("pips", "Pips", state["pips"], None, 30),
        Tracked("cellar.racks.1", "Second rack", state["cellar"]["racks"][1], 0, 9),
    ]


def correct(state, key, value, balance=None):
    """Set the number; a balance pile (another number of the coins) gives or takes the difference."""
    before = _read(state, key)
    _write(state, key, value)
    if balance:
        _write(state, balance, _read(state, balance) - (value - before))
    return state


def _read(state, key):
    *path, last = key.split(".")
    node = state
    for part in path:
        node = node[part]
    return node[int(last)] if isinstance(node, list) else node[last]


def _write(state, key, value):
    *path, last = key.split(".")
    node = state
    for part in path:
        node = node[part]
    node[int(last) if isinstance(node, list) else last] = value
