"""The dice engine (contract section 3): grammar, semantics, limits, typed faces, properties."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tableside.core import dice
from tableside.core.dice import DiceError, DiceExpr, RollResult, count_successes, parse, parse_faces, read_face, roll
from tableside.core.errors import BadRequest


class ScriptedRandom(random.Random):
    """A stand-in RNG that returns the given faces in order, to test the random path exactly."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.faces.pop(0) if self.faces else b


def error_of(fn, *args, **kwargs) -> str:
    """Run ``fn``, expect a DiceError, check it is one clean line and return its message."""
    with pytest.raises(DiceError) as info:
        fn(*args, **kwargs)
    err = info.value
    assert isinstance(err, BadRequest) and err.status == 400
    assert str(err) == err.message and err.message
    assert "\n" not in err.message and "Traceback" not in err.message
    return err.message


# --- the contract's must-holds -------------------------------------------------------------


def test_venus_2140_pool_explodes_sixes_and_counts_successes() -> None:
    r = roll("10d6xcs>=4", faces=[6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5])
    assert r.rolls == [6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5]
    assert r.kept == r.rolls
    assert r.successes == 7
    assert r.total == 47


def test_d10_zero_face_is_ten() -> None:
    r = roll("2d10cs>=8", faces=[0, 7])
    assert r.rolls == [10, 7] and r.successes == 1 and r.total == 17


def test_face_off_the_die_is_refused() -> None:
    assert error_of(roll, "2d10cs>=8", faces=[11, 7]) == "face 11 is not on a d10 (1-10, or 0 for the 10)"


def test_banana_is_not_dice() -> None:
    assert error_of(parse, "banana") == "unexpected 'b' at position 1 in 'banana'"


# --- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "sides", "explode", "keep", "success", "modifier"),
    [
        ("2d10cs>=8", 2, 10, False, None, (">=", 8), 0),
        ("5d6cs>=4", 5, 6, False, None, (">=", 4), 0),
        ("10d6xcs>=4", 10, 6, True, None, (">=", 4), 0),
        ("4d6kh3", 4, 6, False, ("kh", 3), None, 0),
        ("2d20kl1", 2, 20, False, ("kl", 1), None, 0),
        ("d6", 1, 6, False, None, None, 0),
        ("3d6+2", 3, 6, False, None, None, 2),
        ("1d20-1", 1, 20, False, None, None, -1),
        ("8d6dl2cs>4", 8, 6, False, ("dl", 2), (">", 4), 0),
        ("6d6dh2", 6, 6, False, ("dh", 2), None, 0),
        ("3d6cs<=2", 3, 6, False, None, ("<=", 2), 0),
        ("3d6cs<3", 3, 6, False, None, ("<", 3), 0),
        ("3d6cs=6", 3, 6, False, None, ("=", 6), 0),
        ("4d6kh", 4, 6, False, ("kh", 1), None, 0),  # N defaults to 1, as in Foundry
        ("4d6dl", 4, 6, False, ("dl", 1), None, 0),
        ("6d6cs>=5khx", 6, 6, True, ("kh", 1), (">=", 5), 0),
        ("4d6kh-1", 4, 6, False, ("kh", 1), None, -1),  # "kh" takes no sign: "-1" is a constant
    ],
)
def test_parse_examples(text, count, sides, explode, keep, success, modifier) -> None:
    e = parse(text)
    assert (e.count, e.sides, e.explode, e.keep, e.success, e.modifier) == (
        count,
        sides,
        explode,
        keep,
        success,
        modifier,
    )
    assert e.text == text


def test_modifiers_in_any_order() -> None:
    a = parse("10d6xkh3cs>=4")
    b = parse("10d6cs>=4kh3x")
    assert (a.explode, a.keep, a.success) == (b.explode, b.keep, b.success) == (True, ("kh", 3), (">=", 4))


def test_case_and_spaces_are_ignored_and_text_is_normalised() -> None:
    e = parse("  4D6 KH 3 + 1 - 2 ")
    assert e == DiceExpr("4d6kh3+1-2", 4, 6, False, ("kh", 3), None, -1)
    assert parse("10D6XCS>=4").explode is True


