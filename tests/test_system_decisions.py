"""What the core decides for every game system, read from outside (tests/system_inn.py): which button answers
the prompt first, when an action is available (``in_phase``), who may act for a seat, what a handler's
context holds, the laws checked after every action, the rolls' records and privacy, the free roll, and the
words of each refusal."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.system import ActionSpec, Field, GameSystem, in_phase, plain_copy, run_action

from tests.inn import Inn

INN = Inn()


def fresh(**changes):
    state = INN.initial_state(INN.validate_options({}))
    state.update(changes)
    return state


def refused(message: str, kind: type[Exception] = RuleError):
    return pytest.raises(kind, match=f"^{re.escape(message)}$")


# --- buttons: the one answering the prompt comes first -------------------------------------------------


def order(state):
    return [(b.button, b.hold, b.label) for b in INN.buttons(state)]


def test_the_button_answering_the_prompt_comes_first_and_the_rest_keep_their_order():
    assert order(fresh(waiting="close")) == [
        ("C", False, "Close"),
        ("A", False, "Order (Open)"),
        ("B", False, "Open"),
        ("C", True, "Broken"),
        ("D", False, "Undo"),
        ("D", True, "Redo"),
    ]
    assert [b for b, *_ in order(fresh(waiting="open"))] == ["B", "A", "C", "C", "D", "D"]


def test_a_word_binding_answers_a_prompt_of_its_own_name():
    assert order(fresh(waiting="redo"))[0] == ("D", True, "Redo")


def test_without_a_prompt_or_its_action_the_button_map_keeps_its_order_and_says_its_labels():
    bindings = [("A", False, "Order (Open)"), ("B", False, "Open"), ("C", False, "Close"), ("C", True, "Broken")]
    assert order(fresh(waiting=None))[:4] == bindings
    assert order(fresh(waiting="nobody binds this"))[:4] == bindings  # a broken binding never comes first
    assert order(fresh(phase="Late", waiting=None))[0] == ("A", False, "Order (Late)")


def test_a_button_is_found_with_its_label_for_now_or_as_bound():
    state = fresh(phase="Late")
    assert INN.binding("A", False, state).label == "Order (Late)"
    assert INN.binding("A", False).label == "Order"
    assert INN.binding("C", True, state).label == "Broken"
    assert INN.binding("B", True, state) is None and INN.binding("E", False) is None


# --- availability -------------------------------------------------------------------------------------


def test_in_phase_is_none_in_its_phases_and_names_them_and_now_otherwise():
    assert run_action(INN, fresh(phase="Late"), {"type": "close"}).state["phase"] == "Closed"
    with refused("Close the inn: only in Open or Late; now: Closed"):
        run_action(INN, fresh(phase="Closed"), {"type": "close"})
    with refused("Open the inn: only in Closed hours (Open)"):
        run_action(INN, fresh(), {"type": "open"})
    described = {a["type"]: a for a in (s.describe(fresh(phase="Closed")) for s in INN.all_actions().values())}
    assert described["open"]["available"] is True and "reason" not in described["open"]
    assert described["close"]["available"] is False
    assert described["close"]["reason"] == "only in Open or Late; now: Closed"


def test_in_phase_reads_the_phase_unless_told_another_key():
    available = in_phase("Day")
    assert available({"phase": "Day", "time": "Night"}, None) is None
    assert available({"phase": "Dusk", "time": "Day"}, "Ann") == "only in Day; now: Dusk"


def test_in_phase_reads_the_key_it_is_given():
    available = in_phase("Night", "Dawn", key="time")
    assert available({"time": "Dawn", "phase": "Day"}, None) is None
    assert available({"time": "Day", "phase": "Night"}, None) == "only in Night or Dawn; now: Day"


def only_the_host(state, seat):
    """An availability of two arguments that reads the seat asking."""
    return None if seat in (None, "Ann") else f"only Ann pours, not {seat}"


def who_pours(state, seat, action):
    """An availability that takes the action too: None while only its type is asked about (the phone's
    list), then the action as checked, its seat filled in."""
    if state["phase"] != "Open":
        return "only while the inn is open"
    if action is None:
        return None
    if seat not in (None, action["seat"]):
        return f"{seat} cannot pour for {action['seat']}"
    return None if action["seat"] == "Ann" else f"{action['seat'] or 'the table'} may not pour"


def pour_at(inn, available):
    def pour(state, action, ctx):
        return state, {"summary": f"{action['seat']} poured"}

    spec = ActionSpec(
        "pour", "Pour", "Ann pours.", pour, (Field("seat", "seat", required=False, default=""),), seat_field="seat"
    )
    inn.actions = {**inn.actions, "pour": dataclasses.replace(spec, available=available)}
    return inn


def test_availability_is_asked_for_the_seat_that_acts():
    inn = pour_at(Inn(), only_the_host)
    assert run_action(inn, fresh(), {"type": "pour"}, seat="Ann").result["summary"] == "Ann poured"
    assert run_action(inn, fresh(), {"type": "pour"}).result["summary"] == " poured"
    with refused("Pour: only Ann pours, not Bob"):
        run_action(inn, fresh(), {"type": "pour"}, seat="Bob")
    described = inn.actions["pour"].describe(fresh(), ["Ann", "Bob"], "Bob")
    assert described["available"] is False and described["reason"] == "only Ann pours, not Bob"
    assert inn.actions["pour"].describe(fresh(), ["Ann", "Bob"], "Ann")["available"] is True


def test_an_availability_taking_the_action_sees_it_checked_with_its_seat_filled_in():
    inn = pour_at(Inn(), who_pours)
    assert run_action(inn, fresh(), {"type": "pour"}, seat="Ann").result["summary"] == "Ann poured"
    assert run_action(inn, fresh(), {"type": "pour", "seat": "Ann"}).result["summary"] == "Ann poured"
    with refused("Pour: Bob may not pour"):
        run_action(inn, fresh(), {"type": "pour"}, seat="Bob")
    with refused("Pour: Bob cannot pour for Ann"):  # the seat asking, beside the action
        run_action(inn, fresh(), {"type": "pour", "seat": "Ann"}, seat="Bob")
    with refused("Pour: the table may not pour"):
        run_action(inn, fresh(), {"type": "pour"})
    with refused("Pour: only while the inn is open"):  # asked first, before the fields
        run_action(inn, fresh(phase="Closed"), {"type": "pour", "seat": "Zed"})
    listed = inn.actions["pour"].describe(fresh(), ["Ann", "Bob"], "Bob")  # the type alone: no action yet
    assert listed["available"] is True
    assert inn.actions["pour"].describe(fresh(phase="Closed"))["reason"] == "only while the inn is open"


def test_availability_is_checked_before_the_fields():
    # the fields would say "'seat' ... not a seat"; the phase says more
    with refused("Order a drink: only in Open; now: Closed"):
        run_action(INN, fresh(phase="Closed"), {"type": "order", "seat": "Zed"})


# --- who acts, and what the handler is told ------------------------------------------------------------


def test_a_seated_phone_that_leaves_its_seat_out_acts_as_its_seat_with_the_options():
    step = run_action(INN, fresh(), {"type": "order"}, seat="Bob", options={"tables": 4})
    assert step.action == {"type": "order", "seat": "Bob"} and step.action_type == "order"
    assert step.result["ctx_seat"] == "Bob" and step.result["ctx_options"] == {"tables": 4}
    step = run_action(INN, fresh(), {"type": "order", "seat": ""}, seat="Ann")
    assert step.state["orders"] == ["Ann"] and step.result["ctx_options"] == {}


def test_a_seated_phone_cannot_act_for_another_seat_and_the_table_acts_for_anyone():
    with refused("Order a drink: Bob cannot act for Ann"):
        run_action(INN, fresh(), {"type": "order", "seat": "Ann"}, seat="Bob")
    step = run_action(INN, fresh(), {"type": "order", "seat": "Ann"})
    assert step.state["orders"] == ["Ann"] and step.result["ctx_seat"] is None
    assert run_action(INN, fresh(), {"type": "order", "seat": "Bob"}, seat="Bob").state["orders"] == ["Bob"]


def test_a_seat_field_without_an_owner_is_filled_in_for_a_seated_phone_too():
    assert run_action(INN, fresh(), {"type": "tip"}, seat="Bob").state["tips"] == ["Bob"]
    assert run_action(INN, fresh(), {"type": "tip", "seat": "Ann"}, seat="Bob").state["tips"] == ["Ann"]
    assert run_action(INN, fresh(), {"type": "tip"}).state["tips"] == [""]


def test_the_handler_is_told_whether_it_is_replaying():
    assert run_action(INN, fresh(), {"type": "order", "seat": "Ann"}).result["ctx_replaying"] is False
    step = run_action(INN, fresh(), {"type": "order", "seat": "Ann"}, in_place=True)
    assert step.result["ctx_replaying"] is True


def test_a_phone_seated_nowhere_the_game_knows_fills_in_no_seat():
    step = run_action(INN, fresh(), {"type": "order"}, seat="Guest")
    assert step.action == {"type": "order", "seat": ""} and step.state["orders"] == [""]


def test_the_handler_changes_a_copy_and_derive_runs_after_it():
    state = fresh()
    step = run_action(INN, state, {"type": "order", "seat": "Ann"})
    assert state["orders"] == [] and "derived_orders" not in state
    assert step.state["derived_orders"] == 1
    new, result = INN.apply(state, {"type": "close"}, None)
    assert state["phase"] == "Open" and new["phase"] == "Closed" and new["derived_orders"] == 0


def test_a_replay_changes_its_own_working_copy_and_adds_no_logged_changes():
    inn, state = Inn(), fresh(turn=4)
    step = run_action(inn, state, {"type": "bones", "seat": "Ann", "n": 2}, faces=[3, 4], in_place=True)
    assert step.state is state and state["pips"] == 7 and "pips_gained" not in step.result
    assert inn.asked == []  # a replay needs no result, so the system is not asked what changed
    step = run_action(INN, fresh(), {"type": "bones", "seat": "Ann", "n": 2}, faces=[3, 4])
    assert step.result["pips_gained"] == 7
    assert "pips_gained" not in run_action(INN, fresh(), {"type": "order", "seat": "Ann"}).result


# --- laws, rolls, privacy ------------------------------------------------------------------------------


def test_an_action_that_breaks_a_law_is_refused_naming_every_broken_law():
    state = fresh(coins={"Ann": 5, "Bob": 5}, purse=0)
    with refused(
        "Spill a coin would break a rule of Inn: coins held and in the purse make 9, not 10; the purse is below 0"
    ):
        run_action(INN, state, {"type": "spill"})
    assert state["purse"] == 0


def test_each_roll_is_recorded_with_whose_it_is_its_marks_and_what_it_belongs_to():
    step = run_action(INN, fresh(turn=7), {"type": "bones", "seat": "Bob", "n": 3}, faces=[6, 1, 2])
    (record,) = step.rolls
    assert record["label"] == "Bones" and record["rolls"] == [6, 1, 2] and record["by"] == "Bob"
    assert record["marks"] == ["kept"] * 3 and record["verdict"] == "9 pips"
    assert record["belongs_to"] == ["turn", 7]  # as it reads back from the log
    assert step.private is None


def test_a_private_roll_says_whose_it_is_and_what_the_others_read():
    step = run_action(INN, fresh(), {"type": "bones", "seat": "Ann", "n": 1, "hide": True}, faces=[5])
    assert step.private == {"seat": "Ann", "summary": "Ann rolled the bones"}


class Sixes:
    """An RNG that rolls the highest face every time: what run_action's ``rng`` is handed to."""

    def randint(self, low: int, high: int) -> int:
        return high


