"""What the e-paper shows: the round, the Trump and Rank Indicators large, every board as a grid."""

from __future__ import annotations

from typing import Any

from tableside.core.screen import Grid, GridRow, KeyFigure, Screen, Text
from tableside.core.systems.vegas import rules, tracks
from tableside.core.systems.vegas.setup import GAME_OVER, SETUP

COLUMNS = ("VP", "Team", "Game", "Insp", "Bot", "Mob", "Incr", "Cards")


def board_rows(state: dict[str, Any]) -> tuple[GridRow, ...]:
    """One row per player: VP, the five track levels (1-5), track increases, cards in hand."""
    rows = []
    for i, player in enumerate(state["players"]):
        board = state["boards"][player]
        cells = (str(state["vp"][player]), *(str(board[t]) for t in rules.TRACKS),
                 str(tracks.increases(board)), str(state["hand"][player]))
        lead = player in (state["leader"], state["revealer"])
        rows.append(GridRow(player, cells, highlight=lead, colour=i))
    return tuple(rows)


def screen(state: dict[str, Any], prompt: str | None = None) -> Screen:
    round_text = "Setup" if state["phase"] == SETUP else f"{state['round']}/{state['rounds']}"
    elements: list[Any] = [
        KeyFigure("Round", round_text, priority=1),
        KeyFigure("Trump", state["trump"], priority=1, tone="accent"),
        KeyFigure("Rank", state["rank"], priority=1, tone="accent"),
        Grid("Players", COLUMNS, board_rows(state), priority=1),
    ]
    if state["leader"]:
        elements.append(Text(f"{state['leader']} leads", priority=2, tone="accent"))
    last = state["last_trick"]
    if last:
        elements.append(Text(f"Last trick: {last['winner']} ({last['how']})", priority=2))
    alert = None
    if state["phase"] == GAME_OVER and state["ranking"]:
        winners = [r["player"] for r in state["ranking"] if r["place"] == 1]
        alert = f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}"
        standings = ", ".join(f"{r['place']}. {r['player']} {r['vp']} VP / {r['increases']} incr"
                              for r in state["ranking"])
        elements.append(Text(standings, priority=1))
    status = state["phase"] if state["phase"] in (SETUP, GAME_OVER) else f"Round {state['round']}: {state['phase']}"
    return Screen("Venusian Vegas", status=status, elements=tuple(elements), alert=alert, prompt=prompt)