def test_constants_add_up() -> None:
    assert parse("2d6+1-3+10").modifier == 8
    assert parse("2d6-0").modifier == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6q", "unexpected 'q' at position 4 in '2d6q'"),
        ("2d", "'2d' ends too soon: expected a number of sides after 'd'"),
        ("", "empty dice expression: expected something like 2d6"),
        ("   ", "empty dice expression: expected something like 2d6"),
        ("2d6xx", "'x' given twice in '2d6xx'"),
        ("2d6cs>3cs>4", "'cs' given twice in '2d6cs>3cs>4'"),
        ("4d6kh3dl1", "only one of kh, kl, dh, dl is allowed, got 'kh' and 'dl' in '4d6kh3dl1'"),
        ("4d6kh1kh1", "only one of kh, kl, dh, dl is allowed, got 'kh' and 'kh' in '4d6kh1kh1'"),
        ("2d6>=4", "unexpected '>=' at position 4 in '2d6>=4' (count successes with cs, as in 2d10cs>=8)"),
        ("2d6+2x", "unexpected 'x' at position 6 in '2d6+2x' (x, cs and keep/drop go before + and -)"),
        ("2d6+2d6", "unexpected 'd' at position 6 in '2d6+2d6'"),
        (
            "2d6cs4",
            "expected a comparison after 'cs' at position 6 in '2d6cs4', got '4' (>=, >, <=, < or =, as in cs>=4)",
        ),
        ("2d6cs>=", "'2d6cs>=' ends too soon: expected a target number after 'cs>='"),
        ("2d6+", "'2d6+' ends too soon: expected a number after '+'"),
        ("6d6khx3", "unexpected '3' at position 7 in '6d6khx3'"),  # "kh" took N=1; the 3 is stray
        ("kh3", "expected 'd' and a number of sides at position 1 in 'kh3', got 'kh' (as in 2d6)"),
        ("2x6", "expected 'd' and a number of sides at position 2 in '2x6', got 'x' (as in 2d6)"),
        ("d%", "unexpected '%' at position 2 in 'd%'"),
        ("2d6 q", "unexpected 'q' at position 5 in '2d6 q'"),
        ("2d6\nq", "unexpected 'q' at position 5 in '2d6 q'"),  # newlines never reach the message
        ("1 0d6", "expected 'd' and a number of sides at position 3 in '1 0d6', got '0' (as in 2d6)"),
        ("4d6\u212ah3", "unexpected '\u212a' at position 4 in '4d6\u212ah3'"),  # Kelvin sign lower()s to k
        ("2d9999999", "number at position 3 in '2d9999999' is too big (at most 6 digits)"),
    ],
)
def test_parse_errors_name_the_problem(text, message) -> None:
    assert error_of(parse, text) == message


@pytest.mark.parametrize("value", [None, 26, ["2d6"], b"2d6"])
def test_parse_wants_text(value) -> None:
    assert "must be text" in error_of(parse, value)


def test_expression_length_is_capped() -> None:
    assert "too long" in error_of(parse, "2d6" + "+1" * 60)


# --- limits --------------------------------------------------------------------------------


def test_dice_count_limits() -> None:
    assert parse("1d6").count == 1 and parse("100d6").count == 100
    assert error_of(parse, "0d6") == "can't roll 0 dice in '0d6': 1-100 dice at a time"
    assert error_of(parse, "101d6") == "can't roll 101 dice in '101d6': 1-100 dice at a time"


def test_sides_limits() -> None:
    assert parse("d2").sides == 2 and parse("d1000").sides == 1000
    assert error_of(parse, "d1") == "no d1 in 'd1': dice need 2-1000 sides"
    assert error_of(parse, "3d0") == "no d0 in '3d0': dice need 2-1000 sides"
    assert error_of(parse, "d1001") == "no d1001 in 'd1001': dice need 2-1000 sides"


def test_a_d1_cannot_explode() -> None:
    assert "d1 can't explode" in error_of(parse, "5d1x")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6kh3", "can't keep 3 of the 2 dice in '2d6kh3' (khN needs N of 1-2)"),
        ("2d6kl0", "can't keep 0 of the 2 dice in '2d6kl0' (klN needs N of 1-2)"),
        ("3d6dl4", "can't drop 4 of the 3 dice in '3d6dl4' (dlN needs N of 1-3)"),
        ("3d6dh0", "can't drop 0 of the 3 dice in '3d6dh0' (dhN needs N of 1-3)"),
        ("2d6xkh3", "can't keep 3 of the 2 dice in '2d6xkh3' (khN needs N of 1-2)"),
    ],
)
def test_keep_and_drop_limits(text, message) -> None:
    assert error_of(parse, text) == message


@pytest.mark.parametrize("text", ["2d10cs>=11", "2d6cs>6", "2d6cs<1", "2d6cs<=0", "2d6cs=7"])
def test_a_success_test_that_can_never_pass_is_refused(text) -> None:
    assert "can never succeed" in error_of(parse, text)


