"""Trick bonuses and round bonuses: what a card's number gives, applied to the state.

Number 1-5: gain 2 VP (trick) / 1 VP (round). 6-9: the suit's ability / stronger
ability. 10-13: increase that suit's track once (trick) / twice (round). Random
picks (which card of a hand is stolen) are decided by the caller, which draws
them through the recorded dice, and handed in as plain numbers.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import rules, tracks, vp
from tableside.core.systems.vegas.setup import require_player
from tableside.core.text import N_

State = dict[str, Any]


def offer(suit: str, number: int) -> str:
    """The trick bonus a card offers, in the rulebook's words: "gain 2 VP", "draw a card", "increase Bot"."""
    if number in rules.LOW_NUMBERS:
        return N_("gain {vp} VP", vp=rules.TRICK_LOW_VP)
    if number in rules.HIGH_NUMBERS:
        return N_("increase {suit}", suit=suit)
    return rules.ABILITIES[suit][0]


def opponents(state: State, player: str) -> list[str]:
    return [p for p in state["players"] if p != player]


def needs(suit: str, number: int, kind: str) -> tuple[str, ...]:
    """Which extra choices a card's bonus takes: "target" (a player), "colour" (a token), "track"."""
    if number not in rules.MIDDLE_NUMBERS:
        return ()
    if suit == "Game":
        return ("target",)
    if suit == "Bot":
        return ("colour",) if kind == "trick" else ("track",)
    return ()


def _target(state: State, player: str, target: str | None, what: str) -> str:
    if not target:
        raise RuleError(N_("{what}: say which opponent", what=what))
    require_player(state, target)
    if target == player:
        raise RuleError(N_("{what}: {player} cannot take from themself; choose an opponent", what=what, player=player))
    return target


def _lose_each(state: State, player: str, amount: int, reason: str) -> list[str]:
    return [vp.describe(vp.change_vp(state, p, -amount, reason)) for p in opponents(state, player)]


def trick_bonus(
    state: State,
    player: str,
    suit: str,
    number: int,
    *,
    target: str | None = None,
    colour: str | None = None,
    pick: int | None = None,
) -> str:
    """``player`` takes the trick bonus of the card ``suit number``; returns what happened, in words.

    ``pick`` (1..cards held by the target) is the random card stolen by a Game 6-9.
    """
    card = rules.card_name(suit, number)
    reason = f"trick bonus {card}"
    if number in rules.LOW_NUMBERS:
        return vp.describe(vp.change_vp(state, player, rules.TRICK_LOW_VP, reason))
    if number in rules.HIGH_NUMBERS:
        return tracks.increase(state, player, suit, reason)["text"]
    if suit == "Team":
        state["hand"][player] += rules.TEAM_TRICK_DRAW
        return f"{player} draws a card ({state['hand'][player]} in hand)"
    if suit == "Game":
        victim = _target(state, player, target, f"{card} (pay 1 VP to steal a random card)")
        if state["hand"][victim] < 1:
            raise RuleError(N_("{card}: {victim} holds no cards to steal", card=card, victim=victim))
        if vp.floor_applies(state) and state["vp"][player] < rules.GAME_STEAL_PRICE:
            raise RuleError(
                N_(
                    "{card}: {player} has no VP to pay for the steal (VP never go below zero)", card=card, player=player
                ),
                rule="vp_below_zero",
            )
        if pick is None or not 1 <= pick <= state["hand"][victim]:
            raise RuleError(
                N_(
                    "{card}: the random card must be 1-{held} of {victim}'s hand",
                    card=card,
                    held=state["hand"][victim],
                    victim=victim,
                )
            )
        paid = vp.change_vp(state, player, -rules.GAME_STEAL_PRICE, reason)
        state["hand"][victim] -= 1
        state["hand"][player] += 1
        return (
            f"{vp.describe(paid)}; {player} steals card {pick} of {victim}'s {state['hand'][victim] + 1} "
            f"(counted from the left of the hand as held)"
        )
    if suit == "Inspector":
        hit = [p for p in opponents(state, player) if state["hand"][p] > 0]
        for p in hit:
            state["hand"][p] -= rules.INSPECTOR_TRICK_DISCARD
        return f"opponents discard 1: {', '.join(hit) or 'nobody holds cards'}"
    if suit == "Bot":
        if colour not in rules.TOKEN_COLOURS:
            raise RuleError(
                N_(
                    "{card} (take a modifier token): say which colour, one of {token_colours}",
                    card=card,
                    token_colours=", ".join(rules.TOKEN_COLOURS),
                ),
                rule="bot_ability",
            )
        state["tokens"][player][colour] += rules.BOT_TRICK_TOKENS
        return f"{player} takes {rules.a_token(colour)}"
    return "opponents lose 1 VP: " + "; ".join(_lose_each(state, player, rules.MOBSTER_TRICK_LOSS, reason))


def round_bonus(
    state: State, player: str, suit: str, number: int, *, target: str | None = None, track: str | None = None
) -> str:
    """``player`` takes the round bonus (the larger one) of a revealed card; returns words."""
    card = rules.card_name(suit, number)
    reason = f"round bonus {card}"
    if number in rules.LOW_NUMBERS:
        gain = rules.reveal_low_vp(state.get("reveal_low", rules.REVEAL_ROUND_BONUS))
        return vp.describe(vp.change_vp(state, player, gain, reason))
    if number in rules.HIGH_NUMBERS:
        steps = [tracks.increase(state, player, suit, reason) for _ in range(rules.ROUND_HIGH_INCREASES)]
        return "; ".join(s["text"] for s in steps)
    if suit == "Team":
        state["hand"][player] += rules.TEAM_ROUND_DRAW
        return f"{player} draws 2 and reveals them too for their round bonuses"
    if suit == "Game":
        victim = _target(state, player, target, f"{card} (steal up to 2 VP)")
        lost = vp.change_vp(state, victim, -rules.GAME_ROUND_STEAL, reason)
        gained = vp.change_vp(state, player, -lost["applied"], reason)
        return f"{player} steals {gained['applied']} VP from {victim}" + (
            f" ({victim} had only {-lost['applied']})" if lost["capped"] else ""
        )
    if suit == "Inspector":
        return "opponents lose 2 VP: " + "; ".join(_lose_each(state, player, rules.INSPECTOR_ROUND_LOSS, reason))
    if suit == "Bot":
        if track not in rules.TRACKS:
            raise RuleError(
                N_(
                    "{card} (increase any track): say which track, one of {tracks}",
                    card=card,
                    tracks=", ".join(rules.TRACKS),
                )
            )
        return tracks.increase(state, player, track, reason)["text"]
    return vp.describe(vp.change_vp(state, player, rules.MOBSTER_ROUND_GAIN, reason))
