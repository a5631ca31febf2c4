"""The session state of a VENOM Assault game, when each action is available, and ``derive``.

State is plain JSON. Values the panel shows (the VENOM Strikes! chance, the
capture chance, the live combat verdict, a capture in the Victory Point pile)
are computed by ``derive``, which the core runs after every action, so they
can never disagree with the counts they come from.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.odds import percent
from tableside.core.system import in_phase
from tableside.core.systems.venom import combat, deck, rules, scoring
from tableside.core.text import N_

State = dict[str, Any]


def new_combat() -> dict[str, Any]:
    """Nothing allocated, nothing rolled: the state at the start of every Turn."""
    return {
        "combat_leader": "",
        "combat_value": 0,
        "support_dice": 0,
        "dice_count": 0,
        "rolled": False,
        "dice": [],
        "abilities_applied": False,
        "aborted": None,
        "successes": None,
        "verdict": None,
    }


def start_game(state: State, commander: int) -> None:
    """The Commander Token is given: Round 1 starts with the Commander's Event Phase."""
    state["commander"] = commander
    state["active_player"] = commander
    state["round"] = 1
    state["turn"] = 1
    state["phase"] = rules.EVENT
    state["event_drawn_this_phase"] = False


def reset_tracks(state: State) -> None:
    """End of Turn: the markers go back to the start and the Turn's combat is cleared."""
    state["leader"] = None
    state["health_track"] = rules.TRACK_START
    state["defense_track"] = rules.TRACK_START
    state["combat"] = new_combat()


def player_index(state: State, name: str) -> int:
    """A player by name (case does not matter), or a RuleError listing the players."""
    for i, p in enumerate(state["players"]):
        if p["name"].casefold() == name.strip().casefold():
            return i
    known = ", ".join(p["name"] for p in state["players"])
    raise RuleError(N_("no player named {name}; players are {known}", name=repr(name), known=known))


def player_names(state: State) -> list[str]:
    return [p["name"] for p in state.get("players") or []]


def active_name(state: State) -> str:
    return state["players"][state["active_player"]]["name"]


def whose_turn(state: State) -> str | None:
    """The player whose turn it is, whose Combat Dice these are (the luck report counts them for
    that player, whichever phone sent the roll); None outside a turn."""
    return active_name(state) if state.get("active_player") is not None else None


def start_player(state: State) -> str | None:
    """The Commander, whose Event Phase opens Round 1; None before the roll-off gives the Commander Token."""
    commander = state.get("commander")
    return state["players"][commander]["name"] if commander is not None else None


def captured_by(state: State, leader: str) -> str | None:
    """The player whose Victory Point pile holds ``leader`` (by name, any case), or None."""
    for p in state["players"]:
        if any(c["name"].casefold() == leader.casefold() for c in p["leaders"]):
            return p["name"]
    return None


# --- when an action is available: None, or the reason in words --------------------------


def not_playing(state: State, seat: str | None = None) -> str | None:
    """Most actions need a Commander and a game that is not over."""
    if state["phase"] == rules.GAME_OVER:
        return N_("the game is over")
    if state["phase"] == rules.SETUP:
        return N_("choose the Commander first: roll off (button B) or set the Commander")
    return None


def in_setup(state: State, seat: str | None = None) -> str | None:
    if state["phase"] != rules.SETUP:
        return N_("the Commander is already chosen and never changes during a game")
    return None


def in_phases(*phases: str):
    """Availability: only in ``phases`` of a game in play (the core's phase check, in VENOM's words)."""
    phase_now = in_phase(*phases, words="the {phases} Phase (now: {now} Phase)")

    def check(state: State, seat: str | None = None) -> str | None:
        return not_playing(state) or phase_now(state, seat)

    return check


_attack_phases = in_phases(rules.TACTICAL, rules.COMBAT)


def with_leader(state: State, seat: str | None = None) -> str | None:
    """Tactical or Combat Phase, with a VENOM Leader chosen this Turn."""
    why = _attack_phases(state)
    if why:
        return why
    if state["leader"] is None:
        return N_("no VENOM Leader chosen this Turn: choose the Leader first")
    return None


def _combat_open(state: State) -> str | None:
    """A Leader under attack and Combat not aborted: what both sides of the roll need."""
    why = with_leader(state)
    if why:
        return why
    aborted = state["combat"]["aborted"]
    return N_("Combat was aborted this Turn ({aborted})", aborted=aborted) if aborted else None


def before_roll(state: State, seat: str | None = None) -> str | None:
    why = _combat_open(state)
    if why:
        return why
    if state["combat"]["rolled"]:
        return N_("the Combat Dice were already rolled this Turn")
    return None


def after_roll(state: State, seat: str | None = None) -> str | None:
    why = _combat_open(state)
    if why:
        return why
    fight = state["combat"]
    if not fight["rolled"]:
        return N_("the Combat Dice have not been rolled yet")
    return None


def before_abilities(state: State, seat: str | None = None) -> str | None:
    why = after_roll(state)
    if why:
        return why
    if state["combat"]["abilities_applied"]:
        return N_(
            "Automatic Successes are chosen after the roll but before any card's Abilities take "
            "place, and Abilities have already changed this Combat (undo them first)"
        )
    return None


def can_draw(state: State, seat: str | None = None) -> str | None:
    why = not_playing(state)
    if why:
        return why
    if deck.cards_left(state["event_deck"]) == 0:
        return N_("the Event deck is empty; the rulebook has no Event deck reshuffle")
    return None


