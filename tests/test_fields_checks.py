"""Fields: every kind's checks and words, the description a phone draws from, and the limits.

A malformed value is a 400 (BadRequest), a value the rules do not allow a 422 (RuleError); each
message names the field as "<where>: <title>" and what was wrong, and a bad value changes nothing."""

from __future__ import annotations

import re

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.fields import MAX_LIST, Choice, Field, check_fields, read_faces


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


def check(field: Field, value, state=None, seats=()):
    return field.check({field.name: value}, "roll", state, seats)


# --- declaring ----------------------------------------------------------------------------------


def test_a_field_of_an_unknown_kind_is_refused_listing_the_kinds():
    with pytest.raises(
        ValueError,
        match=exactly("unknown field kind 'number'; kinds: count, pick, picks, seat, text, texts, flag, faces, rows"),
    ):
        Field("n", "number")


def test_pick_fields_need_choices_and_rows_need_sub_fields():
    with pytest.raises(ValueError, match=exactly("field 'suit' of kind picks needs choices")):
        Field("suit", "picks")
    with pytest.raises(ValueError, match=exactly("field 'players' of kind rows needs sub-fields")):
        Field("players", "rows")


def test_the_title_is_the_label_or_the_name_in_words():
    assert Field("vp_spaces").title == "Vp spaces"
    assert Field("vp_spaces", label="VP spaces").title == "VP spaces"


# --- describing ---------------------------------------------------------------------------------


def test_a_count_describes_its_limits_and_leaves_out_what_is_unset():
    assert Field("dice", minimum=1, maximum=20, default=3, help="how many").describe() == {
        "name": "dice",
        "label": "Dice",
        "kind": "count",
        "required": True,
        "default": 3,
        "minimum": 1,
        "maximum": 20,
        "help": "how many",
    }
    assert Field("dice", required=False).describe() == {
        "name": "dice",
        "label": "Dice",
        "kind": "count",
        "required": False,
    }


def test_text_faces_and_rows_describe_what_a_form_needs():
    assert Field("name", "text", max_length=20).describe()["max_length"] == 20
    assert Field("names", "texts").describe()["max_length"] == 60
    assert Field("faces", "faces", sides=10).describe()["sides"] == 10
    rows = Field("players", "rows", fields=(Field("name", "text"), Field("seat", "seat")))
    described = rows.describe(None, ["Ann", "Bob"])
    assert [f["name"] for f in described["fields"]] == ["name", "seat"]
    assert described["fields"][1]["choices"] == [{"value": "Ann", "label": "Ann"}, {"value": "Bob", "label": "Bob"}]


def test_choices_from_the_state_are_described_only_with_a_state():
    suit = Field("suit", "pick", choices=lambda state: state["suits"])
    assert "choices" not in suit.describe()
    assert suit.describe({"suits": ["Game", Choice("Bot", "Bot (blue)")]})["choices"] == [
        {"value": "Game", "label": "Game"},
        {"value": "Bot", "label": "Bot (blue)"},
    ]
    fixed = Field("suit", "pick", choices=("Game",))
    assert fixed.describe()["choices"] == [{"value": "Game", "label": "Game"}]


def test_shown_when_is_described_as_lists():
    f = Field("tech", shown_when={"version": ("Enhanced",)})
    assert f.describe()["shown_when"] == {"version": ["Enhanced"]}


# --- checking: presence -------------------------------------------------------------------------


def test_a_pick_drawn_as_send_buttons_is_optional_and_says_so():
    token = Field("token", "pick", required=False, default="", choices=("Game", "Bot"), sends=True)
    assert token.describe()["sends"] is True
    assert "sends" not in Field("token", "pick", required=False, choices=("Game",)).describe()
    assert token.check({}, "play") == ""  # the plain send: the default
    for bad in (
        {"kind": "pick", "required": True, "choices": ("Game",)},  # the plain send must leave it unchosen
        {"kind": "count", "required": False},
    ):
        with pytest.raises(ValueError, match="sends is for an optional pick"):
            Field("token", sends=True, **bad)


