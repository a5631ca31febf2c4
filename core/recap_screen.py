"""The end of a game on the e-paper: the winner(s) and the final scores lead, as the largest things.

Every system's ``screen()`` hands its result here once its rules end the game, so the end reads the same on
every panel: a key figure for the winner(s) (drawn as large as the panel allows) and one line of final
scores, both priority 1 so a pHAT keeps them; whatever the system showed before is demoted, so stale
news (the last combat's verdict, the next card's odds) never outgrows the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tableside.core.screen import Element, KeyFigure, Outcome, Screen, Text

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
    label = label or ("Winners" if len(winners) > 1 else "Winner")
    lead: tuple[Element, ...] = (
        KeyFigure(label, " & ".join(winners) or "nobody", priority=1, tone="accent"),
        Text(scores_line(scores, unit), priority=1),
    )
    # Only the tables and lines stay (key figures, tracks and dice are drawn large: last turn's news).
    rest = tuple(replace(e, priority=max(e.priority, DEMOTED)) for e in screen.elements if e.kind in KEPT)
    outcome = Outcome(label, tuple(winners), tuple((name, f"{value}{unit}") for name, value in scores))
    return replace(screen, elements=lead + rest, status=status or screen.status, result=outcome)
