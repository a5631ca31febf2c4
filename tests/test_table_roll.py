"""The roll on the table: the log's newest roll, shown while current, private like its entry.

The core keeps it beside the state (never in it): a free roll changes no game state, is logged
with the seat that rolled it, and the view, the screen and the log agree on its faces through
undo, redo and reopening the game.
"""

from __future__ import annotations

import random

import pytest
from tableside.core.screen import DiceGroup
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import seats_for

from tests import toysystem
from tests.httpapi import AUTH, phone


def make_table(path, seed=1):
    return Table(Store(path), rng=random.Random(seed), systems=toysystem.get)


@pytest.fixture
def table(tmp_path):
    t = make_table(tmp_path / "t.db")
    t.create_session("toy", {"limit": 100})
    return t


def shown(table: Table) -> list[int] | None:
    groups = [e for e in table.screen().elements if isinstance(e, DiceGroup)]
    assert len(groups) <= 1
    return [d.face for d in groups[0].dice] if groups else None


def test_a_free_roll_changes_no_state_and_is_logged_with_its_seat(table):
    before = table.view()["state"]
    result = table.roll("3d6", faces=[6, 1, 4], seat="Ann")
    assert result["rolls"] == [6, 1, 4]
    assert table.view()["state"] == before
    entry = table.log()[-1]
    assert (entry["type"], entry["seat"], entry["rolls"][0]["rolls"]) == ("roll", "Ann", [6, 1, 4])
    assert shown(table) == [6, 1, 4]
    assert table.view("Bob")["roll"]["seat"] == "Ann"


def test_the_roll_shown_is_the_newest_applied_roll_through_undo_redo_and_reopening(tmp_path):
    path = tmp_path / "t.db"
    table = make_table(path)
    table.create_session("toy", {"limit": 100})
    table.act({"type": "roll_d6", "n": 2, "faces": [3, 4]})
    table.act({"type": "add", "points": 1})  # rolls nothing: the roll stays
    assert shown(table) == [3, 4]
    table.act({"type": "roll_d6", "n": 1, "faces": [6]})
    assert shown(table) == [6]
    table.undo()
    assert shown(table) == [3, 4] and table.view()["roll"]["rolls"][0]["rolls"] == [3, 4]
    table.redo()
    assert shown(table) == [6]
    table.close()
    again = make_table(path)
    assert shown(again) == [6] and again.view()["roll"]["seq"] == 3
    again.undo()
    again.undo()
    again.undo()
    assert shown(again) is None and again.view()["roll"] is None


def test_a_private_roll_reaches_only_its_seat(table):
    table.act({"type": "roll_d6", "n": 1, "faces": [2]})
    table.act({"type": "hide", "seat": "Ann", "n": 2, "faces": [5, 5]}, seat="Ann")
    assert table.view("Ann")["roll"]["rolls"][0]["rolls"] == [5, 5]
    assert table.view("Ann")["roll"]["private"] is True
    assert table.view("Bob")["roll"] is None and table.view()["roll"] is None
    assert shown(table) is None  # the e-paper is the public view


def test_a_roll_is_shown_while_it_belongs_to_the_moment_it_was_made(tmp_path, monkeypatch):
    monkeypatch.setattr(toysystem.Toy, "roll_belongs_to", lambda self, state: {"pot": state["pot"]})
    table = make_table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 100})
    table.act({"type": "roll_d6", "n": 1, "faces": [4]})
    assert table.log()[-1]["rolls"][0]["belongs_to"] == {"pot": 0}
    assert shown(table) == [4]
    table.act({"type": "pay", "seat": "Ann", "chips": 1})
    assert shown(table) is None and table.view()["roll"] is None
    table.undo()
    assert shown(table) == [4]


def test_marks_and_verdict_come_from_the_log_record():
    from tableside.core.recorder import Dice

    dice = Dice(typed=[6, 2])
    dice.roll("Attack", "2d6", by="Ann")
    dice.mark(["hit", "miss"], "1 hit")
    assert dice.finish()[0]["marks"] == ["hit", "miss"] and dice.records[0]["verdict"] == "1 hit"
    with pytest.raises(ValueError, match="1 marks for the 2 dice of Attack"):
        dice.mark(["hit"])


def test_post_api_rolls_from_a_seated_phone_is_logged_with_that_seat(tmp_path):
    table = make_table(tmp_path / "t.db")
    table.create_session("toy", {"limit": 100})
    client = phone(table)
    token = seats_for(table).claim_seat("Bob")["token"]
    response = client.post(
        "/api/rolls", json={"expr": "2d6", "faces": [1, 2]}, headers={**AUTH, "X-Tableside-Seat": token}
    )
    assert response.status_code == 200, response.get_json()
    assert table.log()[-1]["seat"] == "Bob"
