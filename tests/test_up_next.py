"""Whose turn is next (#34): each system names the seat whose turn follows where its rules give an order, and
the screen marks it where it marks whose turn it is (dashes beside that row or bar on the e-paper; the header
names it where it fits). At the end of a game nobody is next."""

from __future__ import annotations

from tableside.core.screen import Bars, Grid
from tableside.core.systems.v2140 import SYSTEM as V2140
from tableside.core.systems.vegas import SYSTEM as VEGAS

from tests.golden_states import play
from tests.test_vegas_cards import act, round_one


def _marks(screen) -> tuple[list[str], list[str]]:
    """(whose turn, whose next) as the screen marks them, in its bars and grids."""
    turn, after = [], []
    for e in screen.elements:
        if isinstance(e, Bars):
            turn += [b.label for b in e.bars if b.note == "turn"]
            after += [b.label for b in e.bars if b.note == "next"]
        if isinstance(e, Grid):
            turn += [r.label for r in e.rows if r.highlight]
            after += [r.label for r in e.rows if r.next]
    return turn, after


def test_venus_needs_men_passes_to_the_left():
    screen, state = play("vnm")
    assert state["turn_order"][state["turn"]] == "Venus"
    assert screen.status.endswith(" · Bob (Mars) next")  # as every VNM line names a player
    bars = next(e for e in screen.elements if isinstance(e, Bars))
    assert [(b.label, b.note) for b in bars.bars if b.note] == [("Ann (Venus)", "turn"), ("Bob (Mars)", "next")]


def test_venom_s_next_turn_is_the_next_player_s():
    screen, state = play("venom")
    assert state["players"][state["active_player"]]["name"] == "Ann"
    grid = next(e for e in screen.elements if isinstance(e, Grid) and e.title == "Players")
    assert [r.label for r in grid.rows if r.next] == ["Bob"]
    assert screen.status == "R1 Ann: Combat · Bob next"


def test_venus_2140_goes_by_the_conflict_s_order_past_anyone_stopped():
    screen, state = play("v2140")
    assert state["order"][state["turn"]] == "Shred"
    assert V2140.up_next(state) == "Sven" and _marks(screen)[1] == ["Sven"]
    stopped = {**state, "effects": [*state.get("effects", []), _stopping(state, "Sven")]}
    assert V2140.up_next(stopped) == "GM"


def _stopping(state, name: str) -> dict:
    """A standing Knock Out on ``name``: "You aren't wounded, but you stop doing anything." (its shape as
    core.systems.v2140.effects keeps a standing effect)."""
    from tableside.core.systems.v2140 import effects

    made = {"id": 99, "character": name, "reads": effects.STOPPED, "effect": "Knock Out"}
    assert effects.stopped({**state, "effects": [made]}, name) is not None
    return made


def test_vegas_names_who_plays_after_the_seat_waited_for_within_a_trick():
    state = round_one()  # Ann leads: Ann, then Bob, then Cy
    assert VEGAS.up_next(state) == "Bob"
    state = act(state, {"type": "play_card", "player": "Ann", "suit": "Team", "number": 1}).state
    assert VEGAS.up_next(state) == "Cy"
    state = act(state, {"type": "play_card", "player": "Bob", "suit": "Team", "number": 2}).state
    assert VEGAS.up_next(state) is None  # after the last card the trick's winner leads: not known yet


def test_nobody_is_next_once_the_game_is_over():
    for system in ("vnm", "venom", "vegas"):
        screen, _state = play(system, end=True)
        assert screen.result is not None and _marks(screen)[1] == [] and "next" not in screen.status.split(" · ")[-1]
