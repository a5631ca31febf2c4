"""The game-system interface v2 through the session core: recorded rolls, seats, choices, prompts,
corrections, laws and rules versions (toy system)."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.errors import BadRequest, Conflict, RuleError
from tableside.core.recorder import Dice, NeedsDice
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import SEAT_GONE_AFTER, seats_for

from tests import toysystem
from tests.conftest import NoRNG, check_replays
from tests.toysystem import SYSTEM


@pytest.fixture
def table(tmp_path):
    t = Table(Store(tmp_path / "t.db"), rng=random.Random(7), systems=toysystem.get)
    t.create_session("toy", {"limit": 1000})
    return t


# -- recorded randomness ---------------------------------------------------------


def test_a_roll_whose_count_depends_on_an_earlier_roll_is_recorded_under_its_labels(table):
    out = table.act({"type": "chain"})
    (entry,) = table.log()
    first, then = entry["rolls"]
    assert first["label"] == "How many" and first["expr"] == "1d6"
    assert then["label"] == "Then" and len(then["rolls"]) == first["rolls"][0]
    assert out["state"]["score"] == first["rolls"][0] + sum(then["rolls"])
    assert out["rolls"] == entry["rolls"]


def test_redo_and_replay_feed_the_recording_back_and_never_call_the_rng(table):
    table.act({"type": "chain"})
    before = table.view()["state"]
    table.undo()
    table.rng = NoRNG()
    assert table.redo()["state"] == before
    assert SYSTEM.redact(table.replay(table.view()["id"]), None) == before


def test_typed_faces_are_consumed_in_order_across_rolls(table):
    out = table.act({"type": "chain", "faces": [3, 6, 5, 4]})
    assert out["state"]["rolls"] == [[3, 6, 5, 4]]
    assert [r["rolls"] for r in table.log()[-1]["rolls"]] == [[3], [6, 5, 4]]


def test_running_out_of_typed_faces_names_the_roll_still_to_make(table):
    with pytest.raises(NeedsDice) as caught:
        table.act({"type": "chain", "faces": [4, 6]})
    assert caught.value.needs_dice == [{"label": "Then", "expr": "4d6"}]
    assert "Then needs 4d6: only 1 typed-in face left" in caught.value.message
    assert table.view()["version"] == 0


def test_faces_typed_as_a_count_per_face_read_high_to_low(table):
    out = table.act({"type": "roll_d6", "n": 7, "faces": {"6": 4, "5": 3}})
    assert out["state"]["rolls"] == [[6, 6, 6, 6, 5, 5, 5]]


def test_leftover_or_unwanted_faces_are_refused(table):
    with pytest.raises(RuleError, match="left over"):
        table.act({"type": "roll_d6", "n": 2, "faces": [1, 2, 3]})
    with pytest.raises(BadRequest, match="rolls no dice"):
        table.act({"type": "add", "points": 1, "faces": [1]})
    assert table.view()["version"] == 0


def test_a_replay_that_no_longer_fits_the_rules_says_so():
    recording = [{"label": "Other", "expr": "1d6", "rolls": [3]}]
    with pytest.raises(RuleError, match="the recording has Other"):
        Dice(replay=recording).roll("How many", "1d6")


def test_the_suite_wide_replay_check_catches_a_tampered_log(table):
    table.act({"type": "roll_d6", "n": 2, "faces": [1, 2]})
    table.store.execute(
        "UPDATE log SET rolls = ? WHERE seq = 1", [json.dumps([{"label": "Toy roll", "expr": "2d6", "rolls": [6, 6]}])]
    )
    with pytest.raises(AssertionError, match="does not replay"):
        check_replays(table)
    table.store.execute("DELETE FROM log")  # leave nothing broken for the autouse check


# -- seats and private data --------------------------------------------------------


def test_a_phone_claims_a_seat_and_a_held_seat_is_taken_over_only_deliberately(table):
    ann = seats_for(table).claim_seat("Ann")
    assert seats_for(table).seat_of(ann["token"]) == "Ann"
    with pytest.raises(Conflict, match="held by another phone"):
        seats_for(table).claim_seat("Ann")
    with pytest.raises(Conflict, match="still here"):  # its phone was heard from just now
        seats_for(table).claim_seat("Ann", takeover=True)
    now = table.clock()
    table.clock = lambda: now + SEAT_GONE_AFTER + 1
    again = seats_for(table).claim_seat("Ann", takeover=True)
    assert seats_for(table).seat_of(again["token"]) == "Ann"
    with pytest.raises(Conflict, match="no longer holds a seat"):
        seats_for(table).seat_of(ann["token"])
    with pytest.raises(RuleError, match="no seat 'Zed'"):
        seats_for(table).claim_seat("Zed")
    assert [s["claimed"] for s in table.view()["seats"]] == [True, False]


def test_private_data_is_redacted_for_other_seats_in_view_log_and_result(table):
    out = table.act({"type": "hide", "seat": "Ann", "n": 3, "faces": [6, 5, 1]}, seat="Ann")
    assert out["state"]["hands"]["Ann"] == [6, 5, 1] and out["rolls"]
    assert table.view("Ann")["state"]["hands"] == {"Ann": [6, 5, 1], "Bob": 0}
    assert table.view("Bob")["state"]["hands"] == {"Ann": 3, "Bob": []}
    assert table.view()["state"]["hands"] == {"Ann": 3, "Bob": 0}
    (mine,) = table.log(seat="Ann")
    assert mine["rolls"][0]["rolls"] == [6, 5, 1] and mine["seat"] == "Ann"
    (theirs,) = table.log(seat="Bob")
    assert theirs == {**theirs, "action": None, "rolls": [], "private": True}
    assert theirs["result"] == {"summary": "Ann rolled 3 dice into the hand"}
    assert "6" not in json.dumps(table.log()[0]["result"])


def test_every_entry_records_the_seat_beside_the_source(table):
    table.act({"type": "add", "points": 1}, source="phone", seat="Bob")
    table.undo(source="button")
    entries = table.log()
    assert [(e["source"], e["seat"]) for e in entries] == [("phone", "Bob"), ("button", None)]


# -- choices, availability, prompts -------------------------------------------------


def test_actions_list_fields_with_choices_from_the_state_and_the_pending_prompt(table):
    now = table.actions()
    assert now["version"] == 0
    assert now["pending"] == [{"seat": "Ann", "text": "Ann: roll the dice", "type": "roll_d6"}]
    hide = next(a for a in now["actions"] if a["type"] == "hide")
    seat_field = hide["fields"][0]
    assert seat_field["kind"] == "pick" and seat_field["label"] == "Seat"
    assert [c["value"] for c in seat_field["choices"]] == ["Ann", "Bob"]
    assert hide["available"] is True and hide["label"] == "Roll into the hand"
    correct = next(a for a in now["actions"] if a["type"] == "correct")
    assert [c["label"] for c in correct["fields"][0]["choices"]] == ["Score", "Ann's chips", "Pot"]
    kinds = {f["kind"] for a in now["actions"] for f in a["fields"]}
    assert kinds <= {"count", "pick", "picks", "seat", "text", "texts", "flag", "faces", "rows"}


def test_an_unavailable_action_says_why_and_is_refused(table):
    table.act({"type": "correct", "key": "score", "value": 950})
    pay = next(a for a in table.actions()["actions"] if a["type"] == "pay")
    assert pay == {**pay, "available": False, "reason": "the game is over"}
    with pytest.raises(RuleError, match="the game is over"):
        table.act({"type": "pay", "seat": "Ann", "chips": 1})


def test_availability_is_checked_before_the_fields_and_names_the_action(table):
    table.act({"type": "correct", "key": "score", "value": 950})
    with pytest.raises(RuleError) as caught:
        table.act({"type": "pay", "seat": "Zed", "chips": 1})
    assert caught.value.message == "Pay chips: the game is over"


def test_a_choice_not_in_the_state_is_refused_naming_the_choices(table):
    with pytest.raises(RuleError, match="'Zed' is not one of Ann, Bob"):
        table.act({"type": "hide", "seat": "Zed", "n": 1})


def test_text_numbers_and_lists_have_limits(table):
    with pytest.raises(BadRequest, match="whole number"):
        table.act({"type": "add", "points": "9" * 5000})
    with pytest.raises(BadRequest, match="whole number"):
        table.act({"type": "add", "points": "²"})
    with pytest.raises(BadRequest, match="whole number"):
        table.act({"type": "add", "points": "--1"})
    with pytest.raises(RuleError, match="too long"):
        table.act({"type": "correct", "key": "score", "value": 3, "reason": "x" * 500})
    assert table.view()["version"] == 0


# -- corrections and laws ---------------------------------------------------------------


def test_a_correction_is_logged_with_from_to_and_why(table):
    table.act({"type": "add", "points": 5})
    out = table.act({"type": "correct", "key": "score", "value": 3, "reason": "miscounted"})
    assert out["state"]["score"] == 3
    assert out["result"]["correction"] == {"key": "score", "label": "Score", "from": 5, "to": 3, "reason": "miscounted"}
    assert out["result"]["summary"] == "Corrected Score: 5 -> 3 (miscounted)"
    assert table.undo()["state"]["score"] == 5


def test_a_correction_that_breaks_a_conservation_law_is_refused_naming_it(table):
    with pytest.raises(RuleError, match="chips: 21 on the table, the game has 20"):
        table.act({"type": "correct", "key": "pot", "value": 1})
    with pytest.raises(RuleError, match="at most 1000"):
        table.act({"type": "correct", "key": "score", "value": 1001})
    with pytest.raises(RuleError, match="is not one of"):
        table.act({"type": "correct", "key": "limit", "value": 3})
    assert table.view()["version"] == 0


def test_an_action_that_would_break_a_law_is_refused(table, monkeypatch):
    monkeypatch.setattr(toysystem.Toy, "laws", lambda self, s: ["always broken"])
    with pytest.raises(RuleError, match="Add points would break a rule of Toy: always broken"):
        table.act({"type": "add", "points": 1})


# -- rules versions -------------------------------------------------------------------


def test_a_session_from_another_rules_version_is_viewable_but_not_played(tmp_path, monkeypatch):
    t = Table(Store(tmp_path / "old.db"), systems=toysystem.get)
    t.create_session("toy", {})
    t.act({"type": "add", "points": 2})
    monkeypatch.setattr(toysystem.Toy, "rules_version", 2)
    again = Table(Store(tmp_path / "old.db"), systems=toysystem.get)
    view = again.view()
    assert view["state"]["score"] == 2
    assert "played with Toy rules v1" in view["readonly"]
    with pytest.raises(RuleError, match="rules v1"):
        again.act({"type": "add", "points": 1})
    assert all(not a["available"] for a in again.actions()["actions"])
