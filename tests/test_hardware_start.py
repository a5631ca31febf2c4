"""The e-paper and buttons come up after the panel answers (tableside/hardware.py): what the web
layer sees before, after, and when a part fails to start."""

from __future__ import annotations

import argparse
import random
import time

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
    assert any(line.startswith("Buttons: virtual, pressed from the phones") for line in parts.said)
    assert parts.worker.wait_idle(20) and parts.png().startswith(b"\x89PNG")
    parts.press("B", False)  # the toy's B adds a point
    assert parts.table.view()["state"]["score"] == 1


def test_a_display_that_fails_to_start_is_reported_and_the_buttons_go_on(parts, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("SPI is busy")

    monkeypatch.setattr("tableside.device.display.open_display", broken)
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20)
    assert parts.faults.snapshot()["display"]["error"].endswith("SPI is busy")
    assert any(line.startswith("Display: ERROR the e-paper display failed") for line in parts.said)
    status = parts.status()
    assert status["display"] == "failed" and status["display_error"] == "RuntimeError: SPI is busy"
    assert status["buttons"] == "mock"
    parts.table.create_session("toy", {"limit": 100})
    parts.press("B", False)  # the buttons never waited for (or fell with) the display
    assert parts.table.view()["state"]["score"] == 1


def inky_parts(tmp_path, cfg):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    return Hardware(
        cfg, argparse.Namespace(simulate=False, panel=None), table, Broker(), Faults(tmp_path), tmp_path, "PLAY42"
    )


def test_kind_inky_without_a_board_leaves_buttons_led_and_panel_working_and_is_retried(tmp_path, monkeypatch):
    """Issue 19: display.kind = "inky" with no board stopped the whole start; every press answered 503."""
    monkeypatch.setattr(hardware_module, "DISPLAY_RETRY", 0.05)
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)  # gpiozero's MockFactory: no Pi here
    found = []

    def no_board(model=None):
        found.append(model)
        raise RuntimeError("No EEPROM detected! You must manually initialise your Inky board.")

    monkeypatch.setattr("tableside.device.display.find_board", no_board)
    parts = inky_parts(tmp_path, Config(display="inky", led_pin=12))
    try:
        parts.table.create_session("toy", {"limit": 100})
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20)
        status = parts.status()
        assert status["display"] == "failed" and "No EEPROM detected" in status["display_error"]
        assert "ERROR the e-paper display failed" in status["display_note"]  # the phone shows this line
        assert "No EEPROM detected" in parts.faults.snapshot()["display"]["error"]  # and the doctor reads it
        assert status["buttons"] == "mock" and status["pins"]["pin_factory"] == "mock"
        led_pin = parts.pi.buttons.factory.pin(12)
        parts.press("B", False)
        assert parts.table.view()["state"]["score"] == 1
        assert any(s.state for s in led_pin.states)  # the LED blinked for the press
        assert parts.worker.wait_idle(20) and parts.png().startswith(b"\x89PNG")  # the phone preview
        deadline = time.monotonic() + 10
        while len(found) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(found) >= 3  # looked for at start, then retried
    finally:
        parts.stop()
        parts.table.store.close()


def test_a_board_that_answers_later_is_drawn_on(tmp_path, monkeypatch):
    from tableside.device.display import Board, VirtualDisplay
    from tableside.display.panels import get_panel

    monkeypatch.setattr(hardware_module, "DISPLAY_RETRY", 0.05)
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)
    panel = get_panel("phat-red")
    tries = []

    def later(model=None):
        tries.append(model)
        if len(tries) < 3:
            raise RuntimeError("No EEPROM detected!")
        return Board(object(), panel, "detected")

    board_display = VirtualDisplay(panel, None, 0.0)
    monkeypatch.setattr("tableside.device.display.find_board", later)
    monkeypatch.setattr("tableside.device.pins.board_pins", lambda panel, driver=None: {})

    def open_display(kind, panel_id, folder, model=None, refresh_seconds=None, board=None):
        if board is None:
            raise RuntimeError("no Inky display: No EEPROM detected!")
        return board_display, f"Inky display ({board.panel.name}, {board.how})"

    monkeypatch.setattr("tableside.device.display.open_display", open_display)
    parts = inky_parts(tmp_path, Config(display="inky"))
    try:
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20)
        deadline = time.monotonic() + 10
        while parts.status()["display"] == "failed" and time.monotonic() < deadline:
            time.sleep(0.02)
        status = parts.status()
        assert status["display"] == "virtual" and status["display_error"] is None and status["panel"] == "phat-red"
        assert "display" not in parts.faults.snapshot()
        assert parts.worker.wait_idle(20) and board_display.frames >= 1  # drawn on the board that answered
    finally:
        parts.stop()
        parts.table.store.close()


def test_the_13_inch_impression_moves_button_c_and_refuses_a_clashing_pin(tmp_path, monkeypatch):
    """el133uf1 uses GPIO26 and GPIO16 as its chip selects: C defaults to 25; C=16 or an LED on 26 is refused."""
    from tableside.device.display import Board
    from tableside.display.panels import get_panel

    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)
    panel = get_panel("spectra-13.3")
    monkeypatch.setattr("tableside.device.display.find_board", lambda model=None: Board(object(), panel, "detected"))
    monkeypatch.setattr(
        "tableside.device.display.open_display",
        lambda *a, **k: (VirtualDisplayFor(panel), "Inky display (13.3, detected)"),
    )
    parts = inky_parts(tmp_path, Config(display="inky"))
    try:
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20)
        assert parts.pi.buttons.pins == {"A": 5, "B": 6, "C": 25, "D": 24}
        assert "pins" not in parts.faults.snapshot()
    finally:
        parts.stop()
        parts.table.store.close()
    clash = Config(display="inky", led_pin=26)
    parts = inky_parts(tmp_path / "b", clash)
    try:
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20)
        error = parts.faults.snapshot()["pins"]["error"]
        assert "[led] pin = GPIO26" in error and "Impression 13.3" in error and "SPI chip select" in error
        assert parts.status()["pins"]["error"] == error and parts.pi.led is None  # nothing claimed
        parts.table.create_session("toy", {"limit": 100})
        parts.press("B", False)  # the phone's buttons still work
        assert parts.table.view()["state"]["score"] == 1
    finally:
        parts.stop()
        parts.table.store.close()


def VirtualDisplayFor(panel):  # noqa: N802 (reads as a constructor)
    from tableside.device.display import VirtualDisplay

    return VirtualDisplay(panel, None, 0.0)


def test_a_phone_press_during_start_waits_for_the_buttons(parts, monkeypatch):
    monkeypatch.setattr(hardware_module, "PRESS_WAIT", 0.05)
    with pytest.raises(StillStarting):  # never started: the wait is bounded and says why
        parts.press("B", False)


def test_frames_are_drawn_in_a_worker_process_the_same_as_here(parts):
    """Issue 19: a render held the server's interpreter (a roll waited 47 ms median, 209 ms worst)."""
    import os

    from tableside.device.display import make_frame
    from tableside.display.render import draw

    parts.table.create_session("toy", {"limit": 100})
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20) and parts.worker.wait_idle(30)
    assert parts.renderer.pid is not None and parts.renderer.pid != os.getpid()
    spec = parts._frames.spec()
    here = make_frame(draw(spec, parts.display.panel), parts.display.panel)
    there = parts.renderer.frame(spec, parts.display.panel)
    assert there.digest == here.digest and there.image.tobytes() == here.image.tobytes()
    assert there.image.getpalette() == here.image.getpalette() and there.png == here.png
