"""When each action is available: the phase, the trick waiting for its bonuses, the tie for furthest behind.

Each check returns the reason in words, or None; the core refuses an action with that reason.
"""

from __future__ import annotations

from tableside.core.system import State
from tableside.core.systems.vegas.setup import GAME_OVER, REVEAL, ROUND_OVER, ROUND_START, SETUP, TRICKS
from tableside.core.systems.vegas.tracks import increases
from tableside.core.text import N_


def tie_open(state: State) -> bool:
    """Two or more tie for furthest behind at the start of a round and none is chosen yet."""
    return state["phase"] == ROUND_START and state["chosen"] is None


def round_can_start(state: State, seat: str | None) -> str | None:
    if state["phase"] == SETUP:
        waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
        return N_("waiting for the setup increases of {waiting}", waiting=", ".join(waiting)) if waiting else None
    if state["phase"] == ROUND_OVER:
        return None
    if state["phase"] == GAME_OVER:
        return N_("the game is over after {rounds} rounds", rounds=state["rounds"])
    return N_("round {round} is still being played ({phase})", round=state["round"], phase=state["phase"])


def tie_open_reason(state: State, seat: str | None) -> str | None:
    return None if tie_open(state) else N_("nobody ties for furthest behind right now")


def trick_to_play(state: State, seat: str | None) -> str | None:
    if state["phase"] != TRICKS:
        return N_("only while tricks are played; now: {phase}", phase=state["phase"])
    if state["trick"] is not None:
        return N_("the last trick's bonuses are still open: take or decline them, or press A to go on")
    return None


def card_to_play(state: State, seat: str | None) -> str | None:
    """Playing a card: a trick under way, and a seated phone's own seat still has a card to play in it.
    A seated phone plays only its own seat's card, so a seat that holds no cards, or has played in this
    trick already, is not offered it (the table's phone plays for anyone)."""
    reason = trick_to_play(state, seat)
    if reason or seat is None or seat not in state["hand"]:
        return reason
    if state["hand"][seat] < 1:
        return N_("{seat} holds no cards this round", seat=seat)
    if any(r.get("player") == seat for r in state.get("playing") or []):
        return N_("{seat} has played a card in this trick already", seat=seat)
    return None


def trick_open(state: State, seat: str | None) -> str | None:
    if state["phase"] == TRICKS and state["trick"] is not None:
        return None
    return N_("no trick is waiting for its bonuses")


def round_name(state: State) -> str | None:
    """The round being played ("Score the most victory points over 4 rounds"); None in setup, once the round is over
    ("The round ends when only one player still holds cards") and at the game's end."""
    return N_("Round {round}", round=state["round"]) if state["phase"] in (ROUND_START, TRICKS, REVEAL) else None


def round_numbers(state: State) -> dict[str, dict[str, int]]:
    """Each player's VP, track increases and modifier tokens: what a round's summary compares (the cards in a
    hand are no one else's)."""
    return {
        p: {
            "VP": state["vp"][p],
            "track increases": increases(state["boards"][p]),
            "tokens": sum(state["tokens"][p].values()),
        }
        for p in state["players"]
    }


def round_events(state: State) -> dict[str, tuple[int, dict[int, str]]]:
    """Who won each trick of the round (the rules' referee names the winner, ``tricks.play_trick``, or the
    players enter it): the state holds the trick open or just closed and the count played this round, so a
    round's summary gathers the winners over its states and the stored state keeps no ledger of them (#37).
    The count stays with the round until the next one starts, so the state that ends it still tells."""
    if not state["round"]:
        return {}
    last = state["trick"] or state["last_trick"]
    shown = {int(last["number"]): str(last["winner"])} if last else {}
    return {f"Round {state['round']}": (int(state["tricks_played"]), shown)}


def round_outcome(winners: list[str], names: list[str]) -> tuple[dict[str, list[str]], None]:
    """Each player's tricks won in the round, in words ("won 2 tricks", "won no tricks")."""
    told = {}
    for name in names:
        won = winners.count(name)
        told[name] = [
            N_("won no tricks") if won == 0 else N_("won 1 trick") if won == 1 else N_("won {count} tricks", count=won)
        ]
    return told, None
