"""Event deck draws, the VENOM Strikes! chance and the Event Track."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import SYSTEM, deck

from tests.test_venom_helpers import act, started, to_phase


def test_venom_strikes_chance_is_exact():
    assert deck.venom_strikes_chance(
        {"all_is_quiet": 9, "freedom_squadron_or_venom": 18, "venom_strikes": 10}
    ) == Fraction(10, 37)
    assert deck.venom_strikes_chance({"all_is_quiet": 0, "venom_strikes": 0}) is None


def test_chance_in_state_follows_each_draw():
    state = started(["A", "B", "C", "D"])  # 4 players: no All Is Quiet, 28 cards
    assert state["odds"]["venom_strikes_next"] == "10/28"  # the rulebook's counts, not 5/14
    assert state["odds"]["venom_strikes_next_percent"] == "35.7%"
    state, result = act(state, {"type": "draw_event", "kind": "venom"})
    assert state["event_deck"]["freedom_squadron_or_venom"] == 17
    assert result["venom_strikes_next"] == "10/27"
    assert result["cards_left"] == 27


def test_venom_strikes_moves_the_event_track_up_by_one():
    state = started()
    state, result = act(state, {"type": "draw_event", "kind": "venom_strikes", "name": "Red Rockets of Doom!"})
    assert state["event_track"] == 1 and result["event_track"] == 1
    assert state["event_deck"]["venom_strikes"] == 9
    assert state["active_events"] == [{"kind": "venom_strikes", "name": "Red Rockets of Doom!"}]
    assert "Red Rockets of Doom!" in result["summary"]


def test_other_kinds_leave_the_track_alone():
    state = started(freedom_squadron_events=9, venom_events=9)
    for kind in ("all_is_quiet", "freedom_squadron", "venom"):
        state, _ = act(state, {"type": "draw_event", "kind": kind})
    assert state["event_track"] == 0
    assert state["event_deck"] == {"all_is_quiet": 8, "freedom_squadron": 8, "venom": 8, "venom_strikes": 10}


def _strike(state):
    return act(state, {"type": "draw_event", "kind": "venom_strikes"})


def test_event_track_five_says_the_missions_final_effect_applies():
    state = started()
    for _ in range(4):
        state, result = _strike(state)
    assert state["final_effect"] is False and "final effect" not in result["summary"]
    state, result = _strike(state)
    assert state["event_track"] == 5 and state["final_effect"] is True
    assert "the Mission's final effect now applies" in result["summary"]
    screen = SYSTEM.screen(state)
    assert screen.alert == "Event Track 5: Mission final effect applies"
    track = next(e for e in screen.elements if e.label == "Event Track")
    assert (track.value, track.maximum, track.style, track.tone) == (5, 5, "boxes", "alert")
    state, result = _strike(state)
    assert state["event_track"] == 5 and "already at 5" in result["summary"]


def test_a_new_event_phase_discards_the_previous_events():
    state = started(["A", "B"])
    state, _ = act(state, {"type": "draw_event", "kind": "venom", "name": "Pull Down the Heavens"})
    state = to_phase(state, "End of Turn")
    state, _ = act(state, {"type": "next_phase"})
    state = to_phase(state, "End of Turn")
    state, _ = act(state, {"type": "next_phase"})
    assert state["phase"] == "Event" and len(state["active_events"]) == 1
    state, result = act(state, {"type": "draw_event", "kind": "all_is_quiet", "name": "Calm"})
    assert state["active_events"] == [{"kind": "all_is_quiet", "name": "Calm"}]
    assert state["event_discard"][0]["name"] == "Pull Down the Heavens"
    assert "previous Events discarded" in result["summary"]
    # A second card in the same Event Phase joins the first: all take effect.
    state, _ = act(state, {"type": "draw_event", "kind": "freedom_squadron"})
    assert len(state["active_events"]) == 2


def test_a_card_effect_may_draw_events_later_and_discard_them():
    state = to_phase(started(), "Tactical")
    state, _ = act(
        state, {"type": "draw_event", "kind": "freedom_squadron", "name": "Twenty Questions", "discard": True}
    )
    state, _ = act(state, {"type": "draw_event", "kind": "venom", "name": "Pull Down the Heavens"})
    assert [e["name"] for e in state["active_events"]] == ["", "Pull Down the Heavens"]
    assert state["event_discard"] == [{"kind": "freedom_squadron", "name": "Twenty Questions"}]


def test_an_empty_event_deck_is_a_rule_error_and_then_the_event_phase_may_pass():
    state = started(["A", "B", "C", "D", "E"], venom_strikes_removed=4)  # 18 + 6 = 24 cards
    for _ in range(24 - 6):
        state, _ = act(state, {"type": "draw_event", "kind": "venom"})
    for _ in range(6):
        state, _ = _strike(state)
    assert sum(state["event_deck"].values()) == 0
    assert state["odds"]["venom_strikes_next"] is None
    with pytest.raises(RuleError, match="the Event deck is empty; the rulebook has no Event deck reshuffle"):
        act(state, {"type": "draw_event", "kind": "venom"})


def test_event_phase_passes_without_a_draw_only_when_the_deck_is_empty():
    state = started(["A", "B", "C", "D"])
    with pytest.raises(RuleError, match="draw the Event card first"):
        act(state, {"type": "next_phase"})
    for bucket, left in state["event_deck"].items():  # the table found the deck empty: a correction
        if left:
            state, _ = act(state, {"type": "correct", "key": f"event_deck.{bucket}", "value": 0})
    assert len(state["event_discard"]) == 28
    state, result = act(state, {"type": "next_phase"})
    assert state["phase"] == "Recruitment" and "Event deck is empty" in result["summary"]


def test_drawing_a_kind_with_none_left_is_refused():
    state = started(["A", "B", "C", "D"])
    with pytest.raises(RuleError, match="no All Is Quiet Event cards are left"):
        act(state, {"type": "draw_event", "kind": "all_is_quiet"})


def test_unknown_event_kind_is_refused():
    with pytest.raises(RuleError, match="'blue' is not one of All Is Quiet \\(9 left\\), Freedom Squadron"):
        SYSTEM.validate_action({"type": "draw_event", "kind": "blue"}, started())
