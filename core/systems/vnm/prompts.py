"""What the table is waiting for, in words a player reads, and the buttons' labels for now."""

from __future__ import annotations

from tableside.core.system import Prompt, State
from tableside.core.systems.vnm.state import current_player, current_world, many, ships_commanded, who
from tableside.core.text import N_


def choose_words(state: State) -> str:
    world = current_world(state)
    w = state["worlds"][world]
    can = ("build", "move", "attack") if w["on_board"] < w["fleet"] else ("move", "attack")
    if ships_commanded(state, world) and not (world == "Earth" and not state["earth_may_collect"]):
        can += ("collect",)
    if state["version"] == "Enhanced":
        can += ("research",)
    return CHOICES[can]


# One marked text per case (#38): a German phone reads the whole list in German, never "oder build, move".
CHOICES: dict[tuple[str, ...], str] = {
    ("build", "move", "attack"): N_("build, move or attack"),
    ("move", "attack"): N_("move or attack"),
    ("build", "move", "attack", "collect"): N_("build, move, attack or collect"),
    ("move", "attack", "collect"): N_("move, attack or collect"),
    ("build", "move", "attack", "research"): N_("build, move, attack or research"),
    ("move", "attack", "research"): N_("move, attack or research"),
    ("build", "move", "attack", "collect", "research"): N_("build, move, attack, collect or research"),
    ("move", "attack", "collect", "research"): N_("move, attack, collect or research"),
}


def choose_types(state: State) -> tuple[str, ...]:
    """The actions that answer "build, move, attack or collect", in the prompt's order."""
    words = choose_words(state)
    types = {"build": "build", "move": "move", "attack": "attack", "collect": "collect", "research": "choose_upgrade"}
    return tuple(t for w, t in types.items() if w in words)


def pending(state: State) -> list[Prompt]:
    if state["winners"]:
        return []
    world, seat = current_world(state), current_player(state)
    world = who(state, world)  # "Ann (Pluto)": the player and the world, as every screen names them
    waiting = state["pending_roll"]
    if waiting:
        return [
            Prompt(
                seat,
                N_("{world}: roll the {label} ({dice}d10)", world=world, label=waiting["label"], dice=waiting["dice"]),
                "follow_up_roll",
            )
        ]
    chosen = state["turn_action"]
    if chosen is None:
        drawn = state.get("drawn") or 0
        draw = N_("draw {cards}, then ", cards=many(drawn, "Zap card")) if drawn else ""
        if state["aim"] and not state["aim"].get("problem"):
            return [
                Prompt(
                    seat,
                    # the alternatives in brackets: a panel short of room drops them whole (docs/display.md),
                    # never item by item ("... at 51% or build" would read as the only other move)
                    N_(
                        "{world}: {draw}attack {target} at {chance} (or {choose_words})",
                        world=world,
                        draw=draw,
                        target=who(state, state["aim"]["target"]),
                        chance=state["aim"]["chance"],
                        choose_words=choose_words(state),
                    ),
                    "attack",
                    tuple(t for t in choose_types(state) if t != "attack"),
                )
            ]
        if state["upgrade_choice"]:
            return [
                Prompt(
                    seat,
                    N_(
                        "{world}: {draw}research {upgrade} ({chance})",
                        world=world,
                        draw=draw,
                        upgrade=state["upgrade_choice"]["upgrade"],
                        chance=state["upgrade_choice"]["chance"],
                    ),
                    "research",
                )
            ]
        words = N_("{world}: {draw}{choose_words}", world=world, draw=draw, choose_words=choose_words(state))
        return [Prompt(seat, words, None, choose_types(state))]
    left = chosen.get("left", 0)
    again = {
        "attack": ("attack", N_("attack again ({left} left)", left=left)),
        "population": ("collect", N_("collect {left} more", left=left)),
        "build": ("build", N_("build {left} more", left=left)),
        "research": ("research", N_("roll for research again")),
    }.get(chosen["kind"])
    if again and left > 0:
        return [
            Prompt(seat, N_("{world}: {again} or end the turn", world=world, again=again[1]), again[0], ("end_turn",))
        ]
    return [Prompt(seat, N_("{world}: end the turn (button C)", world=world), "end_turn")]


def button_labels(state: State) -> dict[tuple[str, bool], str]:
    out: dict[tuple[str, bool], str] = {}
    if state["winners"]:
        return {("A", False): "-", ("B", False): "-", ("C", False): "-"}
    if state["pending_roll"]:
        out[("A", False)] = out[("B", False)] = N_("Roll {label}", label=state["pending_roll"]["label"])
        return out
    aim = state["aim"]
    if aim and aim.get("target"):
        out[("A", False)] = N_("Attack {target}", target=who(state, aim["target"]))
    if state["version"] == "Enhanced" and state["upgrade_choice"]:
        out[("B", False)] = N_("Research {upgrade}", upgrade=state["upgrade_choice"]["upgrade"])
    else:
        out[("B", False)] = N_("Roll d10")
    return out


def up_next(state: State) -> str | None:
    """The seat whose turn follows: play passes to the left, world by world (a team's two planets are one seat)."""
    if state["winners"]:
        return None
    order, now = state["turn_order"], current_player(state)
    for step in range(1, len(order)):
        seat = state["players"][state["worlds"][order[(state["turn"] + step) % len(order)]]["player"]]["name"]
        if seat != now:
            return seat
    return None
