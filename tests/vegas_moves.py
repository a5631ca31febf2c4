"""Plausible Venusian Vegas moves for random walks: mostly legal, sometimes not (those must be refused cleanly).

``pick(options)`` chooses one item; a seeded ``random.Random().choice`` or a Hypothesis
``data.draw(sampled_from(...))`` both fit, so the same generator drives the seeded walk
and the RuleBasedStateMachine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tableside.core.systems.vegas import referee, rules

Pick = Callable[[Sequence[Any]], Any]


def _order(state: dict[str, Any]) -> list[str]:
    seats = state["players"]
    start = seats.index(state["leader"])
    ring = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    return [p for p in ring if state["hand"][p] > 0]


def _token(state: dict[str, Any], player: str, pick: Pick, used: set[str]) -> dict[str, Any]:
    held = [c for c in rules.TOKEN_COLOURS if state["tokens"][player][c] > 0 and c not in used]
    if not held or pick([True, False, False]):
        return {}
    colour = pick(held)
    used.add(colour)
    extra: dict[str, Any] = {"token": colour}
    if pick([True, False, False, False]):
        extra["block"] = True
    elif colour == "Game":
        extra["trump"] = pick(rules.TRUMP_CHOICES)
    return extra


def trick_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    players = _order(state)
    if pick([True, False]):
        winner = pick(players)
        used: set[str] = set()
        tokens = [{"player": p, **t} for p in players if (t := _token(state, p, pick, used))]
        return {"type": "trick_winner", "winner": winner, "tokens": tokens}
    deck = referee.all_cards()
    cards, used = [], set()
    for player in players:
        card = pick(deck)
        deck.remove(card)
        suit, number = referee.parse_card(card)
        row = {"player": player, "suit": suit, "number": number, **_token(state, player, pick, used)}
        cards.append(row)
    for row in cards:
        if row.get("token") == "Mobster" and not row.get("block"):
            row["take"] = pick([f"{c['suit']} {c['number']}" for c in cards])
    return {"type": "play_trick", "cards": cards}


def claim_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    trick = state["trick"]
    claim = pick(trick["claims"])
    player = claim["player"]
    kind = pick(["claim", "claim", "claim", "decline", "next"])
    if kind == "decline":
        return {"type": "decline_bonus", "player": player}
    if kind == "next":
        return {"type": "next_trick"}
    if trick["cards"]:
        card = pick(
            [c["card"] for c in trick["cards"] if c["player"] != player and c["card"] not in trick["taken"]]
            or ["Team 1"]
        )
    else:
        card = pick(referee.all_cards())
    suit, number = referee.parse_card(card)
    move = {"type": "claim_bonus", "player": player, "suit": suit, "number": number}
    if suit == "Bot":
        move["colour"] = pick(rules.TOKEN_COLOURS)
    if suit == "Game" and pick([True, False]):
        move["target"] = pick(state["players"])
    return move


def reveal_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    suit, number = pick(rules.SUITS), pick(range(1, 14))
    move = {"type": "reveal_card", "suit": suit, "number": number}
    if suit == "Game":
        move["target"] = pick(state["players"])
    if suit == "Bot":
        move["track"] = pick(rules.TRACKS)
    return move


def correction(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    i = pick(range(len(state["players"])))
    key = pick([f"vp.{i}", f"hand.{i}", f"boards.{i}.{pick(rules.TRACKS)}", f"tokens.{i}.{pick(rules.TOKEN_COLOURS)}"])
    return {"type": "correct", "key": key, "value": pick(range(-1, 8)), "reason": "walk"}


def move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    """One plausible action for this state (about one in fifteen a correction)."""
    if pick(range(15)) == 0:
        return correction(state, pick)
    phase = state["phase"]
    if phase == "Setup":
        waiting = [p for p in state["players"] if not state["setup_tracks"][p]]
        if not waiting:
            return {"type": "start_round"}
        n = rules.setup_increases(len(state["players"]))
        tracks = list(rules.TRACKS)
        chosen = [tracks.pop(tracks.index(pick(tracks))) for _ in range(n)]
        if pick(range(10)) == 0:
            chosen[-1] = chosen[0]  # the same track twice: must be refused
        return {"type": "setup_tracks", "player": pick(waiting), "tracks": chosen}
    if phase == "Round start":
        if state["chosen"] is None:
            return pick(
                [{"type": "random_pick"}, {"type": "choose_furthest_behind", "player": pick(state["furthest_behind"])}]
            )
        return {"type": "free_increase", "track": pick(rules.TRACKS)}
    if phase == "Tricks":
        return claim_move(state, pick) if state["trick"] else trick_move(state, pick)
    if phase == "Reveal":
        return reveal_move(state, pick)
    if phase == "Round over":
        return {"type": "start_round"}
    return {"type": "random_pick", "among": "players"}
