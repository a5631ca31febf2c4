"""Playing a round: tricks (with or without the cards entered), bonus claims, the reveal.

A trick is recorded in one go, once every player still holding cards has played:
either the cards in playing order (Tableside names the winner) or just the winner.
Then the winner may take one opponent's card's trick bonus, and so may each player
who used a Bot token; each may decline. When nobody has a claim left the trick is
closed: the winner leads the next one (or the next player clockwise still holding
cards), and when only one player still holds cards the round ends with their reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.vegas import bonuses, hands, referee, rounds, rules
from tableside.core.systems.vegas.setup import REVEAL, TRICKS, require_player
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]


def require_trick_phase(state: State) -> None:
    if state["phase"] != TRICKS:
        if state["round"]:
            raise RuleError(
                N_(
                    "tricks are played during a round; now: {phase} (round {round})",
                    phase=state["phase"],
                    round=state["round"],
                )
            )
        raise RuleError(N_("tricks are played during a round; now: {phase}", phase=state["phase"]))
    if state["trick"] is not None:
        waiting = ", ".join(c["player"] for c in state["trick"]["claims"])
        raise RuleError(
            N_(
                "the last trick's bonuses are still open ({waiting}): take or decline them, or press A to go on",
                waiting=waiting,
            ),
            rule="trick_bonus",
        )


def _token_plays(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "player": r["player"],
            "colour": r["token"],
            "trump": r.get("trump") or "",
            "block": bool(r.get("block")),
            "take": r.get("take") or "",
        }
        for r in rows
        if r.get("token")
    ]


def _check_players(state: State, players: Sequence[str]) -> None:
    """Every player still holding cards plays exactly once, the leader first."""
    for p in players:
        require_player(state, p)
    twice = sorted({p for p in players if list(players).count(p) > 1})
    if twice:
        raise RuleError(N_("{twice} plays twice in one trick", twice=twice[0]))
    holding = rounds.holders(state)
    idle = [p for p in players if p not in holding]
    if idle:
        raise RuleError(N_("{idle} holds no cards and cannot play", idle=idle[0]), rule="round_end")
    missing = [p for p in holding if p not in players]
    if missing:
        raise RuleError(N_("everyone still holding cards plays: {missing} did not", missing=", ".join(missing)))
    if players[0] != state["leader"]:
        raise RuleError(
            N_("{leader} leads this trick, not {player}", leader=state["leader"], player=players[0]),
            rule="furthest_behind",
        )


def _check_mobster(plays: Sequence[dict[str, Any]], cards: list[str] | None) -> None:
    for play in plays:
        if play["take"] and (play["colour"] != "Mobster" or play["block"]):
            raise RuleError(
                N_("{player}: only a Mobster token used for its ability takes a card", player=play["player"])
            )
        if play["take"] and cards is not None and play["take"] not in cards:
            raise RuleError(
                N_("{player}'s Mobster token: {take} is not in this trick", player=play["player"], take=play["take"])
            )


def _open_trick(
    state: State,
    winner: str,
    cards: list[dict[str, Any]] | None,
    plays: list[dict[str, Any]],
    notes: list[str],
    how: str,
) -> dict[str, Any]:
    """Hands, Mobster takes, claims; closes the trick at once when nobody can claim or take.

    A Mobster token whose card is not named yet in a trick whose cards are known (a seat plays before the cards
    after it are down) leaves the take open: its player taps a card of the trick (``mobster_take``) before the
    bonuses. With only the winner entered the card stays unnamed, as the players said.
    """
    for p in rounds.holders(state):
        state["hand"][p] -= 1
    taken, mobster = [], None
    for play in plays:
        if play["colour"] == "Mobster" and not play["block"]:
            state["hand"][play["player"]] += 1
            if play["take"] or cards is None:
                taken.append(play["take"])
                notes.append(f"{play['player']} takes {play['take'] or 'a card'} into their hand")
            else:
                mobster = play["player"]
    claims = [{"player": winner, "why": "won the trick"}]
    claims += [{"player": p["player"], "why": "Bot token"} for p in plays if p["colour"] == "Bot" and not p["block"]]
    state["tricks_played"] += 1
    trick = {
        "number": state["tricks_played"],
        "winner": winner,
        "cards": cards,
        "taken": taken,
        "claims": claims,
        "how": how,
        "notes": notes,
        "mobster": mobster,
    }
    if cards is not None:
        trick["claims"] = claims = [c for c in claims if claimable(trick, c["player"])]
    state["trick"] = trick
    summary = f"Trick {state['tricks_played']}: {winner} wins ({how})"
    if notes:
        summary += "; " + "; ".join(notes)
    if mobster is None:
        summary += _claims_said(state)
    else:
        summary += f"; {mobster} takes a card of the trick, then the bonuses"
    return {"summary": summary, "winner": winner}


def _claims_said(state: State) -> str:
    """The bonuses to choose and the cards on offer, or the trick closed when nobody has one."""
    trick = state["trick"]
    if not trick["claims"]:
        return close_trick(state)
    said = "; bonus to choose: " + ", ".join(f"{c['player']} ({c['why']})" for c in trick["claims"])
    if trick["cards"] is not None:
        offers = [
            f"{c['player']}'s {c['card']} ({bonuses.offer(*referee.parse_card(c['card']))})" for c in on_offer(trick)
        ]
        said += "; on offer: " + ", ".join(offers)
    return said


def play_trick(state: State, rows: Sequence[dict[str, Any]], seat: str | None = None) -> dict[str, Any]:
    """The cards of one trick in playing order; Tableside names the winner under the indicators.

    Each row: ``player``, ``suit``, ``number`` and optionally ``token`` (a colour), ``trump``
    (where a Game token moves the Trump Indicator), ``block`` (token played only to block),
    ``take`` (the card a Mobster token takes, e.g. "Game 7").
    """
    require_trick_phase(state)
    if not rows:
        raise RuleError(N_("a trick needs the cards played (or record just the winner)"))
    _check_players(state, [r["player"] for r in rows])
    cards = [referee.check_card(r["suit"], r["number"], f"{r['player']}'s card") for r in rows]
    names = [rules.card_name(*c) for c in cards]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RuleError(N_("{twice} is played twice; there is one of each card", twice=twice[0]), rule="cards")
    players = [r["player"] for r in rows]
    hands.check_trick(state, players, names, seat)
    plays = _token_plays(rows)
    referee.check_tokens(state, plays)
    _check_mobster(plays, names)
    notes = referee.apply_tokens(state, plays)
    index = referee.winning_card(cards, state["trump"], state["rank"])
    winner = rows[index]["player"]
    how = f"{names[index]}, {referee.why(cards, state['trump'], state['rank'])}"
    played = [{"player": r["player"], "card": n} for r, n in zip(rows, names, strict=True)]
    taken = [p["take"] for p in plays if p["colour"] == "Mobster" and not p["block"]]
    hands.record_trick(state, players, names, taken, state["tricks_played"] + 1)
    for play in plays:
        if play["colour"] == "Mobster" and not play["block"] and play["take"]:
            hands.took(state, play["player"], play["take"])
    return _open_trick(state, winner, played, plays, notes, how)


def trick_winner(
    state: State, winner: str, tokens: Sequence[dict[str, Any]] = (), *, one_per_player: bool = True
) -> dict[str, Any]:
    """Only the winner entered (and any tokens played, so the indicators and token counts follow).

    One token per player, as with the cards entered; ``one_per_player`` False only replays a log
    recorded before that check.
    """
    require_trick_phase(state)
    require_player(state, winner)
    if state["hand"][winner] < 1:
        raise RuleError(N_("{winner} holds no cards and cannot win a trick", winner=winner))
    plays = _token_plays(tokens)
    holding = rounds.holders(state)
    for play in plays:
        require_player(state, play["player"])
        if play["player"] not in holding:
            raise RuleError(
                N_("{player} holds no cards, so plays no token", player=play["player"]), rule="tokens_income"
            )
    referee.check_tokens(state, plays, one_per_player=one_per_player)
    _check_mobster(plays, None)
    notes = referee.apply_tokens(state, plays)
    unseen = hands.unseen_plays(state, holding)
    if unseen:
        notes.append(f"the cards were not entered, so the entered hands of {', '.join(unseen)} are set aside")
    return _open_trick(state, winner, None, plays, notes, "entered by the players")


def claimable(trick: dict[str, Any], player: str) -> list[dict[str, Any]]:
    """The cards of ``trick`` whose bonus ``player`` may take: "one opponent's card", so not their
    own, and not one a Mobster token took out of the trick. Empty where the cards were not entered."""
    return [
        c for c in trick.get("cards") or [] if c["player"] != player and c["card"] not in (trick.get("taken") or [])
    ]


def on_offer(trick: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of ``trick`` some open claim may take, in playing order (a card is on offer when it
    is an opponent's card to at least one claimer)."""
    takers = {c["player"] for c in trick["claims"]}
    return [c for c in trick.get("cards") or [] if any(c in claimable(trick, p) for p in takers)]


