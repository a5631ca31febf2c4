"""Buttons on gpiozero's own MockFactory: debouncing on event timestamps, press, hold, chord, the queue, the LED.

The mock pins are stamped with a clock the test moves by hand (``ClockedFactory``),
so "a 20 ms press" means edges 20 ms apart whatever the machine's speed: no
test here measures time.
"""

from __future__ import annotations

import random
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from tableside.core.errors import RuleError, TablesideError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import IMPRESSION_PINS, ButtonPanel, Gesture, Gestures, StatusLed

from tableside.faults import Faults
from tests import toysystem


class ClockedFactory(MockFactory):
    """gpiozero's MockFactory with PWM-capable pins (for a PWMLED) and a clock the test moves by hand.

    gpiozero 2.0.1's mock pins stamp each edge with ``gpiozero.pins.mock.monotonic`` (pins/mock.py,
    ``MockPin._change_state``) and the factory's ``ticks()`` is the buttons' clock: ``clocked`` points
    both at ``now``, through the module's public name, so no private member of gpiozero is touched.
    """

    def __init__(self) -> None:
        super().__init__(pin_class=MockPWMPin)
        self.now = 100.0

    def ticks(self):
        return self.now


def clocked(monkeypatch) -> ClockedFactory:
    import gpiozero.pins.mock

    f = ClockedFactory()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", lambda: f.now)
    return f


@pytest.fixture
def factory(monkeypatch):
    f = clocked(monkeypatch)
    yield f
    f.reset()
    f.close()


class Recorder:
    def __init__(self, block: threading.Event | None = None) -> None:
        self.calls: list[str] = []
        self.block = block

    def __call__(self, gesture: Gesture):
        if self.block is not None:
            self.block.wait(30)
        self.calls.append(gesture.name)
        return {"result": {"summary": gesture.name}}


def wait_for(condition, timeout=10.0):
    """Wait for another thread's effect (bounded; the result is the assertion, not the time)."""
    done = threading.Event()
    while not condition():
        if done.wait(0.005) or (timeout := timeout - 0.005) <= 0:
            return False
    return True


def make(factory, handler=None, **kw):
    kw.setdefault("hold_time", 1.0)
    return ButtonPanel(handler or Recorder(), factory, ticker=False, **kw)


def edges(factory, panel, label, pattern):
    """Drive ``label`` through ``pattern``: (ms from now, down?) pairs, then let 1 ms pass."""
    pin = factory.pin(panel.pins[label])
    start = factory.now
    for ms, down in pattern:
        factory.now = start + ms / 1000
        pin.drive_low() if down else pin.drive_high()


def settle(factory, panel, ms=50):
    factory.now += ms / 1000
    panel.poll()
    assert panel.wait_idle()


def test_a_clean_20ms_press_counts_once(factory):
    panel = make(factory)
    edges(factory, panel, "A", [(0, True), (20, False)])
    assert panel.handler.calls == []  # a press fires once its release has settled
    settle(factory, panel)
    assert panel.handler.calls == ["A"]
    assert panel.history[-1]["gesture"] == "A" and panel.history[-1]["ok"]
    panel.close()


def test_a_glitch_shorter_than_the_debounce_time_is_no_press(factory):
    panel = make(factory)
    edges(factory, panel, "B", [(0, True), (4, False)])
    settle(factory, panel)
    assert panel.handler.calls == []
    panel.close()


def test_a_bouncing_contact_is_one_press(factory):
    panel = make(factory)
    # press with 5 bounces over 8 ms, held 200 ms, release with 3 bounces
    edges(
        factory,
        panel,
        "B",
        [(0, True), (2, False), (4, True), (6, False), (8, True), (200, False), (202, True), (204, False)],
    )
    settle(factory, panel)
    assert panel.handler.calls == ["B"]
    panel.close()


def test_a_contact_that_bounces_for_longer_than_the_window_still_gives_one_press(factory):
    panel = make(factory)
    pattern = [(ms, i % 2 == 0) for i, ms in enumerate(range(0, 40, 3))]  # chatter every 3 ms for 40 ms
    pattern += [(60, True), (300, False), (303, True), (306, False)]
    edges(factory, panel, "C", pattern)
    settle(factory, panel)
    assert panel.handler.calls == ["C"]
    panel.close()


