"""What a button gesture does: the table's button map, the config's overrides, and the prompts
the buttons themselves own (the shutdown confirmation, physical dice entry).

Order of decision for a gesture:
1. an open prompt of the buttons' own (shutdown "press A to confirm", dice entry) takes it;
2. the shutdown chord (A+D held) opens the shutdown prompt;
3. the config's ``[buttons.map]`` override for that gesture ("A", "hold D", "A+D");
4. the game system's button map for the current state (and its pending prompt).

The shutdown command never runs in simulation: a laptop must not switch itself off
because someone pressed two keys.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tableside.core import dice as dice_rules
from tableside.core.errors import Conflict, RuleError
from tableside.core.words import plural
from tableside.device.buttons import Gesture

log = logging.getLogger(__name__)

SHUTDOWN_COMMAND = ("systemctl", "poweroff")
EACH_DIE_UP_TO = 4  # more dice than this (of at most six sides) are entered as a count per face
CONFIRM_WINDOW = 5.0  # seconds to answer a question (the chord: to let go once the light is steady)
CONFIRM_HOLD = 2.0  # the chord is held this much longer, while the light blinks, before letting go confirms
EXPIRED_GRACE = 10.0  # a press this soon after a question lapsed answers it (too late), never plays
SPECIAL_TARGETS = ("undo", "redo", "shutdown", "dice", "none", "join")


@dataclass
class Prompt:
    """A question the buttons ask on the e-paper: its words and when it was opened (gesture ticks)."""

    kind: str  # "shutdown" | "dice"
    title: str
    lines: tuple[str, ...]
    at: float
    deadline: float | None = None  # seconds after it opens that it lapses (a question with a deadline)
    on_panel: bool = True  # drawn on the e-paper: only when the panel can show it before the deadline
    by_chord: bool = False  # the shutdown chord's question: answered by letting go of the chord
    serial: int = 0  # which question: a phone's Confirm names it, so it never confirms a later one
    decided: bool = False  # "Shutting down": no gesture changes it any more

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "title": self.title, "lines": list(self.lines)}
        if self.deadline is not None:
            out["deadline_seconds"] = self.deadline
        if self.kind == "shutdown" and not self.decided:
            out["id"] = self.serial  # POST /api/prompt/confirm {"id": ...}: every phone may confirm it at once
        return out


def _result(summary: str, **extra: Any) -> dict[str, Any]:
    return {"result": {"summary": summary, **extra}}


class Controls:
    """Turns gestures into table actions; ``handle`` runs on the button worker thread, one at a time."""

    def __init__(
        self,
        table: Any,
        *,
        simulated: bool,
        shutdown_command: Sequence[str] = SHUTDOWN_COMMAND,
        shutdown_chord: Sequence[str] = ("A", "D"),
        overrides: dict[str, str] | None = None,
        confirm_window: float = CONFIRM_WINDOW,
        on_change: Callable[[], None] = lambda: None,
        run: Callable[..., Any] = subprocess.run,
        faults: Any = None,
        schedule: Callable[[float, Callable[[], None]], Any] | None = None,
        physical_dice: bool = False,
    ) -> None:
        self.table = table
        self.simulated = simulated
        self.shutdown_command = tuple(shutdown_command)
        self.shutdown_chord = "+".join(sorted(shutdown_chord))
        self.overrides = dict(overrides or {})
        self.confirm_window = confirm_window
        self.on_change = on_change
        self.run = run
        self.faults = faults
        self.schedule = schedule if schedule is not None else _timer
        self.prompt: Prompt | None = None
        self.show_join: Callable[[], None] | None = None  # set by serve: the e-paper's join screen
        self.physical_dice = physical_dice  # buttons enter the faces of real dice instead of rolling
        self.entry: DiceEntry | None = None
        # Set by serve: can the e-paper show a new frame within this many seconds (its refresh, one under way)?
        self.can_show: Callable[[float], bool] = lambda seconds: True
        self.light: Callable[[str], None] = lambda state: None  # the LED: "asking", "let-go", "idle"
        self.say: Callable[[str], None] = lambda text: None  # every phone at once
        self._lapsed: tuple[str, float] | None = None  # (what, when in gesture ticks) of the last lapsed question
        self._serial = 0  # the last question's number (Prompt.serial)
        self._lock = threading.Lock()

    # -- the e-paper and the phone ------------------------------------------------------------
    def overlay(self) -> dict[str, Any] | None:
        """The prompt the buttons have open (the phones show it at once), or None."""
        prompt = self.prompt
        return prompt.to_dict() if prompt else None

    def panel_overlay(self) -> dict[str, Any] | None:
        """The prompt the e-paper shows instead of the game: never a question it cannot show in time."""
        prompt = self.prompt
        return prompt.to_dict() if prompt and prompt.on_panel else None

    def _set_prompt(self, prompt: Prompt | None) -> None:
        self.prompt = prompt
        try:
            self.on_change()
        except Exception:
            log.exception("prompt listener failed")

    # -- gestures -------------------------------------------------------------------------------
    def handle(self, gesture: Gesture) -> dict[str, Any]:
        with self._lock:
            return self._handle(gesture)

    def _handle(self, gesture: Gesture) -> dict[str, Any]:
        prompt = self.prompt
        if prompt is not None and prompt.decided:  # the chord let go after a phone confirmed: nothing more
            return _result("Shutting down")
        if prompt is not None and prompt.kind == "shutdown":
            return self._answer_shutdown(prompt, gesture)
        lapsed, self._lapsed = self._lapsed, None
        if lapsed is not None and gesture.at - lapsed[1] <= EXPIRED_GRACE:
            return _result(f"{lapsed[0]} had lapsed: nothing happened (press again to play)")
        if gesture.kind == "release":
            return _result("")  # letting go of a chord is no action of its own
        if gesture.name == self.shutdown_chord and self.overrides.get(gesture.name, "shutdown") == "shutdown":
            return self._ask_shutdown(gesture)
        if self.entry is not None:
            return self._enter(self.entry, gesture)
        target = self.overrides.get(gesture.name)
        if target is not None:
            return self._run_target(target, gesture)
        if gesture.kind == "chord":
            raise RuleError(f"buttons {gesture.name} together do nothing")
        if gesture.hold and self.show_join is not None and not self.table.binds(gesture.button, True):
            return self._run_target("join", gesture)  # a hold the game leaves free: how to join
        if self.physical_dice:
            return self._press_with_dice(gesture, [])
        return self.table.press(gesture.button, gesture.hold, source="button")

    def _run_target(self, target: str, gesture: Gesture) -> dict[str, Any]:
        if target == "none":
            raise RuleError(f"button {gesture.name} is switched off in the config")
        if target == "undo":
            return self.table.undo(source="button")
        if target == "redo":
            return self.table.redo(source="button")
        if target == "shutdown":
            return self._ask_shutdown(gesture)
        if target == "join":
            if self.show_join is None:
                raise RuleError("there is no panel to show the join screen on")
            self.show_join()
            return _result("The join screen (QR code, address, join code) is on the panel")
        if target == "dice":
            self.physical_dice = not self.physical_dice
            self._set_prompt(None)
            return _result(
                "Physical dice: the buttons enter what your dice show"
                if self.physical_dice
                else "Tableside rolls the dice again",
                physical_dice=self.physical_dice,
            )
        if self.physical_dice and self._rolls(target):
            return self._press_with_dice(gesture, [])
        return self.table.act({"type": target}, source="button")

    def _rolls(self, action_type: str) -> bool:
        """Does the active game's ``action_type`` roll dice (so real dice are asked for)?"""
        return any(a.get("type") == action_type and a.get("rolls_dice") for a in self.table.actions()["actions"])

    def _perform(self, gesture: Gesture, faces: list[int]) -> dict[str, Any]:
        """The gesture's action (the config's override, else the game's map) with typed-in faces."""
        target = self.overrides.get(gesture.name)
        if target is not None and target not in SPECIAL_TARGETS:
            return self.table.act({"type": target, "faces": list(faces)}, source="button")
        return self.table.press(gesture.button, gesture.hold, source="button", faces=list(faces))

    # -- physical dice -----------------------------------------------------------------------------
    def _press_with_dice(self, gesture: Gesture, faces: list[int]) -> dict[str, Any]:
        """Run the gesture's action with the faces entered so far; open (or go on with) entry if it needs more."""
        try:
            return self._perform(gesture, faces)
        except RuleError as exc:
            needs = getattr(exc, "needs_dice", None)
            if not needs:
                raise
            entry = DiceEntry.start(gesture, needs[0]["label"], needs[0]["expr"], faces)
            self.entry = entry
            self._show_entry(entry)
            return _result(f"Enter the dice for {entry.label} ({entry.expr.text})", prompt=self.overlay())

    def hand_to_dice(self) -> tuple[dict[str, Any], list[int]] | None:
        """Close the open dice entry and give its action and the faces of its earlier rolls to the smart
        dice, which finish it (a die landed while the buttons asked for faces); None when none is open."""
        with self._lock:
            entry = self.entry
            if entry is None:
                return None
            target = self.overrides.get(entry.gesture.name)
            if target is not None and target not in SPECIAL_TARGETS:
                raw: dict[str, Any] | None = {"type": target}
            else:
                raw = self.table.bound_action(entry.gesture.button, entry.gesture.hold)
            if raw is None:
                return None
            self.entry = None
            self._set_prompt(None)
            return raw, list(entry.before)

    def _enter(self, entry: DiceEntry, gesture: Gesture) -> dict[str, Any]:
        button = gesture.button if gesture.kind != "chord" else ""
        if button == "D":
            self.entry = None
            self._set_prompt(None)
            return _result("Dice entry cancelled: nothing changed")
        if button in ("A", "B"):
            entry.step(+1 if button == "A" else -1)
        elif button == "C":
            if entry.confirm():
                self.entry = None
                self._set_prompt(None)
                return self._press_with_dice(entry.gesture, entry.all_faces())
        else:
            raise RuleError("entering dice: A up, B down, C confirm, D cancel")
        self._show_entry(entry)
        return _result(entry.status(), prompt=self.overlay())

    def _show_entry(self, entry: DiceEntry) -> None:
        self._set_prompt(Prompt("dice", f"Enter the dice: {entry.label}", entry.lines(), entry.gesture.at))

    # -- shutdown -------------------------------------------------------------------------------
    def _ask_shutdown(self, gesture: Gesture) -> dict[str, Any]:
        if gesture.kind == "chord":  # confirmed on the device: keep holding while the light blinks, then let go
            deadline = CONFIRM_HOLD + self.confirm_window
            lines = (
                f"Keep holding {gesture.name} while the light blinks; let go when it stays on to switch off.",
                "Let go now to carry on playing.",
            )
        else:
            deadline = self.confirm_window
            lines = (f"Press A within {self.confirm_window:g} s to switch off.", "Any other button: carry on playing.")
        prompt = Prompt(
            "shutdown",
            "Shut down the table?",
            lines,
            gesture.at,
            deadline=deadline,
            on_panel=self.can_show(deadline),  # e-paper: only if it is there before the question lapses
            by_chord=gesture.kind == "chord",
            serial=self._next_serial(),
        )
        self._set_prompt(prompt)
        if prompt.by_chord:
            self.light("asking")
            self.schedule(CONFIRM_HOLD, lambda: self._steady(prompt))
        self.schedule(deadline, lambda: self._expire(prompt))
        return _result(f"Shut down? {lines[0]}", prompt=prompt.to_dict())

    def _next_serial(self) -> int:
        self._serial += 1
        return self._serial

    def confirm(self, serial: Any, at: float) -> dict[str, Any]:
        """A phone's Confirm of the open shutdown question ``serial`` at ``at`` (gesture ticks): decided at once.

        Any phone that joined the table may confirm: the question only opens when someone at the device
        held the chord (or a button mapped to it), and the phones' virtual buttons are every joined phone's
        already. A question that lapsed, was answered, or is not the one shown changes nothing.
        """
        if isinstance(serial, bool) or not isinstance(serial, int):
            raise RuleError("'id' must be the number of the shutdown question the phone shows")
        with self._lock:
            prompt = self.prompt
            if prompt is None or prompt.kind != "shutdown" or prompt.decided or prompt.serial != serial:
                raise Conflict("that shutdown question is no longer open (it lapsed or was answered): nothing happened")
            if prompt.deadline is not None and at - prompt.at > prompt.deadline:  # its timer had not run yet
                self._lapse(prompt, prompt.at + prompt.deadline)
                raise Conflict("the shutdown question had lapsed: nothing happened")
            self.light("idle")
            try:
                return self._shutdown()
            except RuntimeError as exc:  # the command failed: filed as the shutdown fault, said as it is
                raise Conflict(str(exc)) from None

    def _steady(self, prompt: Prompt) -> None:
        with self._lock:
            if self.prompt is prompt:
                self.light("let-go")

    def _expire(self, prompt: Prompt) -> None:
        with self._lock:
            if self.prompt is prompt:
                self._lapse(prompt, prompt.at + (prompt.deadline or 0.0))

    def _lapse(self, prompt: Prompt, at: float) -> None:
        """The question lapsed unanswered: said on every phone; the next press soon after only says so."""
        self._lapsed = ("The shutdown question", at)
        self.light("idle")
        self._set_prompt(None)
        self.say("The shutdown question lapsed: the table plays on")

    def _answer_shutdown(self, prompt: Prompt, gesture: Gesture) -> dict[str, Any]:
        held = gesture.at - prompt.at
        if prompt.deadline is not None and held > prompt.deadline:  # its timer had not run yet: it lapsed
            self._lapse(prompt, prompt.at + prompt.deadline)
            self._lapsed = None
            return _result("The shutdown question had lapsed: nothing happened (press again to play)")
        if prompt.by_chord:
            if gesture.kind == "release" and held >= CONFIRM_HOLD:
                self.light("idle")
                return self._shutdown()
            self.light("idle")
            self._set_prompt(None)
            return _result("Shutdown cancelled (let go before the light stayed on)")
        if gesture.kind == "press" and gesture.button == "A":
            return self._shutdown()
        self._set_prompt(None)
        return _result("Shutdown cancelled")

    def _shutdown(self) -> dict[str, Any]:
        if self.simulated:
            self._set_prompt(None)
            raise RuleError("shutdown refused: this table is simulated, so it will not switch this computer off")
        self._set_prompt(
            Prompt(
                "shutdown",
                "Shutting down",
                ("Wait until the Pi's green light stops blinking before unplugging it.",),
                0.0,
                decided=True,
            )
        )
        log.warning("shutting down: %s", " ".join(self.shutdown_command))
        try:
            done = self.run(list(self.shutdown_command), capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as exc:
            return self._shutdown_failed(str(exc))
        if getattr(done, "returncode", 0) != 0:
            return self._shutdown_failed((getattr(done, "stderr", "") or "").strip() or f"exit {done.returncode}")
        return _result("Shutting down")

    def _shutdown_failed(self, why: str) -> dict[str, Any]:
        self._set_prompt(None)
        text = f"the shutdown command {' '.join(self.shutdown_command)!r} failed: {why}"
        if self.faults is not None:
            self.faults.report(
                "shutdown",
                text,
                fix="re-run systemd/install.sh (it allows the service user to "
                "power off) or set [system] shutdown_command in the config",
            )
        raise RuntimeError(text)


def _timer(delay: float, callback: Callable[[], None]) -> threading.Timer:
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


@dataclass
class DiceEntry:
    """Physical faces entered with four buttons, one roll (``label``, ``expr``) at a time.

    A few dice: one face each (A up, B down, wrapping; C confirms the die). A pool of more than
    EACH_DIE_UP_TO dice of at most six sides: how many show each face, high to low (the last
    face takes the rest). Exploding dice ask for the extra dice their top faces rolled in.
    The faces go to the game's own rules exactly as rolled ones would.
    """

    gesture: Gesture
    label: str
    expr: dice_rules.DiceExpr
    before: list[int]  # faces of earlier rolls of the same action, already entered
    faces: list[int]
    value: int
    by_count: bool
    face: int  # by_count: the face whose count is being entered
    pass_size: int = 0  # by_count: the dice of this pass (the pool, then the dice its top faces rolled in)
    pass_start: int = 0

    @classmethod
    def start(cls, gesture: Gesture, label: str, expr: str, before: list[int]) -> DiceEntry:
        parsed = dice_rules.parse(expr)
        by_count = parsed.count > EACH_DIE_UP_TO and parsed.sides <= 6
        return cls(
            gesture,
            str(label)[:40],
            parsed,
            list(before),
            [],
            0 if by_count else 1,
            by_count,
            parsed.sides,
            parsed.count,
            0,
        )

    def needed(self) -> int:
        """Dice in this roll so far: the count, plus one for each top face of an exploding die."""
        extra = sum(1 for f in self.faces if f == self.expr.sides) if self.expr.explode else 0
        return self.expr.count + extra

    def remaining(self) -> int:
        return self.needed() - len(self.faces)

    def left_in_pass(self) -> int:
        return self.pass_size - (len(self.faces) - self.pass_start)

    def step(self, delta: int) -> None:
        if self.by_count:
            self.value = max(0, min(self.left_in_pass(), self.value + delta))
        else:
            self.value = (self.value - 1 + delta) % self.expr.sides + 1

    def confirm(self) -> bool:
        """Take the value shown; True when this roll has all its faces."""
        if self.by_count:
            self.faces += [self.face] * self.value
            self.face -= 1
            if self.face == 1:  # the rest of this pass show 1
                self.faces += [1] * self.left_in_pass()
            pass_done = self.face == 1 or self.left_in_pass() == 0
            if pass_done and self.remaining() > 0:  # top faces exploded: the dice they rolled in, from the top
                self.pass_start, self.pass_size, self.face = len(self.faces), self.remaining(), self.expr.sides
            self.value = 0
        else:
            self.faces.append(self.value)
            self.value = 1
        return self.remaining() == 0

    def all_faces(self) -> list[int]:
        return self.before + self.faces

    def status(self) -> str:
        if self.by_count:
            return f"{self.label}: how many {self.face}s? {self.value} ({plural(self.left_in_pass(), 'die')} left)"
        return f"{self.label}: die {len(self.faces) + 1} of {self.needed()} shows {self.value}"

    def lines(self) -> tuple[str, ...]:
        so_far = ", ".join(map(str, self.faces)) or "none yet"
        if self.by_count:
            extra = " rolled in" if self.pass_start else ""
            ask = f"How many {self.face}s?  > {self.value} <   ({plural(self.left_in_pass(), 'die')}{extra} left)"
        else:
            ask = f"Die {len(self.faces) + 1} of {self.needed()}:  > {self.value} <"
        return (f"{self.expr.text}", ask, f"Entered: {so_far}", "A up   B down   C confirm   D cancel")
