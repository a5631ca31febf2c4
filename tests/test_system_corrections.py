"""The core's ``correct`` action, read from outside (tests/system_inn.py): a tracked number set within its
range and logged from/to/why, and a conserved number whose difference comes from (or goes to) another pile of
its group in the same correction; every refusal in its words, and the laws checked after it."""

from __future__ import annotations

import re

import pytest
from tableside.core.errors import RuleError
from tableside.core.system import GameSystem, Tracked, run_action

from tests.inn import Inn

INN = Inn()


def fresh(**changes):
    state = INN.initial_state(INN.validate_options({}))
    state.update(changes)
    return state


def correct(state, key, value, reason="", balance=None):
    raw = {"type": "correct", "key": key, "value": value, "reason": reason}
    if balance is not None:
        raw["balance"] = balance
    return run_action(Inn(), state, raw)  # a system of its own: its correct action is assembled in this test


def refused(message: str):
    return pytest.raises(RuleError, match=f"^{re.escape(message)}$")


def test_a_number_is_set_and_the_correction_says_from_to_and_why():
    step = correct(fresh(), "pips", 12, "miscounted")
    assert step.state["pips"] == 12
    assert step.result["summary"] == "Corrected Pips: 0 -> 12 (miscounted)"
    assert step.result["correction"] == {"key": "pips", "label": "Pips", "from": 0, "to": 12, "reason": "miscounted"}
    assert correct(fresh(), "pips", 3).result["summary"] == "Corrected Pips: 0 -> 3"


def test_a_number_deep_in_the_state_is_found_by_its_dotted_path_through_lists():
    step = correct(fresh(), "cellar.racks.1", 3)
    assert step.state["cellar"] == {"racks": [4, 3]}
    assert step.result["summary"] == "Corrected Second rack: 1 -> 3"


def test_without_laws_correct_the_number_is_set_by_its_dotted_path():
    class Cellar(GameSystem):
        name = "Cellar"

        def tracked(self, state):
            return [Tracked("cellar.racks.1", "Second rack", state["cellar"]["racks"][1], 0, 9)]

    state = {"cellar": {"racks": [4, 1], "casks": {"old": 2}}}
    step = run_action(Cellar(), state, {"type": "correct", "key": "cellar.racks.1", "value": 5})
    assert step.state["cellar"] == {"racks": [4, 5], "casks": {"old": 2}}
    assert Cellar().correct(state, "cellar.casks.old", 7)["cellar"]["casks"] == {"old": 7}
    assert Cellar().correct({"n": 1}, "n", 3) == {"n": 3}
    rooms = {"rooms": [{"beds": 2}, {"beds": 1}]}
    assert Cellar().correct(rooms, "rooms.1.beds", 4) == {"rooms": [{"beds": 2}, {"beds": 4}]}


def test_a_pile_of_another_group_is_named_in_at_most_40_characters():
    far = "cellar.the_casks_of_the_old_vintage_behind_the_wall"

    class Casks(GameSystem):
        name = "Casks"

        def tracked(self, state):
            return [
                Tracked("n", "Barrels", state["n"], balance="barrels"),
                Tracked(far, "Old casks", state["cellar"][far.split(".")[1]], balance="casks"),
            ]

    state = {"n": 1, "cellar": {far.split(".")[1]: 3}}
    with refused(f"Barrels cannot take its difference from {far[:40]!r}"):
        run_action(Casks(), state, {"type": "correct", "key": "n", "value": 2, "balance": far})


def test_a_correction_stays_within_the_numbers_range_its_ends_included():
    assert correct(fresh(), "pips", 30).state["pips"] == 30
    with refused("Pips must be at most 30, got 31"):
        correct(fresh(), "pips", 31)
    assert correct(fresh(), "pips", -5).state["pips"] == -5  # no minimum given
    assert correct(fresh(), "coins.Ann", 0, balance="purse").state["coins"]["Ann"] == 0
    with refused("Ann's coins must be at least 0, got -1"):
        correct(fresh(), "coins.Ann", -1, balance="purse")
    with refused("Ann's coins must be at most 9, got 10"):
        correct(fresh(), "coins.Ann", 10, balance="purse")


