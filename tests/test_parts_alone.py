"""Each hardware part starts, fails and retries alone (issue 32): a button or LED pin another program
holds leaves the e-paper drawing and the phones playing, is said under its own name with its fix (the
status route, the log, the doctor) and is claimed again later.

The pin is taken the two ways it happens: gpiozero's own reservation (another device on the same pin
raises ``GPIOPinInUse``, gpiozero 2.0.1 ``pins/__init__.py`` ``Factory.reserve_pins``) and the lgpio
backend, whose ``LGPIOPin`` claims the line with ``gpio_claim_input`` and gets ``lgpio.error('GPIO busy')``
when the kernel answers EBUSY (joan2937/lg ``lgGpio.c``: ``if (errno == EBUSY) status = LG_GPIO_BUSY``;
``lgErrors.c``: ``{LG_GPIO_BUSY, "GPIO busy"}``).
"""

from __future__ import annotations

import argparse
import logging
import random
import time

import pytest
from gpiozero import InputDevice
from gpiozero.pins.mock import MockFactory, MockPin
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.pins import PinChoice
from tableside.webui.stream import Broker

from tableside import faults as faults_file
from tableside import pi as pi_module
from tableside.config import Config
from tableside.doctor import check_last_errors
from tableside.faults import Faults
from tableside.hardware import Hardware
from tests import toysystem


class error(Exception):  # noqa: N801 (lgpio's own name: ``lgpio.error``)
    """What the lgpio module raises for a negative status (lgpio.py ``_u2i``)."""


error.__module__ = "lgpio"
BUSY: set[str] = set()  # pin names another program holds


class LgpioLine(MockPin):
    """A pin whose claim fails the way ``LGPIOPin.__init__`` does when another program holds the line."""

    def __init__(self, factory, info):
        if info.name in BUSY:
            raise error("GPIO busy")
        super().__init__(factory, info)


def start(tmp_path, monkeypatch, factory, cfg=None):
    monkeypatch.setattr(pi_module, "BUTTONS_RETRY", 0.05)
    monkeypatch.setattr(pi_module, "BUTTONS_RETRY_MAX", 0.1)
    monkeypatch.setattr(pi_module, "choose_pin_factory", lambda *a, **k: PinChoice(factory, "mock", "the test's pins"))
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    table.create_session("toy", {"limit": 100})
    parts = Hardware(
        cfg or Config(),
        argparse.Namespace(simulate=True, panel=None),
        table,
        Broker(),
        Faults(tmp_path),
        tmp_path,
        "PLAY42",
        say=lambda line: None,
    )
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20)
    return parts


def until(condition, within=10.0):
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture(autouse=True)
def _clean():
    BUSY.clear()
    yield
    BUSY.clear()


def test_a_button_pin_in_use_leaves_the_e_paper_drawing_and_is_said_and_retried(tmp_path, monkeypatch, caplog):
    factory = MockFactory()
    intruder = InputDevice(5, pin_factory=factory)  # button A's pin, held by someone else
    caplog.set_level(logging.ERROR)
    parts = start(tmp_path, monkeypatch, factory)
    try:
        status = parts.status()
        assert status["display"] == "virtual"  # the e-paper came up and draws
        assert parts.worker.wait_idle(20) and parts.png().startswith(b"\x89PNG")
        assert status["buttons"] == "failed"
        record = status["errors"]["buttons"]
        assert record["error"].startswith("button A: GPIO5 is already in use by another program (GPIOPinInUse")
        assert "[buttons] pins A" in record["fix"] and "tries the pin again" in record["fix"]
        assert "button A: GPIO5 is already in use" in status["buttons_note"]
        assert "display" not in status["errors"]
        assert any("buttons failed: button A: GPIO5" in r.getMessage() for r in caplog.records)
        said = check_last_errors(tmp_path)  # the doctor reads the same words
        assert any(not c.ok and c.text.startswith("last buttons error") and "GPIO5" in c.text for c in said)
        parts.press("B", False)  # the phones still play
        assert parts.table.view()["state"]["score"] == 1
        intruder.close()  # the other program let go: the real pins are claimed again
        assert until(lambda: parts.status()["buttons"] == "mock")
        assert "buttons" not in faults_file.read(tmp_path)
        assert parts.pi.buttons.factory is factory
        parts.press("B", False)
        assert parts.table.view()["state"]["score"] == 2
    finally:
        parts.stop()
        parts.table.store.close()


def test_an_lgpio_busy_line_is_said_as_busy_for_that_button(tmp_path, monkeypatch):
    BUSY.add("GPIO16")
    parts = start(tmp_path, monkeypatch, MockFactory(pin_class=LgpioLine))
    try:
        record = parts.status()["errors"]["buttons"]
        assert record["error"] == "button C: GPIO16 is already in use by another program (error: GPIO busy)"
        assert "'gpioinfo'" in record["fix"]
        assert parts.worker.wait_idle(20) and parts.png().startswith(b"\x89PNG")
        BUSY.clear()
        assert until(lambda: "buttons" not in parts.status()["errors"])
    finally:
        parts.stop()
        parts.table.store.close()


def test_an_led_pin_in_use_is_the_leds_fault_and_the_buttons_work(tmp_path, monkeypatch):
    BUSY.add("GPIO13")
    parts = start(tmp_path, monkeypatch, MockFactory(pin_class=LgpioLine), Config(led_pin=13))
    try:
        status = parts.status()
        assert status["buttons"] == "mock" and "buttons" not in status["errors"]
        assert status["errors"]["led"]["error"].startswith("the LED: GPIO13 is already in use")
        assert "[led] pin" in status["errors"]["led"]["fix"]
        parts.press("B", False)
        assert parts.table.view()["state"]["score"] == 1
        BUSY.clear()
        assert until(lambda: "led" not in parts.status()["errors"])
        assert parts.pi.buttons.led is parts.pi.led and parts.pi.led.pin == 13
    finally:
        parts.stop()
        parts.table.store.close()
