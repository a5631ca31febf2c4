"""What the e-paper and the phone panel show: short rows, the last roll, one alert."""

from __future__ import annotations

from typing import Any

from tableside.core.system import RollView, Row, Screen, Section, roll_view
from tableside.core.systems.venom import combat, deck, rules, scoring

_SHORT_KIND = {
    rules.ALL_IS_QUIET: "Quiet",
    rules.FREEDOM_SQUADRON: "FS",
    rules.VENOM: "VENOM",
    rules.VENOM_STRIKES: "VS!",
}


def screen(state: dict[str, Any]) -> Screen:
    return Screen(
        title="VENOM Assault",
        status=_status(state),
        sections=tuple(s for s in (_tracks(state), _leader(state), _events(state), _score(state)) if s),
        roll=_roll(state),
        alert=_alert(state),
    )


def _status(state: dict[str, Any]) -> str:
    if state["phase"] == rules.SETUP:
        return "Setup: roll-off for Commander (B)"
    if state["phase"] == rules.GAME_OVER:
        return f"Game over after Round {state['round']}"
    name = state["players"][state["active_player"]]["name"]
    return f"R{state['round']} {name}: {state['phase']}"


def _tracks(state: dict[str, Any]) -> Section:
    track = state["event_track"]
    final = track >= rules.EVENT_TRACK_FINAL
    return Section(
        "Tracks",
        (
            Row("Event", f"{track}/{rules.EVENT_TRACK_FINAL}" + (" FINAL" if final else ""),
                bar=(track, rules.EVENT_TRACK_FINAL), accent=final),
            Row("Health", str(state["health_track"]), bar=(state["health_track"], rules.TRACK_MAX)),
            Row("Defense", str(state["defense_track"]), bar=(state["defense_track"], rules.TRACK_MAX)),
        ),
    )


def _leader(state: dict[str, Any]) -> Section | None:
    leader = state["leader"]
    if leader is None:
        return None
    fight, odds = state["combat"], state["odds"]
    rows = [Row("Leader", leader["name"]), Row("Zone", f"{leader['zone_type']}: {leader['zone']}")]
    if not fight["rolled"] and not fight["aborted"]:
        rows.append(Row("Dice", str(fight["dice_count"])))
        chance = "abort" if odds["abort"] else odds["capture_percent"]
        rows.append(Row("Capture", chance, accent=True))
    return Section("VENOM Leader", tuple(rows))


def _events(state: dict[str, Any]) -> Section:
    active = state["active_events"]
    names = ", ".join(e["name"] or _SHORT_KIND[e["kind"]] for e in active) or "none"
    odds = state["odds"]
    # The percent only: the exact fraction is in state["odds"] for the phone panel.
    chance = odds["venom_strikes_next_percent"] or "deck empty"
    return Section(
        "Events",
        (
            Row("Active", names),
            Row("VS! next", chance, accent=True),
            Row("Deck", f"{deck.cards_left(state['event_deck'])} left"),
        ),
    )


def _score(state: dict[str, Any]) -> Section | None:
    if state["game_over"] is None:
        return None
    medal = state["game_over"]["medal_of_honor"]
    rows = tuple(
        Row(p["name"], f"{scoring.victory_points(p)} VP, {len(p['leaders'])} Ldr"
            + (" Medal" if p["name"] in medal else ""), accent=p["name"] in medal)
        for p in state["players"]
    )
    return Section("Victory Points", rows)


def _roll(state: dict[str, Any]) -> RollView | None:
    fight, last = state["combat"], state["last_roll"]
    if fight["rolled"] and last and last.get("label") in ("Combat", "Re-roll"):
        defense, health = state["defense_track"], state["health_track"]
        hits = tuple(combat.is_success(d, defense) for d in fight["dice"])
        word = "CAPTURED" if fight["verdict"] == "captured" else "not captured"
        return RollView(
            label=f"{len(hits)}d6 vs Def {defense}",
            faces=tuple(d["value"] for d in fight["dice"]),
            hits=hits,
            verdict=f"{fight['successes']}/{health} hits: {word}",
        )
    if last and last.get("label"):
        return RollView(label=last["label"], faces=tuple(last["rolls"]), verdict=f"total {last['total']}")
    return roll_view(last)


def _alert(state: dict[str, Any]) -> str | None:
    over = state["game_over"]
    if over:
        if over["winner"] == rules.VENOM_WINS:
            return "VENOM wins"
        return "Medal of Honor: " + ", ".join(over["medal_of_honor"])
    if state["event_track"] >= rules.EVENT_TRACK_FINAL:
        return "Event Track 5: Mission final effect applies"
    if state["combat"]["aborted"]:
        return f"Combat aborted: {state['combat']['aborted']}"
    if state["odds"]["abort"]:
        return f"Would abort: {state['odds']['abort']}"
    if state["phase"] == rules.EVENT and not state["event_drawn_this_phase"]:
        return "Draw the Event card"
    return None
