"""The shortcuts taken for speed (benchmarks/, issue 13) give the same answers as the slow ways."""

from __future__ import annotations

import copy
import enum
import json
import random
from dataclasses import asdict

from tableside.core.screen import Bar, Bars, DiceGroup, Die, Grid, GridRow, KeyFigure, Screen, Text, Track
from tableside.core.store import Store
from tableside.core.system import plain_copy
from tableside.core.table import Table
from tableside.webui.seats import seats_for

from tests import toysystem


class Colour(enum.IntEnum):
    RED = 1


def test_plain_copy_is_a_deep_copy_that_shares_nothing():
    shared = [1, 2]
    state = {"a": shared, "b": shared, "t": (1, "x"), "n": None, "f": 1.5, "nested": {"k": [{"x": True}]}}
    copied = plain_copy(state)
    assert copied == state
    copied["a"].append(3)
    copied["nested"]["k"][0]["x"] = False
    assert state["a"] == [1, 2] and state["nested"]["k"][0]["x"] is True
    assert copied["b"] == [1, 2]  # two equal lists stay two lists, as the old copy made them


def test_plain_copy_falls_back_for_values_marshal_cannot_write():
    state = {"colour": Colour.RED, "list": [Colour.RED]}
    copied = plain_copy(state)
    assert copied == state and type(copied["colour"]) is Colour
    assert copied["list"] is not state["list"]


def test_screen_to_dict_equals_dataclasses_asdict():
    screen = Screen(
        "Title",
        "status",
        (
            KeyFigure("Health", "3", unit="/8"),
            Track("Defense", 4, 1, 8, marks=(2, 5)),
            Bars("Population", (Bar("Ann", 3, 10, colour=1),), threshold=8),
            Grid("Tracks", ("A", "B"), (GridRow("Ann", ("1", "2"), highlight=True),)),
            DiceGroup("Combat", (Die(6, "hit"), Die(2, "miss")), verdict="captured"),
            Text("hello", tone="alert"),
        ),
        alert="!",
        prompt="Ann: roll",
    )
    assert json.dumps(screen.to_dict()) == json.dumps(asdict(screen))


def test_the_view_is_built_once_per_version_and_follows_changes_and_seats(tmp_path):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    table.create_session("toy", {"limit": 100})
    first = table.view()
    assert table.view()["screen"] is first["screen"]  # the same version: built once
    table.act({"type": "add", "points": 2})
    second = table.view()
    assert second["version"] == 1 and second["screen"] is not first["screen"]
    assert second["screen"] == table.screen().to_dict()
    seat = second["seats"][0]["name"]
    assert not second["seats"][0]["claimed"]
    seats_for(table).claim_seat(seat)
    assert table.view()["seats"][0]["claimed"]  # a claim changes no version, but the view follows it
    before = copy.deepcopy(table.view())
    table.undo()
    assert table.view()["version"] == 2 and table.view()["state"] != before["state"]
    table.store.close()


def test_events_before_the_first_phone_streams_are_not_kept():
    import threading

    from tableside.webui.stream import Broker

    class Sink:
        def __init__(self) -> None:
            self.got: list[bytes] = []
            self.arrived = threading.Event()

        def push(self, data: bytes) -> bool:
            self.got.append(data)
            self.arrived.set()
            return True

        def end(self, data: bytes) -> None:
            pass

    broker = Broker()
    for version in range(1000):  # a long game played with no phone watching
        broker.publish({"kind": "change", "version": version})
    assert broker._events.qsize() == 0  # nothing piles up unread
    assert broker.reserve()
    sink = Sink()
    broker.attach(sink)
    broker.publish({"kind": "change", "version": 1000})
    assert sink.arrived.wait(5)
    broker.close()
    assert b'"version": 1000' in sink.got[0] or b'"version":1000' in sink.got[0]
    assert not any(b'"version": 999' in g or b'"version":999' in g for g in sink.got)
