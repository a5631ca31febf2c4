"""The end of a game on the e-paper: the winner(s) and the final scores lead, as the largest things.

Every system's ``screen()`` hands its result here once its rules end the game, so the end reads the same on
every panel: a key figure for the winner(s) (drawn as large as the panel allows) and one line of final
scores, both priority 1 so a pHAT keeps them; whatever the system showed before is demoted, so stale
news (the last combat's verdict, the next card's odds) never outgrows the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tableside.core.recap import hits_words
from tableside.core.screen import Element, Grid, GridRow, KeyFigure, Outcome, Screen, Text
from tableside.core.text import N_

DEMOTED = 4
KEPT = ("grid", "bars", "text")  # the rest of the board: shown where there is room, the first a small panel leaves out


def scores_line(scores: Sequence[tuple[str, object]], unit: str = "") -> str:
    """ "Final: Ann 12 · Bob 9" in the order given (the ranking's)."""
    return "Final: " + " · ".join(f"{name} {value}{unit}" for name, value in scores)


def game_end(
    screen: Screen,
    winners: Sequence[str],
    scores: Sequence[tuple[str, object]],
    *,
    label: str | None = None,
    unit: str = "",
    status: str | None = None,
) -> Screen:
    """``screen`` led by its result: "Winner: Ann" (or "Winners: Ann & Bob"), then the final scores."""
    label = label or (N_("Winners") if len(winners) > 1 else N_("Winner"))
    lead: tuple[Element, ...] = (
        KeyFigure(label, " & ".join(winners) or N_("nobody"), priority=1, tone="accent"),
        Text(scores_line(scores, unit), priority=1),
    )
    # Only the tables and lines stay (key figures, tracks and dice are drawn large: last turn's news).
    rest = tuple(replace(e, priority=max(e.priority, DEMOTED)) for e in screen.elements if e.kind in KEPT)
    outcome = Outcome(label, tuple(winners), tuple((name, f"{value}{unit}") for name, value in scores))
    return replace(screen, elements=lead + rest, status=status or screen.status, result=outcome)


def recap_screen(told: Mapping[str, Any], title: str) -> Screen:
    """The recap (``core.recap.recap``) as a screen model, for the shareable picture drawn by the e-paper's
    renderer at a phone's size: the result first, then how the lead went, the rolls, the luck and the clock."""
    elements: list[Element] = []
    res = told.get("result")
    if res:
        label = res["label"]
        elements += [
            KeyFigure(label, " & ".join(res["winners"]) or "nobody", priority=1, tone="accent"),
            Text(scores_line(res["scores"]), priority=1),
        ]
    lead = [p for p in told.get("lead", []) if p["leader"]]
    if lead:
        rows = tuple(GridRow(str(p["x"]), (p["leader"], f"{p['by']:+g}")) for p in lead[-8:])
        elements.append(Grid("The lead", ("leader", "by"), rows, priority=2))
    for point in told.get("turning_points", []):
        elements.append(Text(f"Turning point: {point}", priority=3))
    for key, heading in (("biggest_rolls", "Biggest roll"), ("luckiest_rolls", "Luckiest roll")):
        for x in told.get(key, [])[:1]:
            faces = ",".join(str(f) for f in x["faces"])
            if "hits" not in x:
                words = f"{heading}: {x['who']} {x['expr']} {faces} = {x['total']} ({x['chance']} this or more)"
            else:  # a roll the rules count by its hits (core.recap)
                hits = hits_words(x["hits"])
                words = N_(
                    "{heading}: {who} {expr} {faces}: {hits} ({chance} this many or more)",
                    heading=heading,
                    who=x["who"],
                    expr=x["expr"],
                    faces=faces,
                    hits=hits,
                    chance=x["chance"],
                )
            elements.append(Text(words, priority=2))
    if told.get("luck"):
        rows = tuple(GridRow(x["name"], (str(x["dice"]), x["verdict"])) for x in told["luck"])
        elements.append(Grid("Luck", ("dice", "verdict"), rows, priority=3))
    if told.get("time_per_seat"):
        rows = tuple(GridRow(x["name"], (x["time"],)) for x in told["time_per_seat"])
        elements.append(Grid("Time per seat", ("time",), rows, priority=3))
    if told.get("time_per_round"):
        rows = tuple(GridRow(f"Round {x['round']}", (x["time"],)) for x in told["time_per_round"])
        elements.append(Grid("Time per round", ("time",), rows, priority=4))
    undos = f"{told.get('undos', 0)} undos, {told.get('corrections', 0)} corrections"
    elements.append(Text(f"{told.get('actions', 0)} log entries, {undos}", priority=3))
    return Screen(f"{title}: recap", status="Tableside", elements=tuple(elements))