def test_tableside_rolls_with_the_rng_it_is_handed():
    step = run_action(INN, fresh(), {"type": "bones", "seat": "Ann", "n": 5}, rng=Sixes())
    assert step.rolls[0]["rolls"] == [6] * 5 and step.state["pips"] == 30


def test_an_action_without_rolls_records_none():
    assert run_action(INN, fresh(), {"type": "order", "seat": "Ann"}).rolls == []


def test_typed_faces_for_an_action_that_rolls_nothing_are_refused():
    with refused("Order a drink rolls no dice, so 'faces' does not apply", BadRequest):
        run_action(INN, fresh(), {"type": "order", "seat": "Ann"}, faces=[3])


def test_the_free_roll_is_the_phones_seat_or_the_tables_and_leaves_the_state():
    state = fresh()
    step = run_action(INN, state, {"type": "roll", "expr": "2d6"}, faces=[2, 5], seat="Ann")
    assert step.result["summary"] == "2d6: [2, 5]" and step.result["total"] == 7
    assert step.state == {**state, "derived_orders": 0}  # derive only
    (record,) = step.rolls
    assert record["label"] == "Free roll" and record["by"] == "Ann"
    assert run_action(INN, state, {"type": "roll", "expr": "1d6"}, faces=[4]).rolls[0]["by"] == ""


