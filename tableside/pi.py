"""The Pi appliance's parts, built once by ``tableside serve``: pin factory, buttons, LED, controls, address.

Kept out of serve.py so the server's own wiring stays short: ``Appliance``
chooses the pin factory (and says why), builds the buttons and the optional
status LED with it, routes gestures through ``Controls`` and watches for the
network address to appear. ``status()`` is what ``GET /api/hardware`` shows.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from tableside.config import Config
from tableside.core import rulebook_refs
from tableside.core.errors import RuleError, TablesideError
from tableside.device.buttons import ButtonPanel, Gesture, StatusLed
from tableside.device.controls import Controls
from tableside.device.pins import PinChoice, PinClaimError, PinConflict, choose_pin_factory, mock_factory, pi_model
from tableside.faults import Faults
from tableside.network import Addresses, AddressWatch, current

log = logging.getLogger("tableside")
BUTTONS_RETRY = 30.0  # seconds before a busy button or LED pin is claimed again; doubles up to the maximum
BUTTONS_RETRY_MAX = 300.0


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
            buttons_words(self.pins)
            if not self.pins.error
            else f"ERROR {self.pins.error}; fix: {self.pins.fix}. The phone's buttons still work"
        )
        self.led = None
        self._cfg, self._pin_list = cfg, pins
        self._led_wanted = cfg.led_pin is not None and conflict is None
        self._retry_stop = threading.Event()
        self._retry: threading.Thread | None = None
        self.on_recovered: Callable[[str], None] = lambda part: None  # serve: the phones re-read the status
        if self._led_wanted:
            self.led = self._make_led(self.pins.factory)
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
        self.controls.light = self._light
        self.controls.say = lambda text: broker.publish({"kind": "said", "message": text})
        self.buttons = self._make_buttons(self.pins.factory)
        if self.buttons is None:  # the phone's buttons still work: through mock pins, until the real ones answer
            self.buttons = self._make_buttons(mock_factory(), fallback=True)
        if self.buttons_failed or (self._led_wanted and self.led is None):
            self._retry = threading.Thread(target=self._retry_loop, name="buttons-retry", daemon=True)
            self._retry.start()
        self.address: Addresses = current(0)
        self._watch: AddressWatch | None = None

    # -- each part alone: a busy pin is said, the rest starts, and it is tried again ----------------
    buttons_failed: str | None = None

    def _make_led(self, factory: Any) -> StatusLed | None:
        cfg = self._cfg
        try:
            led = StatusLed(cfg.led_pin, factory, pwm=cfg.led_pwm, active_high=cfg.led_active_high)
        except Exception as exc:  # a busy or wrong LED pin must not stop the table
            fix = exc.fix("[led] pin") if isinstance(exc, PinClaimError) else f"check [led] pin = {cfg.led_pin}"
            self.faults.report("led", exc.message if isinstance(exc, PinClaimError) else exc, fix=fix)
            return None
        self.faults.clear("led")
        return led

    def _make_buttons(self, factory: Any, fallback: bool = False) -> ButtonPanel | None:
        cfg = self._cfg
        try:
            panel = ButtonPanel(
                self._on_gesture,
                factory,
                self._pin_list,
                hold_time=cfg.hold_time,
                debounce=cfg.debounce_ms / 1000,
                chords=[cfg.shutdown_chord],
                led=self.led,
                faults=self.faults,
                is_refusal=lambda exc: isinstance(exc, TablesideError),
                on_gesture=self._pressed,
            )
        except Exception as exc:  # GPIOPinInUse, lgpio's 'GPIO busy': the buttons' fault, nobody else's
            if fallback:
                raise
            if isinstance(exc, PinClaimError):
                label = exc.part.split()[-1]
                text, fix = exc.message, exc.fix(f"[buttons] pins {label}")
            else:
                text, fix = f"the buttons could not start ({exc})", "check [buttons] pins in the config and the wiring"
            self.buttons_failed = text
            self.buttons_note = f"ERROR {text}; fix: {fix}. The phone's buttons still work"
            self.faults.report("buttons", text, fix=fix)
            return None
        if not fallback and self.buttons_failed is not None:
            self.buttons_failed = None
            self.buttons_note = buttons_words(self.pins)
            self.faults.clear("buttons")
        return panel

    def _retry_loop(self) -> None:
        """Claim the pins that failed again now and then (another program let go of them)."""
        wait = BUTTONS_RETRY
        while not self._retry_stop.wait(wait):
            if self._led_wanted and self.led is None:
                self.led = self._make_led(self.pins.factory)
                if self.led is not None:
                    self.buttons.led = self.led
                    self.on_recovered("led")
            if self.buttons_failed is not None:
                panel = self._make_buttons(self.pins.factory)  # the stand-in's mock pins are another factory's
                if panel is not None:
                    panel.led, old, self.buttons = self.led, self.buttons, panel
                    old.close()  # a press it still holds runs first
                    self.on_recovered("buttons")
            if self.buttons_failed is None and not (self._led_wanted and self.led is None):
                return
            wait = min(wait * 2, BUTTONS_RETRY_MAX)

    def _light(self, state: str) -> None:
        """The LED as the shutdown chord's confirmation: blinking (keep holding), steady (let go), off."""
        led = self.led
        if led is not None:
            {"asking": led.asking, "let-go": led.let_go}.get(state, led.idle)()

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
            rule = rulebook_refs.reference(exc) if isinstance(exc, RuleError) else None  # its "Rule" link (#35)
            said = {"kind": "rejected", "message": exc.message, "button": gesture.name}
            self.broker.publish({**said, "rule": rule} if rule else said)
            raise
        # A game change reaches every phone as its log entry; a press that changes no game (the join screen,
        # physical dice on or off, a question of the buttons') is said on every phone by its own words.
        said = (out.get("result") or {}).get("summary") if isinstance(out, dict) and "version" not in out else None
        if said:
            self.broker.publish({"kind": "said", "message": said, "button": gesture.name})
        return out

    def confirm(self, serial: Any) -> dict[str, Any]:
        """A phone's Confirm of the open shutdown question, now: said on every phone like a button's answer."""
        out = self.controls.confirm(serial, self.buttons.now())
        said = out["result"]["summary"]
        self.broker.publish({"kind": "said", "message": f"A phone confirmed: {said}"})
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
            "buttons": "failed" if self.buttons_failed else "mock" if self.buttons.simulated else "gpio",
            "buttons_note": self.buttons_note,
            "pins": self.pins.to_dict(),
            "button_panel": self.buttons.status(),
            "prompt": self.controls.overlay(),
            "physical_dice": self.controls.physical_dice,
            "address": self.address.to_dict(),
            "errors": self.faults.snapshot(),
        }

    def close(self) -> None:
        self._retry_stop.set()
        if self._retry is not None and self._retry is not threading.current_thread():
            self._retry.join(timeout=10)
        if self._watch:
            self._watch.stop()
        self.buttons.close()


def buttons_words(pins) -> str:
    """The buttons, after "Buttons: " on the Display tab and at serve's start-up, in a player's words (#36: it
    was "mock pin factory: simulation was asked for (--simulate)"): what presses them, then why."""
    if pins.name == "mock":
        return f"virtual, pressed from the phones ({pins.why})"
    return f"GPIO pins, through {pins.name} ({pins.why})"
