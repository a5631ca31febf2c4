"""The cards of the current round: every card played in a trick, and the hands players entered.

Tableside never deals, so it knows a card only once a player names it. Two things follow
from the tricks entered card by card:

- **Played this round.** "65 employee cards ... numbered 1 to 13": one of each, and the deck
  is only reshuffled when a round starts ("Each round All modifier tokens are returned and
  the deck is reshuffled"). A card played in an earlier trick of the round is refused, in
  words, naming the trick it was played in. A card a Mobster token takes "out of this trick
  into your hand" goes back into a hand, so it may be played again. A trick entered by its
  winner only adds the cards its bonuses are claimed from.
- **Entered hands.** A seat may enter its hand (privately: other seats see only that it did).
  While the entered hand still matches the cards the player holds, each card that player
  plays must be in it, and "Follow the led suit if you can" is checked against it. Anything
  that changes a hand out of sight (a draw, a steal, a discard, a trick entered by its winner
  only, a correction) sets the entered hand aside; the player may enter it again.

An entered hand is checked only on its own seat's phone (#33): a refusal there tells that phone nothing it
does not know. A card entered by any other phone (the table, or another seat) is checked against what is
public only, and accepted the same whatever the hand holds; a hand it does not match is set aside quietly
(``hands_stale``, seen by its seat alone), so no refusal, count or flag another phone sees depends on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import referee, rules
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]


def start_round(state: State) -> None:
    """A new round: the deck is reshuffled, so nothing has been played and no hand is known."""
    state["played"] = []
    state["playing"] = []
    state["hands"] = {p: None for p in state["players"]}
    state["hands_stale"] = {}


def set_aside_quietly(state: State, player: str) -> None:
    """``player``'s entered hand does not match a card another phone entered: it is set aside for its seat
    alone, and the public sees it as entered (its size kept, so a draw or a steal still sets it aside in view)
    until the player enters it again or the round ends."""
    hand = state["hands"][player]
    state["hands"][player] = None
    state.setdefault("hands_stale", {})[player] = len(hand)


def owns(seat: str | None, player: str) -> bool:
    """Whether the phone acting is ``player``'s own seat: only there is an entered hand checked aloud."""
    return seat is not None and seat == player


def played_cards(state: State) -> dict[str, dict[str, Any]]:
    """Card name -> ``{"card", "player", "trick"}`` for every card played this round and still out of hand."""
    return {row["card"]: row for row in state.get("played", [])}


def check_not_played(state: State, card: str, who: str) -> None:
    """Refuse a card already played this round, saying when and by whom."""
    row = played_cards(state).get(card)
    if row is not None:
        by = f"{row['player']}, " if row["player"] else ""
        raise RuleError(
            N_(
                "{who}: {card} was already played this round ({by}trick {trick}); there is one of each card and the "
                "deck is reshuffled only when a round starts",
                who=who,
                card=card,
                by=by,
                trick=row["trick"],
            )
        )


def named_from_unseen_trick(state: State, card: str, trick: int, who: str, seat: str | None = None) -> None:
    """A bonus claimed from a trick entered by its winner only names a card played in it: one played in an
    earlier trick of the round, or held in an entered hand, is refused; otherwise it joins the round's
    record (by an opponent whose name the table did not enter)."""
    row = played_cards(state).get(card)
    if row is not None and row["trick"] == trick:
        return  # a second claim on the same card of this trick
    check_not_played(state, card, who)
    holder = holder_of(state, card)
    if holder is not None and owns(seat, holder):
        raise RuleError(
            N_(
                "{who}: {card} is in {holder}'s hand as entered, so it was not played in this trick",
                who=who,
                card=card,
                holder=holder,
            )
        )
    if holder is not None:
        set_aside_quietly(state, holder)
    state.setdefault("played", []).append({"card": card, "player": "", "trick": trick})


