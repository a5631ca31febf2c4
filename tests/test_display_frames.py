"""Which picture the panel shows: the join screen at start, with no game and after a free button hold."""

from __future__ import annotations

import random

import pytest
import zxingcpp
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import Gesture
from tableside.device.controls import Controls
from tableside.display.join import JoinInfo
from tableside.display.panels import get_panel

from tableside.frames import FrameSource
from tests import toysystem

PANEL = get_panel("what-red")
JOIN = JoinInfo("http://192.168.1.20:8080", "K7QX4M")


@pytest.fixture
def table(tmp_path):
    t = Table(
        Store(tmp_path / "t.db"), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    yield t
    t.store.close()


def is_join_screen(image) -> bool:
    return [r.text for r in zxingcpp.read_barcodes(image.convert("L"))] == [JOIN.link]


def test_the_join_screen_shows_at_start_and_gives_way_to_the_game(table):
    now = [0.0]
    frames = FrameSource(table, PANEL, lambda: JOIN, join_seconds=120, clock=lambda: now[0])
    table.subscribe(frames.changed)
    assert is_join_screen(frames.image())  # no game: always the join screen
    table.create_session("toy", {})
    frames.show_join()  # at start
    assert is_join_screen(frames.image()) and frames.next_change() == 120
    table.act({"type": "add", "points": 1})  # somebody plays: the game takes the panel back
    assert not is_join_screen(frames.image()) and frames.next_change() is None
    frames.show_join()  # a button hold
    now[0] = 119
    assert is_join_screen(frames.image())
    now[0] = 121  # timed out on its own
    assert not is_join_screen(frames.image()) and frames.next_change() is None


def test_without_an_address_the_panel_says_it_waits_for_wifi(table):
    frames = FrameSource(table, PANEL, lambda: None, waiting=lambda: "Waiting for Wi-Fi")
    image = frames.image()
    assert not is_join_screen(image) and image.size == PANEL.size


def test_a_prompt_of_the_buttons_comes_first(table):
    prompt = {"kind": "shutdown", "title": "Shut down the table?", "lines": ["Press A within 5 s."]}
    frames = FrameSource(table, PANEL, lambda: JOIN, overlay=lambda: prompt)
    assert not is_join_screen(frames.image())


def test_a_hold_the_game_leaves_free_shows_the_join_screen_and_a_bound_hold_plays(table):
    table.create_session("toy", {})
    table.act({"type": "add", "points": 1})
    table.undo()
    shown = []
    controls = Controls(table, simulated=True)
    controls.show_join = lambda: shown.append(True)
    result = controls.handle(Gesture("hold", ("A",), 1.0))  # the toy binds no hold on A
    assert shown == [True] and "join screen" in result["result"]["summary"]
    assert table.position()[1] == 2  # nothing was played
    controls.handle(Gesture("hold", ("D",), 2.0))  # hold D is the toy's Redo
    assert shown == [True] and table.position()[1] == 3
    assert table.binds("A") and not table.binds("A", hold=True)
