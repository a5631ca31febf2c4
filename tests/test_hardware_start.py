"""The e-paper and buttons come up after the panel answers (tableside/hardware.py): what the web
layer sees before, after, and when a part fails to start."""

from __future__ import annotations

import argparse
import random

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.stream import Broker

from tableside import hardware as hardware_module
from tableside.config import Config
from tableside.faults import Faults
from tableside.hardware import Hardware, StillStarting
from tests import toysystem


@pytest.fixture
def parts(tmp_path):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    said: list[str] = []
    made = Hardware(
        Config(),
        argparse.Namespace(simulate=True, panel=None),
        table,
        Broker(),
        Faults(tmp_path),
        tmp_path,
        "PLAY42",
        say=said.append,
    )
    made.said = said
    yield made
    made.stop()
    table.store.close()


def test_before_start_the_panel_is_told_the_hardware_is_starting(parts):
    status = parts.status()
    assert status["display"] == "starting" and status["buttons"] == "starting"
    assert "starting" in status["display_note"] and "starting" in status["buttons_note"]
    assert parts.png() == b""  # /display.png answers 503 "still being drawn"


def test_after_start_the_display_renders_and_a_phone_press_reaches_the_game(parts):
    parts.table.create_session("toy", {"limit": 100})
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20)
    status = parts.status()
    assert status["display"] == "virtual" and status["buttons"] == "mock"
    assert any(line.startswith("Display: virtual") for line in parts.said)
    assert any(line.startswith("Buttons: mock") for line in parts.said)
    assert parts.worker.wait_idle(20) and parts.png().startswith(b"\x89PNG")
    parts.press("B", False)  # the toy's B adds a point
    assert parts.table.view()["state"]["score"] == 1


def test_a_display_that_fails_to_start_is_reported_and_the_table_goes_on(parts, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("SPI is busy")

    monkeypatch.setattr("tableside.device.display.open_display", broken)
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20)
    assert parts.faults.snapshot()["display"]["error"].endswith("SPI is busy")
    assert any(line.startswith("Hardware: ERROR") for line in parts.said)
    with pytest.raises(StillStarting) as refused:
        parts.press("B", False)
    assert refused.value.status == 503 and "not ready" in refused.value.message
    parts.table.create_session("toy", {"limit": 100})
    assert parts.table.act({"type": "add", "points": 2})["version"] == 1  # the game itself is untouched


def test_a_phone_press_during_start_waits_for_the_buttons(parts, monkeypatch):
    monkeypatch.setattr(hardware_module, "PRESS_WAIT", 0.05)
    with pytest.raises(StillStarting):  # never started: the wait is bounded and says why
        parts.press("B", False)
