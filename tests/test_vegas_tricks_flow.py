"""Venusian Vegas tricks, step by step: who may play, what the tokens do to the hands and the claims,
the words each step says, and the reveal at the round's end. Each rule quotes docs/rulebooks/vegas.txt.

These call the trick functions on states built by the real rule functions (tests/test_vegas_helpers),
so a wrong summary, a claim lost or a card left in the wrong hand shows here, not only in a walk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.vegas import hands, tricks, vp

from tests.test_vegas_helpers import after_setup, in_round

RULEBOOK = " ".join((Path(__file__).resolve().parents[1] / "docs" / "rulebooks" / "vegas.txt").read_text().split())


def quoted(line: str) -> None:
    assert " ".join(line.split()) in RULEBOOK, f"not in the rulebook: {line!r}"


def card(player: str, name: str, **extra) -> dict:
    suit, number = name.rsplit(" ", 1)
    return {"player": player, "suit": suit, "number": int(number), **extra}


def refused(words: str):
    return pytest.raises(RuleError, match="^" + re.escape(words) + "$")


def round_one(**options):
    """Ann (9 cards, 2 Game tokens), Bob (7, a Game and an Inspector token), Cy (7, a Bot and a Mobster
    token) in round 1; Ann leads."""
    return in_round(leader="Ann", **options)


# --- who plays ------------------------------------------------------------------------------------


def test_tricks_wait_for_the_round_and_say_which_phase_it_is():
    with refused("tricks are played during a round; now: Setup"):
        tricks.play_trick(after_setup(), [card("Ann", "Game 9")])


def test_a_trick_with_bonuses_open_waits_for_them_naming_who():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    with refused("the last trick's bonuses are still open (Ann, Cy): take or decline them, or press A to go on"):
        tricks.trick_winner(state, "Bob")


def test_a_trick_needs_its_cards():
    with refused("a trick needs the cards played (or record just the winner)"):
        tricks.play_trick(round_one(), [])


def test_a_player_playing_twice_is_named():
    with refused("Ann plays twice in one trick"):
        tricks.play_trick(round_one(), [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Ann", "Game 3")])


def test_everyone_still_holding_cards_plays_and_the_missing_are_named():
    with refused("everyone still holding cards plays: Bob, Cy did not"):
        tricks.play_trick(round_one(), [card("Ann", "Game 9")])


def test_a_player_without_cards_cannot_play_or_win():
    quoted("The round ends when only one player still holds cards.")
    state = round_one(names=["Ann", "Bob", "Cy", "Di"])
    state["hand"]["Bob"] = 0  # as a correction would leave it: Bob has played out
    lead = state["leader"]
    others = [p for p in ("Ann", "Cy", "Di") if p != lead]
    with refused("Bob holds no cards and cannot play"):
        tricks.play_trick(
            state,
            [card(lead, "Game 9"), card("Bob", "Game 4")] + [card(p, f"Team {i}") for i, p in enumerate(others, 1)],
        )
    with refused("Bob holds no cards and cannot win a trick"):
        tricks.trick_winner(state, "Bob")
    with refused("Bob holds no cards, so plays no token"):
        tricks.trick_winner(state, lead, [{"player": "Bob", "token": "Game", "trump": "Bot"}])
    with refused("'Zed' is not playing; the players are Ann, Bob, Cy, Di"):
        tricks.trick_winner(state, lead, [{"player": "Zed", "token": "Game", "trump": "Bot"}])


def test_a_bad_card_is_named_with_whose_it_is():
    with pytest.raises(RuleError, match="^Bob's card: "):
        tricks.play_trick(round_one(), [card("Ann", "Game 9"), card("Bob", "Game 14"), card("Cy", "Bot 2")])


# --- tokens -----------------------------------------------------------------------------------------


def test_only_a_mobster_token_used_for_its_ability_takes_a_card():
    quoted("Mobster — take one card out of this trick into your hand.")
    with refused("Cy: only a Mobster token used for its ability takes a card"):
        tricks.play_trick(
            round_one(), [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot", take="Game 4")]
        )
    quoted("you may play a token purely to block, without using its ability at all.")
    with refused("Cy: only a Mobster token used for its ability takes a card"):
        tricks.play_trick(
            round_one(),
            [
                card("Ann", "Game 9"),
                card("Bob", "Game 4"),
                card("Cy", "Bot 2", token="Mobster", block=True, take="Game 4"),
            ],
        )


def test_a_mobster_token_takes_a_card_of_this_trick_only():
    with refused("Cy's Mobster token: Team 3 is not in this trick"):
        tricks.play_trick(
            round_one(),
            [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Mobster", take="Team 3")],
        )


def test_a_bot_token_gives_a_claim_and_takes_no_card():
    quoted("Bot — you also take a trick bonus from this trick, even if you did not win it.")
    state = round_one()
    result = tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    assert state["hand"] == {"Ann": 8, "Bob": 6, "Cy": 6}
    assert state["trick"]["claims"] == [{"player": "Ann", "why": "won the trick"}, {"player": "Cy", "why": "Bot token"}]
    assert state["trick"]["notes"] == ["Cy plays a Bot token"]
    assert result["summary"] == (
        "Trick 1: Ann wins (Game 9, highest of the led suit (Game)); Cy plays a Bot token; "
        "bonus to choose: Ann (won the trick), Cy (Bot token); on offer: Ann's Game 9 (pay 1 VP to steal a "
        "random card), Bob's Game 4 (gain 2 VP), Cy's Bot 2 (gain 2 VP)"
    )


def test_a_mobster_token_takes_the_winners_card_and_the_winner_still_claims_an_opponents():
    # "The winner then chooses one opponent's card from the trick": Ann's own card is gone, Bob's is there.
    quoted("The winner then chooses one opponent's card from the trick and takes that card's trick bonus.")
    state = round_one()
    result = tricks.play_trick(
        state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Mobster", take="Game 9")]
    )
    assert state["hand"] == {"Ann": 8, "Bob": 6, "Cy": 7}
    assert state["trick"]["taken"] == ["Game 9"]
    assert state["trick"]["claims"] == [{"player": "Ann", "why": "won the trick"}]
    assert "Cy takes Game 9 into their hand" in result["summary"]
    assert [r["card"] for r in state["played"]] == ["Game 4", "Bot 2"]  # the taken card may be played again


def test_tokens_entered_with_the_winner_only_move_the_indicators_and_hands():
    quoted("Game — move the Trump Indicator to any suit, or to No Trump.")
    state = round_one()
    result = tricks.trick_winner(
        state, "Bob", [{"player": "Ann", "token": "Game", "trump": "Bot"}, {"player": "Cy", "token": "Mobster"}]
    )
    assert state["trump"] == "Bot"
    assert state["tokens"]["Ann"]["Game"] == 1 and state["tokens"]["Cy"]["Mobster"] == 0
    assert state["hand"] == {"Ann": 8, "Bob": 6, "Cy": 7}
    assert result["summary"].startswith("Trick 1: Bob wins (entered by the players); ")
    assert "; Cy takes a card into their hand; " in result["summary"]
    assert state["trick"]["how"] == "entered by the players"


def test_winner_only_sets_aside_the_entered_hands_naming_them():
    state = round_one()
    hands.enter_hand(state, "Bob", ["Team 1", "Team 2", "Team 3", "Team 4", "Team 5", "Team 6", "Team 7"])
    hands.enter_hand(state, "Cy", ["Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5", "Bot 6", "Bot 7"])
    result = tricks.trick_winner(state, "Ann")
    assert "the cards were not entered, so the entered hands of Bob, Cy are set aside" in result["summary"]
    assert state["hands"] == {"Ann": None, "Bob": None, "Cy": None}


def test_a_mobster_take_goes_into_the_takers_entered_hand_and_a_bot_token_adds_nothing():
    state = round_one()
    cy = ["Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5", "Bot 6", "Bot 7"]
    hands.enter_hand(state, "Cy", cy)
    tricks.play_trick(
        state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Mobster", take="Game 4")]
    )
    assert state["hands"]["Cy"] == ["Game 4", "Bot 1", "Bot 3", "Bot 4", "Bot 5", "Bot 6", "Bot 7"]
    tricks.next_trick(state)
    lead = state["leader"]
    order = [lead, *[p for p in ("Bob", "Cy", "Ann", "Bob", "Cy") if p != lead]][:3]
    plays = {"Ann": card("Ann", "Team 9"), "Bob": card("Bob", "Team 8"), "Cy": card("Cy", "Bot 3", token="Bot")}
    tricks.play_trick(state, [plays[p] for p in order])
    assert state["hands"]["Cy"] == ["Game 4", "Bot 1", "Bot 4", "Bot 5", "Bot 6", "Bot 7"]


# --- claims and closing --------------------------------------------------------------------------------


def test_with_no_opponents_card_left_nobody_claims_and_the_trick_closes_at_once():
    # Two players: Ann's Mobster token takes Bob's card, so only Ann's own card is left to claim from.
    state = in_round(names=["Ann", "Bob"], leader="Ann", choices={"Ann": ["Mobster", "Team"]})
    result = tricks.play_trick(state, [card("Ann", "Game 9", token="Mobster", take="Game 4"), card("Bob", "Game 4")])
    assert state["trick"] is None and state["leader"] == "Ann"
    assert result["summary"] == (
        "Trick 1: Ann wins (Game 9, highest of the led suit (Game)); Ann plays a Mobster token; "
        "Ann takes Game 4 into their hand; "
        "Ann leads the next trick"
    )


def test_the_trick_numbers_count_up():
    state = round_one()
    tricks.trick_winner(state, "Ann")
    tricks.next_trick(state)
    result = tricks.trick_winner(state, "Ann")
    assert state["trick"]["number"] == 2 and state["tricks_played"] == 2
    assert result["summary"].startswith("Trick 2: Ann wins")


def test_claiming_checks_a_trick_is_open_and_the_claim_is_yours():
    state = round_one()
    with refused("there is no trick whose bonus is open"):
        tricks.decline_bonus(state, "Ann")
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    with refused("Bob has no trick bonus to take from this trick (open: Ann, Cy)"):
        tricks.decline_bonus(state, "Bob")


def test_a_bonus_card_is_checked_and_the_claim_returns_it():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    with pytest.raises(RuleError, match="^bonus card: "):
        tricks.claim_bonus(state, "Ann", "Game", 14)
    result = tricks.claim_bonus(state, "Ann", "Bot", 2)
    assert result["card"] == "Bot 2"
    assert result["summary"].startswith("Ann takes the trick bonus of Bot 2: ")


def test_a_bot_bonus_takes_the_token_colour_named():
    quoted("Bot: take a modifier token / increase any track.")
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 7")])
    before = state["tokens"]["Ann"]["Inspector"]
    result = tricks.claim_bonus(state, "Ann", "Bot", 7, colour="Inspector")
    assert state["tokens"]["Ann"]["Inspector"] > before
    assert result["summary"].endswith("Ann takes an Inspector token; Ann leads the next trick")


def test_the_last_claim_declined_closes_the_trick_and_says_who_leads():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    assert tricks.decline_bonus(state, "Ann") == {"summary": "Ann declines the trick bonus"}
    assert tricks.decline_bonus(state, "Cy") == {"summary": "Cy declines the trick bonus; Ann leads the next trick"}


def test_going_on_declines_the_open_claims_by_name():
    state = round_one()
    with refused("no trick is open; enter the next trick's cards or its winner"):
        tricks.next_trick(state)
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    assert tricks.next_trick(state) == {"summary": "Trick 1 closed; Ann, Cy declined; Ann leads the next trick"}


# --- the reveal --------------------------------------------------------------------------------------


def to_the_reveal(**options):
    """Round one played out with the winner entered: Bob and Cy run out after 7 tricks, Ann reveals 2."""
    state = round_one(**options)
    while state["phase"] == "Tricks":
        tricks.trick_winner(state, state["leader"])
        if state["trick"] is not None:
            tricks.next_trick(state)
    assert state["phase"] == "Reveal" and state["revealer"] == "Ann" and state["hand"]["Ann"] == 2
    return state


def test_the_reveal_waits_for_the_rounds_end():
    quoted("That player reveals their remaining hand one card at a time and takes each card's round bonus")
    state = round_one()
    with refused("cards are revealed when the round ends and only one player still holds cards"):
        tricks.reveal_card(state, "Game", 9)
    state = to_the_reveal()
    with refused("tricks are played during a round; now: Reveal (round 1)"):
        tricks.trick_winner(state, "Ann")


def test_the_revealed_card_is_checked_and_counted_down():
    state = to_the_reveal()
    with pytest.raises(RuleError, match="^revealed card: "):
        tricks.reveal_card(state, "Game", 14)
    result = tricks.reveal_card(state, "Team", 3)
    assert result["card"] == "Team 3"
    assert result["summary"].startswith("Ann reveals Team 3: ")
    assert result["summary"].endswith("; 1 card left to reveal")
    last = tricks.reveal_card(state, "Game", 5)
    assert last["summary"].startswith("Ann reveals Game 5: ")
    assert "; 0 cards left" not in last["summary"]


def test_a_card_played_this_round_cannot_be_revealed():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2")])
    tricks.next_trick(state)
    while state["phase"] == "Tricks":
        tricks.trick_winner(state, state["leader"])
        if state["trick"] is not None:
            tricks.next_trick(state)
    with pytest.raises(RuleError, match=r"^Ann's revealed card: Game 9 was already played this round"):
        tricks.reveal_card(state, "Game", 9)


def test_a_revealer_with_an_entered_hand_reveals_from_it():
    state = to_the_reveal()
    hands.enter_hand(state, "Ann", ["Team 3", "Game 5"])
    with refused("Ann's hand as entered does not hold Bot 1"):
        tricks.reveal_card(state, "Bot", 1, seat="Ann")  # checked aloud on Ann's own phone (#33)
    tricks.reveal_card(state, "Team", 3, seat="Ann")
    assert state["hands"]["Ann"] == ["Game 5"]


def test_a_revealed_card_from_another_phone_is_taken_as_seen_and_a_hand_it_does_not_match_set_aside_quietly():
    """The table phone enters the card Ann turns face up: it is not told whether Ann's entered hand held it
    (that would answer a probe), and a hand it does not match is set aside for Ann's phone alone (#33)."""
    state = to_the_reveal()
    hands.enter_hand(state, "Ann", ["Team 3", "Game 5"])
    tricks.reveal_card(state, "Bot", 1)
    assert state["hands"]["Ann"] is None and state["hands_stale"] == {"Ann": 1}
    assert state["hand"]["Ann"] == 1


