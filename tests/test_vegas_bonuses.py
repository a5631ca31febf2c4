"""Trick bonuses and round bonuses by card number, claims, declines, and the reveal."""

from __future__ import annotations

import copy

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import bonuses, tricks, vp

from tests.test_vegas_helpers import in_round


def _trick(state, cards, **extra):
    seats = state["players"]
    start = seats.index(state["leader"])
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    rows = [{"player": p, "suit": s, "number": n} for p, (s, n) in zip(order, cards, strict=False)]
    for player, more in extra.items():
        next(r for r in rows if r["player"] == player).update(more)
    return tricks.play_trick(state, rows)


def test_winner_takes_an_opponents_low_card_for_two_vp_and_the_trick_closes():
    state = in_round(leader="Ann")
    played = _trick(state, [("Team", 12), ("Team", 3), ("Game", 9)])
    assert played["summary"].endswith(
        "; on offer: Bob's Team 3 (gain 2 VP), Cy's Game 9 (pay 1 VP to steal a random card)"
    )
    assert state["trick"]["claims"] == [{"player": "Ann", "why": "won the trick"}]
    with pytest.raises(RuleError, match="Team 12 is Ann's own card; the bonus comes from an opponent's card"):
        tricks.claim_bonus(state, "Ann", "Team", 12)
    with pytest.raises(RuleError, match="Bob has no trick bonus to take from this trick"):
        tricks.claim_bonus(state, "Bob", "Team", 3)
    with pytest.raises(RuleError, match="Team 4 is not in this trick"):
        tricks.claim_bonus(state, "Ann", "Team", 4)
    result = tricks.claim_bonus(state, "Ann", "Team", 3)
    assert state["vp"]["Ann"] == 2
    assert state["trick"] is None and state["last_trick"]["winner"] == "Ann" and state["leader"] == "Ann"
    assert "Ann leads the next trick" in result["summary"]


def test_a_high_card_increases_that_suits_track():
    state = in_round(leader="Ann")
    _trick(state, [("Mobster", 13), ("Bot", 11), ("Mobster", 2)])
    tricks.claim_bonus(state, "Ann", "Bot", 11)
    assert state["boards"]["Ann"]["Bot"] == 2


@pytest.mark.parametrize(
    "suit, check",
    [
        ("Team", lambda s, b: s["hand"]["Ann"] == b["hand"]["Ann"] + 1),
        ("Inspector", lambda s, b: (s["hand"]["Bob"], s["hand"]["Cy"]) == (b["hand"]["Bob"] - 1, b["hand"]["Cy"] - 1)),
        (
            "Mobster",
            lambda s, b: (
                s["vp_log"][-2:]
                == [
                    {"player": "Bob", "asked": -1, "applied": 0, "capped": True, "reason": "trick bonus Mobster 8"},
                    {"player": "Cy", "asked": -1, "applied": -1, "capped": False, "reason": "trick bonus Mobster 8"},
                ]
            ),
        ),
    ],
)
def test_middle_cards_give_the_suits_ability(suit, check):
    state = in_round(leader="Ann")
    vp.change_vp(state, "Cy", 1, "test")
    before = copy.deepcopy(state)
    bonuses.trick_bonus(state, "Ann", suit, 8)
    assert check(state, before)
    assert vp.ledger_problems(state) == []


def test_bot_ability_takes_a_token_of_the_chosen_colour():
    state = in_round(leader="Ann")
    with pytest.raises(RuleError, match="say which colour"):
        bonuses.trick_bonus(state, "Ann", "Bot", 6)
    bonuses.trick_bonus(state, "Ann", "Bot", 6, colour="Mobster")
    assert state["tokens"]["Ann"]["Mobster"] == 1


def test_game_ability_pays_one_vp_and_steals_a_random_card():
    state = in_round(leader="Ann")
    with pytest.raises(RuleError, match="Ann has no VP to pay for the steal"):
        bonuses.trick_bonus(state, "Ann", "Game", 7, target="Bob", pick=1)
    vp.change_vp(state, "Ann", 2, "test")
    with pytest.raises(RuleError, match="say which opponent"):
        bonuses.trick_bonus(state, "Ann", "Game", 7, pick=1)
    text = bonuses.trick_bonus(state, "Ann", "Game", 7, target="Bob", pick=4)
    assert (state["vp"]["Ann"], state["hand"]["Ann"], state["hand"]["Bob"]) == (1, 10, 6)
    assert text == "Ann -1 VP; Ann steals card 4 of Bob's 7 (counted from the left of the hand as held)"


