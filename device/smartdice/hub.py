"""The table's smart dice: which are in reach, which are paired, what each reports.

One hub per table, whatever the family: the simulated dice and the Bluetooth ones (``ble.py``)
differ only in how they are found, connected and rolled. A die's roll goes to ``on_roll``
(the dice feed); any change of what the phones show (a battery level, a die out of reach) to
``on_change``. A paired die that drops out is reconnected quietly and reported only if it
stays away ``away_after`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from tableside.core.errors import BadRequest, NotFound, RuleError
from tableside.device.smartdice.model import KINDS, DieState
from tableside.device.smartdice.registry import Registry

log = logging.getLogger("tableside")

AWAY_AFTER = 30.0  # seconds a paired die may be out of reach before the table says so
MAX_NAME = 24


class DiceHub:
    """Dice in reach and paired; subclasses find, connect and (simulated) roll them."""

    kind = "none"

    def __init__(
        self,
        registry: Registry,
        *,
        on_roll: Callable[[DieState, int], None] = lambda die, face: None,
        on_change: Callable[[], None] = lambda: None,
        report: Callable[[str], None] = lambda text: None,
        clock: Callable[[], float] = time.monotonic,
        away_after: float = AWAY_AFTER,
    ) -> None:
        self.registry = registry
        self.on_roll, self.on_change, self.report = on_roll, on_change, report
        self.clock, self.away_after = clock, away_after
        self.dice: dict[str, DieState] = {}
        self.note = ""
        self._lock = threading.RLock()
        for die_id, saved in registry.dice.items():  # paired dice are known before they are in reach
            die = DieState(die_id, saved.get("family") or "?", saved.get("kind") or "d6")
            self._apply_saved(die, saved)
            die.connection = "reconnecting"
            die.away_since = self.clock()
            self.dice[die_id] = die

    # -- what the phones and the doctor read ----------------------------------------------------
    def status(self) -> dict[str, Any]:
        with self._lock:
            self._check_away()
            dice = sorted(self.dice.values(), key=lambda d: (not d.paired, d.label))
            return {
                "kind": self.kind,
                "note": self.note,
                "problem": self.registry.problem,
                "dice": [d.to_dict() for d in dice],
            }

    def die(self, die_id: Any) -> DieState:
        if not isinstance(die_id, str):
            raise BadRequest("'die' must be a die's id")
        with self._lock:
            die = self.dice.get(die_id)
        if die is None:
            raise NotFound(f"no die {die_id[:40]!r} in reach or paired: scan again")
        return die

    # -- what the players do ----------------------------------------------------------------------
    def scan(self, seconds: float = 5.0) -> dict[str, Any]:
        """Look for dice in reach (a few seconds over Bluetooth) and list them."""
        self._scan(seconds)
        return self.status()

    def pair(self, die_id: Any, name: Any = None, seat: Any = None, kind: Any = None) -> dict[str, Any]:
        """Name a die, assign it to a seat (or none), and for a GoDice say which shell it wears."""
        die = self.die(die_id)
        if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME):
            raise BadRequest(f"'name' must be 1-{MAX_NAME} characters, such as 'Red d10'")
        if seat is not None and (not isinstance(seat, str) or not 0 < len(seat) <= 40):
            raise BadRequest("'seat' must be a seat's name, or null for any player")
        if kind is not None:
            if not isinstance(kind, str) or kind not in KINDS:
                raise BadRequest(f"'kind' must be one of {', '.join(KINDS)}")
            if die.family != "godice" and kind != die.kind:
                raise RuleError(f"{die.label} says it is a {die.kind}; only a GoDice changes kind with its shell")
        with self._lock:
            die.name = name.strip() if isinstance(name, str) else (die.name or die.advertised or die.id)
            die.seat = seat or None
            reshelled = kind is not None and kind != die.kind
            if kind is not None:
                die.kind = kind
            first = not die.paired
            die.paired = True
            self.registry.put(
                die.id,
                family=die.family,
                kind=die.kind,
                name=die.name,
                seat=die.seat,
                colour=die.colour,
                advertised=die.advertised,
            )
        if first:
            self._connect(die)
        elif reshelled:
            self._reshell(die)
        self._changed()
        return die.to_dict()

    def forget(self, die_id: Any) -> dict[str, Any]:
        die = self.die(die_id)
        with self._lock:
            self.registry.forget(die.id)
            die.paired, die.name, die.seat = False, "", None
        self._disconnect(die)
        self._changed()
        return self.status()

    def roll(self, die_id: Any, face: Any = None) -> dict[str, Any]:
        raise RuleError("a real die is rolled on the table, not from the phone")

    def close(self) -> None:
        """Let go of every die (the server stops)."""

    # -- the families report here ------------------------------------------------------------------
    def seen(self, die: DieState) -> DieState:
        """A die found in reach: known ones keep their names; new ones are listed unpaired."""
        with self._lock:
            known = self.dice.get(die.id)
            if known is None:
                saved = self.registry.get(die.id)
                if saved:
                    self._apply_saved(die, saved)
                self.dice[die.id] = die
                return die
            for attr in ("battery", "charging", "rssi", "colour", "advertised"):
                value = getattr(die, attr)
                if value not in (None, ""):
                    setattr(known, attr, value)
            if known.family == "?":
                known.family = die.family
            return known

    def landed(self, die_id: str, face: int) -> None:
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            die.last_face, die.rolling = face, False
            paired = die.paired
        if paired:  # an unpaired die in reach is nobody's: its rolls are not used
            self.on_roll(die, face)
        self._changed()

    def identify(self, die_id: str, kind: str | None = None, colour: str | None = None) -> None:
        """What a connected die says of itself (a Pixels die's type and colourway, a GoDice's colour)."""
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            if kind and kind in KINDS and kind != die.kind:
                die.kind = kind
                if die.paired:
                    self.registry.put(die.id, kind=kind)
            if colour:
                die.colour = colour
        self._changed()

    def rolling(self, die_id: str) -> None:
        with self._lock:
            die = self.dice.get(die_id)
            if die is not None:
                die.rolling = True

    def battery(self, die_id: str, level: int, charging: bool) -> None:
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            die.battery, die.charging = level, charging
        self._changed()

    def connection(self, die_id: str, state: str) -> None:
        """``connected``, ``connecting`` or ``reconnecting`` (lost: reported only if it stays away)."""
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            was = die.connection
            if state == "connected":
                if was == "away":
                    self.report(f"{die.label} is back")
                die.away_since = None
            elif state == "reconnecting" and die.away_since is None:
                die.away_since = self.clock()
            die.connection = state if not (state == "reconnecting" and was == "away") else "away"
            self._check_away()  # each failed reconnection (every 30 s at most) is a moment to tell
        self._changed()

    def _check_away(self) -> None:
        now = self.clock()
        for die in self.dice.values():
            lost = die.paired and die.connection == "reconnecting" and die.away_since is not None
            if lost and now - die.away_since >= self.away_after:
                die.connection = "away"
                self.report(f"{die.label} is out of reach (away {now - die.away_since:.0f} s): bring it closer")

    # -- for the families ---------------------------------------------------------------------------
    def _scan(self, seconds: float) -> None:
        raise NotImplementedError

    def _connect(self, die: DieState) -> None:
        raise NotImplementedError

    def _disconnect(self, die: DieState) -> None:
        raise NotImplementedError

    def _reshell(self, die: DieState) -> None:
        """A GoDice now wears another shell (only Bluetooth GoDice need to hear of it)."""

    @staticmethod
    def _apply_saved(die: DieState, saved: dict[str, Any]) -> None:
        die.name = saved.get("name") or ""
        die.seat = saved.get("seat")
        die.kind = saved.get("kind") or die.kind
        die.colour = die.colour or saved.get("colour") or ""
        die.advertised = die.advertised or saved.get("advertised") or ""
        die.paired = True

    def _changed(self) -> None:
        try:
            self.on_change()
        except Exception:
            log.exception("dice listener failed")