def test_a_game_bonus_steals_the_card_picked_at_random():
    quoted("Game: pay 1 VP to steal a random card / steal up to 2 VP.")
    state = round_one()
    vp.change_vp(state, "Ann", 2, "test")
    tricks.play_trick(state, [card("Ann", "Team 9"), card("Bob", "Game 7"), card("Cy", "Bot 2")])
    result = tricks.claim_bonus(state, "Ann", "Game", 7, target="Bob", pick=3)
    assert "Ann steals card 3 of Bob's 6 (counted from the left of the hand as held)" in result["summary"]
    assert state["hand"]["Ann"] == 9 and state["hand"]["Bob"] == 5


# --- seat by seat ----------------------------------------------------------------------------------


def test_a_trick_played_seat_by_seat_names_who_is_next_and_the_token_played():
    quoted("You may play one modifier token face up along with your card.")
    state = round_one()
    assert tricks.next_to_play(state) == "Ann"
    first = tricks.play_card(state, {**card("Ann", "Game 9"), "token": "Game", "trump": "Bot", "block": False})
    assert first == {"summary": "Ann plays Game 9 with a Game token; Bob next"}
    assert state["playing"] == [{"player": "Ann", "suit": "Game", "number": 9, "token": "Game", "trump": "Bot"}]
    second = tricks.play_card(state, {**card("Bob", "Game 4"), "token": ""})
    assert second == {"summary": "Bob plays Game 4; Cy next"}
    assert "token" not in state["playing"][1]


