"""What must always hold in a Venus Needs Men state, and the numbers a correction may set.

The laws: population is never created or lost (Earth, home worlds, the Refuge and the destroyed
pile add up to the game's total), every player's Zap cards add up to those dealt, and ships on the
board never exceed the fleet. A correction of a population or Zap count balances against a pile.
"""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.system import State, Tracked
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import check_winners, many, player_label, population_total, who

# --- conservation laws ------------------------------------------------------------------------


def broken(state: State) -> list[str]:
    broken = []
    total = population_total(state)
    if total != state["total_population"]:
        broken.append(
            f"population: {total} on Earth, home worlds, the Refuge and the destroyed pile, "
            f"the game has {state['total_population']}"
        )
    for a in state["land_areas"]:
        if a["population"] < 0 or a["infected"] < 0:
            broken.append(f"population: {a['name']} below zero")
    if state["destroyed"] < 0:
        broken.append("population: the destroyed pile below zero")
    dealt = state["zap_dealt"] * len(state["players"])
    for i, p in enumerate(state["players"]):
        z = p["zap"]
        if z["deck"] + z["hand"] + z["discard"] != state["zap_dealt"]:
            broken.append(
                f"Zap cards: {player_label(state, i)} has {z['deck'] + z['hand'] + z['discard']} in deck, hand and "
                f"discard, and was dealt {state['zap_dealt']}"
            )
        if min(z["deck"], z["hand"], z["discard"]) < 0 or z["hand"] > rules.ZAP_HAND:
            broken.append(f"Zap cards: {player_label(state, i)} holds {z['hand']} (a hand holds 0 to three)")
    if dealt + state["zap_set_aside"] != rules.ZAP_CARDS:
        broken.append(
            f"Zap cards: {dealt} dealt and {state['zap_set_aside']} set aside, the game has {rules.ZAP_CARDS}"
        )
    for world, w in state["worlds"].items():
        if not 0 <= w["on_board"] <= w["fleet"]:
            broken.append(f"ships: {who(state, world)} has {w['on_board']} on the board, the fleet is {w['fleet']}")
        if w["population"] < 0:
            broken.append(f"population: {who(state, world)} below zero")
    return broken


# --- corrections ----------------------------------------------------------------------------


def tracked(state: State) -> list[Tracked]:
    total = state["total_population"]
    out = []
    for i, a in enumerate(state["land_areas"]):
        out.append(Tracked(f"land_areas.{i}.population", f"{a['name']}: population", a["population"], 0, total))
        if state["version"] == "Enhanced":
            out.append(Tracked(f"land_areas.{i}.infected", f"{a['name']}: infected", a["infected"], 0, total))
    for world, w in state["worlds"].items():
        where = f" in the {rules.REFUGE}" if world == "Earth" else ""
        label = f"{who(state, world)}: population{where}"
        out.append(Tracked(f"worlds.{world}.population", label, w["population"], 0, total))
    for world, w in state["worlds"].items():
        label = f"{who(state, world)}: spaceships on the board"
        out.append(Tracked(f"worlds.{world}.on_board", label, w["on_board"], 0, w["fleet"]))
    for i, p in enumerate(state["players"]):
        z, name = p["zap"], player_label(state, i)
        out.append(Tracked(f"players.{i}.zap.hand", f"{name}: Zap cards in hand", z["hand"], 0, rules.ZAP_HAND))
        out.append(
            Tracked(f"players.{i}.zap.discard", f"{name}: Zap discard pile", z["discard"], 0, state["zap_dealt"])
        )
    return out


def correct(state: State, key: str, value: int) -> State:
    """Population and Zap corrections keep their totals: the difference comes from (or goes to) a pile.

    A population number balances against the destroyed pile (fix "China 24 -> 22" then "Venus 3 -> 5":
    the 2 pass through it); Zap cards in hand balance against the deck, the discard pile against the hand.
    """
    parts = key.split(".")
    if parts[-1] in ("population", "infected"):
        node = state["land_areas"][int(parts[1])] if parts[0] == "land_areas" else state["worlds"][parts[1]]
        delta = value - node[parts[-1]]
        if state["destroyed"] - delta < 0:
            raise RuleError(
                f"correct: {delta} more population must come from somewhere, and the destroyed pile "
                f"holds {state['destroyed']}; lower the number that is too high first (the "
                "difference goes to the destroyed pile)"
            )
        state["destroyed"] -= delta
        node[parts[-1]] = value
        state["winners"] = []
        check_winners(state)
        return state
    if parts[0] == "players":
        zap = state["players"][int(parts[1])]["zap"]
        source = "deck" if parts[-1] == "hand" else "hand"
        delta = value - zap[parts[-1]]
        if zap[source] - delta < 0:
            raise RuleError(
                f"correct: the {source} holds {many(zap[source], 'Zap card')}, so {delta} cannot come from it"
            )
        if source == "hand" and zap["hand"] - delta > rules.ZAP_HAND:
            raise RuleError(f"correct: the hand would hold {zap['hand'] - delta} Zap cards; a hand holds three")
        zap[source] -= delta
        zap[parts[-1]] = value
        return state
    state["worlds"][parts[1]]["on_board"] = value
    return state