def test_a_bot_token_gives_its_player_a_trick_bonus_too():
    state = in_round(leader="Ann", track="Bot")  # Ann: Bot level 2, 1 token
    _trick(state, [("Team", 5), ("Team", 12), ("Game", 2)], Ann={"token": "Bot"})
    assert [c["player"] for c in state["trick"]["claims"]] == ["Bob", "Ann"]
    tricks.claim_bonus(state, "Ann", "Game", 2)
    tricks.decline_bonus(state, "Bob")
    assert state["vp"]["Ann"] == 2 and state["trick"] is None and state["leader"] == "Bob"


def test_a_mobster_token_takes_a_card_into_the_hand_and_out_of_the_trick():
    state = in_round(leader="Cy", track="Team")  # Cy: Mobster level 2, 1 token
    result = _trick(state, [("Team", 5), ("Team", 12), ("Game", 2)], Cy={"token": "Mobster", "take": "Game 2"})
    assert state["hand"]["Cy"] == 9 - 1 + 1
    assert "Cy takes Game 2 into their hand" in result["summary"]
    with pytest.raises(RuleError, match="Game 2 was taken out of the trick by a Mobster token"):
        tricks.claim_bonus(state, "Ann", "Game", 2)


def test_next_trick_declines_what_is_open():
    state = in_round(leader="Ann")
    _trick(state, [("Team", 12), ("Team", 3), ("Game", 9)])
    with pytest.raises(RuleError, match=r"the last trick's bonuses are still open \(Ann\)"):
        _trick(state, [("Team", 11), ("Team", 4), ("Game", 8)])
    result = tricks.next_trick(state)
    assert result["summary"] == "Trick 1 closed; Ann declined; Ann leads the next trick"
    assert state["vp"]["Ann"] == 0


def test_round_bonuses_of_revealed_cards():
    state = in_round(["Ann", "Bob"], leader="Ann", track="Team")
    vp.change_vp(state, "Bob", 1, "test")
    while state["phase"] == "Tricks":
        tricks.trick_winner(state, state["leader"])
        if state["trick"]:
            tricks.next_trick(state)
    assert state["revealer"] == "Ann" and state["hand"]["Ann"] == 4
    tricks.reveal_card(state, "Bot", 3)  # 1-5: +1 VP
    assert state["vp"]["Ann"] == 1
    result = tricks.reveal_card(state, "Game", 8, target="Bob")  # steal up to 2: Bob has 1
    assert result["summary"] == (
        "Ann reveals Game 8: Ann steals 1 VP from Bob (Bob had only 1); 2 cards left to reveal"
    )
    assert (state["vp"]["Ann"], state["vp"]["Bob"]) == (2, 0)
    tricks.reveal_card(state, "Team", 6)  # draw 2 and reveal them too
    assert state["hand"]["Ann"] == 3
    tricks.reveal_card(state, "Inspector", 7)  # opponents lose 2: Bob has 0
    assert state["vp_log"][-1]["capped"] and state["vp"]["Bob"] == 0
    tricks.reveal_card(state, "Game", 12)  # 10-13: that track twice
    assert state["boards"]["Ann"]["Game"] == 4
    with pytest.raises(RuleError, match="say which track"):
        tricks.reveal_card(state, "Bot", 9)
    result = tricks.reveal_card(state, "Bot", 9, track="Inspector")  # increase any track
    assert state["boards"]["Ann"]["Inspector"] == 2
    assert state["vp"]["Ann"] == 2 and state["phase"] == "Round over"
    assert result["summary"].endswith("; round 1 ends")
    assert vp.ledger_problems(state) == []


def test_mobster_round_bonus_gains_three_vp():
    state = in_round(leader="Ann")
    assert bonuses.round_bonus(state, "Ann", "Mobster", 9) == "Ann +3 VP"
    assert state["vp"]["Ann"] == 3


def test_a_card_is_revealed_once():
    state = in_round(["Ann", "Bob"], leader="Ann", track="Team")
    while state["phase"] == "Tricks":
        tricks.trick_winner(state, state["leader"])
        if state["trick"]:
            tricks.next_trick(state)
    tricks.reveal_card(state, "Bot", 3)
    with pytest.raises(RuleError, match="Bot 3 was already revealed this round"):
        tricks.reveal_card(state, "Bot", 3)