def claims_by_player(trick: dict[str, Any] | None) -> dict[str, list[str]]:
    """Per player with an open claim, the cards they may take (what their bonus form offers)."""
    if not trick:
        return {}
    return {c["player"]: [card["card"] for card in claimable(trick, c["player"])] for c in trick["claims"]}


def mobster_take(state: State, player: str, card: str) -> dict[str, Any]:
    """Mobster: "take one card out of this trick into your hand", tapped once the trick is complete (the cards
    played after the token are known only then). The card leaves the trick: no bonus is taken from it, and it
    may be played again this round. Then the bonuses."""
    require_player(state, player)
    trick = state["trick"]
    mobster = (trick or {}).get("mobster") if state["phase"] == TRICKS else None
    if mobster is None:
        raise RuleError(N_("no Mobster token is waiting to take a card of this trick"))
    if player != mobster:
        raise RuleError(
            N_("{mobster} played the Mobster token in this trick, not {player}", mobster=mobster, player=player)
        )
    name = rules.card_name(*referee.parse_card(card, "Card of the trick"))
    if all(c["card"] != name for c in trick["cards"]):
        raise RuleError(N_("{player}'s Mobster token: {name} is not in this trick", player=player, name=name))
    trick["mobster"] = None
    trick["taken"].append(name)
    state["played"] = [r for r in state["played"] if not (r["card"] == name and r["trick"] == trick["number"])]
    hands.took(state, player, name)
    trick["claims"] = [c for c in trick["claims"] if claimable(trick, c["player"])]
    return {"summary": f"{player} takes {name} out of trick {trick['number']} into their hand" + _claims_said(state)}


