"""Zap cards: counts only (deck, hand, discard per player), and card numbers for priority.

The cards stay secret in the players' hands and their text is not in the seed,
so Tableside never names an effect: it keeps the counts right, enforces the
hand of three and the three-card extension, and remembers the numbers played.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.system import Action, Result, State
from tableside.core.systems.vnm import rules
from tableside.core.systems.vnm.state import current_world, many, player_of, turn_closed, who, world_in_game
from tableside.core.text import N_

EXTENSION_EFFECT: dict[str, str] = {
    "build": "build one extra spaceship",
    "move": "move one spaceship one extra area",
    "attack": "attack once more with one spaceship",
    "population": "collect, infect or destroy one extra population",
    "research": "roll again to research",
}


def _who(state: State, action: Action) -> tuple[str, dict[str, Any]]:
    """The world the action names (default: whose turn it is) and its player: a team's two worlds
    share one Zap deck and hand."""
    world = world_in_game(state, action["world"]) if action.get("world") else current_world(state)
    return world, player_of(state, world)


def _counts(zap: dict[str, int]) -> str:
    return f"deck {zap['deck']}, hand {zap['hand']}, discard {zap['discard']}"


def play_zap(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Play a Zap card at any time: hand to discard pile; its number decides priority."""
    world, player = _who(state, action)
    zap = player["zap"]
    if zap["hand"] == 0:
        raise RuleError(N_("{world} has no Zap cards in hand", world=who(state, world)))
    zap["hand"] -= 1
    zap["discard"] += 1
    number = action.get("number")
    state["zap_played"].append({"world": world, "number": number})
    summary = N_("{world} plays a Zap card", world=who(state, world))
    summary += f" #{number}" if number is not None else ""
    numbered = [p for p in state["zap_played"] if p["number"] is not None]
    result: dict[str, Any] = {"zap": dict(zap)}
    if len(numbered) > 1:
        top = max(numbered, key=lambda p: p["number"])
        result["priority"] = top
        summary += f"; on a conflict the highest number wins: #{top['number']} ({who(state, top['world'])})"
    result["summary"] = f"{summary} ({_counts(zap)})"
    return state, result


def draw_zap(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Draw by hand (a missed draw, or a card that says so): never past three in hand."""
    world, player = _who(state, action)
    zap = player["zap"]
    count = action.get("count")
    if count is None:
        count = rules.ZAP_HAND - zap["hand"]
    if count == 0 or zap["hand"] + count > rules.ZAP_HAND:
        nth = zap["hand"] + max(count, 1)
        raise RuleError(
            N_(
                "{world} holds {cards}; a hand holds three, so drawing a {ordinal} is not allowed",
                world=who(state, world),
                cards=many(zap["hand"], "Zap card"),
                ordinal=_ordinal(nth),
            )
        )
    if count > zap["deck"]:
        raise RuleError(
            N_(
                "{world}'s Zap deck has {cards} left, not {count}",
                world=who(state, world),
                cards=many(zap["deck"], "card"),
                count=count,
            ),
            rule="deck",
        )
    zap["deck"] -= count
    zap["hand"] += count
    return state, {
        "summary": N_(
            "{world} draws {cards} ({counts})",
            world=who(state, world),
            cards=many(count, "Zap card"),
            counts=_counts(zap),
        ),
        "zap": dict(zap),
    }


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def draw_for_turn(state: State, world: str) -> str:
    """Start of a turn: "draw cards from your deck until you have three again" while the deck lasts.
    Said after the player's name ("Ann (Venus) plays next and draws 1 Zap card")."""
    player = player_of(state, world)
    zap = player["zap"]
    wanted = rules.ZAP_HAND - zap["hand"]
    drawn = min(wanted, zap["deck"])
    zap["deck"] -= drawn
    zap["hand"] += drawn
    if wanted == 0:
        return N_("holds three Zap cards")
    if drawn < wanted:
        return N_("draws {cards}: the deck is out ({counts})", cards=many(drawn, "Zap card"), counts=_counts(zap))
    return N_("draws {cards} ({counts})", cards=many(drawn, "Zap card"), counts=_counts(zap))


def extend_closed(state: State, seat: str | None = None) -> str | None:
    reason = turn_closed(state, seat)
    if reason:
        return reason
    world = current_world(state)
    chosen = state["turn_action"]
    if chosen is None:
        return N_(
            "{world} has not chosen an action yet; a discarded Zap card extends this turn's action",
            world=who(state, world),
        )
    if chosen["extensions"] >= rules.MAX_EXTENSIONS:
        return N_(
            "{world} has already discarded three Zap cards to extend this action, the most allowed",
            world=who(state, world),
        )
    if player_of(state, world)["zap"]["hand"] == 0:
        return N_("{world} has no Zap cards in hand", world=who(state, world))
    return None


def extend(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Discard up to three Zap cards to extend this turn's action, one effect per card."""
    world = current_world(state)
    player = player_of(state, world)
    chosen = state["turn_action"]
    cards = action["cards"]
    if chosen["extensions"] + cards > rules.MAX_EXTENSIONS:
        raise RuleError(
            N_(
                "at most three Zap cards extend one action; {world} has already discarded {extensions}",
                world=who(state, world),
                extensions=chosen["extensions"],
            )
        )
    zap = player["zap"]
    if cards > zap["hand"]:
        raise RuleError(
            N_(
                "{world} holds {cards}, not {count}",
                world=who(state, world),
                cards=many(zap["hand"], "Zap card"),
                count=cards,
            )
        )
    zap["hand"] -= cards
    zap["discard"] += cards
    chosen["extensions"] += cards
    effect = EXTENSION_EFFECT[chosen["kind"]]
    note = " (Technology and Special cards do not apply)" if state["version"] == "Enhanced" else ""
    if chosen["kind"] == "attack" and state["version"] == "Enhanced":
        note = " (Technology and Special cards do not apply: two dice, 8 or higher)"
    return state, {
        "summary": N_(
            "{world} discards {cards}: {count} x {effect}{note} ({counts})",
            world=who(state, world),
            cards=many(cards, "Zap card"),
            count=cards,
            effect=effect,
            note=note,
            counts=_counts(zap),
        ),
        "extensions": chosen["extensions"],
        "zap": dict(zap),
    }