# --- what is refused before anything runs --------------------------------------------------------------


def test_an_action_that_is_no_object_or_has_no_type_is_a_bad_request():
    with refused("an action must be a JSON object", BadRequest):
        run_action(INN, fresh(), ["order"])
    with refused("an action must be a JSON object", BadRequest):
        INN.validate_action("order")
    for raw in ({}, {"type": ""}, {"type": 3}):
        with refused("action needs a 'type'", BadRequest):
            run_action(INN, fresh(), raw)


def test_an_unknown_action_names_the_systems_own_actions():
    with refused("unknown action 'dance' for Inn; known: bones, close, open, order, spill, tip"):
        INN.spec("dance")
    with refused(f"unknown action '{'x' * 40}' for Inn; known: bones, close, open, order, spill, tip"):
        INN.spec("x" * 41)


def test_an_action_is_checked_field_by_field_and_faces_are_the_cores():
    assert INN.validate_action({"type": "bones", "seat": "Ann", "n": 2, "faces": [1, 2]}, fresh()) == {
        "type": "bones",
        "seat": "Ann",
        "n": 2,
        "hide": False,
    }
    with refused("Roll the bones: N must be at most 5, got 6"):
        INN.validate_action({"type": "bones", "seat": "Ann", "n": 6}, fresh())
    assert INN.validate_action({"type": "close"}) == {"type": "close"}  # no state: the fields alone
    with refused("Correct a number: New value must be a whole number, got 'x'", BadRequest):
        INN.validate_action({"type": "correct", "key": "pips", "value": "x"}, fresh())