def _mobster_first(state: State) -> None:
    """A Mobster token's take comes before the bonuses: the card it takes is out of the trick."""
    mobster = (state["trick"] or {}).get("mobster")
    if mobster is not None:
        raise RuleError(
            N_("first {mobster} takes a card of the trick with the Mobster token; then the bonuses", mobster=mobster)
        )


def claim_of(state: State, player: str, take_first: bool = True) -> dict[str, Any]:
    """``player``'s open claim on the trick; refused in words when they have none, or while a Mobster token's
    card is still to be taken (``take_first`` False only replays a log saved before the take was asked)."""
    trick = state["trick"]
    if state["phase"] != TRICKS or trick is None:
        raise RuleError(N_("there is no trick whose bonus is open"))
    if take_first:
        _mobster_first(state)
    for claim in trick["claims"]:
        if claim["player"] == player:
            return claim
    waiting = ", ".join(c["player"] for c in trick["claims"])
    raise RuleError(
        N_("{player} has no trick bonus to take from this trick (open: {waiting})", player=player, waiting=waiting)
    )


def claim_bonus(
    state: State,
    player: str,
    suit: str,
    number: int,
    *,
    target: str | None = None,
    colour: str | None = None,
    pick: int | None = None,
    take_first: bool = True,
    seat: str | None = None,
) -> dict[str, Any]:
    """``player`` takes the trick bonus of one opponent's card from the last trick (after a Mobster token's take;
    ``take_first`` False only replays a claim recorded before the take was asked on its own). ``seat`` is the
    phone's: an entered hand is checked aloud only on its own seat's phone (``hands.check_play``)."""
    require_player(state, player)
    claim = claim_of(state, player, take_first)
    card = rules.card_name(*referee.check_card(suit, number, "bonus card"))
    trick = state["trick"]
    if trick["cards"] is not None:
        owner = next((c["player"] for c in trick["cards"] if c["card"] == card), None)
        if owner is None:
            raise RuleError(N_("{card} is not in this trick", card=card))
        if card in trick["taken"]:
            raise RuleError(N_("{card} was taken out of the trick by a Mobster token", card=card), rule="mobster")
        if owner == player:
            raise RuleError(
                N_("{card} is {player}'s own card; the bonus comes from an opponent's card", card=card, player=player)
            )
    else:
        hands.named_from_unseen_trick(state, card, trick["number"], f"{player}'s bonus card", seat)
    text = bonuses.trick_bonus(state, player, suit, number, target=target, colour=colour, pick=pick)
    trick["claims"].remove(claim)
    summary = f"{player} takes the trick bonus of {card}: {text}"
    if not trick["claims"]:
        summary += close_trick(state)
    return {"summary": summary, "card": card}


def decline_bonus(state: State, player: str, take_first: bool = True) -> dict[str, Any]:
    require_player(state, player)
    claim = claim_of(state, player, take_first)
    state["trick"]["claims"].remove(claim)
    summary = f"{player} declines the trick bonus"
    if not state["trick"]["claims"]:
        summary += close_trick(state)
    return {"summary": summary}


def next_trick(state: State) -> dict[str, Any]:
    """Button A: close the trick (any bonus not yet taken is declined) and go on."""
    if state["phase"] != TRICKS or state["trick"] is None:
        raise RuleError(N_("no trick is open; enter the next trick's cards or its winner"))
    declined = [c["player"] for c in state["trick"]["claims"]]
    state["trick"]["claims"] = []
    summary = f"Trick {state['trick']['number']} closed" + (f"; {', '.join(declined)} declined" if declined else "")
    mobster = state["trick"].get("mobster")
    if mobster is not None:  # the card stays unnamed, as when only the winner is entered
        summary += f"; {mobster}'s Mobster card not named"
    return {"summary": summary + close_trick(state)}


