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


def card_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    """One seat's card, played seat by seat: from an entered hand (following suit, mostly), a fresh card,
    or now and then one played already this round."""
    done = [r["player"] for r in state.get("playing") or []]
    waiting = [p for p in _order(state) if p not in done] or _order(state)
    player = waiting[0] if pick(range(6)) else pick(state["players"])
    played = sorted({r["card"] for r in state.get("played", [])})
    entered = {c for h in (state.get("hands") or {}).values() if h for c in h}
    fresh = [c for c in referee.all_cards() if c not in played and c not in entered]
    hand = (state.get("hands") or {}).get(player)
    led = (state.get("playing") or [{}])[0].get("suit")
    if hand and pick(range(5)):
        follow = [c for c in hand if referee.parse_card(c)[0] == led]
        card = pick(follow or hand)
    elif played and pick(range(6)) == 0:
        card = pick(played)
    else:
        card = pick(fresh or referee.all_cards())
    suit, number = referee.parse_card(card)
    return {"type": "play_card", "player": player, "suit": suit, "number": number}


def trick_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    players = _order(state)
    if state.get("playing") or pick(range(3)) == 0:
        return card_move(state, pick)
    if pick([True, False]):
        winner = pick(players)
        used: set[str] = set()
        tokens = [{"player": p, **t} for p in players if (t := _token(state, p, pick, used))]
        return {"type": "trick_winner", "winner": winner, "tokens": tokens}
    played = {r["card"] for r in state.get("played", [])}
    entered = {c for h in (state.get("hands") or {}).values() if h for c in h}
    fresh = [c for c in referee.all_cards() if c not in played and c not in entered]
    deck = referee.all_cards() if pick(range(8)) == 0 else fresh  # now and then a card played already
    cards, used = [], set()
    for player in players:
        hand = (state.get("hands") or {}).get(player)
        if hand and pick(range(6)):
            led = cards[0]["suit"] if cards else None
            follow = [c for c in hand if referee.parse_card(c)[0] == led] if led else []
            card = pick(follow or hand) if pick(range(5)) else pick(hand)  # now and then not following suit
        else:
            card = pick(deck)
        if card in deck:
            deck.remove(card)
        suit, number = referee.parse_card(card)
        row = {"player": player, "suit": suit, "number": number, **_token(state, player, pick, used)}
        cards.append(row)
    for row in cards:
        if row.get("token") == "Mobster" and not row.get("block") and pick([True, False]):
            row["take"] = pick([f"{c['suit']} {c['number']}" for c in cards])  # else the trick asks for it
    return {"type": "play_trick", "cards": cards}


def hand_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    """A player enters their hand: the right number of cards nobody played or entered, now and then not."""
    player = pick(state["players"])
    played = {r["card"] for r in state.get("played", [])}
    entered = {c for p, h in (state.get("hands") or {}).items() if h and p != player for c in h}
    fresh = [c for c in referee.all_cards() if c not in played and c not in entered]
    count = state["hand"][player] + pick([0, 0, 0, 0, 1, -1])
    cards = []
    for _ in range(max(0, min(count, len(fresh)))):
        cards.append(fresh.pop(fresh.index(pick(fresh))))
    if cards and played and pick(range(6)) == 0:
        cards[-1] = pick(sorted(played))  # a card played this round: refused
    return {"type": "enter_hand", "player": player, "cards": cards}


def claim_move(state: dict[str, Any], pick: Pick) -> dict[str, Any]:
    trick = state["trick"]
    if trick.get("mobster") and pick(range(4)):  # the Mobster token's card first (else a claim, refused, or A)
        taker = trick["mobster"] if pick(range(6)) else pick(state["players"])
        return {"type": "mobster_take", "player": taker, "card": pick([c["card"] for c in trick["cards"]])}
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
    hand = (state.get("hands") or {}).get(state["revealer"])
    if hand and pick(range(4)):
        suit, number = referee.parse_card(pick(hand))
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
        unentered = [p for p in state["players"] if not (state.get("hand_entered") or {}).get(p) and state["hand"][p]]
        if unentered and pick(range(4)) == 0:
            return hand_move(state, pick)
        return claim_move(state, pick) if state["trick"] else trick_move(state, pick)
    if phase == "Reveal":
        return reveal_move(state, pick)
    if phase == "Round over":
        return {"type": "start_round"}
    return {"type": "random_pick", "among": "players"}