def test_a_token_is_said_with_its_article_an_inspector_token():
    state = round_one()  # Bob holds an Inspector token
    tricks.play_card(state, card("Ann", "Game 9"))
    said = tricks.play_card(state, {**card("Bob", "Game 4"), "token": "Inspector"})
    assert said == {"summary": "Bob plays Game 4 with an Inspector token; Cy next"}
    said = tricks.play_card(state, card("Cy", "Bot 2"))["summary"]
    assert "Bob's Inspector token: Low Wins" in said and "a Inspector" not in said


def test_seat_by_seat_a_second_card_a_player_out_of_cards_and_a_bad_card_are_refused_in_words():
    state = round_one(names=["Ann", "Bob", "Cy", "Di"])
    state["hand"]["Cy"] = 0  # as a correction would leave it: Cy has played out
    lead = tricks.next_to_play(state)
    tricks.play_card(state, card(lead, "Game 9"))
    with refused(f"{lead} has played a card in this trick already"):
        tricks.play_card(state, card(lead, "Game 8"))
    with refused("Cy holds no cards and cannot play"):
        tricks.play_card(state, card("Cy", "Game 8"))
    due = tricks.next_to_play(state)
    with pytest.raises(RuleError, match=f"^{due}'s card: "):
        tricks.play_card(state, card(due, "Game 14"))


def test_nobody_is_due_while_bonuses_are_open_or_outside_the_tricks():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2", token="Bot")])
    assert tricks.next_to_play(state) is None
    assert tricks.next_to_play(to_the_reveal()) is None


def test_a_bonus_card_named_after_a_winner_only_trick_must_not_have_been_played_before():
    state = round_one()
    tricks.play_trick(state, [card("Ann", "Game 9"), card("Bob", "Game 4"), card("Cy", "Bot 2")])
    tricks.next_trick(state)
    tricks.trick_winner(state, state["leader"])
    with pytest.raises(RuleError, match=rf"^{state['leader']}'s bonus card: Game 4 was already played this round"):
        tricks.claim_bonus(state, state["leader"], "Game", 4)