def test_a_required_field_missing_or_null_is_named():
    for raw in ({}, {"dice": None}):
        with pytest.raises(BadRequest, match=exactly("roll: 'Dice' is required")):
            Field("dice").check(raw, "roll")


def test_an_optional_field_left_out_or_empty_takes_a_copy_of_its_default():
    default = ["Ann"]
    f = Field("names", "texts", required=False, default=default)
    got = f.check({"names": ""}, "setup")
    assert got == ["Ann"] and got is not default
    assert f.check({}, "setup") == ["Ann"]


def test_an_empty_text_for_a_required_field_is_checked_as_text():
    assert check(Field("name", "text"), "") == ""


# --- counts -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [(3, 3), (3.0, 3), ("3", 3), (" 12 ", 12), ("-2", -2), (0, 0)])
def test_a_count_takes_a_whole_number_or_its_digits(value, expected):
    assert check(Field("n"), value) == expected


def test_a_count_refuses_true_false():
    with pytest.raises(BadRequest, match=exactly("roll: N must be a whole number")):
        check(Field("n"), True)


@pytest.mark.parametrize(
    ("value", "shown"), [("3.5", "'3.5'"), ("", "''"), ("-", "'-'"), ("٣", "'٣'"), ("1234567890", "'1234567890'")]
)
def test_a_count_refuses_text_that_is_not_a_short_whole_number(value, shown):
    with pytest.raises(BadRequest, match=exactly(f"roll: N must be a whole number, got {shown}")):
        check(Field("n"), value)


def test_nine_digits_are_a_count():
    assert check(Field("n"), "999999999") == 999_999_999
    assert check(Field("n"), "-999999999") == -999_999_999


@pytest.mark.parametrize(("value", "shown"), [(3.5, "'3.5'"), (1e12, "'1000000000000.0'"), ([3], "'[3]'")])
def test_a_count_refuses_other_values_showing_them(value, shown):
    with pytest.raises(BadRequest, match=exactly(f"roll: N must be a whole number, got {shown}")):
        check(Field("n"), value)


def test_a_count_is_held_to_its_limits_inclusive():
    f = Field("health", minimum=1, maximum=8)
    assert check(f, 1) == 1 and check(f, 8) == 8
    with pytest.raises(RuleError, match=exactly("roll: Health must be at least 1, got 0")):
        check(f, 0)
    with pytest.raises(RuleError, match=exactly("roll: Health must be at most 8, got 9")):
        check(f, 9)


def test_limits_in_messages_drop_a_needless_point_zero_and_long_numbers_are_cut():
    f = Field("x", minimum=0.5, maximum=2.0)
    with pytest.raises(RuleError, match=exactly("roll: X must be at most 2, got 3")):
        check(f, 3)
    with pytest.raises(RuleError, match=exactly("roll: X must be at least 0.5, got 0")):
        check(f, 0)
    with pytest.raises(RuleError, match=exactly("roll: X must be at most 2, got 123456789012...")):
        check(Field("x", maximum=2), 1234567890123)
    with pytest.raises(RuleError, match=exactly("roll: X must be at most 2, got 123456789012")):
        check(Field("x", maximum=2), 123456789012)


# --- text, picks, flags -------------------------------------------------------------------------


def test_text_is_trimmed_to_single_spaces():
    assert check(Field("name", "text"), "  Ann \n  Lee ") == "Ann Lee"


def test_text_longer_than_allowed_is_refused_counting_after_trimming():
    f = Field("name", "text", max_length=5)
    assert check(f, " Ann  B ") == "Ann B"
    with pytest.raises(RuleError, match=exactly("roll: Name is too long (6 characters, at most 5)")):
        check(f, "Ann Bo")


def test_text_must_be_a_string():
    with pytest.raises(BadRequest, match=exactly("roll: Name must be text, got '12'")):
        check(Field("name", "text"), 12)


def test_a_pick_is_trimmed_text_or_a_number_from_the_choices():
    f = Field("suit", "pick", choices=("Game", "Bot", 7, 2.5))
    assert check(f, " Game ") == "Game"
    assert check(f, 7) == 7 and check(f, 2.5) == 2.5
    with pytest.raises(BadRequest, match=exactly("roll: Suit must be one of the choices, got 'True'")):
        check(f, True)
    with pytest.raises(BadRequest, match=exactly("roll: Suit must be one of the choices, got '[1]'")):
        check(f, [1])


