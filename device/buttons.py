"""Buttons A-D (and an optional status LED) through gpiozero, with our own debouncing.

Why not ``gpiozero.Button``: its callbacks carry no time, so debouncing had to
use the time the callback ran, and a clean 20 ms press whose two callbacks were
delayed and then ran back to back looked like bounce and was lost. Here each
button is a gpiozero ``InputDevice`` (pull-up, active low) whose pin reports
every edge with the timestamp the GPIO driver gave it (lgpio: the kernel's
event time), and ``Gestures`` decides from those timestamps alone:

- debouncing: a level counts once it has been stable for ``debounce`` seconds
  (10 ms by default); bounce is a run of short segments, so it never yields a
  second press, and the press is dated from its first edge;
- press (fires on release, shorter than ``hold_time``), hold (fires once after
  ``hold_time``) and chords (two buttons down together, e.g. A+D, fire once
  after ``hold_time`` and suppress both buttons' own gestures).

Recognised gestures go into a queue that one worker thread runs in order, so a
press while an action is still running (an e-paper refresh, a slow roll) waits
its turn instead of being lost. gpiozero's ``bounce_time`` is not used: the
MockFactory does not enforce it, and ours is tested with MockFactory pins.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from tableside.device.pins import (
    PinClaimError,
    mock_factory,  # noqa: F401  (re-exported: tests and keys build with it)
)

log = logging.getLogger(__name__)

# Inky Impression: A=GPIO5, B=GPIO6, C=GPIO16, D=GPIO24 (C is GPIO25 on the 13.3").
IMPRESSION_PINS = {"A": 5, "B": 6, "C": 16, "D": 24}
LABELS = ("A", "B", "C", "D")
DEFAULT_CHORDS = (("A", "D"),)
DEBOUNCE = 0.010
HISTORY = 200


@dataclass(frozen=True)
class Gesture:
    """What a person did: ``press`` A, ``hold`` A, ``chord`` A+D; ``at`` in pin-factory ticks (seconds)."""

    kind: str  # "press" | "hold" | "chord" | "release" (of a chord that fired) | "contact" (feedback only)
    buttons: tuple[str, ...]
    at: float

    @property
    def button(self) -> str:
        return self.buttons[0]

    @property
    def hold(self) -> bool:
        return self.kind == "hold"

    @property
    def name(self) -> str:
        if self.kind == "chord":
            return "+".join(self.buttons)
        if self.kind == "release":
            return "release " + "+".join(self.buttons)
        return f"hold {self.button}" if self.kind == "hold" else self.button


@dataclass
class _Contact:
    raw_down: bool = False  # the last level the pin reported
    raw_at: float = float("-inf")  # when it got there
    down: bool = False  # the debounced level
    down_at: float = 0.0
    used: bool = True  # this press already produced, or belongs to, a gesture


@dataclass
class _Chord:
    buttons: tuple[str, ...]
    start: float
    fired: bool = False  # done with: it fired, or was let go before it could
    emitted: bool = False  # it fired: its release is a gesture too (the shutdown chord is confirmed by it)
    released: bool = False


class Gestures:
    """Pure gesture recognition from timestamped edges: no threads, no clock of its own.

    ``edge(label, down, t)`` for every edge the pin reports; ``advance(now)``
    when time passes without edges (the panel's ticker calls it at
    ``next_deadline()``). Both return the gestures recognised, oldest first.
    """

    def __init__(
        self,
        labels: Iterable[str] = LABELS,
        hold_time: float = 1.0,
        debounce: float = DEBOUNCE,
        chords: Iterable[Iterable[str]] = DEFAULT_CHORDS,
    ) -> None:
        if hold_time <= debounce:
            raise ValueError("hold_time must be longer than the debounce time")
        self.hold_time = hold_time
        self.debounce = debounce
        self.contacts = {label: _Contact() for label in labels}
        self.chords = {frozenset(c) for c in chords}
        self._chord: _Chord | None = None

    def edge(self, label: str, down: bool, t: float) -> list[Gesture]:
        out = self.advance(t)
        c = self.contacts[label]
        if down != c.raw_down:
            c.raw_down, c.raw_at = down, t
        return out

    def advance(self, now: float) -> list[Gesture]:
        """Commit every level stable for ``debounce`` by ``now``; fire holds and chords due by ``now``."""
        out: list[Gesture] = []
        # Settle in time order, so a chord sees its first button go down first.
        for label, c in sorted(self.contacts.items(), key=lambda kv: kv[1].raw_at):
            if c.raw_down != c.down and now >= c.raw_at + self.debounce:
                out += self._commit(label, c, c.raw_down, c.raw_at, now)
        out += self._due(now)
        return sorted(out, key=lambda g: g.at)

    def next_deadline(self) -> float | None:
        times = [c.raw_at + self.debounce for c in self.contacts.values() if c.raw_down != c.down]
        times += [c.down_at + self.hold_time for c in self.contacts.values() if c.down and not c.used]
        if self._chord and not self._chord.fired:
            times.append(self._chord.start + self.hold_time)
        return min(times) if times else None

    def is_down(self, label: str) -> bool:
        return self.contacts[label].down

    # -- internals --------------------------------------------------------------------------
    def _commit(self, label: str, c: _Contact, down: bool, at: float, now: float) -> list[Gesture]:
        out = self._due(at)  # a hold that was due before this change happened first
        c.down = down
        if down:
            c.down_at, c.used = at, False
            out.append(Gesture("contact", (label,), at))
            for other, o in self.contacts.items():
                if (
                    other != label
                    and o.down
                    and not o.used
                    and frozenset((label, other)) in self.chords
                    and self._chord is None
                    and at < o.down_at + self.hold_time
                ):
                    pair = tuple(sorted((label, other)))
                    self._chord = _Chord(pair, at)
                    c.used = o.used = True
            return out
        chord = self._chord
        if chord is not None and label in chord.buttons:
            if chord.emitted and not chord.released:  # the first button of a fired chord let go
                chord.released = True
                out.append(Gesture("release", chord.buttons, at))
            if not any(self.contacts[b].down for b in chord.buttons):
                self._chord = None  # both up: the chord is over (fired or let go early)
            elif not chord.fired:
                chord.fired = True  # let go before hold_time: nothing happens, and nothing fires later
            return out
        if not c.used:
            c.used = True
            if at >= c.down_at + self.hold_time:  # the hold timer was late: it is still a hold
                out.append(Gesture("hold", (label,), c.down_at + self.hold_time))
            else:
                out.append(Gesture("press", (label,), at))
        return out

    def _due(self, now: float) -> list[Gesture]:
        out = []
        chord = self._chord
        if (
            chord
            and not chord.fired
            and now >= chord.start + self.hold_time
            and all(self.contacts[b].down for b in chord.buttons)
        ):
            chord.fired = chord.emitted = True
            out.append(Gesture("chord", chord.buttons, chord.start + self.hold_time))
        for label, c in self.contacts.items():
            if c.down and not c.used and now >= c.down_at + self.hold_time:
                c.used = True
                out.append(Gesture("hold", (label,), c.down_at + self.hold_time))
        return out


class StatusLed:
    """Instant feedback while the e-paper takes 8-30 s: a blink per accepted press, a flicker per refusal."""

    def __init__(self, pin: int, pin_factory: Any, pwm: bool = False, active_high: bool = True) -> None:
        from gpiozero import LED, PWMLED  # lazy hardware import

        kind = PWMLED if pwm else LED
        try:
            self.led = kind(pin, active_high=active_high, pin_factory=pin_factory)
        except Exception as exc:  # a busy or wrong pin: said as the LED's, with its pin
            raise PinClaimError("the LED", pin, exc) from exc
        self.pin = pin

    def accepted(self) -> None:
        self.led.blink(on_time=0.08, off_time=0.02, n=1, background=True)

    def refused(self) -> None:
        self.led.blink(on_time=0.05, off_time=0.05, n=4, background=True)

    def failed(self) -> None:
        self.led.blink(on_time=0.3, off_time=0.1, n=3, background=True)

    def asking(self) -> None:
        """The shutdown question is open: keep holding while it blinks."""
        self.led.blink(on_time=0.2, off_time=0.2, n=None, background=True)

    def let_go(self) -> None:
        """Steady: let go now to confirm."""
        self.led.on()

    def idle(self) -> None:
        self.led.off()

    def close(self) -> None:
        self.led.close()


@dataclass
class _Claim:
    """A virtual press waiting for the gesture its pin edges produce."""

    label: str
    emitted: threading.Event = field(default_factory=threading.Event)
    future: Future | None = None


Handler = Callable[[Gesture], Any]


class ButtonPanel:
    """Four buttons (any labels) on BCM pins, calling ``handler(gesture)`` one gesture at a time, in order.

    ``is_refusal(exc)`` tells a refused action (a rule said no: LED flicker,
    logged as a warning) from a failure (a bug or broken hardware: reported to
    ``faults`` so the doctor and ``GET /api/hardware`` show it).
    """

    def __init__(
        self,
        handler: Handler,
        pin_factory: Any,
        pins: dict[str, int] | None = None,
        hold_time: float = 1.0,
        debounce: float = DEBOUNCE,
        chords: Iterable[Iterable[str]] = DEFAULT_CHORDS,
        led: StatusLed | None = None,
        faults: Any = None,
        is_refusal: Callable[[BaseException], bool] = lambda exc: False,
        on_gesture: Callable[[Gesture], None] | None = None,
        ticker: bool = True,
    ) -> None:
        from gpiozero import InputDevice  # lazy hardware import
        from gpiozero.pins.mock import MockFactory

        self.handler = handler
        self.factory = pin_factory
        self.pins = dict(pins or IMPRESSION_PINS)
        if len(set(self.pins.values())) != len(self.pins):
            raise ValueError(f"two buttons share a pin: {self.pins}")
        self.hold_time = hold_time
        self.debounce = debounce
        self.led = led
        self.faults = faults
        self.is_refusal = is_refusal
        self.on_gesture = on_gesture
        self.simulated = isinstance(pin_factory, MockFactory)
        self.gestures = Gestures(self.pins, hold_time=hold_time, debounce=debounce, chords=chords)
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self.last_error: str | None = None
        self._cond = threading.Condition()
        self._claims: dict[str, _Claim] = {}
        self._sim_lock = threading.Lock()
        self._queue: queue.Queue[tuple[Gesture, Future] | None] = queue.Queue()
        self._closed = False
        self._clock_warned = False
        self.devices: dict[str, Any] = {}
        self._edge_handlers: dict[str, Callable[[float, Any], None]] = {}
        try:
            for label, pin in self.pins.items():
                try:
                    device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
                except Exception as exc:  # GPIOPinInUse, lgpio's 'GPIO busy': say which button and pin
                    raise PinClaimError(f"button {label}", pin, exc) from exc
                device.pin.bounce = None  # our debouncing, on the event timestamps
                device.pin.edges = "both"
                # gpiozero keeps only a weak reference to the callback: hold it here
                self._edge_handlers[label] = self._edge_handler(label)
                device.pin.when_changed = self._edge_handlers[label]
                self.devices[label] = device
        except BaseException:
            self.close()
            raise
        self._worker = threading.Thread(target=self._work, name="buttons", daemon=True)
        self._worker.start()
        self._ticker = threading.Thread(target=self._tick, name="button-timer", daemon=True) if ticker else None
        if self._ticker:
            self._ticker.start()

    # -- edges and time ------------------------------------------------------------------
    def now(self) -> float:
        return self.factory.ticks()

    def _edge_handler(self, label: str) -> Callable[[float, Any], None]:
        def on_edge(ticks: float, state: Any) -> None:
            # pull-up, active low: the pin reads 0 while the button is down
            down = not bool(state)
            now = self.now()
            if abs(now - ticks) > 1.0:  # an event clock other than ours: fall back to arrival time
                if not self._clock_warned:
                    log.warning("GPIO event times are not on the monotonic clock; using arrival times")
                    self._clock_warned = True
                ticks = now
            with self._cond:  # recognise and queue under one lock: the queue keeps the order of the presses
                self._emit(self.gestures.edge(label, down, ticks))
                self._cond.notify_all()

        return on_edge

    def poll(self, now: float | None = None) -> list[Gesture]:
        """Let time pass to ``now`` (default: the factory's clock): settle levels, fire due holds."""
        with self._cond:
            found = self.gestures.advance(self.now() if now is None else now)
            self._emit(found)
        return found

    def _tick(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                deadline = self.gestures.next_deadline()
                wait = None if deadline is None else deadline - self.now()
                if wait is None or wait > 0:
                    self._cond.wait(wait)
                    continue
            self.poll()

    # -- gestures to actions -------------------------------------------------------------
    def _emit(self, found: list[Gesture]) -> None:
        for gesture in found:
            if gesture.kind == "contact":
                if self.led:
                    self.led.accepted()
                continue
            future: Future = Future()
            claim = self._claims.pop(gesture.button, None)
            if claim is not None:
                claim.future = future
                claim.emitted.set()
            log.debug("button %s queued", gesture.name)
            if self.on_gesture:
                try:
                    self.on_gesture(gesture)
                except Exception:
                    log.exception("gesture listener failed")
            self._queue.put((gesture, future))

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            gesture, future = item
            try:
                result = self.handler(gesture)
            except BaseException as exc:  # SystemExit too: a dead worker would lose every later press
                self._record(gesture, exc)
                future.set_exception(exc)
            else:
                self._record(gesture, None, result)
                future.set_result(result)
            finally:
                self._queue.task_done()

    def _record(self, gesture: Gesture, exc: BaseException | None, result: Any = None) -> None:
        entry: dict[str, Any] = {"gesture": gesture.name, "kind": gesture.kind, "at": gesture.at}
        if exc is None:
            summary = result.get("result", {}).get("summary") if isinstance(result, dict) else None
            entry.update(ok=True, summary=summary or "")
            log.info("button %s: %s", gesture.name, summary or "done")
        elif self.is_refusal(exc):
            message = getattr(exc, "message", None) or str(exc)
            entry.update(ok=False, refused=message)
            log.warning("button %s refused: %s", gesture.name, message)
            if self.led:
                self.led.refused()
        else:
            text = f"{type(exc).__name__}: {exc}"
            entry.update(ok=False, error=text)
            self.last_error = text
            log.error("button %s failed", gesture.name, exc_info=exc)
            if self.faults is not None:
                component = getattr(exc, "component", "buttons")  # "binding": the game's button map raised
                fix = (
                    f"the game's button map failed for {gesture.name}: report it; meanwhile set another "
                    "action for it in [buttons] map"
                    if component == "binding"
                    else f"the action for {gesture.name} crashed: see 'journalctl -u tableside' and report it"
                )
                self.faults.report(component, exc, fix=fix)
            if self.led:
                self.led.failed()
        self.history.append(entry)

    def submit(self, gesture: Gesture) -> Future:
        """Queue a gesture that came from elsewhere (the phone's button on a real Pi): same queue, same order."""
        future: Future = Future()
        with self._cond:
            if self.on_gesture:
                self.on_gesture(gesture)
            self._queue.put((gesture, future))
        return future

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until every queued gesture has run (tests, shutdown); False on timeout."""
        done = threading.Event()
        threading.Thread(target=lambda: (self._queue.join(), done.set()), daemon=True).start()
        return done.wait(timeout)

    # -- simulation ------------------------------------------------------------------------
    def simulate(self, label: str, hold: bool = False, timeout: float = 30.0) -> Any:
        """Press (or hold) a button by driving its mock pin; returns the handler's answer.

        Raises whatever the handler raised (for example a RuleError) so the
        panel can show it. Only possible with MockFactory and the ticker running.
        """
        if not self.simulated:
            raise RuntimeError("virtual presses need the simulated pins (tableside serve --simulate)")
        if label not in self.pins:
            raise KeyError(label)
        pin = self.factory.pin(self.pins[label])
        with self._sim_lock:
            claim = _Claim(label)
            self._claims[label] = claim
            try:
                pin.drive_low()
                if hold:
                    claim.emitted.wait(self.hold_time * 5 + 1)
                else:
                    time.sleep(self.debounce * 2)
                pin.drive_high()
                registered = claim.emitted.wait(timeout)
            finally:
                self._claims.pop(label, None)
            time.sleep(self.debounce * 1.5)  # let the release settle before the next virtual press
        if not registered or claim.future is None:
            raise RuntimeError("the press was not registered")
        return claim.future.result(timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if getattr(self, "_worker", None) is not None:
            self._queue.put(None)  # after the presses already queued: they run (and are logged) first
            if self._worker is not threading.current_thread():
                self._worker.join(timeout=5)
        for device in self.devices.values():
            device.close()
        if self.led:
            self.led.close()

    def status(self) -> dict[str, Any]:
        """For GET /api/hardware: pins, timings, the last few gestures and the last failure."""
        return {
            "pins": dict(self.pins),
            "hold_time": self.hold_time,
            "debounce_ms": round(self.debounce * 1000, 3),
            "led": self.led.pin if self.led else None,
            "recent": list(self.history)[-10:],
            "last_error": self.last_error,
        }
