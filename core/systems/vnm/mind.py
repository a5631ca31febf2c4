"""Mind Control (Mars, Special; revised card): a spaceship takes over a target instead of attacking it.

"When you perform an attack action, each of your spaceships may either attack using your Weapon
Technology or use mind control to take over one target spaceship in the same area. Its original
owner no longer controls it — you do!" The controlled spaceship stays in its own colour on the board
(on its side), so its fleet's counts do not change; it is a row of ``state["controlled"]``, and from
Mars's next turn on it attacks and collects for Mars with its own Technology cards. Tableside does not
know where spaceships stand: "in the same area" is the table's to see, and releasing by area at the
end of a turn is the table's choice (Release a controlled spaceship); the total is checked.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Choice
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import (
    controlled,
    controls,
    current_world,
    game_over,
    many,
    own_ships,
    ships_commanded,
    who,
    whose,
    world_in_game,
)
from tableside.core.text import N_

MIND = "mind_control"  # the attack's weapon choice
WORDS = "Mind Control (take over the target, no roll)"


def has_mind_control(state: State, world: str) -> bool:
    """Mars's Special card, in the Enhanced game (Special cards are only in it)."""
    return state.get("version") == "Enhanced" and world == rules.MIND_CONTROL_WORLD


def check_may_use(state: State, world: str) -> None:
    """Only Mars holds the card."""
    if not has_mind_control(state, world):
        raise RuleError(
            N_("weapon: Mind Control is Mars's Special card (Enhanced game); {world} has not", world=who(state, world))
        )


def check_take_over(state: State, attacker: str, ship: str) -> None:
    """One of Mars's own spaceships takes over one target; "Each of your spaceships may only control one
    other spaceship at a time"."""
    check_may_use(state, attacker)
    if ship != attacker:
        raise RuleError(
            N_(
                "weapon: {ship}'s spaceship uses its own cards, not Mars's Special card, so it cannot use Mind Control",
                ship=who(state, ship),
            )
        )
    held, own = len(controls(state, attacker)), own_ships(state, attacker)
    if held >= own:
        raise RuleError(
            N_(
                "{attacker} controls {spaceships} with {own} on the board: each of its spaceships "
                "may only control one other spaceship at a time",
                attacker=who(state, attacker),
                spaceships=many(held, "spaceship"),
                own=many(own, "own spaceship"),
            )
        )


def take_over(state: State, plan: dict[str, Any]) -> str:
    """Records the take-over; the verdict in words."""
    attacker, target = plan["attacker"], plan["target"]
    state["controlled"] = [*controlled(state), {"ship": target, "by": attacker, "turn_no": state["turn_no"]}]
    return N_(
        "{attacker} takes over one of {target}'s spaceships by Mind Control: {attacker} controls "
        "it and uses it on their turns after this one",
        attacker=who(state, attacker),
        target=who(state, target),
    )


def ship_choices(state: State) -> list[Any]:
    """The spaceship that attacks: one of the player's own, or one they control (named by its colour)."""
    if not state.get("worlds"):
        return []
    world = current_world(state)
    out = [Choice(world, N_("{world}'s own spaceship", world=who(state, world)))]
    for fleet in sorted({c["ship"] for c in controls(state, world)}):
        out.append(
            Choice(
                fleet,
                N_("{fleet}'s spaceship, controlled by {world}", fleet=who(state, fleet), world=who(state, world)),
            )
        )
    return out


def commands_others(state: State) -> bool:
    """The attack form asks which spaceship attacks only when the player controls one."""
    return bool(state.get("worlds")) and bool(controls(state, current_world(state)))


def attacking_ship(state: State, action: Action) -> str:
    """The fleet whose Technology cards the attacking spaceship uses: the attacker's own, or a controlled
    spaceship's ("the controlled spaceship uses its own Movement, Weapon, and Defense Tech cards, not yours"),
    usable "On each of your turns after this one"."""
    world = current_world(state)
    ship = action.get("ship") or world
    if ship == world:
        return world
    ship = world_in_game(state, ship, "ship")
    mine = [c for c in controls(state, world) if c["ship"] == ship]
    if not mine:
        raise RuleError(
            N_("ship: {world} controls no spaceship of {ship}", world=who(state, world), ship=who(state, ship))
        )
    if all(c["turn_no"] == state["turn_no"] for c in mine):
        raise RuleError(
            N_(
                "ship: {world} took over {ship}'s spaceship this turn; it can be used on each of their "
                "turns after this one",
                world=who(state, world),
                ship=who(state, ship),
            )
        )
    return ship