def test_a_value_not_among_the_choices_lists_up_to_twelve():
    few = Field("suit", "pick", choices=(Choice("g", "Game"), Choice("b", "Bot")))
    with pytest.raises(RuleError, match=exactly("roll: Suit: 'x' is not one of Game, Bot")):
        check(few, "x")
    many = Field("n", "pick", choices=tuple(range(13)))
    with pytest.raises(
        RuleError, match=exactly("roll: N: 'x' is not one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...")
    ):
        check(many, "x")
    twelve = Field("n", "pick", choices=tuple(range(12)))
    with pytest.raises(RuleError, match=exactly("roll: N: 'x' is not one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11")):
        check(twelve, "x")
    none = Field("n", "pick", choices=lambda state: [])
    with pytest.raises(RuleError, match=exactly("roll: N: 'x' is not one of none right now")):
        check(none, "x", state={})


def test_a_long_refused_value_is_cut_to_forty_characters():
    with pytest.raises(RuleError, match=exactly(f"roll: Suit: {'y' * 40!r} is not one of Game")):
        check(Field("suit", "pick", choices=("Game",)), "y" * 50)


def test_choices_from_the_state_are_checked_only_with_a_state():
    f = Field("player", "pick", choices=lambda state: state["players"])
    assert check(f, "Zed") == "Zed"  # no state: the table checks it later
    with pytest.raises(RuleError, match=exactly("roll: Player: 'Zed' is not one of Ann, Bob")):
        check(f, "Zed", state={"players": ["Ann", "Bob"]})


def test_a_seat_is_one_of_the_seats():
    f = Field("seat", "seat")
    assert check(f, "Ann", seats=["Ann", "Bob"]) == "Ann"
    with pytest.raises(RuleError, match=exactly("roll: Seat: 'Cy' is not one of Ann, Bob")):
        check(f, "Cy", seats=["Ann", "Bob"])


def test_picks_are_a_list_of_distinct_choices():
    f = Field("tracks", "picks", choices=("Team", "Game", "Bot"))
    assert check(f, ["Team", " Bot"]) == ["Team", "Bot"]
    with pytest.raises(RuleError, match=exactly("roll: Tracks: 'Team' is picked twice")):
        check(f, ["Team", "Game", "Team"])
    with pytest.raises(RuleError, match=exactly("roll: Tracks: 'Cards' is not one of Team, Game, Bot")):
        check(f, ["Team", "Cards"])


def test_a_flag_is_true_or_false():
    assert check(Field("ok", "flag"), False) is False
    with pytest.raises(BadRequest, match=exactly("roll: Ok must be true or false, got '1'")):
        check(Field("ok", "flag"), 1)


# --- lists --------------------------------------------------------------------------------------


def test_a_list_field_must_be_a_list():
    with pytest.raises(BadRequest, match=exactly("roll: Names must be a list")):
        check(Field("names", "texts"), "Ann")


def test_a_list_is_held_to_its_maximum_and_the_global_cap():
    f = Field("names", "texts", maximum=2)
    assert check(f, ["a", "b"]) == ["a", "b"]
    with pytest.raises(RuleError, match=exactly("roll: Names takes at most 2 entries, got 3")):
        check(f, ["a", "b", "c"])
    wide = Field("names", "texts", maximum=10 * MAX_LIST)
    assert len(check(wide, ["a"] * MAX_LIST)) == MAX_LIST
    with pytest.raises(RuleError, match=exactly(f"roll: Names takes at most {MAX_LIST} entries, got {MAX_LIST + 1}")):
        check(wide, ["a"] * (MAX_LIST + 1))
    with pytest.raises(RuleError, match=exactly(f"roll: Names takes at most {MAX_LIST} entries, got {MAX_LIST + 1}")):
        check(Field("names", "texts"), ["a"] * (MAX_LIST + 1))


