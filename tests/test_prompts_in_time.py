"""Prompts that respect the panel (issue 32): a question with a deadline is never drawn on an e-paper that
cannot show it before the deadline; the phones hear it (and its answer) at once; a press after it lapsed
never plays.

Each panel class takes its own full refresh (``Panel.refresh_seconds``: Spectra 7.3" 29.6 s, 13.3" 19.6 s,
Impression 30 s, wHAT/pHAT black 8 s and red/yellow 15 s; inky's drivers wait up to 32-65 s) on a fake
clock: the stand-in panel's refresh holds until the test lets it go, and time is what the test says.
"""

from __future__ import annotations

import threading

import pytest
from tableside.device.buttons import Gesture
from tableside.device.controls import CONFIRM_HOLD, CONFIRM_WINDOW, Controls
from tableside.device.display import RefreshScheduler
from tableside.display.panels import PANELS

from tableside.frames import FrameSource
from tests.test_pi_parts import table  # noqa: F401, F811  (the fixture: a toy game)

CLASSES = sorted({(p.refresh_seconds, p.id) for p in PANELS.values()})
CLASSES = [pid for i, (secs, pid) in enumerate(CLASSES) if i == 0 or CLASSES[i - 1][0] != secs]


class Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ink:
    """A panel whose refresh takes ``refresh_seconds`` of the fake clock and ends when the test says."""

    name = "ink"

    def __init__(self, panel, clock: Clock) -> None:
        self.panel, self.clock = panel, clock
        self.refresh_seconds = panel.refresh_seconds
        self.go = threading.Event()
        self.started = threading.Event()
        self.landed: list[float] = []  # fake times each frame was fully on the panel

    def show(self, image) -> None:
        start = self.clock()
        self.started.set()
        self.go.wait(30)
        self.go.clear()
        self.landed.append(start + self.refresh_seconds)


@pytest.mark.parametrize("panel_id", CLASSES)
def test_the_shutdown_question_never_reaches_the_e_paper_late_and_the_phones_hear_at_once(table, panel_id):  # noqa: F811
    panel, clock = PANELS[panel_id], Clock()
    ink = Ink(panel, clock)
    heard: list = []
    timers: list = []
    controls = Controls(
        table, simulated=False, run=lambda *a, **k: None, schedule=lambda d, f: timers.append((clock() + d, f))
    )
    controls.on_change = lambda: heard.append(controls.overlay())
    said: list = []
    controls.say = said.append
    lights: list = []
    controls.light = lights.append

    def advance(to: float) -> None:
        clock.now = to
        for due, callback in sorted(timers, key=lambda t: t[0]):
            if due <= to:
                timers.remove((due, callback))
                callback()

    frames = FrameSource(table, panel, overlay=controls.panel_overlay)
    drawn: list = []

    def image():
        spec = frames.spec()
        drawn.append((clock(), spec))
        return frames.image()

    worker = RefreshScheduler(ink, image, clock=clock)
    controls.can_show = worker.can_show_within
    worker.start()
    try:
        assert ink.started.wait(20)  # a refresh of the game is under way, started at t=100
        clock.now = 103.0
        asked = controls.handle(Gesture("chord", ("A", "D"), clock.now))
        assert heard[-1]["kind"] == "shutdown"  # every phone: at once, with the question
        assert heard[-1]["deadline_seconds"] == CONFIRM_HOLD + CONFIRM_WINDOW
        assert "Keep holding A+D" in asked["result"]["summary"]
        deadline = clock.now + CONFIRM_HOLD + CONFIRM_WINDOW
        worker.request()
        ink.go.set()  # the game's refresh ends; the next frame is drawn
        assert worker.wait_idle(20) or ink.started.wait(5)
        questions = [t for t, spec in drawn if spec[0] == "screen" and spec[1].title == "Shut down the table?"]
        # no Inky class refreshes within 7 s: the question is never drawn (it would land after its deadline)
        assert questions == [] and controls.panel_overlay() is None
        advance(103.0 + CONFIRM_HOLD)
        assert lights == ["asking", "let-go"]  # on the device: blinking (keep holding), then steady (let go)
        advance(deadline + 0.5)  # nobody let go in time: the question lapsed, said on every phone at once
        assert heard[-1] is None and said == ["The shutdown question lapsed: the table plays on"]
        assert lights[-1] == "idle"
        late = controls.handle(Gesture("press", ("A",), deadline + 1.0))  # a press just after: never a roll
        assert "lapsed: nothing happened" in late["result"]["summary"]
        assert table.view()["state"]["score"] == 0
        advance(deadline + 30)
        controls.handle(Gesture("chord", ("A", "D"), clock.now))
        held_on = controls.handle(Gesture("release", ("A", "D"), clock.now + CONFIRM_HOLD + CONFIRM_WINDOW + 1))
        assert "lapsed: nothing happened" in held_on["result"]["summary"] and table.view()["state"]["score"] == 0
        advance(clock.now + 60)
        controls.handle(Gesture("chord", ("A", "D"), clock.now))
        done = controls.handle(Gesture("release", ("A", "D"), clock.now + CONFIRM_HOLD + 1))
        assert done["result"]["summary"] == "Shutting down"
        assert heard[-1]["title"] == "Shutting down"  # decided: the phones at once, the e-paper from now
        assert controls.panel_overlay()["title"] == "Shutting down"
    finally:
        ink.go.set()
        worker.stop()


