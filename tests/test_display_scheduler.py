"""The refresh scheduler: newest state wins, identical frames are never sent, refreshes are spaced.

The virtual panel "takes" its refresh time through a sleep the test controls,
so a 3-second refresh is simulated exactly without waiting 3 seconds.
"""

from __future__ import annotations

import threading

import pytest
from PIL import Image
from tableside.core.screen import Screen
from tableside.device.display import RefreshScheduler, VirtualDisplay
from tableside.display.panels import get_panel
from tableside.display.render import render

PANEL = get_panel("what-red")


class HeldSleep:
    """A sleep that blocks until released, recording how long it was asked to take."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.entered = threading.Semaphore(0)
        self.release = threading.Event()

    def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.entered.release()
        assert self.release.wait(10), "the test never released the simulated refresh"


class State:
    def __init__(self) -> None:
        self.n = 0
        self.rendered: list[int] = []

    def image(self) -> Image.Image:
        n = self.n
        self.rendered.append(n)
        return render(Screen(title=f"state {n}"), PANEL)


def test_twenty_changes_during_a_3_second_refresh_give_at_most_two_refreshes_and_the_final_state():
    sleep = HeldSleep()
    display = VirtualDisplay(PANEL, refresh_seconds=3.0, sleep=sleep)
    state = State()
    scheduler = RefreshScheduler(display, state.image)
    scheduler.start()
    assert sleep.entered.acquire(timeout=10)  # the first refresh (state 0) is now under way, 3 s simulated
    for _ in range(20):
        state.n += 1
        scheduler.request()
    sleep.release.set()
    assert scheduler.wait_idle(10)
    scheduler.stop()
    assert display.frames == 2 and scheduler.refreshes == 2
    assert sleep.asked == [3.0, 3.0]
    final = render(Screen(title="state 20"), PANEL)
    shown = Image.open(__import__("io").BytesIO(display.png)).convert("RGB")
    assert shown.tobytes() == final.tobytes()  # the panel ends on the newest state


def test_an_identical_frame_is_never_sent_again():
    display = VirtualDisplay(PANEL, refresh_seconds=0)
    scheduler = RefreshScheduler(display, lambda: render(Screen(title="same"), PANEL))
    scheduler.start()
    assert scheduler.wait_idle(10)
    for _ in range(5):
        scheduler.request()
        assert scheduler.wait_idle(10)
    scheduler.stop()
    assert display.frames == 1 and scheduler.renders == 6 and scheduler.skipped >= 5


def test_refreshes_are_at_least_the_minimum_interval_apart():
    now = [100.0]
    display = VirtualDisplay(PANEL, refresh_seconds=0)
    state = State()
    scheduler = RefreshScheduler(display, state.image, min_interval=60.0, clock=lambda: now[0])
    scheduler.start()
    assert scheduler.wait_idle(10) and display.frames == 1
    state.n = 1
    scheduler.request()
    assert not scheduler.wait_idle(0.3)  # rendered, but held back: the panel rests for 60 s
    assert display.frames == 1
    assert scheduler.png() != b""  # the phone already sees the new frame
    now[0] += 61
    scheduler.request()  # any wake-up: the refresher finds the rest over and sends state 1
    assert scheduler.wait_idle(10)
    assert display.frames == 2
    state.n = 2
    scheduler.request()
    assert not scheduler.wait_idle(0.3)  # and the panel rests again
    scheduler.stop()
    assert display.frames == 2


def test_png_serves_the_last_rendered_frame_without_rendering():
    state = State()
    scheduler = RefreshScheduler(VirtualDisplay(PANEL, refresh_seconds=0), state.image)
    assert scheduler.png() == b""  # nothing rendered yet, and asking does not render
    assert state.rendered == []
    scheduler.start()
    assert scheduler.wait_idle(10)
    before = len(state.rendered)
    for _ in range(10):
        assert scheduler.png().startswith(b"\x89PNG")
    assert len(state.rendered) == before
    scheduler.stop()


def test_stop_lets_a_refresh_in_progress_finish():
    sleep = HeldSleep()
    display = VirtualDisplay(PANEL, refresh_seconds=3.0, sleep=sleep)
    scheduler = RefreshScheduler(display, State().image)
    scheduler.start()
    assert sleep.entered.acquire(timeout=10)
    stopper = threading.Thread(target=scheduler.stop)
    stopper.start()
    stopper.join(0.3)
    assert stopper.is_alive()  # stop waits for the panel
    sleep.release.set()
    stopper.join(10)
    assert not stopper.is_alive() and display.frames == 1


def test_a_failing_render_or_panel_is_reported_and_the_scheduler_keeps_going():
    calls = {"n": 0}

    def flaky():
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("bad screen")
        return render(Screen(title=f"ok {calls['n']}"), PANEL)

    class Broken(VirtualDisplay):
        def show(self, image):
            if self.frames == 0 and not getattr(self, "failed", False):
                self.failed = True
                raise SystemExit("gpiodevice could not claim GPIO8")  # what gpiodevice raises
            super().show(image)

    display = Broken(PANEL, refresh_seconds=0)
    scheduler = RefreshScheduler(display, flaky)
    scheduler.start()
    assert scheduler.wait_idle(10)
    assert scheduler.error and "bad screen" in scheduler.error
    scheduler.request()
    assert scheduler.wait_idle(10)
    assert "SystemExit" in (scheduler.error or "")
    scheduler.request()
    assert scheduler.wait_idle(10)
    scheduler.stop()
    assert display.frames == 1 and scheduler.error is None


def test_stop_cuts_a_simulated_refresh_short():
    display = VirtualDisplay(PANEL, refresh_seconds=30.0)  # its own interruptible sleep
    scheduler = RefreshScheduler(display, State().image)
    scheduler.start()
    for _ in range(200):
        if scheduler.refreshing:
            break
        threading.Event().wait(0.01)
    assert scheduler.refreshing
    stopper = threading.Thread(target=scheduler.stop)
    stopper.start()
    stopper.join(10)
    assert not stopper.is_alive()  # well before the simulated 30 s


def test_a_table_that_keeps_changing_is_drawn_about_once_per_max_settle_and_ends_on_the_last_state():
    import time

    display = VirtualDisplay(PANEL, refresh_seconds=0)
    state = State()
    scheduler = RefreshScheduler(display, state.image, settle=0.05, max_settle=0.3)
    scheduler.start()
    assert scheduler.wait_idle(10)
    before = len(state.rendered)
    start = time.monotonic()
    while time.monotonic() - start < 1.2:  # a change every 10 ms: never 50 ms of quiet
        state.n += 1
        scheduler.request()
        time.sleep(0.01)
    took = time.monotonic() - start
    assert scheduler.wait_idle(10)
    scheduler.stop()
    renders = len(state.rendered) - before
    assert 1 <= renders <= int(took / 0.3) + 2, renders  # not one per change (over 100 changes)
    assert state.rendered[-1] == state.n  # the last picture is the newest state


def test_on_frame_is_called_for_each_new_picture_and_not_for_the_same_one_again():
    display = VirtualDisplay(PANEL, refresh_seconds=0)
    state = State()
    told: list[int] = []
    scheduler = RefreshScheduler(display, state.image, on_frame=lambda: told.append(state.n))
    scheduler.start()
    assert scheduler.wait_idle(10)
    scheduler.request()  # the same state again: the same picture, nothing to tell
    assert scheduler.wait_idle(10)
    state.n = 1
    scheduler.request()
    assert scheduler.wait_idle(10)
    scheduler.stop()
    assert told == [0, 1]


def test_a_table_that_keeps_changing_is_drawn_just_after_a_change():
    """Changes every 0.2 s (settle 0.3 never comes): drawn once the cap has passed, at the first gap after a
    change, so the render does not land on the phones' re-reads of it (nor on the next change)."""
    from tableside.device.display import GAP, settle_wait

    settle, cap = 0.3, 1.0
    assert settle_wait(0.5, 0.0, 0.5, settle, cap) == pytest.approx(0.3)  # before the cap: wait for quiet
    assert settle_wait(0.95, 0.0, 0.9, settle, cap) == pytest.approx(0.05)  # ...but no longer than the cap
    assert settle_wait(1.01, 0.0, 1.0, settle, cap) == pytest.approx(GAP - 0.01)  # the change just came
    assert settle_wait(1.0 + GAP, 0.0, 1.0, settle, cap) == 0.0  # the gap after it: draw now
    assert settle_wait(0.4, 0.0, 0.1, settle, cap) == 0.0  # quiet for settle: draw now
    assert settle_wait(2.0, 0.0, 2.0, settle, cap) == 0.0  # never more than twice the cap
    # a change every 0.2 s from t=0: the draw time the scheduler arrives at
    changes = [round(0.2 * i, 3) for i in range(20)]
    t = 0.0
    while (left := settle_wait(t, 0.0, max(c for c in changes if c <= t), settle, cap)) > 0:
        t += left  # the render thread wakes then and asks again
    since = t - max(c for c in changes if c <= t)
    assert cap <= t < 2 * cap and since + 1e-9 >= GAP and since < 0.2  # after the cap, a gap after a change
