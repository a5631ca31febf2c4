"""Venus 2140 exchanges resolved whole: every die's fate, the books, the dice returned, the winner and the
reason, for the rulebook's worked exchanges and the edges its text decides (docs/rulebooks/v2140.txt).

The other exchange tests check the books; these pin each die down, so a rule that gives the right count
for the wrong reason (the stake to the wrong side, a fate list overwritten, a tie called a win) fails."""

from __future__ import annotations

import re

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import exchange


def fate(side: str, face: int, what: str, by: str | None = None) -> dict:
    return {"side": side, "face": face, "fate": what, "by": by}


def outcome(kind, fates, books, returned, winner, reason) -> dict:
    return {"kind": kind, "fates": fates, "books": books, "returned": returned, "winner": winner, "reason": reason}


A, T = "actor", "target"
NOTHING_BACK = {A: [], T: []}


def test_six_beats_four_shred_takes_a_book():
    # "Shred pushes in a single die ... Jack pushes up his four ... Six beats four. Shred takes a book."
    assert exchange.normal([6], [4], 5, 1).to_dict() == outcome(
        "normal", [fate(A, 6, "won"), fate(T, 4, "captured", A)], {A: 1, T: 0}, NOTHING_BACK, A, ""
    )


def test_a_tie_the_target_cannot_break_goes_whole_to_the_actor():
    # "Jack has a six too, so they need a tie breaker. The GM admits that Jack is out of dice. ...
    # Shred wins the last exchange, and takes the last six for two books."
    assert exchange.normal([6], [6], 4, 0).to_dict() == outcome(
        "normal",
        [fate(A, 6, "captured", A), fate(T, 6, "captured", A)],
        {A: 2, T: 0},
        NOTHING_BACK,
        A,
        "the target has no dice left to break the tie: the actor takes the stake",
    )


def test_a_tie_the_actor_cannot_break_goes_whole_to_the_target():
    # The same rule the other way round: the side that still has dice breaks the tie.
    assert exchange.normal([6], [6], 0, 3).to_dict() == outcome(
        "normal",
        [fate(A, 6, "captured", T), fate(T, 6, "captured", T)],
        {A: 0, T: 2},
        NOTHING_BACK,
        T,
        "the actor has no dice left to break the tie: the target takes the stake",
    )


def test_the_stake_is_added_to_books_already_won_in_the_exchange():
    # The 6 beats the 5 (one book), then the 4s tie with the target out of dice: the stake adds two.
    assert exchange.normal([6, 4], [5, 4], 2, 0).to_dict() == outcome(
        "normal",
        [fate(A, 6, "won"), fate(T, 5, "captured", A), fate(A, 4, "captured", A), fate(T, 4, "captured", A)],
        {A: 3, T: 0},
        NOTHING_BACK,
        A,
        "the target has no dice left to break the tie: the actor takes the stake",
    )


def test_dice_left_unmatched_count_as_dice_to_break_the_tie_with():
    # "Dice the other player cannot match are returned to the scene pool": the target's unmatched 2
    # goes back to its pool, so the target still has a die when its pool was otherwise empty.
    assert exchange.normal([6], [6, 2], 0, 0).to_dict() == outcome(
        "normal",
        [fate(A, 6, "captured", T), fate(T, 6, "captured", T), fate(T, 2, "returned")],
        {A: 0, T: 2},
        {A: [], T: [2]},
        T,
        "the actor has no dice left to break the tie: the target takes the stake",
    )
    assert exchange.normal([6, 2], [6], 0, 0).to_dict() == outcome(
        "normal",
        [fate(A, 6, "captured", A), fate(T, 6, "captured", A), fate(A, 2, "returned")],
        {A: 2, T: 0},
        {A: [2], T: []},
        A,
        "the target has no dice left to break the tie: the actor takes the stake",
    )


def test_the_last_dice_tied_with_both_sides_holding_dice_are_discarded_after_the_wins():
    # "If the last dice compared are tied, they are discarded and count as a capture for neither player."
    assert exchange.normal([6, 2], [2, 3], 1, 1).to_dict() == outcome(
        "normal",
        [fate(A, 6, "won"), fate(T, 3, "captured", A), fate(A, 2, "discarded"), fate(T, 2, "discarded")],
        {A: 1, T: 0},
        NOTHING_BACK,
        A,
        "the last dice compared tied: discarded",
    )


def test_a_tie_then_a_higher_die_takes_the_stake_and_the_die_it_beat():
    # "If they are tied, put them aside ... That player captures all the enemy dice above that roll."
    # The GM's 655 against Wire's lone 6 is the actor's side; here the target breaks the tie.
    assert exchange.normal([6, 3], [6, 5], 2, 2).to_dict() == outcome(
        "normal",
        [fate(A, 6, "captured", T), fate(T, 6, "won"), fate(T, 5, "won"), fate(A, 3, "captured", T)],
        {A: 0, T: 2},
        NOTHING_BACK,
        T,
        "",
    )


def test_a_tie_broken_later_adds_its_stake_to_the_books_already_won():
    # "Do this until you have one roll that is higher than the next. That player captures all the enemy
    # dice above that roll. Then keep comparing lower rolled dice."
    assert exchange.normal([6, 5, 4], [5, 5, 3], 1, 1).to_dict() == outcome(
        "normal",
        [fate(A, 6, "won"), fate(T, 5, "captured", A)]
        + [fate(A, 5, "won"), fate(T, 5, "captured", A), fate(A, 4, "won"), fate(T, 3, "captured", A)],
        {A: 3, T: 0},
        NOTHING_BACK,
        A,
        "",
    )


