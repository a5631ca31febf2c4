"""Rolls of smart dice into the action the table waits for, die by die.

What waits, in this order:
1. an action a phone (or the buttons) asked to finish with smart dice: its ``needs_dice`` answer;
2. the game's pending prompt, when its action needs nothing but dice (VENOM's combat roll);
3. nothing: the roll is offered to the phones as a free roll, to log or let go.

A wait names one roll at a time ("Attack: 2d10"), as the rules ask for it (``Table.dice_needed``
runs the rules on a copy and logs nothing), with whose dice they are (the roll's ``by``: the
attacker, whichever phone asked; one seat per die in a roll-off). Each die that lands fills one
place; the same die rolled again replaces its face; a die of another kind, or of another seat
than the one the rules say rolls, is refused in words (and a roll-off fills each seat's place
with that seat's own die).

No roll by accident: a landing starts the prompt's roll only if its die belongs to the seat the
prompt names (an "anyone" die where it names none), was seen rolling or handled first, and did
not land within ``SETTLE`` seconds after that seat's last roll was taken; otherwise it is a free
roll. A second request for dice while a roll is half in is refused in words.

When the roll has all its faces the next one is asked for, and when the action has all of
them it runs through ``Table.act`` with the faces, source ``dice`` and the die names:
the same recorded path as faces typed on a phone, so it replays from the log alone.

With fewer dice than the roll needs (a pool of ten from six dice), "keep" sets the faces in
place aside and the same dice roll again for the rest.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tableside.core import dice as dice_rules
from tableside.core.errors import BadRequest, RuleError, TablesideError
from tableside.core.words import plural

log = logging.getLogger("tableside")

MAX_FREE = 20  # dice of one free roll shown on a phone
SETTLE = 2.0  # seconds after a seat's roll was taken in which its dice start no prompt's roll


@dataclass
class Landing:
    """One die's face, as it landed."""

    die: str  # the die's id
    name: str  # the name players know it by (logged)
    face: int
    sides: int | None = None  # what rolls it can fill (None: a d00 or a Fudge die)
    seat: str | None = None  # the seat the die is assigned to (None: anyone's)

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.die, "name": self.name, "face": self.face}