def holder_of(state: State, card: str) -> str | None:
    """The player whose entered hand holds ``card``, if any."""
    for player, hand in (state.get("hands") or {}).items():
        if hand is not None and card in hand:
            return player
    return None


def check_play(state: State, player: str, card: str, led: str | None, seat: str | None = None) -> None:
    """One card played: not played before this round (public); on the holder's own phone (``seat``), not in
    another entered hand; on the player's own, in their entered hand if they entered one, and following
    ``led`` (the led suit; None for the card that leads) when that hand holds it. From any other phone the
    card is accepted whatever the hands hold, and an entered hand it does not match is set aside quietly."""
    check_not_played(state, card, f"{player}'s card")
    holder = holder_of(state, card)
    if holder is not None and holder != player:
        if owns(seat, holder):  # only the holder's phone: the player's would learn another seat's hand
            raise RuleError(
                N_("{player}'s card: {card} is in {holder}'s hand as entered", player=player, card=card, holder=holder)
            )
        set_aside_quietly(state, holder)
    hand = (state.get("hands") or {}).get(player)
    if hand is None:
        return
    if not owns(seat, player):
        if card not in hand:
            set_aside_quietly(state, player)
        return
    if card not in hand:
        raise RuleError(N_("{player}'s hand as entered does not hold {card}", player=player, card=card))
    if led is not None and referee.parse_card(card)[0] != led:
        follow = sorted((c for c in hand if referee.parse_card(c)[0] == led), key=card_order)
        if follow:
            raise RuleError(
                N_(
                    "{player} holds {follow}: follow the led suit ({led}) if you can, not {card}",
                    player=player,
                    follow=", ".join(follow),
                    led=led,
                    card=card,
                ),
                rule="follow",
            )


def reveal(state: State, player: str, card: str, seat: str | None = None) -> None:
    """The revealer's card leaves the hand they entered: checked aloud on their own phone only; from any other
    phone it is taken as seen, and a hand that does not hold it is set aside quietly (``check_play``)."""
    entered = (state.get("hands") or {}).get(player)
    if entered is not None and card not in entered and owns(seat, player):
        raise RuleError(N_("{player}'s hand as entered does not hold {card}", player=player, card=card), rule="cards")
    if entered is not None and card not in entered:
        set_aside_quietly(state, player)
    if entered is not None and card in entered:
        state["hands"][player] = [c for c in entered if c != card]
    elif player in state.get("hands_stale", {}):
        state["hands_stale"][player] -= 1  # the revealed card leaves the hand it is seen to hold


def check_trick(state: State, players: Sequence[str], names: Sequence[str], seat: str | None = None) -> None:
    """Every card of a trick entered card by card, checked as it would be played (``check_play``)."""
    led = referee.parse_card(names[0])[0]
    for i, (player, card) in enumerate(zip(players, names, strict=True)):
        check_play(state, player, card, led if i else None, seat)


def record_trick(state: State, players: Sequence[str], names: Sequence[str], taken: Sequence[str], trick: int) -> None:
    """The trick's cards are out: into the round's record, out of entered hands. A card a Mobster token
    took goes back into a hand (the taker's entered hand, if any) and may be played again."""
    hands, stale = state["hands"], state.setdefault("hands_stale", {})
    for player, card in zip(players, names, strict=True):
        if hands.get(player) is not None:
            hands[player] = [c for c in hands[player] if c != card]
        elif player in stale:
            stale[player] -= 1
        if card not in taken:
            state["played"].append({"card": card, "player": player, "trick": trick})


def took(state: State, player: str, card: str) -> None:
    """A Mobster token took ``card`` into ``player``'s hand: an entered hand follows it."""
    hand = state["hands"].get(player)
    if hand is not None:
        state["hands"][player] = sorted([*hand, card], key=card_order)
    elif player in state.get("hands_stale", {}):
        state["hands_stale"][player] += 1


