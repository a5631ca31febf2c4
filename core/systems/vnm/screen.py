"""What the e-paper shows, as the screen model: population against the threshold first, then the roll.

Priorities decide what a small panel keeps (1 is never dropped): on a 212x104
pHAT the population bars and the whose-turn prompt stay; the roll of this turn
and the declared target's odds come next; Earth's land areas, the fleets and
the Zap counts are dropped first. Every row names its player as every screen does
("Ann (Venus)", ``state.label_of``/``who``) in the player's colour, their world's in the
rulebook (a ``core.screen.PLAYER_INKS`` index, never RGB: the panel decides what it can show).
"""

from __future__ import annotations

from tableside.core.recap_screen import game_end
from tableside.core.screen import PLAYER_INKS, Bar, Bars, Grid, GridRow, Screen, Text
from tableside.core.system import State, TableRoll
from tableside.core.systems.vnm import fleet, mind, rules
from tableside.core.systems.vnm.state import current_world, player_label, team_population, who, winner_names
from tableside.core.text import N_


def screen(state: State, roll: TableRoll | None = None) -> Screen:
    elements = [_population(state)]
    if roll is not None:  # the roll on the table, while its turn lasts (the core decides)
        elements.append(roll.group(priority=2))
    aim = None if state["winners"] else _next_roll(state)  # no roll is next once the game is won
    if aim:
        elements.append(aim)
    elements += [_earth_left(state), _earth(state), _fleets(state), _zap(state)]
    elements += [Text(line, priority=3) for line in mind.lines(state)]  # whose each controlled spaceship is now
    if state["round"] == 1 and state["turn"] == 0 and state["warnings"] and not state["turn_action"]:
        elements.append(Text(" / ".join(state["warnings"]), priority=5))
    shown = Screen(
        title="Venus Needs Men",
        status=_status(state),
        elements=tuple(elements),
        alert=_alert(state),
        players=tuple(p["name"] for p in state["players"]),
    )
    if not state["winners"]:
        return shown
    ranked = sorted(range(len(state["players"])), key=lambda i: -team_population(state, i))
    scores = [(player_label(state, i), team_population(state, i)) for i in ranked]
    over = N_("Game over in Round {round}", round=state["round"])
    return game_end(shown, [player_label(state, i) for i in state["winners"]], scores, status=over)


def _status(state: State) -> str:
    world = current_world(state)
    chosen = state["turn_action"]
    doing = rules.ACTIONS[chosen["kind"]] if chosen else N_("choose action")
    if chosen and chosen.get("left"):
        doing = N_("{action} ({left} left)", action=doing, left=chosen["left"])
    if chosen and chosen["extensions"]:
        doing = N_("{doing} +{zap} Zap", doing=doing, zap=chosen["extensions"])
    return N_("R{round} {who}: {doing}", round=state["round"], who=who(state, world), doing=doing)


def world_colour(world: str) -> int:
    """The world's colour in the rulebook ("Venus (Purple)"), as a screen colour index (PLAYER_INKS)."""
    return PLAYER_INKS.index(rules.COLOURS[rules.PLANETS.index(world)].lower())


def player_colour(state: State, index: int) -> int:
    """A player's one colour on every screen: their (first) home world's; a team's first planet's."""
    return world_colour(state["players"][index]["home_worlds"][0])


def _population(state: State) -> Bars:
    limit = state["threshold"]
    current = state["worlds"][current_world(state)]["player"]
    bars = tuple(
        Bar(
            player_label(state, i),
            team_population(state, i),
            limit,
            colour=player_colour(state, i),
            note=N_("turn") if i == current else "",
        )
        for i, p in enumerate(state["players"])
    )
    return Bars(N_("Population"), bars, threshold=limit, priority=1)  # the renderer adds "wins at N"


def _next_roll(state: State) -> Text | None:
    aim = state["aim"]
    # The declared target's chance while A can attack it: not once the turn's attacks are used up, or the turn
    # chose another action (A then only refuses; a playthrough saw "51% to destroy" under "end the turn").
    if aim and aim.get("text") and fleet.attack_closed(state) is None:
        return Text(f"A: {aim['text']}", priority=2, tone="alert" if aim.get("problem") else "normal")
    choice = state["upgrade_choice"]
    if choice:
        return Text(f"B: {choice['upgrade']} {choice['roll_needed']}+ ({choice['chance']})", priority=2)
    return None


def _earth_left(state: State) -> Text:
    """Earth's population left: a line, not a key figure, so the race bars stay the biggest thing."""
    left = sum(a["population"] + a["infected"] for a in state["land_areas"])
    return Text(N_("Earth: {left} left", left=left), priority=3)


def _earth(state: State) -> Grid:
    rows = []
    for n, area in enumerate(state["land_areas"]):
        mark = "*" if area["source"] == "players confirm" else ""
        cells = (
            (str(area["population"]), str(area["infected"]))
            if state["version"] == "Enhanced"
            else (str(area["population"]),)
        )
        fix = (f"land_areas.{n}.population", f"land_areas.{n}.infected")[: len(cells)]
        rows.append(GridRow(area["name"] + mark, cells, fix=fix))
    if state["destroyed"]:
        rows.append(
            GridRow(
                N_("Destroyed"),
                (str(state["destroyed"]),) + (("",) if state["version"] == "Enhanced" else ()),
                fix=("destroyed",),
            )
        )
    columns = (N_("left"), N_("inf")) if state["version"] == "Enhanced" else (N_("left"),)
    return Grid("Earth", columns, tuple(rows), priority=4)


def _fleets(state: State) -> Grid:
    now = current_world(state)
    rows = tuple(
        GridRow(
            who(state, world),
            (str(w["on_board"]), str(w["fleet"] - w["on_board"])),
            highlight=world == now,
            colour=world_colour(world),
            fix=(f"worlds.{world}.on_board", ""),
        )
        for world, w in state["worlds"].items()
    )
    return Grid(N_("Ships"), (N_("out"), N_("reserve")), rows, priority=3)


def _zap(state: State) -> Grid:
    turn = state["worlds"][current_world(state)]["player"]
    rows = tuple(
        GridRow(
            player_label(state, i),
            (str(p["zap"]["deck"]), str(p["zap"]["hand"]), str(p["zap"]["discard"])),
            highlight=i == turn,
            colour=player_colour(state, i),
            fix=("", f"players.{i}.zap.hand", f"players.{i}.zap.discard"),
        )
        for i, p in enumerate(state["players"])
    )
    return Grid(N_("Zap"), (N_("deck"), N_("hand"), N_("discard")), rows, priority=4)


def _alert(state: State) -> str | None:
    if state["winners"]:
        if len(state["winners"]) > 1:
            return N_("Shared victory: {names}!", names=winner_names(state))
        return N_("{names} wins!", names=winner_names(state))
    return None