def can_move_on(state: State, seat: str | None = None) -> str | None:
    """``next_phase``: not before the Event card is drawn or the Combat Dice are rolled."""
    why = not_playing(state)
    if why:
        return why
    fight = state["combat"]
    if state["phase"] == rules.EVENT and not state["event_drawn_this_phase"] and deck.cards_left(state["event_deck"]):
        return N_("draw the Event card first")
    can_roll = combat.abort_reason(fight["dice_count"], state["health_track"], state["defense_track"]) is None
    if state["phase"] == rules.COMBAT and not fight["rolled"] and not fight["aborted"] and can_roll:
        return N_("roll the Combat Dice first (Combat roll, button A)")
    return None


# --- derived values ------------------------------------------------------------------


def verdict_now(state: State) -> tuple[int | None, str | None]:
    """(successes, verdict) of this Turn's Combat as the dice and tracks stand now."""
    fight = state["combat"]
    if fight["rolled"]:
        successes = combat.count_successes(fight["dice"], state["defense_track"])
        return successes, combat.verdict(successes, state["health_track"])
    return None, ("aborted" if fight["aborted"] else None)


def odds_now(state: State) -> dict[str, Any]:
    """The VENOM Strikes! chance (as the rulebook's counts) and, before the roll, the capture chance."""
    fight = state["combat"]
    left, strikes = deck.cards_left(state["event_deck"]), state["event_deck"].get(rules.VENOM_STRIKES, 0)
    odds: dict[str, Any] = {
        # The rulebook's counts, not a reduced fraction: 10 VENOM Strikes! of 28 cards is "10/28".
        "venom_strikes_next": f"{strikes}/{left}" if left else None,
        "venom_strikes_next_percent": _percent_of(strikes, left) if left else None,
        "capture": None,
        "capture_percent": None,
        "abort": None,
    }
    if state["leader"] is not None and not fight["rolled"] and not fight["aborted"]:
        dice, health, defense = fight["dice_count"], state["health_track"], state["defense_track"]
        odds["capture"], odds["capture_percent"] = _capture_odds(dice, defense, health)
        odds["abort"] = combat.abort_reason(dice, health, defense)
    return odds


@functools.lru_cache(maxsize=1024)
def _percent_of(count: int, total: int) -> str:
    """``count`` of ``total`` as a percent; remembered, since derive runs on every action and replay step."""
    return percent(Fraction(count, total))


@functools.lru_cache(maxsize=1024)
def _capture_odds(dice: int, defense: int, health: int) -> tuple[str, str]:
    """(exact fraction, percent) of a capture; a pure function of three small numbers, so remembered."""
    chance = combat.capture_chance(dice, defense, health)
    return str(chance), percent(chance)


def derive(state: State) -> State:
    """Everything computed from the rest: verdict, odds, the final effect, the live capture."""
    state["combat"]["successes"], state["combat"]["verdict"] = verdict_now(state)
    state["odds"] = odds_now(state)
    state["final_effect"] = state["event_track"] >= rules.EVENT_TRACK_FINAL
    _live_capture(state)
    return state


def _live_capture(state: State) -> None:
    """A capture is in the Victory Point pile as soon as the verdict is known (Combat Phase).

    Abilities may still change the dice until the Combat Phase ends, so the
    entry stays ``live`` and follows the verdict; leaving the Combat Phase (or
    the game ending) makes it final.
    """
    leader, fight = state["leader"], state["combat"]
    live = [(p, c) for p in state["players"] for c in p["leaders"] if c.get("live")]
    wanted = (
        leader is not None and fight["rolled"] and fight["verdict"] == "captured" and state["active_player"] is not None
    )
    if wanted:
        holder = captured_by(state, leader["name"])
        if holder is not None and not any(c["name"] == leader["name"] for _, c in live):
            wanted = False  # already captured some other way (record_capture): counted once
    for p, c in live:
        if not wanted or c["name"] != leader["name"] or p is not state["players"][state["active_player"]]:
            p["leaders"].remove(c)
        else:
            c["vp"] = leader["support"]
            wanted = False
    if wanted:
        state["players"][state["active_player"]]["leaders"].append(
            {
                "name": leader["name"],
                "vp": leader["support"],
                "zone": leader["zone"],
                "turn": state["turn"],
                "live": True,
            }
        )


def settle_captures(state: State) -> list[str]:
    """The Combat Phase is over: a live capture becomes final. Returns the notes for the summary."""
    notes = []
    for p in state["players"]:
        for c in p["leaders"]:
            if c.get("live"):
                c["live"] = False
                notes.append(f"{p['name']} captured {c['name']} (+{c['vp']} VP)")
    return notes


def round_name(state: State) -> str | None:
    """The player's Turn being played, in the rulebook's words ("Bob's Turn (Round 1)": a Turn is one player's
    phases, a Round every player's Turn, from the Commander's): the header's "R1 Bob" too, so a summary never
    counts Turns where the header counts Rounds. Each Turn ends with its End of Turn Phase; None before the
    Commander Token is given and once the game is over."""
    if state.get("game_over") or state.get("active_player") is None or not state.get("turn"):
        return None
    name = state["players"][state["active_player"]]["name"]
    return N_("{name}'s Turn (Round {round})", name=name, round=state["round"])


def round_numbers(state: State) -> dict[str, dict[str, int]]:
    """Each player's Victory Points, Leaders captured and Rewards, and the Event Track: what a Turn's summary
    compares (the Health and Defense Tracks go back to the start at every End of Turn, so a Turn's captures
    tell what they did). The Event Track is one number, told as "Event Track: +1 (now 1)"."""
    out: dict[str, dict[str, int]] = {
        p["name"]: {
            "Victory Points": scoring.victory_points(p),
            "Leaders captured": len(p["leaders"]),
            "Rewards": len(p["rewards"]),
        }
        for p in state.get("players") or []
    }
    out["Event Track"] = {"": int(state.get("event_track") or 0)}  # "Move the Event Track up by 1": no label
    return out