@dataclass
class Wait:
    """An action waiting for the faces of one of its rolls."""

    raw: dict[str, Any]  # the action, without faces
    seat: str | None
    label: str
    expr: str
    origin: str  # "asked" (a phone) | "buttons" (their dice entry) | "prompt" (the game's pending prompt)
    version: int  # the table's version when the wait began
    private_to: str | None = None  # a seat's private dice (a Venus 2140 pool): only its phone sees the faces
    before: list[Landing] = field(default_factory=list)  # faces of earlier rolls of this action
    kept: list[Landing] = field(default_factory=list)  # faces set aside ("keep") in this roll
    slots: dict[str, Landing] = field(default_factory=dict)  # die id -> its face in this roll
    shown: str = ""  # the roll as players read it ("Cy (Pluto) vs Ann (Venus)"), where not its label
    by: Any = None  # whose dice, as the rules say (a seat, a list of seats for a roll-off, or None/"")

    @property
    def said(self) -> str:
        """The roll's name in what a phone or the e-paper reads (the label stays what the rules match)."""
        return self.shown or self.label

    @property
    def parsed(self) -> dice_rules.DiceExpr:
        return dice_rules.parse(self.expr)

    def faces(self) -> list[Landing]:
        """The faces in, in the roll's order: in a roll-off each seat's face in that seat's place."""
        slots = list(self.slots.values())
        if isinstance(self.by, list):
            slots.sort(key=lambda f: self.by.index(f.seat) if f.seat in self.by else len(self.by))
        return self.kept + slots

    def owner_refusal(self, landing: Landing) -> str | None:
        """Why this die may not fill this roll (the rules say whose dice these are), or None."""
        by, name = self.by, landing.name
        if isinstance(by, list):
            if landing.seat is None:
                return f"{name} is anyone's die: in {self.said} each seat rolls its own, so it was not used"
            if landing.seat not in by:
                return f"{name} is {landing.seat}'s die: {landing.seat} is not in {self.said}, so it was not used"
            return None
        owner = by or self.seat
        if landing.seat and owner and landing.seat != owner:
            return f"{name} is {landing.seat}'s die: {self.said} is {owner}'s roll, so it was not used"
        return None

    def whose(self, landing: Landing) -> str | None:
        """The seat whose roll this die's face is: its own in a roll-off, else the roll's owner."""
        return landing.seat if isinstance(self.by, list) else (self.by or self.seat or landing.seat)

    def place(self, landing: Landing) -> str:
        """The slot a die fills: its own, or in a roll-off its seat's."""
        return f"seat:{landing.seat}" if isinstance(self.by, list) else landing.die

    def needed(self) -> int:
        """Dice this roll takes: its count, plus one for each top face of an exploding die."""
        e = self.parsed
        extra = sum(1 for f in self.faces() if f.face == e.sides) if e.explode else 0
        return e.count + extra

    def to_dict(self, seat: str | None = None) -> dict[str, Any]:
        """What a phone of ``seat`` (None: the e-paper, a phone with no seat) may read of the wait."""
        e = self.parsed
        left = self.needed() - len(self.faces())
        hidden = self.private_to is not None and seat != self.private_to
        return {
            "type": self.raw.get("type"),
            "seat": self.seat,
            "label": self.label,
            "expr": e.text,
            "sides": e.sides,
            "needed": self.needed(),
            "left": max(0, left),
            "text": f"{self.said}: waiting for {left} d{e.sides}",
            "faces": [] if hidden else [f.to_dict() for f in self.faces()],
            "landed": len(self.faces()),
            "kept": len(self.kept),
            "earlier": [] if hidden else [f.to_dict() for f in self.before],
            "origin": self.origin,
            "private_to": self.private_to,
            "by": self.by,
        }