def test_debouncing_uses_the_event_time_not_the_time_the_callback_ran(factory):
    """lgpio delivers both edges of a 20 ms press late and back to back: it still counts."""
    panel = make(factory)
    pin = factory.pin(IMPRESSION_PINS["A"])
    factory.now = 200.0  # both callbacks run "now", their timestamps say 20 ms apart
    pin.when_changed(199.5, False)
    pin.when_changed(199.52, True)
    settle(factory, panel)
    assert panel.handler.calls == ["A"]
    panel.close()


def test_a_hold_fires_once_after_hold_time_and_no_press_on_release(factory):
    panel = make(factory)
    edges(factory, panel, "D", [(0, True)])
    settle(factory, panel, ms=500)
    assert panel.handler.calls == []
    settle(factory, panel, ms=600)
    assert panel.handler.calls == ["hold D"]
    edges(factory, panel, "D", [(0, False)])
    settle(factory, panel, ms=2000)
    assert panel.handler.calls == ["hold D"]
    panel.close()


def test_a_press_just_shorter_than_hold_time_is_a_press(factory):
    panel = make(factory)
    edges(factory, panel, "A", [(0, True), (990, False)])
    settle(factory, panel)
    assert panel.handler.calls == ["A"]
    panel.close()


def test_a_chord_fires_once_and_neither_button_on_its_own(factory):
    panel = make(factory)
    edges(factory, panel, "A", [(0, True)])
    edges(factory, panel, "D", [(80, True)])
    settle(factory, panel, ms=2000)
    assert panel.handler.calls == ["A+D"]
    edges(factory, panel, "A", [(0, False)])
    edges(factory, panel, "D", [(50, False)])
    settle(factory, panel, ms=2000)
    assert panel.handler.calls == ["A+D", "release A+D"]  # its release once (it confirms the shutdown chord)
    panel.close()


def test_a_chord_let_go_early_does_nothing(factory):
    panel = make(factory)
    edges(factory, panel, "D", [(0, True)])
    edges(factory, panel, "A", [(30, True), (300, False)])
    edges(factory, panel, "D", [(100, False)])
    settle(factory, panel, ms=3000)
    assert panel.handler.calls == []
    panel.close()


def test_two_buttons_that_are_no_chord_act_on_their_own(factory):
    panel = make(factory)
    edges(factory, panel, "A", [(0, True)])
    edges(factory, panel, "B", [(20, True), (100, False)])
    edges(factory, panel, "A", [(150, False)])
    settle(factory, panel)
    assert panel.handler.calls == ["B", "A"]
    panel.close()


def test_presses_while_an_action_is_running_are_queued_in_order(factory):
    gate = threading.Event()
    recorder = Recorder(block=gate)
    panel = make(factory, handler=recorder)
    labels = [random.Random(7).choice("ABC") for _ in range(50)]
    for label in labels:
        edges(factory, panel, label, [(0, True), (25, False)])
        factory.now += 0.025  # the next press starts 25 ms after this release
    factory.now += 0.05
    panel.poll()
    assert recorder.calls == []  # the first action is still running: the other 49 wait in the queue
    gate.set()
    assert panel.wait_idle()
    assert recorder.calls == labels
    panel.close()


def test_fifty_quick_presses_are_fifty_logged_actions_in_order(factory, tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get)
    table.create_session("toy")
    gate = threading.Event()

    def press(gesture: Gesture):
        gate.wait(30)  # the first action is still "in flight" while the other 49 arrive
        return table.press(gesture.button, gesture.hold, source="button")

    panel = make(factory, handler=press)
    for _ in range(50):
        edges(factory, panel, "B", [(0, True), (22, False)])  # B = "Add 1"
        factory.now += 0.02
    gate.set()
    settle(factory, panel)
    log = table.log()
    adds = [e for e in log if e["type"] == "add"]
    assert len(adds) == 50 and all(e["source"] == "button" for e in adds)
    assert [e["seq"] for e in adds] == sorted(e["seq"] for e in adds)
    assert [e["result"]["summary"] for e in adds] == [f"+1 -> {n}" for n in range(1, 51)]
    panel.close()
    table.store.close()


