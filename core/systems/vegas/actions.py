"""Handlers: each takes (state, action, ctx), calls the pure rules, and draws random picks through ctx.dice.

A random pick (which card of a hand is stolen, which opponent, who breaks a tie) is a
die with as many sides as there are candidates, rolled through the recorded dice, so
undo, redo and replay give the same pick without the RNG. With one candidate no die
is rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import TABLE
from tableside.core.systems.vegas import hands, referee, rounds, setup, tricks
from tableside.core.systems.vegas.state import tie_open
from tableside.core.text import N_

State = dict[str, Any]
Result = dict[str, Any]


def random_choice(ctx: Any, label: str, candidates: Sequence[Any]) -> tuple[Any, int | None]:
    """One of ``candidates`` by a recorded die (d<number of candidates>); the face or None if no roll."""
    if not candidates:
        raise RuleError(N_("{label}: there is nothing to pick from", label=label))
    if len(candidates) == 1:
        return candidates[0], None
    face = ctx.dice.faces(label, 1, sides=len(candidates), by=TABLE)[0]  # a pick: no player's luck
    ctx.dice.mark()  # the pick is said in the result: the die has no verdict of its own
    return candidates[face - 1], face


def _pick_note(state: State, label: str, candidates: Sequence[Any], chosen: Any, face: int | None) -> str:
    state["last_pick"] = {"label": label, "among": [str(c) for c in candidates], "picked": str(chosen), "die": face}
    if face is None:
        return N_("{label}: {chosen} (the only one)", label=label, chosen=chosen)
    return N_(
        "{label}: {chosen} (picked at random: the die showed {face} of {n_candidates})",
        label=label,
        chosen=chosen,
        face=face,
        n_candidates=len(candidates),
    )


def setup_tracks(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, setup.choose_setup_tracks(state, action["player"], action["tracks"])


def start_round(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, rounds.start_round(state)


def choose_furthest_behind(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, rounds.choose_furthest_behind(state, action["player"])


def free_increase(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, rounds.free_increase(state, action["track"], action.get("player") or None)


def random_pick(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    """B: settle a tie for furthest behind at random, or pick any player at random."""
    among = action.get("among") or ("furthest behind" if tie_open(state) else "players")
    if among == "furthest behind":
        if not tie_open(state):
            raise RuleError(N_("nobody ties for furthest behind right now"))
        candidates = list(state["furthest_behind"])
        chosen, face = random_choice(ctx, "Random pick: who takes the free increase", candidates)
        note = _pick_note(state, N_("Who takes the free increase"), candidates, chosen, face)
        rounds.choose_furthest_behind(state, chosen, N_("random pick"))
        return state, {
            "summary": N_("{note}; {chosen} takes the free increase", note=note, chosen=chosen),
            "player": chosen,
        }
    candidates = list(state["players"])
    chosen, face = random_choice(ctx, "Random pick: a player", candidates)
    return state, {"summary": _pick_note(state, N_("A random player"), candidates, chosen, face), "player": chosen}


def play_trick(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    state["playing"] = []  # the whole trick entered at once replaces any cards played seat by seat
    return state, tricks.play_trick(state, action["cards"], ctx.seat)


def trick_winner(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    state["playing"] = []
    # A log recorded before one token per player was checked here may hold two from one player: it replays.
    tokens = action.get("tokens") or []
    return state, tricks.trick_winner(state, action["winner"], tokens, one_per_player=not ctx.replaying)


def play_card(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    """A seat plays its own card (a seated phone plays only for its seat; the table for anyone)."""
    if ctx.seat is not None and ctx.seat != action["player"]:
        raise RuleError(
            N_("{seat} cannot play {player}'s card (each seat plays its own)", seat=ctx.seat, player=action["player"])
        )
    row = {k: action.get(k) for k in ("player", "suit", "number", "token", "trump", "block", "take")}
    if action.get("from_hand"):  # a card of the seat's entered hand, tapped
        row["suit"], row["number"] = referee.parse_card(action["from_hand"], "Your card")
    if not row["suit"] or not row["number"]:
        raise RuleError(
            N_(
                "Play a card: give {player}'s card (its suit and number, or tap it in the hand)",
                player=action["player"],
            )
        )
    # A log recorded before the tokens were checked as each card is played may hold such a card (refused
    # only when the trick's last card came in): it replays as it was accepted then.
    return state, tricks.play_card(state, row, check_tokens=not ctx.replaying, seat=ctx.seat)


def claim_bonus(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    """A trick bonus; a Game 6-9 steal picks the opponent (if not named) and the card at random."""
    player, suit, number = action["player"], action.get("suit"), action.get("number")
    # no claim: said before asking for a card. A log saved before a Mobster token's take was asked on its own
    # may claim while it is open: it replays.
    tricks.claim_of(state, player, take_first=not ctx.replaying)
    if action.get("from_card"):  # a card of the trick tapped: its suit and number
        suit, number = referee.parse_card(action["from_card"], "Card of the trick")
    if not suit or not number:
        raise RuleError(N_("Take a trick bonus: tap a card of the trick (or give its suit and number)"))
    target, pick, notes = action.get("target") or None, action.get("card") or None, []
    if suit == "Game" and number in range(6, 10):
        if target is None:
            candidates = [p for p in state["players"] if p != player and state["hand"][p] > 0]
            if not candidates:
                raise RuleError(N_("{player}: no opponent holds a card to steal", player=player), rule="steal")
            target, face = random_choice(ctx, "Random pick: whom to steal from", candidates)
            notes.append(_pick_note(state, N_("Whom to steal from"), candidates, target, face))
        held = state["hand"].get(target, 0)
        if pick is None and held > 0:
            cards = list(range(1, held + 1))
            pick, face = random_choice(ctx, f"Random pick: which of {target}'s {held} cards", cards)
            notes.append(_pick_note(state, N_("Which of {target}'s cards", target=target), cards, pick, face))
    result = tricks.claim_bonus(
        state,
        player,
        suit,
        number,
        target=target,
        colour=action.get("colour") or None,
        pick=pick,
        take_first=not ctx.replaying,
        seat=ctx.seat,
    )
    if notes:
        result["summary"] = "; ".join(notes) + "; " + result["summary"]
    return state, result


def decline_bonus(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, tricks.decline_bonus(state, action["player"], take_first=not ctx.replaying)


def mobster_take(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, tricks.mobster_take(state, action["player"], action["card"])


def next_trick(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, tricks.next_trick(state)


def reveal_card(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    return state, tricks.reveal_card(
        state,
        action["suit"],
        action["number"],
        target=action.get("target") or None,
        track=action.get("track") or None,
        seat=ctx.seat,
    )


def enter_hand(state: State, action: dict[str, Any], ctx: Any) -> tuple[State, Result]:
    """A seat enters the cards it holds, privately: then its plays are checked against them (follow suit)."""
    player = action["player"]
    setup.require_player(state, player)
    result = hands.enter_hand(state, player, action["cards"])
    ctx.private(player, result["summary"])
    return state, {"summary": result["summary"], "player": player, "cards": result["cards"]}
