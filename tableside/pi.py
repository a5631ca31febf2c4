"""The Pi appliance's parts, built once by ``tableside serve``: pin factory, buttons, LED, controls, address.

Kept out of serve.py so the server's own wiring stays short: ``Appliance``
chooses the pin factory (and says why), builds the buttons and the optional
status LED with it, routes gestures through ``Controls`` and watches for the
network address to appear. ``status()`` is what ``GET /api/hardware`` shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from tableside.config import Config
from tableside.core.errors import TablesideError
from tableside.device.buttons import ButtonPanel, Gesture, StatusLed
from tableside.device.controls import Controls
from tableside.device.pins import PinChoice, PinConflict, choose_pin_factory, mock_factory, pi_model
from tableside.faults import Faults
from tableside.network import Addresses, AddressWatch, current

log = logging.getLogger("tableside")


def prompt_screen(prompt: dict[str, Any]):
    """The e-paper frame for a prompt the buttons own (shutdown, dice entry): big words, nothing else."""
    from tableside.core.screen import Screen, Text

    lines = tuple(Text(line, priority=1) for line in prompt.get("lines", ()))
    return Screen(title=prompt.get("title", "Tableside"), status=prompt.get("status", ""), elements=lines)


class Appliance:
    """Buttons, LED and address of one running table; ``redraw`` is set once the display worker exists."""

    def __init__(
        self,
        cfg: Config,
        table: Any,
        broker: Any,
        faults: Faults,
        simulate: bool = False,
        model: str | None = None,
        buttons: dict[str, int] | None = None,
        conflict: PinConflict | None = None,
    ) -> None:
        """``buttons``: the pins checked against the display's (``pins.resolve_pins``); ``conflict``: why
        they clash with it, and then no pin is claimed (the phone's buttons still work)."""
        self.table = table
        self.broker = broker
        self.faults = faults
        self.redraw: Callable[[], None] = lambda: None
        model = model if model is not None else pi_model()
        if conflict is not None:
            self.pins = PinChoice(
                mock_factory(),
                "mock",
                "no pin claimed: the config clashes with the display",
                conflict.message,
                conflict.fix,
                model,
            )
        else:
            self.pins = choose_pin_factory(simulate, cfg.pin_factory, model)
        pins = dict(buttons if buttons is not None else cfg.buttons)
        if self.pins.error:
            faults.report("pins", self.pins.error, fix=self.pins.fix)
        log.debug("pin factory: %s (%s)", self.pins.name, self.pins.why)  # serve prints it once, as "Buttons:"
        self.buttons_note = (
            f"{self.pins.name} pin factory: {self.pins.why}"
            if not self.pins.error
            else f"ERROR {self.pins.error}; fix: {self.pins.fix}. The phone's buttons still work"
        )
        self.led = None
        if cfg.led_pin is not None and conflict is None:
            try:
                self.led = StatusLed(cfg.led_pin, self.pins.factory, pwm=cfg.led_pwm, active_high=cfg.led_active_high)
            except Exception as exc:  # a wrong LED pin must not stop the table
                faults.report("led", exc, fix=f"check [led] pin = {cfg.led_pin} in the config and the wiring")
        self.controls = Controls(
            table,
            simulated=self.pins.simulated,
            shutdown_command=cfg.shutdown_command,
            shutdown_chord=cfg.shutdown_chord,
            overrides=cfg.button_map,
            on_change=self._prompt_changed,
            faults=faults,
            physical_dice=cfg.physical_dice,
        )
        self.buttons = ButtonPanel(
            self._on_gesture,
            self.pins.factory,
            pins,
            hold_time=cfg.hold_time,
            debounce=cfg.debounce_ms / 1000,
            chords=[cfg.shutdown_chord],
            led=self.led,
            faults=faults,
            is_refusal=lambda exc: isinstance(exc, TablesideError),
            on_gesture=self._pressed,
        )
        self.address: Addresses = current(0)
        self._watch: AddressWatch | None = None

    def _prompt_changed(self) -> None:
        """A prompt of the buttons' own opened, changed or closed: the e-paper redraws, the phone shows it now."""
        self.broker.publish({"kind": "prompt", "prompt": self.controls.overlay()})
        self.redraw()

    # -- gestures -------------------------------------------------------------------------------
    def _pressed(self, gesture: Gesture) -> None:
        """The phone shows the press at once, long before the e-paper has redrawn."""
        self.broker.publish({"kind": "press", "button": gesture.name})

    def _on_gesture(self, gesture: Gesture) -> Any:
        try:
            out = self.controls.handle(gesture)
        except TablesideError as exc:
            self.broker.publish({"kind": "rejected", "message": exc.message, "button": gesture.name})
            raise
        # A game change reaches every phone as its log entry; a press that changes no game (the join screen,
        # physical dice on or off, a question of the buttons') is said on every phone by its own words.
        said = (out.get("result") or {}).get("summary") if isinstance(out, dict) and "version" not in out else None
        if said:
            self.broker.publish({"kind": "said", "message": said, "button": gesture.name})
        return out

    def press(self, label: str, hold: bool) -> Any:
        """A press from the phone: the mock pins in simulation, else the same queue as the GPIO buttons."""
        if self.buttons.simulated:
            return self.buttons.simulate(label, hold)
        gesture = Gesture("hold" if hold else "press", (label,), self.buttons.now())
        return self.buttons.submit(gesture).result(60)

    # -- address --------------------------------------------------------------------------------
    def watch_address(self, port: int, listen: str) -> None:
        self._watch = AddressWatch(port, listen, self._address_changed)
        self.address = self._watch.now
        self._watch.start()

    def _address_changed(self, address: Addresses) -> None:
        self.address = address
        self.broker.publish({"kind": "address", **address.to_dict()})
        self.redraw()

    def join_text(self, code: str) -> str:
        if not self.address.online:
            return f"Waiting for Wi-Fi. Then open {self.address.url} on a phone (code {code})"
        return f"Open {self.address.url} on a phone, code {code}"

    # -- reporting ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        return {
            "buttons": "mock" if self.buttons.simulated else "gpio",
            "buttons_note": self.buttons_note,
            "pins": self.pins.to_dict(),
            "button_panel": self.buttons.status(),
            "prompt": self.controls.overlay(),
            "physical_dice": self.controls.physical_dice,
            "address": self.address.to_dict(),
            "errors": self.faults.snapshot(),
        }

    def close(self) -> None:
        if self._watch:
            self._watch.stop()
        self.buttons.close()
