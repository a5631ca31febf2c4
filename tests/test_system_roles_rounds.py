"""The core's hooks for a round's end and whose turn follows, read from a system's role modules
(docs/adding-a-system.md): ``state.faction``, ``state.round_name``, ``state.round_numbers``,
``state.round_events``, ``state.round_outcome`` and ``prompts.up_next``, each handed what it needs and with its
default where the folder says nothing; the screen marks whose turn follows by the seat's board name."""

from __future__ import annotations

import sys
import textwrap

import pytest
from tableside.core.screen import Outcome
from tableside.core.system import GameSystem

SYSTEM_PY = """
from tableside.core.system import GameSystem, Seat


class Rounds(GameSystem):
    id = "rounds"
    name = "Rounds"

    def seats(self, state):
        return [Seat("Ann", label="Ann (Venus)"), Seat("Bob", label="Bob (Mars)")]
"""
STATE_PY = """
def faction(state, seat):
    return state["worlds"].get(seat)


def round_name(state):
    return f"Round {state['round']}" if state["round"] else None


def round_numbers(state):
    return {name: {"VP": vp} for name, vp in state["vp"].items()}


def round_events(state):
    return {f"Round {state['round']}": (len(state["tricks"]), dict(enumerate(state["tricks"], 1)))}


def round_outcome(events, names):
    return {name: [f"won {events.count(name)}"] for name in names}, f"{len(events)} tricks"
"""
PROMPTS_PY = """
def up_next(state):
    return state.get("next")
"""
SCREEN_PY = """
from tableside.core.screen import Bar, Bars, Screen


def screen(state, roll=None):
    bars = Bars("VP", (Bar("Ann (Venus)", 1, 9, note="turn"), Bar("Bob (Mars)", 2, 9)))
    return Screen("Rounds", status="Round 1", elements=(bars,), prompt="go", result=state.get("result"))
"""

STATE = {"worlds": {"Ann": "Venus"}, "round": 2, "vp": {"Ann": 4, "Bob": 1}, "tricks": ["Ann", "Bob", "Ann"]}


@pytest.fixture
def rounds(tmp_path, monkeypatch):
    folder = tmp_path / "roundsgame"
    folder.mkdir()
    for name, text in {"__init__": "", "system": SYSTEM_PY, "state": STATE_PY, "prompts": PROMPTS_PY}.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))
    (folder / "screen.py").write_text(textwrap.dedent(SCREEN_PY))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        from roundsgame.system import Rounds

        yield Rounds()
    finally:
        for name in [n for n in sys.modules if n == "roundsgame" or n.startswith("roundsgame.")]:
            del sys.modules[name]


def test_the_round_hooks_come_from_the_state_module(rounds):
    assert rounds.faction(STATE, "Ann") == "Venus" and rounds.faction(STATE, "Bob") is None
    assert rounds.round_name(STATE) == "Round 2" and rounds.round_name({**STATE, "round": 0}) is None
    assert rounds.round_numbers(STATE) == {"Ann": {"VP": 4}, "Bob": {"VP": 1}}
    assert rounds.round_events(STATE) == {"Round 2": (3, {1: "Ann", 2: "Bob", 3: "Ann"})}
    assert rounds.round_outcome(["Ann", "Bob", "Ann"], ["Ann", "Bob"]) == (
        {"Ann": ["won 2"], "Bob": ["won 1"]},
        "3 tricks",
    )


def test_whose_turn_follows_comes_from_the_prompts_module(rounds):
    assert rounds.up_next({**STATE, "next": "Bob"}) == "Bob" and rounds.up_next(STATE) is None


def test_the_screen_marks_whose_turn_follows_by_the_name_the_board_uses(rounds):
    made = rounds.screen({**STATE, "next": "Bob"})
    assert made.status == "Round 1 · Bob (Mars) next"
    (bars,) = made.elements
    assert [b.note for b in bars.bars] == ["turn", "next"]
    assert rounds.screen(STATE).status == "Round 1"  # nobody named next: nothing marked
    over = rounds.screen({**STATE, "next": "Bob", "result": Outcome("Winner", ("Ann",), (("Ann", "4"), ("Bob", "1")))})
    assert over.status == "Round 1" and [b.note for b in over.elements[0].bars] == ["turn", ""]


def test_a_seat_the_board_does_not_list_is_named_as_it_is(rounds):
    assert rounds.screen({**STATE, "next": "Cy"}).status == "Round 1 · Cy next"


def test_a_system_that_says_nothing_of_rounds_has_none():
    class Quiet(GameSystem):
        id = "quiet"

    Quiet.__module__ = "quiet"
    quiet = Quiet()
    assert quiet.faction(STATE, "Ann") is None and quiet.up_next(STATE) is None
    assert quiet.round_name(STATE) is None and quiet.round_numbers(STATE) == {} and quiet.round_events(STATE) == {}
    assert quiet.round_outcome(["Ann"], ["Ann"]) == ({}, None)