def test_a_list_is_held_to_its_minimum():
    f = Field("names", "texts", minimum=2)
    assert check(f, ["a", "b"]) == ["a", "b"]
    with pytest.raises(RuleError, match=exactly("roll: Names needs at least 2 entries, got 1")):
        check(f, ["a"])


def test_each_text_of_a_list_is_checked():
    f = Field("names", "texts", max_length=3)
    assert check(f, [" Ann ", "Bo"]) == ["Ann", "Bo"]
    with pytest.raises(RuleError, match=exactly("roll: Names is too long (4 characters, at most 3)")):
        check(f, ["Ann", "Anne"])


def test_rows_are_objects_checked_field_by_field_and_named_by_number():
    f = Field("players", "rows", fields=(Field("name", "text"), Field("home", "pick", choices=("Venus", "Mars"))))
    assert check(f, [{"name": "Ann", "home": "Mars"}]) == [{"name": "Ann", "home": "Mars"}]
    with pytest.raises(BadRequest, match=exactly("roll: Players: row 2 must be an object")):
        check(f, [{"name": "Ann", "home": "Mars"}, "Bob"])
    with pytest.raises(RuleError, match=exactly("roll: Players row 1: Home: 'Earth' is not one of Venus, Mars")):
        check(f, [{"name": "Ann", "home": "Earth"}])


# --- faces --------------------------------------------------------------------------------------


def test_faces_as_a_list_are_read_on_the_fields_die():
    assert check(Field("faces", "faces", sides=10), [10, "0", 3]) == [10, 10, 3]


def test_faces_as_counts_come_high_to_low():
    assert read_faces({"5": 3, "6": 4}, 6) == [6, 6, 6, 6, 5, 5, 5]


def test_faces_must_be_a_list_or_counts():
    for bad in ("665", 6):
        with pytest.raises(BadRequest, match=exactly("roll: Faces must be a list of faces or a count per face")):
            check(Field("faces", "faces"), bad)


def test_at_most_a_hundred_faces():
    assert len(read_faces([1] * 100, 6)) == 100
    with pytest.raises(RuleError, match=exactly("faces: at most 100 dice at a time, got 101")):
        read_faces([1] * 101, 6)


# --- check_fields -------------------------------------------------------------------------------


def test_unknown_fields_are_named_not_ignored_at_most_five():
    fields = (Field("dice"),)
    assert check_fields(fields, {"dice": 2}, "roll") == {"dice": 2}
    with pytest.raises(BadRequest, match=exactly("roll: unknown fields a, b, c, d, e")):
        check_fields(fields, {"dice": 2, "f": 1, "e": 1, "d": 1, "c": 1, "b": 1, "a": 1}, "roll")
    with pytest.raises(BadRequest, match=exactly(f"roll: unknown field {'k' * 30}")):
        check_fields(fields, {"dice": 2, "k" * 40: 1}, "roll")


# --- what mutation testing found unpinned (benchmarks/mutation.py fields) -----------------------


def test_a_pick_field_needs_choices_too():
    with pytest.raises(ValueError, match=exactly("field 'suit' of kind pick needs choices")):
        Field("suit", "pick")


def test_a_field_may_apply_only_in_some_states():
    f = Field("tech", applies=lambda state: state["version"] == "Enhanced")
    assert f.applies_in(None) is True
    assert f.applies_in({"version": "Enhanced"}) is True
    assert f.applies_in({"version": "Basic"}) is False
    assert Field("tech").applies_in({"version": "Basic"}) is True


def test_a_prefill_from_the_state_is_described_as_the_default():
    f = Field("target", default=1, prefill=lambda state: state.get("declared"))
    assert f.describe({"declared": 4})["default"] == 4
    assert f.describe({})["default"] == 1  # nothing declared: the field's own default
    assert f.describe()["default"] == 1  # no state: prefill is not asked


def test_rows_describe_their_sub_fields_choices_from_the_state():
    rows = Field("players", "rows", fields=(Field("home", "pick", choices=lambda state: state["worlds"]),))
    assert rows.describe({"worlds": ["Venus"]})["fields"][0]["choices"] == [{"value": "Venus", "label": "Venus"}]


