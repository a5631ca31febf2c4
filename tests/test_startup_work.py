"""What ``tableside serve`` leaves out before its first answer, and that nothing a phone uses goes with it.

Start-up time itself is measured in benchmarks/ (pi-sized, pi_render ready), never here; these tests
pin the behaviour the savings rely on.
"""

from __future__ import annotations

import argparse
import random
import threading
import time

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

from tableside.config import Config, load_config
from tableside.faults import Faults
from tableside.smartdice import DiceStarting, open_dice
from tests import toysystem
from tests.httpapi import AUTH, CODE


@pytest.fixture
def table(tmp_path):
    made = Table(Store(tmp_path / "t.db"), rng=random.Random(4))
    yield made
    made.store.close()


def dice_client(table, dice):
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: None, dice=dice)
    return create_app(services, {"TESTING": True}).test_client()


def simulated(table, folder):
    dice, _ = open_dice(
        load_config(None), True, folder, table, on_change=lambda: None, on_wait_change=lambda: None, report=print
    )
    return dice


def test_while_the_dice_are_starting_reads_say_so_and_uses_are_refused_in_words(table):
    client = dice_client(table, DiceStarting(wait=0.05))
    listing = client.get("/api/dice", headers=AUTH)
    assert listing.status_code == 200
    assert listing.get_json() == {
        "kind": "starting",
        "note": "the smart dice are starting",
        "problem": None,
        "dice": [],
        "waiting": None,
        "free": [],
        "message": None,
    }
    for path, body in [
        ("/api/dice/scan", {"seconds": 1}),
        ("/api/dice/pair", {"die": "sim-1", "name": "Red"}),
        ("/api/dice/identify", {"die": "sim-1"}),
        ("/api/dice/roll", {"die": "sim-1"}),
        ("/api/dice/wait", {"action": {"type": "attack"}}),
        ("/api/dice/keep", {}),
        ("/api/dice/cancel", {}),
        ("/api/dice/free", {}),
    ]:
        r = client.post(path, json=body, headers=AUTH)
        assert r.status_code == 503 and r.get_json()["error"] == "the smart dice are starting: try again in a moment"
    assert client.post("/api/dice/scan", json={"seconds": 99}, headers=AUTH).status_code == 400  # input first


def test_a_dice_request_made_while_they_open_waits_and_is_served_by_the_dice_that_opened(table, tmp_path):
    starting = DiceStarting(wait=20)
    client = dice_client(table, starting)
    real = simulated(table, tmp_path)
    opener = threading.Timer(0.2, starting.opened, args=(real,))
    opener.start()
    try:
        r = client.post("/api/dice/scan", json={"seconds": 1}, headers=AUTH)
        assert r.status_code == 200 and r.get_json()["kind"] == "simulated" and len(r.get_json()["dice"]) == 10
        assert client.get("/api/dice", headers=AUTH).get_json()["kind"] == "simulated"
        assert starting.hardware()["kind"] == "simulated"
    finally:
        opener.join()
        real.close()


def test_dice_that_turn_out_to_be_none_are_a_404_like_a_table_without_dice(table):
    starting = DiceStarting(wait=5)
    starting.opened(None)  # [dice] kind = "auto" and no Bluetooth adapter, or opening failed
    r = dice_client(table, starting).post("/api/dice/scan", json={}, headers=AUTH)
    assert r.status_code == 404 and "no smart dice" in r.get_json()["error"]


def test_a_part_started_with_the_hardware_runs_after_the_first_answer_and_a_failing_one_stops_nothing(table, tmp_path):
    from tableside.hardware import Hardware

    made = Hardware(
        Config(), argparse.Namespace(simulate=True, panel=None), table, Broker(), Faults(tmp_path), tmp_path, "PLAY42"
    )
    ran: list[tuple[str, bool]] = []

    def broken():
        raise RuntimeError("no dice today")

    made.also_start(broken)
    made.also_start(lambda: ran.append((threading.current_thread().name, made.pi is None)))
    answered = threading.Event()
    try:
        made.start(8080, "127.0.0.1", after=answered, within=30)
        time.sleep(0.2)
        assert ran == []  # waits for the first answer
        answered.set()
        assert made.ready.wait(20)
        assert ran == [("hardware-start", True)]  # on the hardware thread, before the buttons
        assert made.status()["buttons"] == "mock"  # the failing part stopped nothing
    finally:
        made.stop()


def test_every_game_system_is_read_once_the_panel_has_answered_not_on_a_phones_first_request(tmp_path):
    from tableside.serve import _know_every_system

    asked = []
    table = Table(
        Store(tmp_path / "t.db"),
        rng=random.Random(3),
        systems=toysystem.get,
        catalogue=lambda: asked.append(1) or [toysystem.SYSTEM],
    )
    answered = threading.Event()
    warm = threading.Thread(target=_know_every_system, args=(table, answered, 60.0))
    warm.start()
    time.sleep(0.1)
    assert not asked  # nothing before the panel's first answer (it would slow that answer)
    answered.set()
    warm.join(5)
    assert asked == [1]
    table.store.close()