def check_target_left(state: State, attacker: str, target: str) -> None:
    """A fleet whose spaceships on the board are all controlled by the attacker has none to attack."""
    mine = sum(1 for c in controls(state, attacker) if c["ship"] == target)
    if mine and state["worlds"][target]["on_board"] - mine <= 0:
        raise RuleError(
            N_(
                "target: every spaceship of {target} on the board is one {attacker} controls",
                target=who(state, target),
                attacker=who(state, attacker),
            )
        )


def trim(state: State) -> None:
    """A controlled spaceship that is no longer on the board (destroyed, lost to a card) is no longer
    controlled: a fleet never has more rows than spaceships on the board (the newest go first)."""
    rows = controlled(state)
    if not rows:
        return
    kept: list[dict[str, Any]] = []
    for row in reversed(rows):
        if sum(1 for k in kept if k["ship"] == row["ship"]) < state["worlds"][row["ship"]]["on_board"]:
            kept.append(row)
    state["controlled"] = list(reversed(kept))


def end_of_turn(state: State) -> list[str]:
    """ "If, at the end of any turn, you do not have as many spaceships in an area as there are controlled
    spaceships in that area, you must release controlled spaceships of your choice": Tableside checks the
    totals. With one fleet to release there is no choice to make; with several the table chooses."""
    notes = []
    for by in sorted({c["by"] for c in controlled(state)}):
        excess = len(controls(state, by)) - own_ships(state, by)
        if excess <= 0:
            continue
        fleets = {c["ship"] for c in controls(state, by)}
        if len(fleets) > 1:
            raise RuleError(
                N_(
                    "{by} controls {spaceships} with {own} on the board: release {excess} of their "
                    "choice first (Release a controlled spaceship)",
                    by=who(state, by),
                    spaceships=many(len(controls(state, by)), "spaceship"),
                    own=many(own_ships(state, by), "own spaceship"),
                    excess=excess,
                )
            )
        ship = fleets.pop()
        notes += [_release(state, by, ship) for _ in range(excess)]
    return notes


def _release(state: State, by: str, ship: str) -> str:
    rows = controlled(state)
    last = max(i for i, c in enumerate(rows) if c["by"] == by and c["ship"] == ship)
    state["controlled"] = rows[:last] + rows[last + 1 :]
    return N_(
        "{by} releases {ship}'s spaceship back to {ship}: {by} now controls {spaceships}",
        by=who(state, by),
        ship=who(state, ship),
        spaceships=many(len(controls(state, by)), "spaceship"),
    )


def release_closed(state: State, seat: str | None = None) -> str | None:
    return game_over(state) or (None if controlled(state) else N_("no spaceship is controlled by Mind Control"))


def released_choices(state: State) -> list[Any]:
    return [
        Choice(f, N_("{fleet}'s spaceship, controlled by {by}", fleet=who(state, f), by=who(state, _by(state, f))))
        for f in sorted({c["ship"] for c in controlled(state)})
    ]


def _by(state: State, ship: str) -> str:
    return next(c["by"] for c in reversed(controlled(state)) if c["ship"] == ship)


def release_ship(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Back to its original owner: the end-of-turn rule by area, which only the table sees, or a mistake."""
    ship = world_in_game(state, action["ship"], "ship")
    if not any(c["ship"] == ship for c in controlled(state)):
        raise RuleError(N_("ship: no spaceship of {ship} is controlled by Mind Control", ship=who(state, ship)))
    by = _by(state, ship)
    return state, {"summary": _release(state, by, ship), "controlled": controlled(state)}


def lines(state: State) -> list[str]:
    """Whose each controlled spaceship is now, for the screen: "Bob (Mars) controls 1 of Cy (Pluto)'s spaceships"."""
    out = []
    for by in sorted({c["by"] for c in controlled(state)}):
        for fleet in sorted({c["ship"] for c in controls(state, by)}):
            n = sum(1 for c in controls(state, by) if c["ship"] == fleet)
            out.append(f"{who(state, by)} controls {n} of {whose(state, fleet)} spaceships (Mind Control)")
    return out


def counts(state: State) -> None:
    """The fleet counts say whose the spaceships are now (derived): ``controls`` (others' spaceships this
    world controls), ``taken`` (its own that another controls) and ``commands`` (what it acts with)."""
    for world, w in state["worlds"].items():
        w["controls"] = len(controls(state, world))
        w["taken"] = w["on_board"] - own_ships(state, world)
        w["commands"] = ships_commanded(state, world)