class DiceFeed:
    """Turns landed dice into faces for the waiting action (thread-safe: dice report from their own thread)."""

    def __init__(
        self, table: Any, on_change: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.table = table
        self.on_change = on_change
        self.clock = clock
        self.taken_at: dict[str | None, float] = {}  # seat (None: anyone's dice) -> when its last roll was taken
        self.private: dict[str, str] = {}  # die id -> the seat whose private roll it last showed
        self._prompts: tuple[Any, list[dict]] | None = None  # (table position, its pending prompts)
        self.waiting: Wait | None = None
        self.free: list[Landing] = []
        self.message: str | None = None
        # The buttons' open dice entry, handed over when a die lands (set by serve: Controls.hand_to_dice).
        self.from_buttons: Callable[[], tuple[dict, list[int]] | None] = lambda: None
        self._lock = threading.RLock()

    # -- what the phones and the e-paper read ---------------------------------------------------
    def status(self, seat: str | None = None) -> dict[str, Any]:
        """The wait, the free roll and the last word, as ``seat``'s phone may see them."""
        with self._lock:
            return {
                "waiting": self.waiting.to_dict(seat) if self.waiting else None,
                "free": [f.to_dict() for f in self.free],
                "message": self.message,
            }

    def overlay(self) -> dict[str, Any] | None:
        """The e-paper's prompt while dice are awaited: "Attack: waiting for 2 d10" and each die so far."""
        with self._lock:
            w = self.waiting
            if w is None:
                return None
            d = w.to_dict(None)
            if w.private_to:
                landed = f"{len(w.faces())} of {w.needed()} (private to {w.private_to})"
            else:
                landed = ", ".join(f"{f.name} {f.face}" for f in w.faces()) or "none yet"
            lines = [f"{d['expr']}: roll the smart dice", f"Landed: {landed}"]
            if w.before and not w.private_to:
                lines.append("Earlier: " + ", ".join(f"{f.name} {f.face}" for f in w.before))
            if self.message:
                lines.append(self.message)
            return {"kind": "dice", "title": d["text"], "lines": lines}

    # -- asking for dice ------------------------------------------------------------------------
    def wait(self, raw: Any, seat: str | None = None) -> dict[str, Any]:
        """Finish ``raw`` with smart dice (a phone's needs_dice answer, a button's dice step)."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
            raise BadRequest("'action' must be an action object with its 'type'")
        action = {k: v for k, v in raw.items() if k not in ("faces", "expected_version")}
        with self._lock:
            w = self.waiting
            if w is not None and w.faces():
                raise RuleError(
                    f"{w.said} is half in ({len(w.faces())} of {plural(w.needed(), 'die')} landed): "
                    "roll the rest, or stop waiting for it first"
                )
            need = self.table.dice_needed(action, [], seat)  # a refusal (not available, bad field) raises
            if need is None:
                raise RuleError(f"'{action['type']}' needs no dice now: play it as it is")
            self.waiting = self._new_wait(action, seat, need, "asked", [])
            self.message = None
            self.free.clear()
        self._changed()
        return self.status()

    def cancel(self) -> dict[str, Any]:
        with self._lock:
            if self.waiting is None and not self.free:
                raise RuleError("nothing is waiting for dice")
            self.waiting, self.message = None, "Stopped waiting for dice: nothing changed"
            self.free.clear()
        self._changed()
        return self.status()

    def keep(self) -> dict[str, Any]:
        """Set the faces in place aside, so the same dice roll again for the rest of the roll."""
        with self._lock:
            w = self.waiting
            if w is None or not w.slots:
                raise RuleError("no faces to keep: roll the dice first")
            w.kept += list(w.slots.values())
            w.slots.clear()
            self.message = f"Kept {plural(len(w.kept), 'face')}: roll again for the other {w.needed() - len(w.kept)}"
        self._changed()
        return self.status()

    def log_free(self, seat: str | None = None) -> dict[str, Any]:
        """Log the offered free roll (``NdS`` of what landed) in the active game."""
        with self._lock:
            if not self.free:
                raise RuleError("no free roll to log: roll a die first")
            kinds = {f.sides for f in self.free}
            if len(kinds) != 1 or None in kinds:
                raise RuleError("a free roll is logged one kind of die at a time: let the others go first")
            n, s = len(self.free), kinds.pop()
            result = self.table.roll(
                f"{n}d{s}",
                faces=[f.face for f in self.free],
                source="dice",
                die_names=[f.name for f in self.free],
                seat=seat,
            )
            self.free.clear()
            self.message = f"Free roll logged: {', '.join(map(str, result['rolls']))}"
        self._changed()
        return result

    # -- the dice report ------------------------------------------------------------------------
    def landed(self, die: Any, face: int, moved: bool = True) -> str:
        """A die came to rest showing ``face`` (the face printed on it; a d10's 0 is 10); ``moved``: it
        was seen rolling or handled first. Says what became of it: "taken", "refused" or "ignored"."""
        with self._lock:
            try:
                outcome = self._landed(die, face, moved)
            except TablesideError as exc:
                self.message, outcome = str(exc), "refused"
            except Exception as exc:  # a die must never take the table down
                log.exception("a smart die's roll could not be used")
                self.message, outcome = f"{_label(die)}'s roll could not be used: {exc}", "refused"
        self._changed()
        return outcome

    def said(self, die: Any, words: str) -> None:
        """What a die did that is not a roll, in words on every phone and the e-paper ("... tilted")."""
        with self._lock:
            self.message = words
        self._changed()

    def hidden_from(self, die_id: str, seat: str | None) -> bool:
        """The die's last face was a roll into another seat's private pool."""
        with self._lock:
            owner = self.private.get(die_id)
        return owner is not None and owner != seat

    def _landed(self, die: Any, face: int, moved: bool) -> str:
        landing = Landing(die.id, _label(die), int(face), getattr(die, "sides", None), getattr(die, "seat", None))
        self.private.pop(die.id, None)
        if landing.sides is not None and not 1 <= landing.face <= landing.sides:
            self.message = f"{landing.name} sent face {face}, which a d{landing.sides} does not have: roll it again"
            return "refused"
        w, stopped = self.waiting, ""
        if w is not None and w.version != self._version():
            w = self._still_waiting(w)
            stopped = f"{self.message}. " if w is None else ""
        if w is None:
            w = self.waiting = self._buttons_entry()
        why_free = ""
        if w is None:
            w, why_free = self._from_prompt(landing, moved)
            self.waiting = w
        if w is None:
            self.free = [f for f in self.free if f.die != die.id][-(MAX_FREE - 1) :] + [landing]
            self.message = (
                f"{stopped}{landing.name} shows {face}: {why_free or 'nothing waits for dice'}, so it is a free roll"
            )
            log.info("smart dice: free roll: %s shows %s (%s)", landing.name, face, why_free or "nothing waits")
            return "ignored"
        e = w.parsed
        if landing.sides != e.sides:
            kind = getattr(die, "kind", "?")
            self.message = f"{landing.name} is a {kind}: {w.said} needs d{e.sides}s, so that roll was not used"
            return "refused"
        refusal = w.owner_refusal(landing)
        if refusal:
            self.message = refusal
            return "refused"
        place = w.place(landing)
        replaced = place in w.slots
        if not replaced and len(w.faces()) >= w.needed():
            self.message = f"{w.said} has its {plural(w.needed(), 'die')} already"
            return "refused"
        w.slots[place] = landing
        self.taken_at[w.whose(landing)] = self.clock()
        if w.private_to:
            self.private[die.id] = w.private_to
        shown = "" if w.private_to else f": {face}"
        self.message = f"{landing.name} {'rolled again' if replaced else 'landed'}{shown}"
        if len(w.faces()) >= w.needed():
            self._advance(w)
        return "taken"

    def _advance(self, w: Wait) -> None:
        """This roll has its faces: ask for the next roll, or run the action with them all."""
        faces = w.before + w.faces()
        need = self.table.dice_needed(w.raw, [f.face for f in faces], w.seat)
        if need is not None:
            self.waiting = self._new_wait(w.raw, w.seat, need, w.origin, faces)
            return
        self.waiting = None
        out = self.table.act(
            {**w.raw, "faces": [f.face for f in faces]},
            source="dice",
            seat=w.seat,
            die_names=[f.name for f in faces],
        )
        if w.private_to:  # every phone reads this line: the seat's own phone reads the result in the log
            self.message = (
                f"{w.said}: {'the die' if len(faces) == 1 else f'all {len(faces)} dice'} in, played for {w.private_to}"
            )
        else:  # worded as every phone words the change in the log: who did it, then what happened
            result = out.get("result", {})
            summary = result.get("summary")
            who = w.seat or "The smart dice"  # as the phone's last-change line says a change no seat made
            if not summary:
                self.message = f"{w.said}: done"
            elif result.get("everyone") or summary.startswith((f"{who} ", f"{who}:")):  # a roll-off is said alone
                self.message = summary
            else:
                self.message = f"{who}: {summary}"

    def _still_waiting(self, w: Wait) -> Wait | None:
        """The table changed while dice were awaited: the wait goes on only if the rules still ask for it."""
        try:
            need = self.table.dice_needed(w.raw, [f.face for f in w.before], w.seat)
        except TablesideError as exc:
            need, why = None, str(exc)
        else:
            why = "the table moved on"
        if need is None or need["label"] != w.label or dice_rules.parse(need["expr"]).text != w.parsed.text:
            self.waiting = None
            self.message = f"Stopped waiting for {w.said}: {why}"
            return None
        w.version = self._version()
        return w

    def _buttons_entry(self) -> Wait | None:
        """The buttons were asking for faces (physical dice mode): the dice finish that roll instead.

        Faces the buttons entered for earlier rolls of the action are kept; the roll being entered
        is rolled by the dice from its first die.
        """
        handed = self.from_buttons()
        if handed is None:
            return None
        raw, before = handed
        try:
            need = self.table.dice_needed(raw, before, None)
        except TablesideError as exc:
            self.message = f"The buttons' dice entry could not go on with smart dice: {exc}"
            return None
        if need is None:
            return None
        return self._new_wait(raw, None, need, "buttons", [Landing("", "buttons", int(f)) for f in before])

    def _from_prompt(self, landing: Landing, moved: bool) -> tuple[Wait | None, str]:
        """The game's pending prompt, when its action takes nothing but dice and this landing may start it:
        the die is the prompt's seat's (an anyone die where it names none; a roll-off seat's own die), it
        was seen moving, and its seat's last roll was not taken moments ago. Else (None, why not)."""
        if not moved:  # decided before asking the rules anything: a flood of frames costs next to nothing
            return None, f"{landing.name} was not seen rolling"
        try:
            pending = self._pending()
        except TablesideError:
            return None, ""
        why = ""
        for p in pending:
            seat = p.get("seat") or None
            if not p.get("type"):
                continue
            if seat and landing.seat != seat:
                why = why or f"the prompt is {seat}'s and {landing.name} is {landing.seat or 'anyone'}'s"
                continue
            if seat and self._settling(seat):
                return None, self._settling(seat)
            raw = {"type": p["type"]}
            try:
                need = self.table.dice_needed(raw, [], seat)
            except TablesideError:
                continue  # it needs more than dice (a target, a choice): a phone asks for those
            if need is None:
                continue
            by = need.get("by")
            if isinstance(by, list):  # a roll-off: each seat's own die, each seat's own 2 s
                if landing.seat not in by:
                    why = why or f"{p.get('text') or p['type']} wants each seat's own die"
                    continue
                if self._settling(landing.seat):
                    return None, self._settling(landing.seat)
            elif not seat and landing.seat is not None:
                why = why or f"the prompt names no seat and {landing.name} is {landing.seat}'s"
                continue
            return self._new_wait(raw, seat, need, "prompt", []), ""
        return None, why

    def _pending(self) -> list[dict]:
        """The game's pending prompts, read again only when the table moved (a die may send many frames)."""
        version = self.table.position()  # (game, version): another game at the same version reads again
        if self._prompts is None or self._prompts[0] != version:
            self._prompts = (version, self.table.actions()["pending"])
        return self._prompts[1]

    def _settling(self, seat: str | None) -> str:
        """Why a die of ``seat`` starts nothing now: its seat's last roll was taken moments ago ("" if not)."""
        since = self.clock() - self.taken_at.get(seat, float("-inf"))
        return f"it landed {since:.1f} s after its seat's last roll was taken" if since < SETTLE else ""

    def _new_wait(self, raw: dict, seat: str | None, need: dict, origin: str, before: list[Landing]) -> Wait:
        return Wait(
            dict(raw),
            seat,
            str(need["label"]),
            str(need["expr"]),
            origin,
            self._version(),
            need.get("private_to"),
            list(before),
            shown=str(need.get("shown") or ""),
            by=need.get("by"),
        )

    def _version(self) -> int:
        pos = self.table.position()
        return pos[1] if pos else -1

    def _changed(self) -> None:
        try:
            self.on_change()
        except Exception:
            log.exception("dice listener failed")


def _label(die: Any) -> str:
    return str(getattr(die, "label", None) or getattr(die, "name", None) or getattr(die, "id", "a die"))[:40]