def close_trick(state: State) -> str:
    """The trick goes to the record; who leads next, or the round's end."""
    trick = state["trick"]
    state["last_trick"] = {k: trick[k] for k in ("number", "winner", "cards", "how")}
    state["trick"] = None
    end = rounds.check_round_end(state)
    if end:
        return end
    state["leader"] = rounds.next_holder(state, trick["winner"])
    return f"; {state['leader']} leads the next trick"


def reveal_card(
    state: State,
    suit: str,
    number: int,
    *,
    target: str | None = None,
    track: str | None = None,
    seat: str | None = None,
) -> dict[str, Any]:
    """The last player holding cards reveals one; they take its round bonus."""
    if state["phase"] != REVEAL:
        raise RuleError(N_("cards are revealed when the round ends and only one player still holds cards"))
    player = state["revealer"]
    card = rules.card_name(*referee.check_card(suit, number, "revealed card"))
    if card in state["revealed"]:
        raise RuleError(
            N_("{card} was already revealed this round; there is one of each card", card=card), rule="cards"
        )
    hands.check_not_played(state, card, f"{player}'s revealed card")
    hands.reveal(state, player, card, seat)
    text = bonuses.round_bonus(state, player, suit, number, target=target, track=track)
    state["hand"][player] -= 1
    state["revealed"].append(card)
    summary = f"{player} reveals {card}: {text}"
    if state["hand"][player] > 0:
        summary += f"; {plural(state['hand'][player], 'card')} left to reveal"
    else:
        summary += "; " + rounds.end_round(state)
    return {"summary": summary, "card": card}


# --- a trick played seat by seat ------------------------------------------------------------------


def lead_order(state: State) -> list[str]:
    """Who plays in this trick, in order: the leader, then clockwise everyone still holding cards."""
    holding = rounds.holders(state)
    leader = state["leader"]
    if leader not in holding:
        return holding
    start = holding.index(leader)
    return holding[start:] + holding[:start]


def next_to_play(state: State) -> str | None:
    """Whose card the trick waits for when it is played seat by seat (None: nobody's, or no trick)."""
    if state["phase"] != TRICKS or state["trick"] is not None:
        return None
    played = [r["player"] for r in state.get("playing") or []]
    waiting = [p for p in lead_order(state) if p not in played]
    return waiting[0] if waiting else None


def play_card(
    state: State, row: dict[str, Any], *, check_tokens: bool = True, seat: str | None = None
) -> dict[str, Any]:
    """One seat's card (and token) in the trick; the trick is judged by itself when every seat has played.

    The cards lie face up as they are played, so the cards played so far are public (``playing``).
    Its token is checked as it is played (one of each colour per trick, held, used as allowed), so a
    seat is never left waiting on a trick the last card cannot complete; ``check_tokens`` False only
    replays a card recorded before that check (the trick's own check still runs on its last card).
    """
    require_trick_phase(state)
    if state["trick"] is not None:
        raise RuleError(
            N_("the last trick's bonuses are still open: take or decline them, or press A to go on"), rule="trick_bonus"
        )
    player = row["player"]
    require_player(state, player)
    due = next_to_play(state)
    if player != due:
        played = [r["player"] for r in state.get("playing") or []]
        if player in played:
            raise RuleError(N_("{player} has played a card in this trick already", player=player))
        if player not in rounds.holders(state):
            raise RuleError(N_("{player} holds no cards and cannot play", player=player), rule="round_end")
        raise RuleError(N_("{due} plays before {player}", due=due, player=player))
    suit, number = referee.check_card(row["suit"], row["number"], f"{player}'s card")
    name = rules.card_name(suit, number)
    earlier = state.get("playing") or []
    hands.check_play(state, player, name, earlier[0]["suit"] if earlier else None, seat)
    playing = [*earlier, {k: v for k, v in row.items() if v not in ("", None, False)}]
    names = [rules.card_name(r["suit"], r["number"]) for r in playing]
    if names.count(name) > 1:
        raise RuleError(
            N_("{name} is played already in this trick; there is one of each card", name=name), rule="cards"
        )
    if check_tokens:
        plays = _token_plays(playing)
        referee.check_tokens(state, plays)
        _check_mobster(plays, None)
    token = f" with {rules.a_token(row['token'])}" if row.get("token") else ""
    if len(playing) < len(lead_order(state)):
        state["playing"] = playing
        return {"summary": f"{player} plays {name}{token}; {next_to_play(state)} next"}
    state["playing"] = []
    result = play_trick(state, playing)
    return {**result, "summary": f"{player} plays {name}{token}. {result['summary']}"}
