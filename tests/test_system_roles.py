"""The core reads a system's role modules beside its system.py (docs/adding-a-system.md): setup's
initial_state and check_options, state.derive, laws.broken and tracked, prompts.pending and screen.screen,
each with a default where the folder has none; a new game starts derived and within the laws; the screen's
prompt line, the seats' colours, the chart's colours and the scores come from the core when a system says
nothing of them."""

from __future__ import annotations

import re
import sys
import textwrap

import pytest
from tableside.core.errors import RuleError
from tableside.core.roll import TableRoll
from tableside.core.system import GameSystem, Seat

from tests.inn import Inn

INN = Inn()


def refused(message: str, kind: type[Exception] = RuleError):
    return pytest.raises(kind, match=f"^{re.escape(message)}$")


def test_a_new_game_starts_from_setup_then_derive_within_the_laws():
    state = INN.start(INN.validate_options({"tables": 3}))
    assert state["tables"] == 3 and state["purse"] == 5 and state["derived_orders"] == 0
    assert "derived_orders" not in INN.initial_state(INN.validate_options({}))  # setup's alone


def test_options_that_start_a_game_breaking_its_laws_are_refused_naming_each():
    with refused("these options would start Inn breaking a rule: coins held and in the purse make 12, not 10"):
        INN.start(INN.validate_options({"purse": 7}))
    with refused(
        "these options would start Inn breaking a rule: coins held and in the purse make 14, not 10; "
        "the purse holds at most 8"
    ):
        INN.start(INN.validate_options({"purse": 9}))


def test_setup_checks_the_options_across_fields():
    assert INN.validate_options({"tables": 9, "purse": 9})["tables"] == 9
    with refused("9 tables need a purse of at least 9 coins"):
        INN.validate_options({"tables": 9})


def test_the_laws_prompts_and_derived_values_come_from_their_modules():
    state = INN.start(INN.validate_options({}))
    assert INN.laws(state) == [] and INN.laws({**state, "purse": -1}) == [
        "coins held and in the purse make 4, not 10",
        "the purse is below 0",
    ]
    assert [t.key for t in INN.tracked(state)] == ["coins.Ann", "coins.Bob", "purse", "pips", "cellar.racks.1"]
    assert [p.text for p in INN.pending(state)] == ["waiting for open"] and INN.pending({"waiting": None}) == []
    assert INN.derive({"orders": [1, 2]}) == {"orders": [1, 2], "derived_orders": 2}


def test_the_core_fills_the_prompt_line_a_screen_leaves_empty_with_the_first_prompt():
    state = INN.start(INN.validate_options({}))
    assert INN.screen(state).prompt == "waiting for open"
    assert INN.screen({**state, "sign": "Closed for a wedding"}).prompt == "Closed for a wedding"
    assert INN.screen({**state, "waiting": None}).prompt is None
    assert INN.screen(state).title == "Inn" and INN.screen(state).status == "Open"
    assert INN.screen(state, TableRoll(3, ())).title == "Inn, roll 3"  # the roll on the table is handed on


def test_scores_are_the_bars_drawn_in_a_players_colour():
    state = INN.start(INN.validate_options({}))
    assert INN.scores(state) == {"Ann": "3", "Bob": "2"}  # the purse's bar has no colour


def test_seats_take_colours_in_their_order_and_the_chart_series_named_for_them_theirs():
    state = INN.start(INN.validate_options({}))
    assert INN.seat_colours(state) == {"Ann": 0, "Bob": 1}

    class Chart(GameSystem):
        def seats(self, state):
            return [Seat(name) for name in state["seats"]]

        def chart_series(self, state):
            return dict.fromkeys(state["series"], 1.0)

    series = ("Ann", "Bob: Leaders captured", "Annie's score", "Anna", "Purse", "Bob:x", "Bobs")
    state = {"seats": ["Ann", "Bob", "Annie"], "series": series}
    assert Chart().chart_colours(state) == {"Ann": 0, "Bob: Leaders captured": 1, "Annie's score": 2}


def test_a_system_outside_any_package_has_no_role_modules():
    class Alone(GameSystem):
        id = "alone"

    Alone.__module__ = "alone"  # a module of its own at the top level: no folder beside it
    alone = Alone()
    assert alone.role("setup", "initial_state") is None and alone.pending({}) == [] and alone.laws({}) == []


def test_a_role_module_that_fails_to_import_is_said_not_taken_for_missing(tmp_path, monkeypatch):
    folder = tmp_path / "brokeninn"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "system.py").write_text(
        textwrap.dedent(
            """
            from tableside.core.system import GameSystem


            class Broken(GameSystem):
                id = "broken"
                name = "Broken"
            """
        )
    )
    (folder / "prompts.py").write_text("import no_such_module_anywhere\n")
    (folder / "laws.py").write_text(
        "def broken(state):\n    return ['always']\n\n\ndef correct(state, key, value):\n    return {key: value * 10}\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        from brokeninn.system import Broken

        broken = Broken()
        with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
            broken.pending({})
        assert broken.laws({}) == ["always"] and broken.laws({}) == ["always"]  # found once, kept
        assert broken.tracked({}) == []  # laws has no tracked: the default
        assert broken.correct({"n": 1}, "n", 2) == {"n": 20}  # a laws.correct that takes no balance
        assert broken.role("setup", "initial_state") is None  # no setup module at all
        with refused("broken: no setup.initial_state(options)", NotImplementedError):
            broken.start({})
    finally:
        for name in [n for n in sys.modules if n == "brokeninn" or n.startswith("brokeninn.")]:
            del sys.modules[name]
