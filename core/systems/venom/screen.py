"""What the e-paper and the phone show, as the core's screen model.

Priorities: while a VENOM Leader is attacked, its name, the Health and Defense
Tracks and the capture chance are priority 1, so the smallest panel (a 212x104
pHAT) keeps them; otherwise the Event Track and the VENOM Strikes! chance are, and
the Health and Defense Tracks are not shown (no Leader: their markers mean nothing).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tableside.core.recap_screen import game_end
from tableside.core.screen import DiceGroup, Die, Element, Grid, GridRow, KeyFigure, Screen, Text, Track
from tableside.core.system import TableRoll
from tableside.core.systems.venom import combat, deck, rules, scoring
from tableside.core.systems.venom.laws import card_words
from tableside.core.systems.venom.turn_actions import ROLL_OFF
from tableside.core.text import N_

State = dict[str, Any]


def screen(st: State, roll: TableRoll | None = None) -> Screen:
    attacking = st["leader"] is not None
    low = 3 if attacking else 1
    elements: list[Element] = []
    if attacking:  # the Health and Defense markers mean something only once a Leader is chosen
        elements.append(_capture(st))
        # The Leader's Health and Defense read together (one scale under the other), before the scores and the
        # Leader's name, so they take the top of the body and stay large.
        elements += [
            Track(
                N_("Health"),
                st["health_track"],
                rules.TRACK_MIN,
                rules.TRACK_MAX,
                "scale",
                priority=1,
                fix="health_track",
            ),
            Track(
                N_("Defense"),
                st["defense_track"],
                rules.TRACK_MIN,
                rules.TRACK_MAX,
                "scale",
                priority=1,
                fix="defense_track",
            ),
        ]
        elements += _leader(st)
    elements += [
        Track(
            N_("Event Track"),
            st["event_track"],
            rules.EVENT_TRACK_START,
            rules.EVENT_TRACK_FINAL,
            "boxes",
            threshold=rules.EVENT_TRACK_FINAL,
            priority=low if attacking else 1,
            tone="alert" if st["final_effect"] else "normal",
            fix="event_track",
        ),
        _venom_strikes(st, priority=low if attacking else 1),
    ]
    fight = _combat_dice(st)
    if fight is not None:
        elements.append(fight)
    if roll is not None and (fight is None or roll.last["label"] != "Combat"):
        # the roll on the table: beside the Combat Dice a re-roll or a free roll is shown too
        elements.append(_named(st, roll.group(priority=2 if fight is None else 3)))
    # Without a Leader the Active Events go beside the Event Track (they are what the Event card changes),
    # the players' grid in a column of its own.
    # Without a Leader the players' grid carries the scores (priority 1: a pHAT keeps its one line of VP).
    elements += [_players(st), _events(st)] if attacking else [_events(st), _players(st, priority=1)]
    shown = Screen(
        title="VENOM Assault",
        status=_status(st),
        elements=tuple(elements),
        alert=_alert(st),
        players=tuple(p["name"] for p in st["players"]),
    )
    return _result(st, shown) if st["game_over"] else shown


def _result(st: State, shown: Screen) -> Screen:
    """The game's end leads: the Medal of Honor (or VENOM) and every player's Victory Points."""
    over = st["game_over"]
    scores = sorted(over["victory_points"].items(), key=lambda kv: -kv[1])
    if over["winner"] == rules.VENOM_WINS:
        return game_end(shown, ["VENOM"], scores, unit=" VP")
    return game_end(shown, over["medal_of_honor"], scores, label=N_("Medal of Honor"), unit=" VP")


def _named(st: State, group: DiceGroup) -> DiceGroup:
    """The roll-off says who rolled what ("Roll-off: Ann 3, Bob 6"); a label too long is left out on a
    small panel, and the verdict ("Commander: Bob") still says who won."""
    rounds = st["roll_off"]["rounds"]
    if group.label != ROLL_OFF or not rounds or list(rounds[-1]["faces"]) != [d.face for d in group.dice]:
        return group
    rolled = ", ".join(f"{n} {f}" for n, f in zip(rounds[-1]["players"], rounds[-1]["faces"], strict=True))
    # Priority 1: who is Commander is the moment's news, kept on a pHAT beside the scores (their figures
    # may go on one line for it).
    return replace(group, label=f"{ROLL_OFF}: {rolled}", priority=1)


def _status(st: State) -> str:
    if st["phase"] == rules.SETUP:
        return N_("Setup: roll-off for Commander (B)")
    if st["phase"] == rules.GAME_OVER:
        return N_("Game over after Round {round}", round=st["round"])
    # the phase is the rulebook's name (Turn Order), in every language
    return N_(
        "R{round} {name}: {phase}",
        round=st["round"],
        name=st["players"][st["active_player"]]["name"],
        phase=st["phase"],
    )


def _leader(st: State) -> list[Element]:
    leader = st["leader"]
    scores = [] if st["game_over"] else [_scores(st)]  # at the end the final scores lead instead
    return [
        *scores,  # the Victory Points stay, a pHAT too, while the players' grid may not
        Text(f"{leader['name']}: {leader['zone']} ({leader['zone_type']})", priority=2),
    ]


def _capture(st: State) -> KeyFigure:
    """The attack's key figure: the chance to capture, or what stands in its way, or the verdict."""
    fight, odds = st["combat"], st["odds"]
    if fight["aborted"]:
        return KeyFigure(CAPTURE, N_("aborted"), priority=1, tone="alert")
    if fight["rolled"]:
        tone = "accent" if fight["verdict"] == "captured" else "normal"
        return KeyFigure(CAPTURE, _verdict(fight), priority=1, tone=tone)
    if not _allocated(fight):  # no alarm about dice nobody has allocated yet
        return KeyFigure(CAPTURE, N_("allocate dice"), priority=1)
    if odds["abort"]:
        return KeyFigure(CAPTURE, N_("abort"), priority=1, tone="alert")
    count = fight["dice_count"]
    unit = N_(" (1 die)") if count == 1 else N_(" ({count} dice)", count=count)
    return KeyFigure(CAPTURE, odds["capture_percent"], unit=unit, priority=1, tone="accent")