def test_a_correction_to_the_same_value_is_no_correction():
    with refused("Ann's coins is already 3"):
        correct(fresh(), "coins.Ann", 3)


def test_a_conserved_number_takes_its_difference_from_the_pile_named():
    step = correct(fresh(), "coins.Ann", 5, "found two", balance="purse")
    assert step.state["coins"]["Ann"] == 5 and step.state["purse"] == 3
    assert step.result["summary"] == "Corrected Ann's coins: 3 -> 5, 2 from the purse (found two)"
    assert step.result["correction"]["balance"] == {"key": "purse", "label": "the purse", "from": 5, "to": 3}


def test_a_conserved_number_gives_its_difference_to_the_pile_named():
    step = correct(fresh(), "coins.Ann", 1, balance="purse")
    assert step.state["purse"] == 7
    assert step.result["summary"] == "Corrected Ann's coins: 3 -> 1, 2 to the purse"
    assert step.result["correction"]["balance"] == {"key": "purse", "label": "the purse", "from": 5, "to": 7}


def test_a_pile_with_no_name_of_its_own_is_named_by_its_label():
    step = correct(fresh(), "coins.Ann", 4, balance="coins.Bob")
    assert step.result["summary"] == "Corrected Ann's coins: 3 -> 4, 1 from Bob's coins"
    assert step.result["correction"]["balance"]["label"] == "Bob's coins"


def test_a_pile_gives_at_most_what_it_holds():
    assert correct(fresh(), "coins.Bob", 5, balance="coins.Ann").state["coins"] == {"Ann": 0, "Bob": 5}
    with refused("Bob's coins: 4 more cannot come from Ann's pocket, which holds 3"):
        correct(fresh(), "coins.Bob", 6, balance="coins.Ann")


def test_the_difference_comes_only_from_another_pile_of_the_same_group():
    with refused("Pips cannot take its difference from 'purse'"):
        correct(fresh(), "pips", 4, balance="purse")
    with refused("Ann's coins cannot take its difference from 'coins.Ann'"):
        correct(fresh(), "coins.Ann", 4, balance="coins.Ann")
    with pytest.raises(RuleError, match="is not one of"):
        correct(fresh(), "coins.Ann", 4, balance="pips")  # no pile: not offered at all


def test_a_conserved_number_moved_alone_breaks_the_law_and_is_refused():
    state = fresh()
    with refused("Correct a number would break a rule of Inn: coins held and in the purse make 12, not 10"):
        correct(state, "coins.Ann", 5)
    assert state["coins"]["Ann"] == 3


def test_the_correct_action_offers_the_numbers_and_the_piles_now():
    described = Inn().correct_spec().describe(fresh())
    fields = {f["name"]: f for f in described["fields"]}
    assert [(c["value"], c["label"]) for c in fields["key"]["choices"]] == [
        ("coins.Ann", "Ann's coins"),
        ("coins.Bob", "Bob's coins"),
        ("purse", "Purse"),
        ("pips", "Pips"),
        ("cellar.racks.1", "Second rack"),
    ]
    piles = [(c["value"], c["label"]) for c in fields["balance"]["choices"]]
    assert piles == [("coins.Ann", "Ann's pocket"), ("coins.Bob", "Bob's coins"), ("purse", "the purse")]
    assert described["available"] is True and described["group"] == "Corrections"
    inn = Inn()
    assert inn.correct_spec() is inn.correct_spec()  # assembled once per system


def test_a_tracked_number_describes_its_group_and_pile_only_when_it_has_one():
    assert Tracked("pips", "Pips", 4, None, 30).describe() == {
        "key": "pips",
        "label": "Pips",
        "value": 4,
        "minimum": None,
        "maximum": 30,
    }
    assert Tracked("coins.Bob", "Bob's coins", 2, 0, 9, balance="coins").describe()["pile"] == "Bob's coins"
    pocket = Tracked("coins.Ann", "Ann's coins", 3, 0, 9, balance="coins", pile="Ann's pocket").describe()
    assert (pocket["balance"], pocket["pile"]) == ("coins", "Ann's pocket")
