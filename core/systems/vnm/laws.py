"""What must always hold in a Venus Needs Men state, and the numbers a correction may set.

The laws: population is never created or lost (Earth, home worlds, the Refuge and the destroyed
pile add up to the game's total), every player's Zap cards add up to those dealt, and ships on the
board never exceed the fleet. A correction of a population or Zap count balances against a pile.
"""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.system import State, Tracked
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import check_winners, many, player_label, population_total, taken_from, who
from tableside.core.text import N_

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
    return broken + _control_broken(state)


def _control_broken(state: State) -> list[str]:
    """Mind Control: a controlled spaceship is on the board in its own colour, held by another team."""
    out = []
    for row in state.get("controlled") or []:
        ship, by = row["ship"], row["by"]
        if ship not in state["worlds"] or by not in state["worlds"]:
            out.append(f"ships: a spaceship controlled by Mind Control names a planet not in this game ({ship}, {by})")
        elif state["worlds"][ship]["player"] == state["worlds"][by]["player"]:
            out.append(f"ships: {who(state, by)} controls a spaceship of its own team ({who(state, ship)})")
    for world, w in state["worlds"].items():
        if taken_from(state, world) > w["on_board"]:
            broken = f"{taken_from(state, world)} controlled, {w['on_board']} on the board"
            out.append(f"ships: {who(state, world)} has {broken}")
    return out


# --- corrections ----------------------------------------------------------------------------


DESTROYED = "destroyed"  # the destroyed pile's key (a tracked number of the population group)
POPULATION = "population"  # the balance group: chips move between land areas, home worlds and the destroyed pile


def tracked(state: State) -> list[Tracked]:
    total = state["total_population"]
    out = []

    def chips(key: str, label: str, value: int, pile: str) -> Tracked:
        # Chips only move between these numbers: a correction names the one the difference comes from or goes to.
        return Tracked(key, label, value, 0, total, balance=POPULATION, pile=pile)

    for i, a in enumerate(state["land_areas"]):
        out.append(chips(f"land_areas.{i}.population", N_("{a}: population", a=a["name"]), a["population"], a["name"]))
        if state["version"] == "Enhanced":
            infected = f"{a['name']} (infected)"
            out.append(chips(f"land_areas.{i}.infected", N_("{a}: infected", a=a["name"]), a["infected"], infected))
    for world, w in state["worlds"].items():
        refuge = world == "Earth"
        label = N_("{world}: population", world=who(state, world)) + (
            N_(" in the {refuge}", refuge=rules.REFUGE) if refuge else ""
        )
        # Named as the population bars name the player (Earth's chips lie in the Refuge), so a bar finds its number.
        out.append(chips(f"worlds.{world}.population", label, w["population"], who(state, world)))
    out.append(chips(DESTROYED, N_("Destroyed pile"), state["destroyed"], "the destroyed pile"))
    for world, w in state["worlds"].items():
        label = N_("{world}: spaceships on the board", world=who(state, world))
        out.append(Tracked(f"worlds.{world}.on_board", label, w["on_board"], 0, w["fleet"]))
    for i, p in enumerate(state["players"]):
        z, name = p["zap"], player_label(state, i)
        out.append(
            Tracked(f"players.{i}.zap.hand", N_("{name}: Zap cards in hand", name=name), z["hand"], 0, rules.ZAP_HAND)
        )
        out.append(
            Tracked(
                f"players.{i}.zap.discard",
                N_("{name}: Zap discard pile", name=name),
                z["discard"],
                0,
                state["zap_dealt"],
            )
        )
    return out


def _chips(state: State, key: str) -> tuple[dict, str]:
    """The node holding a pile's chips and its field: ``land_areas.2.population`` -> (China, "population")."""
    if key == DESTROYED:
        return state, "destroyed"
    parts = key.split(".")
    node = state["land_areas"][int(parts[1])] if parts[0] == "land_areas" else state["worlds"][parts[1]]
    return node, parts[-1]


def correct(state: State, key: str, value: int, balance: str | None = None) -> State:
    """Population and Zap corrections keep their totals: the difference comes from (or goes to) a pile.

    A population number moves chips from (or to) the pile named by ``balance`` (China, another home
    world, the destroyed pile): one correction "Venus 0 -> 1, from China". Without it the difference
    passes through the destroyed pile. Zap cards in hand balance against the deck, the discard pile
    against the hand.
    """
    parts = key.split(".")
    if key == DESTROYED and not balance:
        raise RuleError(N_("Destroyed pile: say where the chips come from or go to (a land area, a home world)"))
    if key == DESTROYED or parts[-1] in ("population", "infected"):
        node, field = _chips(state, key)
        source, pile = _chips(state, balance or DESTROYED)
        delta = value - node[field]
        if source[pile] - delta < 0:
            label = next(t.label for t in tracked(state) if t.key == key)
            raise RuleError(
                N_(
                    "{label}: {chips} must come from somewhere, and the destroyed pile holds {destroyed}: say "
                    "where from (a land area, a home world), or lower the number that is too high first",
                    label=label,
                    chips=many(delta, "more chip"),
                    destroyed=state["destroyed"],
                )
            )
        source[pile] -= delta
        node[field] = value
        state["winners"] = []
        check_winners(state)
        return state
    if parts[0] == "players":
        zap = state["players"][int(parts[1])]["zap"]
        source = "deck" if parts[-1] == "hand" else "hand"
        delta = value - zap[parts[-1]]
        if zap[source] - delta < 0:
            raise RuleError(
                N_(
                    "Zap cards: the {source} holds {cards}, so {delta} cannot come from it",
                    source=source,
                    cards=many(zap[source], "Zap card"),
                    delta=delta,
                ),
                rule="discard",
            )
        if source == "hand" and zap["hand"] - delta > rules.ZAP_HAND:
            raise RuleError(
                N_("Zap cards: the hand would hold {hand} Zap cards; a hand holds three", hand=zap["hand"] - delta),
                rule="hand",
            )
        zap[source] -= delta
        zap[parts[-1]] = value
        return state
    state["worlds"][parts[1]]["on_board"] = value
    return state