def test_edge_success_tests_that_can_pass_are_allowed() -> None:
    assert roll("2d6cs>5", faces=[6, 5]).successes == 1
    assert roll("2d6cs<2", faces=[1, 2]).successes == 1
    assert roll("2d6cs>=1", faces=[1, 2]).successes == 2


# --- rolling semantics ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "faces", "kept"),
    [
        ("4d6kh3", [1, 5, 4, 6], [5, 4, 6]),
        ("4d6kl3", [1, 5, 4, 6], [1, 5, 4]),
        ("4d6dh1", [1, 5, 4, 6], [1, 5, 4]),
        ("4d6dl1", [1, 5, 4, 6], [5, 4, 6]),
        ("2d20kl1", [17, 3], [3]),
        ("3d6kh2", [3, 5, 3], [3, 5]),  # a tie: the earlier 3 is kept
        ("3d6kl2", [3, 1, 3], [3, 1]),
        ("3d6dl1", [3, 5, 3], [5, 3]),  # a tie: the earlier 3 is dropped
        ("3d6dl3", [3, 5, 3], []),
    ],
)
def test_keep_and_drop_keep_roll_order(text, faces, kept) -> None:
    r = roll(text, faces=faces)
    assert r.rolls == faces and r.kept == kept and r.total == sum(kept)


def test_drop_with_count_successes() -> None:
    r = roll("8d6dl2cs>4", faces=[6, 4, 5, 3, 6, 2, 1, 5])
    assert r.kept == [6, 4, 5, 3, 6, 5]
    assert r.successes == 4 and r.total == 29


def test_successes_count_only_kept_dice() -> None:
    assert roll("4d6kl2cs>=5", faces=[6, 6, 5, 1]).successes == 1


def test_keep_applies_to_explosion_dice_too() -> None:
    r = roll("2d6xkh1", faces=[6, 3, 5])
    assert r.rolls == [6, 3, 5] and r.kept == [6]
    r = roll("2d6xkl2", faces=[6, 3, 1])
    assert r.kept == [3, 1]


@pytest.mark.parametrize(
    ("text", "faces", "total", "successes"),
    [
        ("3d6+2", [1, 2, 3], 8, None),
        ("1d20-1", [1], 0, None),
        ("4d6kh3+1-2", [1, 5, 4, 6], 14, None),
        ("2d10cs>=8+3", [10, 9], 22, 2),  # total is faces plus constants, successes unchanged
    ],
)
def test_totals_include_constants(text, faces, total, successes) -> None:
    r = roll(text, faces=faces)
    assert r.total == total and r.successes == successes


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("1d6x", [6, 6, 6, 2]),  # a chain: each new six rolls one more
        ("2d6x", [6, 1, 6, 3]),  # the first die's extra comes after both dice, then explodes again
        ("2d6x", [6, 6, 1, 2]),  # two sixes: two extra dice, in order
        ("3d4x", [1, 2, 3]),  # no maximum, no extra die
    ],
)
def test_explosion_chains_with_typed_faces(text, faces) -> None:
    assert roll(text, faces=faces).rolls == faces


def test_explosion_chain_with_random_faces_is_rolled_in_order() -> None:
    rng = ScriptedRandom([6, 1, 6, 3, 2])
    r = roll("2d6x", rng=rng)
    assert r.rolls == [6, 1, 6, 3]
    assert rng.asked == [(1, 6)] * 4 and rng.faces == [2]


def test_without_x_a_maximum_does_not_explode() -> None:
    assert roll("2d6", rng=ScriptedRandom([6, 6, 6])).rolls == [6, 6]


def test_random_explosions_are_capped() -> None:
    msg = error_of(roll, "1d6x", rng=ScriptedRandom([]))  # every die shows 6
    assert msg == "1d6x exploded into more than 100 extra dice, the cap: roll fewer dice or drop the x"


def test_typed_explosions_are_capped_at_100_extra_dice() -> None:
    assert len(roll("1d6x", faces=[6] * 100 + [1]).rolls) == 101
    assert "more than 100 extra dice" in error_of(roll, "1d6x", faces=[6] * 101 + [1])


def test_too_few_faces_counts_the_explosions() -> None:
    msg = error_of(roll, "10d6x", faces=[6, 6, 5, 5, 4, 3, 3, 2, 2, 1])
    assert msg == "10d6x needs 12 faces here (2 from explosions), got 10; more if the missing dice explode"
    assert error_of(roll, "2d6", faces=[3]) == "2d6 needs 2 faces here, got 1"
    assert error_of(roll, "2d6", faces=[]) == "2d6 needs 2 faces here, got 0"