# --- setup and what a system says about itself ---------------------------------------------------------


def test_options_are_an_object_with_defaults_filled_in():
    assert INN.validate_options(None) == {"tables": 2, "purse": 5} == INN.validate_options({})
    assert INN.validate_options({"tables": 5}) == {"tables": 5, "purse": 5}
    with refused("options: unknown field chairs", BadRequest):
        INN.validate_options({"chairs": 1})
    with refused("options must be an object", BadRequest):
        INN.validate_options(["tables"])


def test_a_system_describes_itself_with_the_cores_two_actions():
    out = INN.describe()
    assert {k: out[k] for k in ("id", "name", "description", "rules_version")} == {
        "id": "inn",
        "name": "Inn",
        "description": "A test system.",
        "rules_version": 3,
    }
    assert [o["name"] for o in out["options"]] == ["tables", "purse"]
    assert [a["type"] for a in out["actions"]] == [
        "order",
        "close",
        "open",
        "bones",
        "spill",
        "tip",
        "correct",
        "roll",
        "clock",
    ]
    assert out["buttons"][0] == {"button": "A", "hold": False, "label": "Order"} and len(out["buttons"]) == 6


def test_the_defaults_of_a_system_that_says_nothing():
    class Bare(GameSystem):
        id = "bare"
        name = "Bare"

    bare, state = Bare(), {"phase": "x"}
    assert bare.seats(state) == [] and bare.pending(state) == [] and bare.laws(state) == []
    assert bare.redact(state, "Ann") is state and bare.derive(state) is state
    assert bare.private_owner(state, {"type": "x"}, "Ann") is None and bare.legacy_rules(1) is None
    assert bare.logged_changes(state, state) == {} and bare.roll_belongs_to(state) is None
    assert bare.chart_title() == "Tracked numbers" and bare.chart_series(state) == {}
    assert bare.buttons(state) == () and bare.button_labels(state) == {}
    with refused("bare: no setup.initial_state(options)", NotImplementedError):
        bare.initial_state({})
    with refused("bare: no screen.screen(state, roll)", NotImplementedError):
        bare.screen(state)
    assert bare.tracked(state) == [] and bare.seat_colours(state) == {} and bare.chart_colours(state) == {}
    assert bare.validate_options({}) == {} and bare.correct({"n": 1}, "n", 2) == {"n": 2}
    with refused("Correct a number: nothing to correct yet"):
        run_action(bare, state, {"type": "correct", "key": "x", "value": 1})