def test_a_panel_that_can_show_it_in_time_draws_the_question(table):  # noqa: F811
    """The rule is 'in time', not 'never': an idle panel that refreshes within the deadline shows it."""
    panel, clock = PANELS["what-black"], Clock()
    controls = Controls(table, simulated=False, schedule=lambda d, f: None)
    ink = Ink(panel, clock)
    ink.refresh_seconds = 3.0  # a panel faster than any Inky: idle, it lands within the 7 s
    worker = RefreshScheduler(ink, lambda: None, clock=clock)
    controls.can_show = worker.can_show_within
    controls.handle(Gesture("chord", ("A", "D"), clock.now))
    assert controls.panel_overlay()["kind"] == "shutdown"
    ink.refresh_seconds = panel.refresh_seconds  # the black wHAT's 8 s: too late for a 7 s question
    controls.handle(Gesture("press", ("B",), clock.now + 1))  # cancels
    controls.handle(Gesture("chord", ("A", "D"), clock.now + 2))
    assert controls.panel_overlay() is None and controls.overlay()["kind"] == "shutdown"


def test_the_join_screen_after_a_hold_is_refused_when_the_panel_cannot_show_it_in_its_time(tmp_path, monkeypatch):
    import argparse

    from tableside.core.errors import RuleError
    from tableside.core.store import Store as Kept
    from tableside.core.table import Table as Game
    from tableside.device.display import InkyDisplay
    from tableside.webui.stream import Broker

    from tableside.config import Config
    from tableside.faults import Faults
    from tableside.hardware import Hardware

    class Driver:  # an Impression 7.3": 30 s a refresh (it returns at once here: only the estimate matters)
        def set_image(self, image):
            pass

        def show(self):
            pass

    panel = PANELS["impression-7.3"]
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)
    monkeypatch.setattr("tableside.device.display.open_display", lambda *a, **k: (InkyDisplay(Driver(), panel), "Inky"))
    game = Game(Kept(tmp_path / "t.db"))
    parts = Hardware(
        Config(display="inky", join_seconds=20.0),
        argparse.Namespace(simulate=False, panel=None),
        game,
        Broker(),
        Faults(tmp_path),
        tmp_path,
        "PLAY42",
    )
    try:
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20) and parts.worker.wait_idle(20)
        with pytest.raises(RuleError, match="cannot show the join screen within its 20 s"):
            parts.pi.controls.show_join()
        parts.cfg.join_seconds = 120.0  # 30 s of refresh fits in two minutes: shown
        parts.pi.controls.show_join()
        assert parts._frames.showing_join() or parts._frames.next_change() is not None
    finally:
        parts.stop()
        game.store.close()
