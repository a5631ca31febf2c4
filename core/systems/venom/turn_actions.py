"""Handlers for the Commander, the Turn Order, the Event deck, single dice and scoring."""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.systems.venom import combat, deck, rules, scoring, turns
from tableside.core.systems.venom.state import (
    State,
    active_name,
    player_index,
    refresh,
    require_playing,
    require_text,
    reset_tracks,
    start_game,
)

Result = dict[str, Any]


def _roll_record(expr: str, faces: list[int], label: str) -> dict[str, Any]:
    """``last_roll`` in the same shape as the core's free roll, plus a label."""
    return {
        "expr": expr, "rolls": faces, "kept": faces, "successes": None, "total": sum(faces), "label": label,
    }


# --- Commander Token ---------------------------------------------------------------


def commander_roll_off(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """All players roll one die; ties for the highest re-roll, only among the tied."""
    if state["phase"] != rules.SETUP:
        raise RuleError("commander_roll_off: the Commander is already chosen and never changes")
    contenders: list[int] = state["roll_off"]["contenders"]
    faces = ctx.dice.faces("Roll-off", len(contenders))
    names = [state["players"][p]["name"] for p in contenders]
    state["roll_off"]["rounds"].append({"players": names, "faces": faces})
    state["last_roll"] = _roll_record(f"{len(faces)}d6", faces, "Roll-off")
    commander, tied = turns.roll_off(contenders, faces)
    rolled = ", ".join(f"{n} {f}" for n, f in zip(names, faces, strict=True))
    if commander is None:
        state["roll_off"]["contenders"] = tied
        tied_names = " and ".join(state["players"][p]["name"] for p in tied)
        summary = f"Roll-off {rolled}: {tied_names} tie on {max(faces)} and re-roll"
        return refresh(state), {"summary": summary, "commander": None, "tied": tied_names.split(" and ")}
    start_game(state, commander)
    name = state["players"][commander]["name"]
    summary = f"Roll-off {rolled}: {name} is the Commander; Round 1, Event Phase"
    return refresh(state), {"summary": summary, "commander": name}


def set_commander(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """The players chose the Commander by hand instead of rolling off."""
    if state["phase"] != rules.SETUP:
        raise RuleError("set_commander: the Commander is already chosen and never changes")
    commander = player_index(state, action["player"])
    start_game(state, commander)
    name = state["players"][commander]["name"]
    return refresh(state), {"summary": f"{name} is the Commander; Round 1, Event Phase", "commander": name}


# --- Turn Order ----------------------------------------------------------------------


def next_phase(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Move to the next phase; after End of Turn, the next player's Turn (clockwise)."""
    require_playing(state, "next_phase")
    phase = state["phase"]
    notes: list[str] = []
    if phase == rules.EVENT and not state["event_drawn_this_phase"]:
        if deck.cards_left(state["event_deck"]):
            raise RuleError("Event Phase: draw the Event card first (draw_event)")
        notes.append("the Event deck is empty, no Event drawn")
    if phase == rules.COMBAT:
        notes.extend(_end_combat(state))
    if phase == rules.END_OF_TURN:
        return _next_turn(state)
    new = turns.phase_after(phase, attacking=state["leader"] is not None)
    if phase == rules.TACTICAL and new == rules.RETIREMENT:
        notes.append("no VENOM Leader attacked, Combat skipped")
    if new == rules.END_OF_TURN:
        reset_tracks(state)
        notes.append("VENOM Leader tracks reset")
    state["phase"] = new
    tail = f" ({'; '.join(notes)})" if notes else ""
    return refresh(state), {"summary": f"{active_name(state)}: {new} Phase{tail}", "phase": new}


def _end_combat(state: State) -> list[str]:
    """Leaving the Combat Phase makes its verdict final: a capture goes to the VP pile."""
    fight = state["combat"]
    leader = state["leader"]
    if not fight["rolled"] and not fight["aborted"]:
        reason = combat.abort_reason(fight["dice_count"], state["health_track"], state["defense_track"])
        if reason is None:
            raise RuleError("Combat Phase: roll the Combat Dice first (combat_roll, button A)")
        fight["aborted"] = reason
        return [f"Combat aborted: {reason}"]
    if fight["aborted"]:
        return [f"Combat aborted: {fight['aborted']}"]
    successes = combat.count_successes(fight["dice"], state["defense_track"])
    if combat.verdict(successes, state["health_track"]) != "captured":
        return [f"{leader['name']} not captured: {combat.successes_text(successes)} vs Health {state['health_track']}"]
    player = state["players"][state["active_player"]]
    player["leaders"].append({"name": leader["name"], "vp": leader["support"], "zone": leader["zone"]})
    return [f"{player['name']} captured {leader['name']} (+{leader['support']} VP)"]


def _next_turn(state: State) -> tuple[State, Result]:
    reset_tracks(state)
    player = turns.next_player(state["active_player"], len(state["players"]))
    state["active_player"] = player
    if player == state["commander"]:
        state["round"] += 1
    state["phase"] = turns.first_phase(player, state["commander"])
    state["event_drawn_this_phase"] = False
    summary = f"Round {state['round']}: {active_name(state)}'s Turn, {state['phase']} Phase"
    return refresh(state), {"summary": summary, "phase": state["phase"], "round": state["round"]}


# --- Event deck ----------------------------------------------------------------------


def draw_event(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Record the Event card drawn; VENOM Strikes! moves the Event Track up by 1."""
    require_playing(state, "draw_event")
    kind, name = action["kind"], action["name"]
    deck.take(state["event_deck"], kind)
    notes: list[str] = []
    in_event_phase = state["phase"] == rules.EVENT
    if in_event_phase and not state["event_drawn_this_phase"] and state["active_events"]:
        # Event Phase: the previous Event(s) go to the discard pile and no longer apply.
        state["event_discard"].extend(state["active_events"])
        state["active_events"] = []
        notes.append("previous Events discarded")
    if in_event_phase:
        state["event_drawn_this_phase"] = True
    card = {"kind": kind, "name": name}
    (state["event_discard"] if action["discard"] else state["active_events"]).append(card)
    if action["discard"]:
        notes.append("discarded by a card effect")
    if kind == rules.VENOM_STRIKES:
        if state["event_track"] < rules.EVENT_TRACK_FINAL:
            state["event_track"] += 1
            notes.append(f"Event Track {state['event_track']}: consult the Mission Card")
        else:
            notes.append(f"Event Track already at {rules.EVENT_TRACK_FINAL}")
        if state["event_track"] == rules.EVENT_TRACK_FINAL:
            notes.append("the Mission's final effect now applies")
    label = rules.EVENT_NAMES[kind] + (f" '{name}'" if name else "")
    tail = f" ({'; '.join(notes)})" if notes else ""
    refresh(state)
    result = {
        "summary": f"Event: {label}{tail}",
        "event_track": state["event_track"],
        "cards_left": deck.cards_left(state["event_deck"]),
        "venom_strikes_next": state["odds"]["venom_strikes_next"],
    }
    return state, result


# --- a single die --------------------------------------------------------------------


def single_die(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """One Combat Die for a Commander choice or a card effect; Tableside only records it."""
    label = action["reason"] or "1 die"
    face = ctx.dice.faces(label, 1)
    state["last_roll"] = _roll_record("1d6", face, label)
    return refresh(state), {"summary": f"{label}: rolled {face[0]}", "face": face[0]}


# --- Victory Points ------------------------------------------------------------------


def _player(state: State, name: str) -> dict[str, Any]:
    return state["players"][player_index(state, name) if name else state["active_player"]]


def add_reward(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """A Reward Card kept for Victory Points (used or not, it still scores)."""
    require_playing(state, "add_reward")
    require_text(action["name"], "add_reward: name")
    player = _player(state, action["player"])
    player["rewards"].append({"name": action["name"], "vp": action["vp"]})
    vp = scoring.victory_points(player)
    summary = f"{player['name']} gains Reward {action['name']!r} ({action['vp']} VP, total {vp})"
    return refresh(state), {"summary": summary, "player": player["name"], "victory_points": vp}


def record_capture(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """A VENOM Leader captured outside Tableside's combat (a card effect or a correction)."""
    require_playing(state, "record_capture")
    require_text(action["leader"], "record_capture: leader")
    player = _player(state, action["player"])
    player["leaders"].append({"name": action["leader"], "vp": action["support"], "zone": ""})
    vp = scoring.victory_points(player)
    summary = f"{player['name']} captured {action['leader']} (+{action['support']} VP, total {vp})"
    return refresh(state), {"summary": summary, "player": player["name"], "victory_points": vp}


def game_over(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """The players declare the end: Mission victory (Medal of Honor awarded) or VENOM victory."""
    require_playing(state, "game_over")
    scores = {p["name"]: scoring.victory_points(p) for p in state["players"]}
    if action["winner"] == rules.FREEDOM_SQUADRON_WINS:
        medal = scoring.medal_of_honor(state["players"])
        summary = f"Freedom Squadron wins! Medal of Honor: {' and '.join(medal)}"
    else:
        medal = []
        summary = "VENOM wins: their plot succeeds and all players lose"
    state["game_over"] = {"winner": action["winner"], "medal_of_honor": medal, "victory_points": scores}
    state["phase"] = rules.GAME_OVER
    return refresh(state), {"summary": summary, **state["game_over"]}

