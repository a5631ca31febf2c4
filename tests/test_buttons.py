"""Buttons A-D on gpiozero's own MockFactory: press, hold, our own debouncing."""

from __future__ import annotations

import time

import pytest
from tableside.core.errors import RuleError
from tableside.device.buttons import IMPRESSION_PINS, ButtonPanel, mock_factory


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory():
    f = mock_factory()
    yield f
    f.reset()


def make(factory, calls, clock=None, hold_time=0.05, handler=None):
    def record(label, hold):
        calls.append((label, hold))
        return {"label": label, "hold": hold}

    return ButtonPanel(handler or record, factory, hold_time=hold_time, bounce=0.03, clock=clock or time.monotonic)


def test_a_press_fires_once_on_release(factory):
    calls = []
    panel = make(factory, calls, clock=FakeClock())
    pin = factory.pin(IMPRESSION_PINS["A"])
    pin.drive_low()
    assert calls == []  # not yet: it might become a hold
    panel.clock.now += 0.1
    pin.drive_high()
    assert calls == [("A", False)]
    panel.close()


def test_a_hold_fires_the_hold_action_and_not_a_press(factory):
    calls = []
    panel = make(factory, calls)
    assert panel.simulate("D", hold=True) == {"label": "D", "hold": True}
    assert calls == [("D", True)]
    panel.close()


def test_contact_bounce_within_the_window_is_one_press(factory):
    calls = []
    clock = FakeClock()
    panel = make(factory, calls, clock=clock)
    pin = factory.pin(IMPRESSION_PINS["B"])
    for _ in range(3):  # three bounces 5 ms apart: MockFactory itself would give three presses
        pin.drive_low()
        clock.now += 0.005
        pin.drive_high()
        clock.now += 0.005
    clock.now += 0.05
    pin.drive_low()
    clock.now += 0.05
    pin.drive_high()
    assert calls == [("B", False)]
    panel.close()


def test_presses_after_the_window_all_count(factory):
    calls = []
    clock = FakeClock()
    panel = make(factory, calls, clock=clock)
    pin = factory.pin(IMPRESSION_PINS["C"])
    for _ in range(4):
        pin.drive_low()
        clock.now += 0.1
        pin.drive_high()
        clock.now += 0.1
    assert calls == [("C", False)] * 4
    panel.close()


def test_simulated_presses_in_a_row_are_never_eaten_by_the_debouncer(factory):
    calls = []
    panel = make(factory, calls)
    for _ in range(5):
        panel.simulate("A")
    assert calls == [("A", False)] * 5
    panel.close()


def test_a_refused_press_reaches_the_caller_not_gpiozero(factory):
    def refuse(label, hold):
        raise RuleError("nothing to undo")

    panel = make(factory, [], handler=refuse)
    with pytest.raises(RuleError, match="nothing to undo"):
        panel.simulate("D")
    pin = factory.pin(IMPRESSION_PINS["D"])
    pin.drive_low()
    time.sleep(0.04)
    pin.drive_high()  # a real press that is refused must not raise inside gpiozero's thread
    panel.close()


def test_custom_pins(factory):
    calls = []
    panel = ButtonPanel(lambda label, hold: calls.append(label), factory, pins={"A": 5, "B": 6, "C": 25, "D": 24},
                        bounce=0.0)
    panel.simulate("C")
    assert calls == ["C"]
    panel.close()