def test_too_many_faces_is_refused() -> None:
    assert error_of(roll, "2d6", faces=[1, 2, 3]) == "3 faces given but the roll used 2"
    assert error_of(roll, "1d6x", faces=[6, 2, 4]) == "3 faces given but the roll used 2"


@pytest.mark.parametrize("faces", ["6,6", 6, {6: 1}])
def test_faces_must_be_a_list(faces) -> None:
    assert "faces must be a list of numbers" in error_of(roll, "2d6", faces=faces)


def test_typed_faces_may_be_strings_or_a_tuple() -> None:
    assert roll("2d10", faces=("0", " 7 ")).rolls == [10, 7]


def test_roll_accepts_a_parsed_expression() -> None:
    assert roll(parse("3d6+1"), faces=[1, 1, 1]).total == 4


def test_seeded_rolls_are_reproducible() -> None:
    a = [roll("10d6xcs>=4", rng=random.Random(7)) for _ in range(2)]
    assert a[0] == a[1]
    totals = {roll("10d6", rng=random.Random(seed)).total for seed in range(20)}
    assert len(totals) > 1


def test_without_rng_the_module_system_random_is_used(monkeypatch) -> None:
    monkeypatch.setattr(dice, "_system_random", ScriptedRandom([2, 5]))
    assert roll("2d6").rolls == [2, 5]


def test_unseeded_rolls_stay_on_the_die() -> None:
    r = roll("100d6")
    assert len(r.rolls) == 100 and set(r.rolls) <= set(range(1, 7))


def test_to_dict_is_the_contract_json_and_a_copy() -> None:
    r = roll("2d10cs>=8", faces=[0, 7])
    d = r.to_dict()
    assert d == {"expr": "2d10cs>=8", "rolls": [10, 7], "kept": [10, 7], "successes": 1, "total": 17}
    assert json.loads(json.dumps(d)) == d
    d["rolls"].append(3)
    assert r.rolls == [10, 7]
    assert roll("d6", faces=[4]).to_dict()["successes"] is None


# --- helpers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "target", "expected"),
    [
        (">=", 4, 3),
        (">", 4, 2),
        ("<=", 4, 3),
        ("<", 4, 2),
        ("=", 4, 1),
    ],
)
def test_count_successes(op, target, expected) -> None:
    assert count_successes([1, 3, 4, 5, 6], op, target) == expected


def test_count_successes_rejects_an_unknown_test() -> None:
    assert "unknown success test '=>'" in error_of(count_successes, [1], "=>", 1)


@pytest.mark.parametrize(
    ("value", "sides", "face"),
    [
        (0, 10, 10),
        ("0", 10, 10),
        (10, 10, 10),
        (" 7 ", 10, 7),
        (1, 6, 1),
        ("6", 6, 6),
        (1000, 1000, 1000),
    ],
)
def test_read_face(value, sides, face) -> None:
    assert read_face(value, sides) == face


@pytest.mark.parametrize(
    ("value", "sides", "message"),
    [
        (11, 10, "face 11 is not on a d10 (1-10, or 0 for the 10)"),
        (0, 6, "face 0 is not on a d6 (1-6)"),
        (7, 6, "face 7 is not on a d6 (1-6)"),
        (-1, 6, "face -1 is not on a d6 (1-6)"),
        ("1234567", 6, "face 123456... is not on a d6 (1-6)"),
        ("six", 6, "face 'six' is not a whole number"),
        ("-1", 6, "face '-1' is not a whole number"),
        (6.0, 6, "face '6.0' is not a whole number"),
        (True, 6, "face 'True' is not a whole number"),
        (None, 6, "face 'None' is not a whole number"),
    ],
)
def test_read_face_errors(value, sides, message) -> None:
    assert error_of(read_face, value, sides) == message


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("6,6,5", [6, 6, 5]),
        (" 6 , 6 ,5 ", [6, 6, 5]),
        ("6 6 5", [6, 6, 5]),
        ("0,7", [0, 7]),
        ("4", [4]),
    ],
)
def test_parse_faces(text, faces) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no faces given: expected faces like 6,6,5"),
        ("  ", "no faces given: expected faces like 6,6,5"),
        ("6,,5", "face 2 is an empty entry, not a whole number: expected faces like 6,6,5"),
        ("6,a", "face 2 is 'a', not a whole number: expected faces like 6,6,5"),
        ("1.5", "face 1 is '1.5', not a whole number: expected faces like 6,6,5"),
        ("-1,2", "face 1 is '-1', not a whole number: expected faces like 6,6,5"),
        ("6,1234567", "face 2 (123456...) is too big for any die"),
    ],
)
def test_parse_faces_errors(text, message) -> None:
    assert error_of(parse_faces, text) == message