def test_the_chart_draws_the_tracked_numbers_of_the_state_it_is_given():
    assert INN.chart_series(fresh(pips=4)) == {
        "Ann's coins": 3.0,
        "Bob's coins": 2.0,
        "Purse": 5.0,
        "Pips": 4.0,
        "Second rack": 1.0,
    }


def test_the_chart_draws_the_first_eight_tracked_numbers_that_are_numbers():
    from tableside.core.system import Tracked

    class Many(GameSystem):
        def tracked(self, state):
            return [Tracked(f"n{i}", f"N{i}", i) for i in range(10)] + [Tracked("f", "Flag", True)]

    assert Many().chart_series({}) == {f"N{i}": float(i) for i in range(8)}

    class Flags(GameSystem):
        def tracked(self, state):
            return [Tracked("f", "Flag", True), Tracked("h", "Half", 2.5), Tracked("t", "Text", "3")]

    assert Flags().chart_series({}) == {"Half": 2.5}


# --- the copy every action works on --------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    n: int


@dataclass
class Bag:
    items: list


def test_a_plain_copy_shares_nothing_with_its_original():
    twin = [1, 2]
    state = {"a": twin, "b": twin, "c": {"d": [3, (4, 5)]}, "e": None, "f": 1.5, "g": True}
    copied = plain_copy(state)
    assert copied == state and copied["a"] is not twin and copied["b"] is not copied["a"]
    assert copied["c"]["d"] is not state["c"]["d"]


def test_a_value_marshal_cannot_write_is_copied_deeply_and_shares_nothing_either():
    twin, bag = [1, 2], Bag([3])
    copied = plain_copy({"a": twin, "b": twin, "bag": bag, "n": 1})
    assert copied["a"] == copied["b"] == twin and copied["a"] is not copied["b"]
    assert copied["bag"] == bag and copied["bag"].items is not bag.items


def test_a_value_marshal_cannot_write_is_copied_the_slow_way_alone():
    mark = Mark(1)
    inner = [mark, "x", 2, 2.5, False, None, (mark, 3)]
    state = {"mark": mark, "rows": [inner], "t": (1, [2])}
    copied = plain_copy(state)
    assert copied == state
    assert copied["rows"] is not state["rows"] and copied["rows"][0] is not inner
    assert copied["rows"][0][-1] == (mark, 3) and isinstance(copied["rows"][0][-1], tuple)
    assert copied["t"][1] is not state["t"][1] and isinstance(copied["t"], tuple)
