"""Victory points: the floor at zero (a capped loss says so), the option to go below, the ledger law."""

from __future__ import annotations

from tableside.core.systems.vegas import vp

from tests.test_vegas_helpers import new_game


def test_a_loss_larger_than_the_vp_held_is_capped_at_zero_and_says_so():
    state = new_game()
    vp.change_vp(state, "Bob", 1, "test")
    entry = vp.change_vp(state, "Bob", -2, "Inspector 7 round bonus")
    assert state["vp"]["Bob"] == 0
    assert entry == {"player": "Bob", "asked": -2, "applied": -1, "capped": True, "reason": "Inspector 7 round bonus"}
    assert vp.describe(entry) == "Bob loses 1 of 2 VP (VP never go below zero)"
    entry = vp.change_vp(state, "Bob", -1, "test")
    assert vp.describe(entry) == "Bob loses 0 of 1 VP (VP never go below zero)"
    assert vp.ledger_problems(state) == []


def test_when_the_players_allow_it_vp_go_below_zero():
    state = new_game(vp_below_zero=True)
    entry = vp.change_vp(state, "Cy", -2, "test")
    assert state["vp"]["Cy"] == -2 and not entry["capped"]
    assert vp.describe(entry) == "Cy -2 VP"
    assert vp.ledger_problems(state) == []


def test_gains_are_never_capped():
    state = new_game()
    assert vp.describe(vp.change_vp(state, "Ann", 3, "test")) == "Ann +3 VP"
    assert state["vp"]["Ann"] == 3


def test_the_ledger_law_catches_vp_that_do_not_add_up():
    state = new_game()
    vp.change_vp(state, "Ann", 2, "test")
    state["vp"]["Ann"] = 5
    assert vp.ledger_problems(state) == ["Ann has 5 VP but the gains and losses add up to 2"]


def test_the_ledger_law_catches_a_loss_that_ignored_the_floor():
    state = new_game()
    state["vp_log"].append({"player": "Bob", "asked": -1, "applied": -1, "capped": False, "reason": "forged"})
    state["vp"]["Bob"] = -1
    assert vp.ledger_problems(state) == [
        "VP ledger entry 1: Bob -1 should apply +0, not -1",
        "Bob has -1 VP: VP never go below zero in this game",
    ]
