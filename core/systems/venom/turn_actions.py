"""Handlers for the Commander, the Turn Order, the Event deck, single dice and scoring.

When each handler may run is the action's ``available`` check (``state.py``);
derived values come from ``derive`` after the handler.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import TABLE, Context
from tableside.core.systems.venom import combat, deck, recruitment, rules, scoring, turns
from tableside.core.systems.venom.state import (
    State,
    active_name,
    captured_by,
    odds_now,
    player_index,
    reset_tracks,
    settle_captures,
    start_game,
    verdict_now,
    whose_turn,
)
from tableside.core.text import N_

Result = dict[str, Any]
ROLL_OFF = "Roll-off"  # the roll-off's label in the log; the screen names who rolled what beside it


# --- Commander Token ---------------------------------------------------------------


def commander_roll_off(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """All players roll one die; ties for the highest re-roll, only among the tied."""
    contenders: list[int] = state["roll_off"]["contenders"]
    roll = ctx.dice.roll(ROLL_OFF, f"{len(contenders)}d6", by=[state["players"][p]["name"] for p in contenders])
    faces = list(roll.rolls)
    names = [state["players"][p]["name"] for p in contenders]
    state["roll_off"]["rounds"].append({"players": names, "faces": faces})
    marks = ["kept" if f == max(faces) else "" for f in faces]
    commander, tied = turns.roll_off(contenders, faces)
    rolled = ", ".join(f"{n} {f}" for n, f in zip(names, faces, strict=True))
    # The roll in the rulebook's words, short enough for a pHAT (the screen names who rolled what):
    # "The individual who rolls the highest is the Commander and will be the first player to take a Turn.
    # Any ties for the highest roll will re-roll". Never a "total" of the dice. The roll-off is everyone's,
    # whichever phone sent it: "everyone" tells the phone not to put the sender's name before it
    # ("Ann: Roll-off ..." read as Ann's roll alone); the line starts "Roll-off: ..." as on the e-paper.
    if commander is None:
        state["roll_off"]["contenders"] = tied
        tied_names = [state["players"][p]["name"] for p in tied]
        ctx.dice.mark(marks, verdict=f"{' and '.join(tied_names)} tie: roll again")
        summary = N_(
            "Roll-off: {rolled}: {tied} tie on {top} and re-roll",
            rolled=rolled,
            tied=" and ".join(tied_names),
            top=max(faces),
        )
        return state, {"summary": summary, "commander": None, "tied": tied_names, "everyone": True}
    start_game(state, commander)
    name = state["players"][commander]["name"]
    ctx.dice.mark(marks, verdict=f"{name} is Commander")
    summary = N_("Roll-off: {rolled}: {name} is the Commander; Round 1, Event Phase", rolled=rolled, name=name)
    return state, {"summary": summary, "commander": name, "everyone": True}


def set_commander(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """The players chose the Commander by hand instead of rolling off."""
    commander = player_index(state, action["player"])
    start_game(state, commander)
    name = state["players"][commander]["name"]
    return state, {"summary": N_("{name} is the Commander; Round 1, Event Phase", name=name), "commander": name}


# --- Turn Order ----------------------------------------------------------------------


def next_phase(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Move to the next phase; after End of Turn, the next player's Turn (clockwise)."""
    phase = state["phase"]
    notes: list[str] = []
    if phase == rules.EVENT and not state["event_drawn_this_phase"]:
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
    return state, {
        "summary": N_("{player}: {new} Phase{tail}", player=active_name(state), new=new, tail=tail),
        "phase": new,
    }


def _end_combat(state: State) -> list[str]:
    """Leaving the Combat Phase makes its verdict final: a live capture stays in the VP pile."""
    fight = state["combat"]
    leader = state["leader"]
    if not fight["rolled"] and not fight["aborted"]:
        # available() allows this only when the roll could not succeed: record the abort.
        fight["aborted"] = combat.abort_reason(fight["dice_count"], state["health_track"], state["defense_track"])
        return [f"Combat aborted: {fight['aborted']}"]
    if fight["aborted"]:
        return [f"Combat aborted: {fight['aborted']}"]
    successes, verdict = verdict_now(state)
    if verdict != "captured":
        return [
            f"{leader['name']} not captured: {combat.successes_text(successes or 0)} vs Health {state['health_track']}"
        ]
    return settle_captures(state) or [f"{leader['name']} captured"]