def test_a_refused_press_is_logged_and_flickers_the_led(factory):
    def refuse(gesture):
        raise RuleError("nothing to undo")

    led = StatusLed(12, factory, pwm=True)
    faults = Faults(None)
    panel = make(factory, handler=refuse, led=led, faults=faults, is_refusal=lambda e: isinstance(e, TablesideError))
    edges(factory, panel, "D", [(0, True), (30, False)])
    settle(factory, panel)
    assert panel.history[-1] == {
        "gesture": "D",
        "kind": "press",
        "at": pytest.approx(100.03),
        "ok": False,
        "refused": "nothing to undo",
    }
    assert faults.snapshot() == {}  # a rule saying no is not a hardware fault
    panel.close()


def test_a_crashing_action_is_a_fault_and_the_next_press_still_works(factory, tmp_path):
    calls = []

    def handler(gesture):
        calls.append(gesture.name)
        if len(calls) == 1:
            raise SystemExit("gpiodevice: pin busy")  # not an Exception: must not kill the worker
        return {"result": {"summary": "fine"}}

    faults = Faults(tmp_path)
    panel = make(factory, handler=handler, faults=faults)
    edges(factory, panel, "A", [(0, True), (30, False)])
    settle(factory, panel)
    edges(factory, panel, "A", [(0, True), (30, False)])
    settle(factory, panel)
    assert calls == ["A", "A"]
    assert faults.snapshot()["buttons"]["error"] == "SystemExit: gpiodevice: pin busy"
    assert "SystemExit" in (tmp_path / "hardware-errors.json").read_text()
    assert panel.status()["last_error"].startswith("SystemExit")
    panel.close()


def test_the_led_lights_on_an_accepted_touch(factory):
    led = StatusLed(12, factory)
    panel = make(factory, led=led)
    led_pin = factory.pin(12)
    edges(factory, panel, "A", [(0, True), (2, False)])  # a 2 ms glitch: no feedback
    settle(factory, panel)
    assert [s.state for s in led_pin.states if s.state] == []
    edges(factory, panel, "A", [(0, True)])
    factory.now += 0.011
    panel.poll()  # the touch is stable: accepted, and the LED blinks before the release is known
    assert wait_for(lambda: any(s.state for s in led_pin.states))
    assert panel.handler.calls == []
    edges(factory, panel, "A", [(0, False)])
    settle(factory, panel)
    assert panel.handler.calls == ["A"]
    panel.close()


def test_custom_pins_and_a_shared_pin_is_refused(factory):
    panel = make(factory, pins={"A": 5, "B": 6, "C": 25, "D": 24})
    edges(factory, panel, "C", [(0, True), (30, False)])
    settle(factory, panel)
    assert panel.handler.calls == ["C"]
    panel.close()
    with pytest.raises(ValueError, match="share a pin"):
        make(factory, pins={"A": 5, "B": 5})


def test_gestures_engine_directly_reports_the_press_time_from_the_first_stable_edge():
    g = Gestures(hold_time=1.0, debounce=0.01)
    out = g.edge("A", True, 1.000) + g.edge("A", False, 1.002) + g.edge("A", True, 1.004)
    out += g.edge("A", False, 1.300) + g.advance(1.5)
    assert [(x.kind, x.at) for x in out] == [("contact", 1.004), ("press", 1.300)]


def test_virtual_presses_in_real_time_through_the_same_pins():
    """The phone's virtual buttons drive the mock pins: the real ticker settles them."""
    f = MockFactory()
    calls = []
    panel = ButtonPanel(lambda g: calls.append(g.name) or {"result": {"summary": g.name}}, f, hold_time=0.5)
    try:
        for _ in range(3):
            assert panel.simulate("A") == {"result": {"summary": "A"}}
        assert panel.simulate("D", hold=True) == {"result": {"summary": "hold D"}}
        assert calls == ["A", "A", "A", "hold D"]
    finally:
        panel.close()
        f.reset()
        f.close()