CAPTURE = N_("Capture")


def _verdict(fight: dict[str, Any]) -> str:
    return N_("CAPTURED") if fight["verdict"] == "captured" else N_("not captured")


def _venom_strikes(st: State, priority: int) -> KeyFigure:
    odds = st["odds"]
    if odds["venom_strikes_next"] is None:
        return KeyFigure(N_("VENOM Strikes! next"), N_("deck empty"), priority=priority)
    return KeyFigure(
        N_("VENOM Strikes! next"),
        odds["venom_strikes_next"],
        unit=f" ({odds['venom_strikes_next_percent']})",
        priority=priority,
    )


def _combat_dice(st: State) -> DiceGroup | None:
    """This Turn's Combat Dice by current Rolled Value with hits marked: game state, since Abilities
    change the values and re-rolls replace dice. Otherwise the screen shows the roll on the table."""
    fight = st["combat"]
    if not fight["rolled"]:
        return None
    defense, health = st["defense_track"], st["health_track"]
    dice = tuple(Die(d["value"], "hit" if combat.is_success(d, defense) else "miss") for d in fight["dice"])
    label = N_("{count}d6 vs Def {defense}", count=len(dice), defense=defense)
    hits = N_(
        "{successes}/{health} hits: {verdict}", successes=fight["successes"], health=health, verdict=_verdict(fight)
    )
    return DiceGroup(label, dice, hits, priority=2)


def _scores(st: State) -> Text:
    """Every player's Victory Points on one line: "VP Ann 5 · Bob 0 · Cy 3"."""
    return Text("VP " + " · ".join(f"{p['name']} {scoring.victory_points(p)}" for p in st["players"]), priority=1)


def _players(st: State, priority: int = 3) -> Grid:
    """Players in seating order: Commander, VP, Leaders captured, Rewards; the active one highlighted."""
    medal = (st["game_over"] or {}).get("medal_of_honor") or []
    rows = []
    for i, p in enumerate(st["players"]):
        tags = (" (Cmdr)" if st["commander"] == i else "") + (" Medal" if p["name"] in medal else "")
        rows.append(
            GridRow(
                p["name"] + tags,
                (str(scoring.victory_points(p)), str(len(p["leaders"])), str(len(p["rewards"]))),
                highlight=st["active_player"] == i or p["name"] in medal,
                colour=i,
            )
        )
    return Grid(N_("Players"), ("VP", N_("Leaders"), N_("Rewards")), tuple(rows), priority=priority)


def _events(st: State) -> Text:
    # The events a list ("; ": a panel short of room counts the last ones, "+1 more"), the deck a trailing clause.
    left = deck.cards_left(st["event_deck"])
    cards = N_("1 card") if left == 1 else N_("{count} cards", count=left)
    if not st["active_events"]:
        return Text(N_("Active Events: none · {cards} in the Event deck", cards=cards), priority=4)
    active = "; ".join(card_words(c) for c in st["active_events"])  # the cards' names, as the rulebook has them
    return Text(N_("Active Events: {active} · {cards} in the Event deck", active=active, cards=cards), priority=4)


def _allocated(fight: dict[str, Any]) -> bool:
    """Whether the Combat Dice have been allocated this Turn (before that, "would abort" is no news)."""
    return bool(fight["dice_count"] or fight["rolled"])


def _alert(st: State) -> str | None:
    over = st["game_over"]
    if over:
        if over["winner"] == rules.VENOM_WINS:
            return N_("VENOM wins")
        return N_("Medal of Honor: {names}", names=", ".join(over["medal_of_honor"]))
    if st["event_track"] >= rules.EVENT_TRACK_FINAL:
        return N_("Event Track 5: Mission final effect applies")
    if st["combat"]["aborted"]:
        return N_("Combat aborted: {why}", why=st["combat"]["aborted"])
    if st["odds"]["abort"] and _allocated(st["combat"]):
        return N_("Would abort: {why}", why=st["odds"]["abort"])
    return None  # "draw the Event card" and the like are the prompt's to say: one line, not two