def unseen_plays(state: State, players: Sequence[str]) -> list[str]:
    """A trick entered by its winner only: each of ``players`` played a card nobody named, so an entered
    hand no longer says what they hold. Returns the players whose entered hand was set aside."""
    stale = state.setdefault("hands_stale", {})
    dropped = [p for p in players if state["hands"].get(p) is not None or p in stale]
    for p in dropped:
        state["hands"][p] = None
        stale.pop(p, None)
    return dropped


def enter_hand(state: State, player: str, cards: Sequence[str]) -> dict[str, Any]:
    """``player`` enters the cards they hold: as many as they hold, none played this round, none in
    another entered hand."""
    face_up = {rules.card_name(r["suit"], r["number"]): r["player"] for r in state.get("playing") or []}
    if player in face_up.values():
        raise RuleError(
            N_("{player} has a card face up in the trick under way: enter the hand once it is judged", player=player)
        )
    held = state["hand"][player]
    if len(cards) != held:
        raise RuleError(
            N_("{player} holds {held}; {n} entered", player=player, held=plural(held, "card"), n=len(cards))
        )
    twice = sorted({c for c in cards if list(cards).count(c) > 1})
    if twice:
        raise RuleError(N_("{twice} is entered twice; there is one of each card", twice=twice[0]))
    for card in cards:
        referee.parse_card(card, f"{player}'s hand")
        check_not_played(state, card, f"{player}'s hand")
        if card in face_up:
            raise RuleError(
                N_(
                    "{player}'s hand: {card} lies face up in this trick, played by {face_up}",
                    player=player,
                    card=card,
                    face_up=face_up[card],
                )
            )
        holder = holder_of(state, card)
        if holder is not None and holder != player:
            raise RuleError(
                N_("{player}'s hand: {card} is in {holder}'s hand as entered", player=player, card=card, holder=holder)
            )
    state["hands"][player] = sorted(cards, key=card_order)
    state.setdefault("hands_stale", {}).pop(player, None)
    return {
        "summary": N_("{player} entered their hand ({cards})", player=player, cards=plural(held, "card")),
        "player": player,
        "cards": held,
    }


def settle(state: State) -> list[str]:
    """An entered hand whose size no longer matches the cards held (a draw, a steal, a discard, a correction)
    is set aside. Returns who lost theirs."""
    hands = state.get("hands")
    if not hands:
        return []
    # A Mobster token's player holds one card more than they entered until they tap the card it takes.
    taking = (state.get("trick") or {}).get("mobster")
    dropped = [p for p, hand in hands.items() if hand is not None and len(hand) + (p == taking) != state["hand"][p]]
    for p in dropped:
        hands[p] = None
    # A hand set aside quietly goes on being seen as entered, so it is set aside in view just when an entered
    # hand of its size would be: a draw, a steal, a discard, a correction.
    stale = state.get("hands_stale") or {}
    gone = [p for p, size in stale.items() if size + (p == taking) != state["hand"][p]]
    for p in gone:
        del stale[p]
    return dropped + gone


def problems(state: State) -> list[str]:
    """The cards law: no card played twice this round, no entered hand holding a played card or one
    another entered hand holds."""
    out = []
    played: set[str] = set()
    for row in state.get("played", []):
        if row["card"] in played:
            out.append(f"{row['card']} is recorded as played twice this round")
        played.add(row["card"])
    entered: dict[str, str] = {}
    for player, hand in (state.get("hands") or {}).items():
        for card in hand or ():
            if card in played:
                out.append(f"{player}'s entered hand holds {card}, already played this round")
            if card in entered:
                out.append(f"{card} is in the entered hands of {entered[card]} and {player}")
            entered[card] = player
    return out


def card_order(card: str) -> tuple[int, int]:
    """A card's place in a hand shown in order: suit by suit (the rulebook's order), then number."""
    suit, number = referee.parse_card(card)
    return rules.SUITS.index(suit), number