def test_parse_faces_wants_text() -> None:
    assert "no faces given" in error_of(parse_faces, [6, 6])


# --- properties ----------------------------------------------------------------------------


@st.composite
def expressions(draw) -> tuple[str, DiceExpr]:
    """A valid expression in random syntax (order, case, spaces) and the DiceExpr it means."""
    count = draw(st.integers(1, 20))
    sides = draw(st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]))
    explode = sides >= 4 and draw(st.booleans())  # d2/d3 pools would brush the explosion cap
    keep = draw(st.none() | st.tuples(st.sampled_from(dice.KEEP_OPS), st.integers(1, count)))
    op = draw(st.sampled_from([None, ">=", ">", "<=", "<", "="]))
    low, high = {">": (0, sides - 1), "<": (2, sides + 1)}.get(op, (1, sides))
    success = None if op is None else (op, draw(st.integers(low, high)))
    constants = draw(st.lists(st.integers(-50, 50), max_size=3))
    parts = (["x"] if explode else []) + ([f"{keep[0]}{keep[1]}"] if keep else [])
    parts += [f"cs{success[0]}{success[1]}"] if success else []
    parts = draw(st.permutations(parts))
    tokens = [f"{'' if count == 1 and draw(st.booleans()) else count}d{sides}", *parts]
    tokens += [f"{'+' if k >= 0 else '-'}{abs(k)}" for k in constants]
    text = (" " if draw(st.booleans()) else "").join(tokens)
    text = text.upper() if draw(st.booleans()) else text
    return text, DiceExpr(text.replace(" ", "").lower(), count, sides, explode, keep, success, sum(constants))


@given(expressions())
def test_parse_reads_every_valid_spelling(case) -> None:
    text, expected = case
    assert parse(text) == expected
    assert parse(expected.text) == expected


@given(expressions(), st.integers(0, 2**32))
def test_roll_invariants_and_faces_round_trip(case, seed) -> None:
    _, e = case
    r = roll(e, rng=random.Random(seed))
    assert all(1 <= f <= e.sides for f in r.rolls)
    assert len(r.rolls) == e.count + (r.rolls.count(e.sides) if e.explode else 0)
    assert not Counter(r.kept) - Counter(r.rolls)  # kept is a sub-multiset of rolls
    assert r.total == sum(r.kept) + e.modifier
    if e.success:
        assert r.successes is not None and 0 <= r.successes <= len(r.kept)
    else:
        assert r.successes is None
    assert roll(e, faces=r.rolls) == r  # typing in the faces a roll produced gives the same roll
    typed = [("0" if f == 10 and e.sides == 10 else str(f)) for f in r.rolls]
    assert roll(e, faces=typed) == r
    assert roll(e, rng=random.Random(seed)) == r


@given(st.text(max_size=40))
def test_any_text_parses_or_fails_with_one_clean_line(text) -> None:
    try:
        e = parse(text)
    except DiceError as err:
        assert err.message and "\n" not in err.message
    else:
        assert isinstance(e, DiceExpr) and parse(e.text) == e


@given(st.text(alphabet="0123456789dDxXcCsShHlLkK<>=+- ", max_size=20))
def test_dice_like_text_parses_or_fails_cleanly(text) -> None:
    try:
        parse(text)
    except DiceError as err:
        assert "\n" not in err.message


@given(st.lists(st.integers(0, 12), max_size=8), st.sampled_from([6, 10, 12]))
def test_faces_read_back_from_text(faces, sides) -> None:
    text = ",".join(map(str, faces))
    if not faces:
        assert "no faces given" in error_of(parse_faces, text)
        return
    assert parse_faces(text) == faces
    for f in faces:
        if 1 <= f <= sides or (f == 0 and sides == 10):
            assert read_face(f, sides) == (10 if f == 0 else f)
        else:
            assert f"face {f} is not on a d{sides}" in error_of(read_face, f, sides)


def test_roll_result_is_frozen() -> None:
    r = RollResult("d6", [3], [3], None, 3)
    with pytest.raises(AttributeError):
        r.total = 4  # type: ignore[misc]