def test_picks_describe_their_choices():
    assert Field("tracks", "picks", choices=("Team",)).describe()["choices"] == [{"value": "Team", "label": "Team"}]


def test_a_nested_default_is_copied_all_the_way_down():
    default = [["Ann"]]
    got = Field("teams", "texts", required=False, default=default).check({}, "setup")
    assert got == [["Ann"]] and got[0] is not default[0]


def test_rows_check_their_sub_fields_against_the_state_and_the_seats():
    f = Field("moves", "rows", fields=(Field("who", "seat"), Field("home", "pick", choices=lambda s: s["worlds"])))
    state, seats = {"worlds": ["Venus"]}, ["Ann"]
    assert check(f, [{"who": "Ann", "home": "Venus"}], state, seats) == [{"who": "Ann", "home": "Venus"}]
    with pytest.raises(RuleError, match=exactly("roll: Moves row 1: Who: 'Bob' is not one of Ann")):
        check(f, [{"who": "Bob", "home": "Venus"}], state, seats)
    with pytest.raises(RuleError, match=exactly("roll: Moves row 1: Home: 'Mars' is not one of Venus")):
        check(f, [{"who": "Ann", "home": "Mars"}], state, seats)
    with pytest.raises(BadRequest, match=exactly("roll: Moves must be a list")):
        check(f, {"who": "Ann"}, state, seats)
    assert check_fields((Field("who", "seat"),), {"who": "Ann"}, "roll", None, seats) == {"who": "Ann"}


def test_a_whole_float_count_is_taken_below_a_billion_only():
    assert check(Field("n"), 100.0) == 100
    assert check(Field("n"), 999_999_999.0) == 999_999_999
    with pytest.raises(BadRequest, match=exactly("roll: N must be a whole number, got '1000000000.0'")):
        check(Field("n"), 1e9)


def test_a_bad_value_shown_in_a_message_is_cut_to_twenty_characters():
    long = "x" * 25
    with pytest.raises(BadRequest, match=exactly(f"roll: N must be a whole number, got {'x' * 20!r}")):
        check(Field("n"), long)
    with pytest.raises(BadRequest, match=exactly(f"roll: N must be a whole number, got {'[' + '1' * 19!r}")):
        check(Field("n"), [int("1" * 25)])
    with pytest.raises(BadRequest, match=exactly(f"roll: Name must be text, got {'1' * 20!r}")):
        check(Field("name", "text"), int("1" * 25))
    with pytest.raises(BadRequest, match=exactly(f"roll: Suit must be one of the choices, got {'[' + '1' * 19!r}")):
        check(Field("suit", "pick", choices=lambda s: []), [int("1" * 25)])
    with pytest.raises(BadRequest, match=exactly(f"roll: Ok must be true or false, got {'1' * 20!r}")):
        check(Field("ok", "flag"), int("1" * 25))


def test_a_picked_value_is_cut_to_two_hundred_characters_and_a_repeat_to_forty_in_words():
    f = Field("names", "picks", choices=lambda state: [])
    assert check(Field("name", "pick", choices=lambda state: []), "n" * 250) == "n" * 200
    with pytest.raises(RuleError, match=exactly(f"roll: Names: {'n' * 40!r} is picked twice")):
        check(f, ["n" * 50, "n" * 50])
    with pytest.raises(BadRequest, match=exactly("roll: Names must be one of the choices, got 'True'")):
        check(f, [True])
    with pytest.raises(BadRequest, match=exactly("roll: Names must be a list")):
        check(f, "n")


def test_a_bad_face_count_is_named_with_the_field():
    with pytest.raises(BadRequest, match=exactly("roll: Faces: the count of 6s must be a whole number 0 or more")):
        check(Field("faces", "faces"), {"6": -1})


def test_a_faces_field_offers_the_dice_the_state_holds_as_a_list():
    f = Field("dice", "faces", offer=lambda state: state.get("pool") and tuple(state["pool"]))
    assert f.describe({"pool": [6, 5, 5]})["offer"] == [6, 5, 5]
    assert "offer" not in f.describe({})  # nothing to offer: a pad of faces
    assert "offer" not in f.describe()  # no state: not asked