def test_unmatched_dice_go_back_to_the_longer_side():
    # "Dice the other player cannot match are returned to the scene pool and rerolled."
    assert exchange.normal([4], [5, 3, 1], 2, 2).to_dict() == outcome(
        "normal",
        [fate(T, 5, "won"), fate(A, 4, "captured", T), fate(T, 3, "returned"), fate(T, 1, "returned")],
        {A: 0, T: 1},
        {A: [], T: [3, 1]},
        T,
        "",
    )


def test_equal_books_name_no_winner():
    # "Dice are compared, one side or another or both gets books": one each is nobody's exchange.
    out = exchange.normal([6, 2], [5, 3], 1, 1)
    assert out.books == {A: 1, T: 1}
    assert out.winner is None
    assert out.to_dict()["fates"] == [
        fate(A, 6, "won"),
        fate(T, 5, "captured", A),
        fate(T, 3, "won"),
        fate(A, 2, "captured", T),
    ]


def test_an_exchange_with_no_comparison_decided_names_no_winner():
    out = exchange.normal([4], [4], 2, 2)
    assert (out.books, out.winner, out.kind) == ({A: 0, T: 0}, None, "normal")


# --- no dice to answer ------------------------------------------------------------------------------


def test_unanswered_dice_pair_up_and_the_odd_one_is_lost():
    # "Sven cannot give dice back to match. Two of the dice are paired up and make a book(665).
    # The other one is lost."
    assert exchange.normal([5, 6, 6], [], 11, 0).to_dict() == outcome(
        "unanswered",
        [fate(A, 6, "paired", A), fate(A, 6, "paired", A), fate(A, 5, "discarded")],
        {A: 1, T: 0},
        NOTHING_BACK,
        A,
        "no dice to answer: 2 dice make 1 book, 1 lost",
    )


def test_unanswered_pairs_with_nothing_lost_say_so():
    assert exchange.unanswered([5, 4]).to_dict() == outcome(
        "unanswered",
        [fate(A, 5, "paired", A), fate(A, 4, "paired", A)],
        {A: 1, T: 0},
        NOTHING_BACK,
        A,
        "no dice to answer: 2 dice make 1 book",
    )


def test_a_single_unanswered_die_makes_no_book_and_wins_nothing():
    assert exchange.unanswered([6]).to_dict() == outcome(
        "unanswered",
        [fate(A, 6, "discarded")],
        {A: 0, T: 0},
        NOTHING_BACK,
        None,
        "no dice to answer: 0 dice make 0 books, 1 lost",
    )


def test_a_risky_pull_nobody_answers_is_paired_up_too():
    assert exchange.risky([6, 6, 5], []).to_dict() == exchange.unanswered([6, 6, 5]).to_dict()


# --- risky ------------------------------------------------------------------------------------------


def test_risky_the_higher_total_captures_all_the_dice():
    # "The dice on each side are simply totaled and the higher total captures all the dice, taking all
    # of the opponent's dice as books."
    assert exchange.risky([4, 6, 6], [5, 5, 5]).to_dict() == outcome(
        "risky",
        [fate(A, 6, "won"), fate(A, 6, "won"), fate(A, 4, "won")]
        + [fate(T, 5, "captured", A), fate(T, 5, "captured", A), fate(T, 5, "captured", A)],
        {A: 3, T: 0},
        NOTHING_BACK,
        A,
        "total 16 beats 15",
    )


def test_risky_the_target_can_take_all_too():
    assert exchange.risky([6, 1], [4, 4]).to_dict() == outcome(
        "risky",
        [fate(T, 4, "won"), fate(T, 4, "won"), fate(A, 6, "captured", T), fate(A, 1, "captured", T)],
        {T: 2, A: 0},
        NOTHING_BACK,
        T,
        "total 8 beats 7",
    )


def test_risky_equal_totals_discard_every_die():
    assert exchange.risky([4, 6], [5, 5]).to_dict() == outcome(
        "risky",
        [fate(A, 6, "discarded"), fate(A, 4, "discarded"), fate(T, 5, "discarded"), fate(T, 5, "discarded")],
        {A: 0, T: 0},
        NOTHING_BACK,
        None,
        "totals tie at 10: all discarded",
    )


# --- putting dice forward ------------------------------------------------------------------------------


def test_putting_forward_no_die_is_refused():
    with pytest.raises(RuleError, match="^Shred must put forward at least one die$"):
        exchange.check_forward(4, 0, "Shred", exception=False)


def test_more_than_half_without_the_exception_is_refused_in_the_rulebooks_words():
    # "You shouldn't put forward any more than half the dice you rolled (your scene pool) in a single
    # exchange. Sometimes it might make sense though, like if you set off a bomb."
    message = (
        "Shred may put forward at most 2 of 4 dice (more than half needs the table to mark it as the "
        "exception, like setting off a bomb)"
    )
    with pytest.raises(RuleError, match="^" + re.escape(message) + "$"):
        exchange.check_forward(4, 3, "Shred", exception=False)
