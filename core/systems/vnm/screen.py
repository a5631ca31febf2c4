"""What the e-paper shows: population against the threshold, Earth, fleets, Zap counts, the roll.

Strings stay short (the smallest panel is 250x122); the renderer lays them out.
"""

from __future__ import annotations

from tableside.core.system import RollView, Row, Screen, Section, State, roll_view
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.table import current_world, team_population, winner_names


def screen(state: State) -> Screen:
    world = current_world(state)
    chosen = state["turn_action"]
    doing = rules.ACTIONS[chosen["kind"]] if chosen else "choose action"
    if chosen and chosen["extensions"]:
        doing += f" +{chosen['extensions']} Zap"
    team = state["players"][state["worlds"][world]["player"]]
    who = f"{world} ({team['name']})" if len(team["home_worlds"]) > 1 else world
    status = f"R{state['round']} {who}: {doing}"
    sections = (_population(state), _earth(state), _fleets(state), _zap(state), *_next(state))
    return Screen(title="Venus Needs Men", status=status, sections=sections, roll=_roll(state),
                  alert=_alert(state))


def _population(state: State) -> Section:
    limit = state["threshold"]
    current = state["worlds"][current_world(state)]["player"]
    rows = tuple(
        Row(p["name"], f"{team_population(state, i)}/{limit}", bar=(team_population(state, i), limit),
            accent=i == current)
        for i, p in enumerate(state["players"])
    )
    return Section(f"Population (win {limit})", rows)


def _earth(state: State) -> Section:
    rows = []
    for area in state["land_areas"]:
        mark = "*" if area["source"] == "players confirm" else ""
        value = str(area["population"])
        if area["infected"]:
            value += f" +{area['infected']} inf"
        rows.append(Row(area["name"] + mark, value))
    left = sum(a["population"] + a["infected"] for a in state["land_areas"])
    return Section(f"Earth ({left} left)", tuple(rows))


def _fleets(state: State) -> Section:
    rows = tuple(
        Row(world, f"{w['on_board']} out, {w['fleet'] - w['on_board']} reserve")
        for world, w in state["worlds"].items()
    )
    return Section("Ships", rows)


def _zap(state: State) -> Section:
    rows = tuple(
        Row(p["name"], f"D{p['zap']['deck']} H{p['zap']['hand']} X{p['zap']['discard']}")
        for p in state["players"]
    )
    return Section("Zap deck/hand/discard", rows)


def _next(state: State) -> tuple[Section, ...]:
    rows = []
    aim = state["aim"]
    if aim:
        rows.append(Row("A attack", aim["text"]))
    choice = state["upgrade_choice"]
    if choice:
        rows.append(Row("B research", f"{choice['upgrade']} {choice['roll_needed']}+: {choice['chance']}"))
    return (Section("Next roll", tuple(rows)),) if rows else ()


def _roll(state: State) -> RollView | None:
    last = state["last_roll"]
    if not last:
        return None
    if "verdict" not in last:  # the core's free roll
        return roll_view(last)
    return RollView(label=last["label"], faces=tuple(last["rolls"]), hits=tuple(last["hits"]),
                    verdict=last["verdict"])


def _alert(state: State) -> str | None:
    if state["winners"]:
        if len(state["winners"]) > 1:
            return f"Shared victory: {winner_names(state)}!"
        return f"{winner_names(state)} wins!"
    if state["pending_roll"]:
        return f"Roll the {state['pending_roll']['label']} (B)"
    if state["turn_action"] is None and state["prompt"]:
        return state["prompt"]
    if state["round"] == 1 and state["turn"] == 0 and state["warnings"]:
        return " / ".join(state["warnings"])
    return None