def _next_turn(state: State) -> tuple[State, Result]:
    reset_tracks(state)
    # The End of Turn's refills not entered with their prompts: a Zone left empty, the Training Ground still drawn.
    refilled = "; ".join(filter(None, (recruitment.leave_empty(state), recruitment.refill(state))))
    player = turns.next_player(state["active_player"], len(state["players"]))
    state["active_player"] = player
    if player == state["commander"]:
        state["round"] += 1
    state["turn"] += 1
    state["phase"] = turns.first_phase(player, state["commander"])
    state["event_drawn_this_phase"] = False
    summary = N_(
        "Round {round}: {player}'s Turn, {phase} Phase",
        round=state["round"],
        player=active_name(state),
        phase=state["phase"],
    )
    summary += f"; {refilled}" if refilled else ""
    return state, {"summary": summary, "phase": state["phase"], "round": state["round"]}


# --- Event deck ----------------------------------------------------------------------


def draw_event(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Record the Event card drawn; VENOM Strikes! moves the Event Track up by 1."""
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
    return state, {
        "summary": N_("Event: {label}{tail}", label=label, tail=tail),
        "event_track": state["event_track"],
        "cards_left": deck.cards_left(state["event_deck"]),
        "venom_strikes_next": odds_now(state)["venom_strikes_next"],
    }


# --- a single die --------------------------------------------------------------------


def single_die(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """One Combat Die for a Commander choice or a card effect; Tableside only records it."""
    label = action["reason"] or "1 die"
    # Outside a turn (setup, between turns) the die is the phone's that rolled it, else the table's.
    roll = ctx.dice.roll(label, "1d6", by=whose_turn(state) or ctx.seat or TABLE)
    ctx.dice.mark((), verdict=f"rolled {roll.rolls[0]}")  # one die: its face, not a "total"
    return state, {"summary": N_("{label}: rolled {rolls}", label=label, rolls=roll.rolls[0]), "face": roll.rolls[0]}


# --- Victory Points ------------------------------------------------------------------


def _player(state: State, name: str | None) -> dict[str, Any]:
    return state["players"][player_index(state, name) if name else state["active_player"]]


def add_reward(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """A Reward Card kept for Victory Points (used or not, it still scores)."""
    if not action["name"]:
        raise RuleError(N_("Add a Reward Card: the card's name must not be empty"))
    player = _player(state, action["player"])
    player["rewards"].append({"name": action["name"], "vp": action["vp"]})
    vp = scoring.victory_points(player)
    summary = N_(
        "{player} gains Reward {action} ({vp} VP, total {total})",
        player=player["name"],
        action=repr(action["name"]),
        vp=action["vp"],
        total=vp,
    )
    return state, {"summary": summary, "player": player["name"], "victory_points": vp}


def record_capture(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """A VENOM Leader captured outside Tableside's combat (a card effect or a correction).

    ``leader`` picks a Leader Tableside has seen this game (the Leader in play
    first); ``name`` is for one it has not.
    """
    if bool(action["leader"]) == bool(action["name"]):
        raise RuleError(
            N_(
                "Record a captured Leader: pick a Leader from the list, or type the name of one not "
                "listed (one of the two)"
            )
        )
    name = action["leader"] or action["name"]
    holder = captured_by(state, name)
    if holder:
        raise RuleError(
            N_(
                "{name} is already in {holder}'s Victory Point pile: a Leader is captured once",
                name=name,
                holder=holder,
            )
        )
    met = {m["name"].casefold(): m for m in state["leaders_met"]}.get(name.casefold())
    support = action["support"]
    if support is None:
        if met is None:
            raise RuleError(
                N_("Record a captured Leader: give {name}'s Support Value (Tableside has not seen it)", name=name),
                rule="support_vp",
            )
        support = met["support"]
    player = _player(state, action["player"])
    player["leaders"].append(
        {
            "name": met["name"] if met else name,
            "vp": support,
            "zone": met["zone"] if met else "",
            "turn": state["turn"],
            "live": False,
        }
    )
    vp = scoring.victory_points(player)
    summary = N_(
        "{player} captured {name} (+{support} VP, total {vp})", player=player["name"], name=name, support=support, vp=vp
    )
    return state, {"summary": summary, "player": player["name"], "victory_points": vp}


def game_over(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """The players declare the end: Mission victory (Medal of Honor awarded) or VENOM victory.

    A Leader captured in this Turn's Combat is already in the Victory Point pile
    (``derive``), so a Mission won in that Combat Phase counts it for the medal.
    """
    settle_captures(state)
    scores = {p["name"]: scoring.victory_points(p) for p in state["players"]}
    if action["winner"] == rules.FREEDOM_SQUADRON_WINS:
        medal = scoring.medal_of_honor(state["players"])
        summary = N_("Freedom Squadron wins! Medal of Honor: {medal}", medal=" and ".join(medal))
    else:
        medal = []
        summary = N_("VENOM wins: their plot succeeds and all players lose")
    state["game_over"] = {"winner": action["winner"], "medal_of_honor": medal, "victory_points": scores}
    state["phase"] = rules.GAME_OVER
    return state, {"summary": summary, **state["game_over"]}
