"""Buttons A-D as gpiozero ``Button`` devices, built with an explicit pin factory.

On a Pi the default factory (lgpio) reads the Inky Impression's buttons; in
simulation gpiozero's own ``MockFactory`` stands in, and the panel's virtual
buttons drive its mock pins, so a virtual press runs exactly the code a real
one does. A press fires on release (so it can be told apart from a hold);
a hold fires once after ``hold_time``.

gpiozero's ``bounce_time`` is not enforced by MockFactory (facts.md), so the
debouncing here is our own: an edge within ``bounce`` seconds of the last
accepted edge is contact bounce and is ignored.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

# Inky Impression: A=GPIO5, B=GPIO6, C=GPIO16, D=GPIO24 (C is GPIO25 on the 13.3").
IMPRESSION_PINS = {"A": 5, "B": 6, "C": 16, "D": 24}
LABELS = ("A", "B", "C", "D")

Handler = Callable[[str, bool], Any]


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory  # lazy: gpiozero only where buttons are built

    return MockFactory()


def default_factory() -> Any:
    """The Pi's own pin factory, or an exception saying why there is none.

    gpiozero warns once per backend it falls back from; on a laptop that is
    four lines of noise before our own one-line note, so they are kept quiet.
    """
    import warnings

    from gpiozero import Device

    if Device.pin_factory is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Device.pin_factory = Device._default_pin_factory()
    return Device.pin_factory


class ButtonPanel:
    """Four buttons calling ``handler(label, hold)``; returns what the handler returned."""

    def __init__(
        self,
        handler: Handler,
        pin_factory: Any,
        pins: dict[str, int] | None = None,
        hold_time: float = 1.0,
        bounce: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import Button  # lazy hardware import

        self.handler = handler
        self.factory = pin_factory
        self.pins = dict(pins or IMPRESSION_PINS)
        self.hold_time = hold_time
        self.bounce = bounce
        self.clock = clock
        self.simulated = type(pin_factory).__name__ == "MockFactory"
        self._last_edge: dict[str, float] = {}
        self._down: dict[str, bool] = {}
        self._held: dict[str, bool] = {}
        self._held_event = {label: threading.Event() for label in self.pins}
        self._outcome: dict[str, Any] = {}
        self._sim_lock = threading.Lock()
        self.buttons = {}
        for label, pin in self.pins.items():
            button = Button(pin, pull_up=True, hold_time=hold_time, pin_factory=pin_factory)
            button.when_pressed = lambda _b=None, label=label: self._pressed(label)
            button.when_released = lambda _b=None, label=label: self._released(label)
            button.when_held = lambda _b=None, label=label: self._on_held(label)
            self.buttons[label] = button

    # -- edges ---------------------------------------------------------------
    def _accept_edge(self, label: str) -> bool:
        now = self.clock()
        last = self._last_edge.get(label)
        if last is not None and now - last < self.bounce:
            return False
        self._last_edge[label] = now
        return True

    def _pressed(self, label: str) -> None:
        if self._down.get(label) or not self._accept_edge(label):
            return
        self._down[label] = True
        self._held[label] = False

    def _on_held(self, label: str) -> None:
        if not self._down.get(label) or self._held.get(label):
            return
        self._held[label] = True
        self._fire(label, True)
        self._held_event[label].set()

    def _released(self, label: str) -> None:
        if not self._down.get(label) or not self._accept_edge(label):
            return
        self._down[label] = False
        if not self._held.get(label):
            self._fire(label, False)

    def _fire(self, label: str, hold: bool) -> None:
        try:
            self._outcome[label] = ("ok", self.handler(label, hold))
        except Exception as exc:  # a refused press is reported, never raised into gpiozero
            self._outcome[label] = ("error", exc)

    # -- simulation ------------------------------------------------------------
    def simulate(self, label: str, hold: bool = False) -> Any:
        """Press (or hold) a button by driving its mock pin; returns the handler's answer.

        Raises whatever the handler raised (for example a RuleError) so the
        panel can show it. Only possible with MockFactory.
        """
        if not self.simulated:
            raise RuntimeError("virtual presses need the simulated pins (tableside serve --simulate)")
        if label not in self.pins:
            raise KeyError(label)
        pin = self.factory.pin(self.pins[label])
        with self._sim_lock:
            wait = self.bounce - (self.clock() - self._last_edge.get(label, -1e9))
            if wait > 0:
                time.sleep(wait)
            self._outcome.pop(label, None)
            self._held_event[label].clear()
            pin.drive_low()
            if hold:
                self._held_event[label].wait(self.hold_time * 5 + 1)
            else:
                time.sleep(self.bounce)
            pin.drive_high()
            status, value = self._outcome.pop(label, ("error", RuntimeError("the press was not registered")))
        if status == "error":
            raise value
        return value

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
