"""What the e-paper shows: the round, the Trump and Rank Indicators large, every board as a grid."""

from __future__ import annotations

from typing import Any

from tableside.core.recap_screen import game_end
from tableside.core.screen import Grid, GridRow, KeyFigure, Screen, Text
from tableside.core.system import TableRoll
from tableside.core.systems.vegas import rules, tracks
from tableside.core.systems.vegas.setup import GAME_OVER, REVEAL, ROUND_OVER, ROUND_START, SETUP, TRICKS
from tableside.core.text import N_

# The phases as the header says them, marked so a German phone reads them in German (#38).
PHASE_WORDS = {
    SETUP: N_("Setup"),
    ROUND_START: N_("Round start"),
    TRICKS: N_("Tricks"),
    REVEAL: N_("Reveal"),
    ROUND_OVER: N_("Round over"),
    GAME_OVER: N_("Game over"),
}

# Short headers: a column is about three characters wide on a 400 px panel.
COLUMNS = ("VP", "Tm", "Gm", "Ins", "Bot", "Mob", "Inc", "Crd")


def acting(state: dict[str, Any]) -> list[str]:
    """Whom the table waits for: a Mobster token's player taking a card of the trick, the players with an open
    trick bonus, else who leads or reveals."""
    if state["trick"] is not None:
        mobster = state["trick"].get("mobster")
        return [mobster] if mobster else [c["player"] for c in state["trick"]["claims"]]
    return [p for p in (state["leader"], state["revealer"]) if p]


def board_rows(state: dict[str, Any]) -> tuple[GridRow, ...]:
    """One row per player: VP, the five track levels (1-5), track increases, cards in hand."""
    rows = []
    for i, player in enumerate(state["players"]):
        board = state["boards"][player]
        cells = (
            str(state["vp"][player]),
            *(str(board[t]) for t in rules.TRACKS),
            str(tracks.increases(board)),
            str(state["hand"][player]),
        )
        lead = player in acting(state)
        fix = (f"vp.{i}", *(f"boards.{i}.{t}" for t in rules.TRACKS), "", f"hand.{i}")
        rows.append(GridRow(player, cells, highlight=lead, colour=i, fix=fix))
    return tuple(rows)


TOKEN_COLUMNS = rules.TOKEN_COLOURS  # the held form says them whole: "Bob Game, 2 Inspector" (never "Gm Ins×2", #36)


def token_rows(state: dict[str, Any]) -> tuple[GridRow, ...]:
    """The modifier tokens each player holds, by colour; nothing while nobody holds one."""
    tokens = state.get("tokens") or {}
    if not any(any(held.values()) for held in tokens.values()):
        return ()
    return tuple(
        GridRow(
            p,
            tuple(str(tokens[p].get(c, 0)) for c in rules.TOKEN_COLOURS),
            colour=i,
            fix=tuple(f"tokens.{i}.{c}" for c in rules.TOKEN_COLOURS),
        )
        for i, p in enumerate(state["players"])
    )


def screen(state: dict[str, Any], roll: TableRoll | None = None) -> Screen:
    round_text = N_("Setup") if state["phase"] == SETUP else f"{state['round']}/{state['rounds']}"
    elements: list[Any] = [
        KeyFigure(N_("Round"), round_text, priority=1),
        KeyFigure("Trump", state["trump"], priority=1, tone="accent"),
        KeyFigure("Rank", state["rank"], priority=1, tone="accent"),
        Grid(N_("Players"), COLUMNS, board_rows(state), priority=1),
    ]
    held = token_rows(state)
    if held:
        elements.append(Grid(N_("Tokens held"), TOKEN_COLUMNS, held, priority=2, held=True))
    playing = state.get("playing") or []
    if playing:  # cards played seat by seat lie face up until the trick is complete
        # The prompt names them too ("Trick 1: Cy plays (Bob Game 9)"): this line only where there is room
        # (priority 3), for a panel whose prompt had to leave them out.
        cards = ", ".join(f"{r['player']} {rules.card_name(r['suit'], r['number'])}" for r in playing)
        elements.append(
            Text(N_("Trick {number} so far: {cards}", number=state["tricks_played"] + 1, cards=cards), priority=3)
        )
    last = state["trick"] or state["last_trick"]  # an open trick is the last one played
    if last and state["phase"] != GAME_OVER:  # at the end the winner and the ranking lead, not the round's last trick
        # After the tokens held: where only one fits, the tokens (the status says who won the last trick).
        elements.append(
            Text(
                N_("Trick {number}: {winner} ({how})", number=last["number"], winner=last["winner"], how=last["how"]),
                priority=3,
            )
        )
    if roll is not None:  # a random pick (the card stolen, the tie broken) while its trick lasts
        elements.append(roll.group(priority=3))
    alert = None
    if state["phase"] == GAME_OVER and state["ranking"]:
        winners = [r["player"] for r in state["ranking"] if r["place"] == 1]
        alert = won_words(winners)
        standings = ", ".join(
            N_(
                "{place}. {player} {vp} VP / {increases} incr",
                **{k: r[k] for k in ("place", "player", "vp", "increases")},
            )
            for r in state["ranking"]
        )
        elements.append(Text(standings, priority=1))
    status = PHASE_WORDS.get(state["phase"], state["phase"])
    if last and state["phase"] != GAME_OVER:  # the last trick's winner in the header, where it always fits
        status = N_("{phase} · last trick {winner}", phase=status, winner=last["winner"])
    players = tuple(state["players"])
    shown = Screen("Venusian Vegas", status=status, elements=tuple(elements), alert=alert, players=players)
    if state["phase"] == GAME_OVER and state["ranking"]:
        scores = [(r["player"], r["vp"]) for r in state["ranking"]]
        return game_end(shown, [r["player"] for r in state["ranking"] if r["place"] == 1], scores, unit=" VP")
    return shown


def won_words(winners: list[str]) -> str:
    """ "Ann wins", "Ann and Bob win": the names joined by a marked pattern, never a dynamic msgid."""
    if len(winners) == 1:
        return N_("{name} wins", name=winners[0])
    names = winners[0]
    for name in winners[1:]:
        names = N_("{a} and {b}", a=names, b=name)
    return N_("{names} win", names=names)
