"""Venus 2140 pure rules: the rulebook's worked rolls, reproduced from typed-in faces."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import exchange, flydice, goals, initiative, pool, rules
from tableside.core.systems.v2140.pool import PoolDice


def typed(*faces: int):
    """A draw function that hands out typed-in faces in the order rolled, as a player reads them."""
    queue = list(faces)
    calls: list[tuple[str, int]] = []

    def draw(label: str, count: int) -> list[int]:
        calls.append((label, count))
        taken, queue[:] = queue[:count], queue[count:]
        return taken

    draw.calls = calls  # type: ignore[attr-defined]
    draw.left = queue  # type: ignore[attr-defined]
    return draw


def digits(text: str) -> list[int]:
    return [int(c) for c in text]


def conserved(put_forward: Iterable[int], outcome: exchange.Outcome) -> None:
    assert exchange.conservation(len(list(put_forward)), **exchange.tally(outcome)) is None
    assert len(outcome.fates) == outcome.count("captured") + outcome.count("paired") + outcome.count(
        "returned"
    ) + outcome.count("won") + outcome.count("discarded")


# --- rolling into the scene pool ----------------------------------------------------


def test_shred_rolls_6655433221_and_the_roll_ins_55_keep_6655554() -> None:
    draw = typed(*digits("6655433221"), 5, 5)
    rolled = pool.roll_in(10, draw)
    assert rolled.kept == tuple(digits("6655554"))
    assert rolled.waves == (tuple(digits("6655433221")), (5, 5))
    assert rolled.tossed == (3, 3, 2, 2, 1)
    assert rolled.rolled_in == 2
    assert draw.calls == [("pool", 10), ("pool roll-in 1", 2)]


def test_jack_rolls_643221_and_the_roll_in_1_keeps_64() -> None:
    rolled = pool.roll_in(6, typed(*digits("643221"), 1))
    assert rolled.kept == (6, 4)
    assert rolled.tossed == (3, 2, 2, 1, 1)


def test_a_roll_in_six_rolls_in_again() -> None:
    rolled = pool.roll_in(2, typed(6, 1, 6, 6, 2, 4))
    assert rolled.waves == ((6, 1), (6,), (6,), (2,))
    assert rolled.kept == (6, 6, 6) and rolled.tossed == (2, 1)
    assert rolled.rolled_in == 3
    rolled = pool.roll_in(1, typed(6, 6, 4))
    assert rolled.waves == ((6,), (6,), (4,)) and rolled.kept == (6, 6, 4)


def test_every_die_typed_as_a_count_per_face_high_to_low_gives_the_same_pool() -> None:
    # "four 6s ..." read off the table after the roll-ins: the list comes high to low.
    everything = pool.high_to_low(digits("6655433221") + [5, 5])
    assert pool.roll_in(10, typed(*everything)).kept == tuple(digits("6655554"))
    assert pool.roll_in_all_faces(10, everything).kept == tuple(digits("6655554"))
    with pytest.raises(RuleError, match="10 dice with 2 six"):
        pool.roll_in_all_faces(10, everything[:-1])


def test_shreds_follow_up_roll_66654322_rolls_in_to_666554() -> None:
    # "Shred gets 66654322, rerolling and discarding to 666554."
    assert pool.roll_in(8, typed(*digits("66654322"), 5, 3, 2)).kept == tuple(digits("666554"))


@pytest.mark.parametrize("face", [7, 0, -1, True, 2.5, "6"])
def test_a_face_outside_1_to_6_is_refused_naming_it(face: object) -> None:
    with pytest.raises(RuleError, match=r"1-6, got"):
        pool.roll_in(2, typed(6, face))  # type: ignore[arg-type]


def test_too_few_typed_faces_is_refused() -> None:
    with pytest.raises(RuleError, match="needs 2 dice, got 1"):
        pool.roll_in(3, typed(6, 6, 4, 5))


def test_the_exact_expectation_is_three_fifths_of_a_die_per_starting_die() -> None:
    assert rules.expected_kept_per_die() == pytest.approx(0.6) and str(rules.expected_kept_per_die()) == "3/5"
    assert str(rules.variance_kept_per_die()) == "12/25"  # E[K^2] = 21/25


def test_roll_in_pools_keep_0_6_dice_per_starting_die_at_a_fixed_seed() -> None:
    rng = random.Random(2140)

    def draw(label: str, count: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(count)]

    pools, size = 2000, 10
    kept = [len(pool.roll_in(size, draw).kept) for _ in range(pools)]
    dice = pools * size
    mean = sum(kept) / dice
    # Each pool of 10 is a sum of 10 independent starting dice: variance 10 * 12/25.
    standard_error = math.sqrt(float(rules.variance_kept_per_die()) / dice)
    assert abs(mean - 0.6) < 4 * standard_error, (mean, standard_error)
    per_pool_var = sum((k - 6) ** 2 for k in kept) / pools
    assert per_pool_var == pytest.approx(size * float(rules.variance_kept_per_die()), rel=0.15)


def test_resist_dice_keep_four_or_higher_without_rolling_in() -> None:
    rolled = pool.resist(typed(6, 4, 3, 1), 4)
    assert rolled.kept == (6, 4) and rolled.rolled_in == 0


# --- building the pool ---------------------------------------------------------------


def test_pool_sizes_from_the_rulebook() -> None:
    assert PoolDice(primary_skills=3).count() == 6  # Boat, Pilot & Coordination
    assert PoolDice(primary_skills=2).count() == 4  # Pilot but not Boat
    # Shred: nine dice for both skills at the max, a Gymnastics assist on the secondary worth one.
    assert PoolDice(primary_skills=3, secondary_skills=3, secondary_assists=(4,)).count() == 10
    assert PoolDice(racks=1).count() == 6  # the GM's single rack for Jack
    # Shred's follow-up: Authority and Intimidation (4), Physique (1), two follow-up dice, Jack scarred (1).
    assert PoolDice(primary_skills=2, secondary_skills=1, follow_up=2, circumstances=1).count() == 8
    assert PoolDice(racks=1, circumstances=1).count() == 7  # "the GM rolls 7"
    # The Vid-Dronz: three racks and two circumstance dice, "Total 20 dice".
    assert PoolDice(racks=3, circumstances=2).count() == 20
    assert PoolDice(primary_skills=2, secondary_skills=3).count() == 7  # Shred at 7
    assert PoolDice(primary_skills=2, secondary_skills=2, gear_circumstances=1).count() == 7  # Wire, razor balls
    assert PoolDice(primary_skills=1, secondary_skills=2).count() == 4  # Sven at 4
    assert PoolDice(assists=(5, 3)).count() == 3  # half the quality, rounded down
    assert PoolDice(racks=2, rack=8).count() == 16


def test_taking_dice_from_a_pool_checks_the_faces_held() -> None:
    assert pool.take_from([6, 6, 5, 4], [6, 4], "Shred") == [6, 5]
    with pytest.raises(RuleError, match="holds 2 dice.*cannot put forward 3"):
        pool.take_from([6, 4], [6, 4, 4], "Jack")
    with pytest.raises(RuleError, match="needs 1 more 5"):
        pool.take_from([6, 4], [5], "Jack")
    with pytest.raises(RuleError, match="1-6, got 7"):
        pool.take_from([6, 4], [7], "Jack")


def test_follow_up_tosses_half_rounded_down() -> None:
    assert pool.follow_up_split(4) == (2, 2)  # Shred: "He gets to keep two dice"
    assert pool.follow_up_split(2) == (1, 1)  # Jack's two unused dice: one follow-up die
    assert pool.follow_up_split(3) == (1, 2)
    assert pool.follow_up_split(0) == (0, 0)


# --- exchanges -------------------------------------------------------------------------


def test_the_half_pool_rule() -> None:
    exchange.check_forward(3, 2, "Wire", exception=False)  # Wire pushes two of his three sixes
    exchange.check_forward(1, 1, "Wire", exception=False)
    with pytest.raises(RuleError, match="at most 2 of 4"):
        exchange.check_forward(4, 3, "Shred", exception=False)
    exchange.check_forward(4, 4, "Shred", exception=True)
    with pytest.raises(RuleError, match="holds 4 dice"):
        exchange.check_forward(4, 5, "Shred", exception=True)


def test_shred_and_jack_as_the_rulebook_tells_it() -> None:
    shred = pool.roll_in(10, typed(*digits("6655433221"), 5, 5)).kept
    jack = pool.roll_in(6, typed(*digits("643221"), 1)).kept
    assert (shred, jack) == (tuple(digits("6655554")), (6, 4))
    # "Shred puts in a single 4. Jack declines to follow, so Shred goes first."
    bids = {"Shred": [4]}
    assert initiative.bid_order(["Jack", "Shred"], bids) == ["Shred", "Jack"]
    shred_pool = pool.take_from(shred, [4], "Shred")
    books = {"Shred": 0, "Jack": 0}
    # "Shred pushes in a single die ... Jack pushes up his four ... Six beats four. Shred takes a book."
    exchange.check_forward(len(shred_pool), 1, "Shred", exception=False)
    shred_pool = pool.take_from(shred_pool, [6], "Shred")
    jack_pool = pool.take_from(jack, [4], "Jack")
    first = exchange.normal([6], [4], len(shred_pool), len(jack_pool))
    assert first.books == {"actor": 1, "target": 0} and first.winner == "actor"
    assert [(f.face, f.fate) for f in first.fates] == [(6, "won"), (4, "captured")]
    conserved([6, 4], first)
    books["Shred"] += first.books["actor"]
    # "Push in a six ... Jack has a six too, so they need a tie breaker. The GM admits that Jack is
    # out of dice. ... Shred wins the last exchange, and takes the last six for two books."
    shred_pool = pool.take_from(shred_pool, [6], "Shred")
    jack_pool = pool.take_from(jack_pool, [6], "Jack")
    last = exchange.normal([6], [6], len(shred_pool), len(jack_pool))
    assert last.books == {"actor": 2, "target": 0}
    conserved([6, 6], last)
    books["Shred"] += last.books["actor"]
    assert books == {"Shred": 3, "Jack": 0}
    # "He has four additional dice, which he could use as two additional books."
    assert shred_pool == [5, 5, 5, 5] and jack_pool == []
    assert goals.leftover_books(len(shred_pool), 4, "Shred") == 2
    # ... "he has a mind to use them in a follow up conflict instead": two follow-up dice.
    assert pool.follow_up_split(len(shred_pool))[1] == 2 == goals.chin_dice(4)


def test_the_follow_up_interrogation_exchanges() -> None:
    # "Shred starts and puts forward a pair of sixes." The GM "puts forward a five and a four.
    # Shred wins two books".
    out = exchange.normal([6, 6], [5, 4], 3, 5)
    assert out.books == {"actor": 2, "target": 0}
    # "the GM leads two sixes. Shred's player shrugs and replies with a six and a five. Jack wins two Books."
    out = exchange.normal([6, 6], [6, 5], 3, 1)
    assert out.books == {"actor": 2, "target": 0}
    assert sorted((f.side, f.face, f.fate) for f in out.fates) == [
        ("actor", 6, "won"),
        ("actor", 6, "won"),
        ("target", 5, "captured"),
        ("target", 6, "captured"),
    ]
    conserved([6, 6, 6, 5], out)


def test_the_vid_dronz_exchanges() -> None:
    # Sven has nothing: "Two of the dice are paired up and make a book(665). The other one is lost."
    out = exchange.normal([6, 6, 5], [], 11, 0)
    assert out.kind == "unanswered" and out.books == {"actor": 1, "target": 0}
    assert [(f.face, f.fate) for f in out.fates] == [(6, "paired"), (6, "paired"), (5, "discarded")]
    conserved([6, 6, 5], out)
    # Wire's 66 against the GM's 44: "Wire takes two books".
    out = exchange.normal([6, 6], [4, 4], 1, 9)
    assert out.books == {"actor": 2, "target": 0}
    # "The GM leads 655, but Wire only has one six left. The sixes tie, the 5 breaks the tie and
    # matches with the other one to get two books for the GM."
    assert exchange.answer_count(3, 1) == 1
    out = exchange.normal([6, 5, 5], [6], 6, 0)
    assert out.books == {"actor": 2, "target": 0}
    assert out.returned == {"actor": (5, 5), "target": ()}
    conserved([6, 5, 5, 6], out)
    # Shred's 655 against the GM's 544: the GM "loses all three".
    out = exchange.normal([6, 5, 5], [5, 4, 4], 4, 3)
    assert out.books == {"actor": 3, "target": 0}
    # The GM's 54 against Wire, who "has nothing ... giving up a book in the process".
    out = exchange.normal([5, 4], [], 1, 0)
    assert out.books == {"actor": 1, "target": 0}
    # Tally: GM 1 + 2 + 1 = four books; Shred 1 (Wire's gift) + 3 = four.


def test_a_stake_nobody_can_break_is_discarded() -> None:
    out = exchange.normal([5, 4], [5, 4], 3, 3)
    assert out.books == {"actor": 0, "target": 0} and out.count("discarded") == 4
    assert "discarded" in out.reason
    out = exchange.normal([6, 5], [6, 4], 0, 0)  # the 5 breaks the tie: captures the 6 at stake and the 4
    assert out.books == {"actor": 2, "target": 0}


def test_the_target_wins_a_comparison_too() -> None:
    out = exchange.normal([5, 4], [6, 4], 2, 2)
    assert out.books == {"actor": 0, "target": 1} and out.winner == "target"
    assert out.count("discarded") == 2  # the 4s tie last


def test_a_risky_exchange_the_higher_total_takes_all() -> None:
    # Risky: "The dice on each side are simply totaled and the higher total captures all the dice".
    out = exchange.risky([6, 4], [5, 5, 5][:2])  # 10 vs 10: a tie, nobody captures
    assert out.books == {"actor": 0, "target": 0} and out.count("discarded") == 4
    out = exchange.risky([6, 6, 4], [5, 5, 5])  # 16 beats 15 though a normal exchange would split it
    assert out.books == {"actor": 3, "target": 0} and out.winner == "actor"
    assert sorted(f.fate for f in out.fates) == ["captured"] * 3 + ["won"] * 3
    conserved([6, 6, 4, 5, 5, 5], out)
    out = exchange.risky([6, 4, 4], [5, 5, 5])  # 14 loses to 15: the target takes all three
    assert out.books == {"actor": 0, "target": 3} and out.winner == "target"
    assert exchange.normal([6, 4, 4], [5, 5, 5], 3, 3).books == {"actor": 1, "target": 2}


def test_conservation_names_a_broken_count() -> None:
    out = exchange.normal([6], [4], 1, 1)
    assert exchange.tally(out) == {"captured": 1, "returned": 0, "discarded": 1}
    assert "!= 3 put forward" in exchange.conservation(3, **exchange.tally(out))
    assert exchange.conservation(2, 0, 0, 0, at_stake=2) is None


# --- Fly-Dice -------------------------------------------------------------------------------


def test_james_and_the_gm_fly_dice() -> None:
    # "James has all three skills, for 6 dice. The GM pulls a single rack of six dice."
    james = pool.roll_in(PoolDice(primary_skills=3).count(), typed(5, 5, 4, 3, 2, 1)).kept
    gm = pool.roll_in(PoolDice(racks=1).count(), typed(6, 6, 5, 5, 4, 2, 5, 5)).kept
    # "James gets 554. The GM rolls 66554. He takes all of the dice and adds 6655554 to his scene pool"
    assert james == (5, 5, 4)
    assert gm == tuple(digits("6655554"))
    assert flydice.winner(james, gm) == flydice.DEFENDER
    assert flydice.winner([5, 5], [5, 5]) is None
    assert flydice.winner([5, 5, 4], [5, 5]) == flydice.ATTACKER


# --- books and goals ------------------------------------------------------------------------


def test_guide_prices() -> None:
    assert goals.guide_price("small hurt") == 1
    assert goals.guide_price("knock out one person") == 3
    assert goals.guide_price("knock out one person", powers_of_ten=1) == 4  # a room of people
    assert goals.guide_price("persuade one person") == 4
    assert goals.guide_price("persuade one person", powers_of_ten=1) == 5
    assert goals.guide_price("persuade one person", powers_of_ten=6) == 10  # a million people
    assert goals.guide_price("kill", powers_of_ten=8) == 15  # "7 for kill plus 8 for scale"
    with pytest.raises(RuleError, match="not in the goal guide"):
        goals.guide_price("blow up Eros")


def test_paying_for_goals() -> None:
    assert goals.pay(3, 4, 0, 0, "Shred", "Player Point") == goals.Payment(3, 0)  # KO S-Max, one left
    assert goals.pay(4, 1, 5, 3, "Sven", "Player Point") == goals.Payment(1, 3)
    with pytest.raises(RuleError, match="has 2 book.*costs 3"):
        goals.pay(3, 2, 0, 0, "Wire", "Player Point")
    with pytest.raises(RuleError, match="has 1 Player Point, cannot spend 2"):
        goals.pay(3, 2, 1, 2, "Wire", "Player Point")
    with pytest.raises(RuleError, match="at least 1"):
        goals.pay(0, 2, 1, 0, "Wire", "Player Point")


def test_leftover_dice_and_gifts() -> None:
    with pytest.raises(RuleError, match="two at a time"):
        goals.leftover_books(5, 3, "Shred")
    with pytest.raises(RuleError, match="holds 2 dice"):
        goals.leftover_books(2, 4, "Shred")
    goals.check_gift(2, 1, "Wire")
    with pytest.raises(RuleError, match="one book"):
        goals.check_gift(2, 2, "Wire")
    with pytest.raises(RuleError, match="has 0 book"):
        goals.check_gift(0, 1, "Wire")


def test_initiative_in_seating_order_and_by_bids() -> None:
    seats = ["GM", "Shred", "Sven", "Wire"]
    assert initiative.seating_order(seats) == seats
    assert initiative.seating_order(seats, reverse=True) == ["Wire", "Sven", "Shred", "GM"]
    assert initiative.bid_order(seats, {"Wire": [6, 5], "GM": [6], "Sven": [4, 2]}) == ["Wire", "GM", "Sven", "Shred"]
    assert initiative.bid_order(seats, {"Sven": [6], "GM": [6]}) == ["GM", "Sven", "Shred", "Wire"]


def test_an_exchange_put_forward_says_one_die_not_one_dice() -> None:
    """Seen on the phones: 'GM answers with 1 dice'."""
    from tableside.core.system import run_action
    from tableside.core.systems.v2140 import SYSTEM

    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Shred", "Sven"]}))
    for raw, faces in (
        ({"type": "prepare_pool", "participant": "Shred", "primary_skills": 1}, None),
        ({"type": "roll_pool", "participant": "Shred"}, [6, 5, 4]),
        ({"type": "prepare_pool", "participant": "GM", "racks": 1}, None),
        ({"type": "roll_pool", "participant": "GM"}, [5, 4, 3, 2, 2, 1]),
    ):
        state = run_action(SYSTEM, state, raw, faces=faces).state
    step = run_action(SYSTEM, state, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]})
    assert step.result["summary"].endswith("GM answers with 1 die")
