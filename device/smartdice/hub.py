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
from tableside.core.screen import PLAYER_INKS
from tableside.device.smartdice.model import KINDS, LOW_BATTERY, DieState
from tableside.device.smartdice.registry import Registry

log = logging.getLogger("tableside")

# core.screen.PLAYER_INKS as LED colours (a die cannot show black: white stands in).
INK_RGB = {"red": 0xFF0000, "blue": 0x0000FF, "green": 0x00FF00, "orange": 0xFF8000, "yellow": 0xFFFF00}
INK_RGB |= {"black": 0xFFFFFF, "purple": 0x8000FF}
TAKEN_RGB, REFUSED_RGB, IDENTIFY_RGB = 0x00FF00, 0xFF0000, 0xFFFFFF  # an anyone die's taken roll: green
AWAY_AFTER = 30.0  # seconds a paired die may be out of reach before the table says so
MAX_NAME = 24


def seat_colour(colours: Callable[[], dict[str, int]], seat: str | None) -> int:
    """The LED colour of a seat (its ``core.screen.PLAYER_INKS`` index in the game), else green."""
    try:
        index = colours().get(seat) if seat else None
    except Exception:  # the game's colours are a nicety: a die still blinks
        log.exception("seat colours for the dice")
        index = None
    if isinstance(index, int) and 0 <= index < len(PLAYER_INKS):
        return INK_RGB[PLAYER_INKS[index]]
    return TAKEN_RGB


class DiceHub:
    """Dice in reach and paired; subclasses find, connect and (simulated) roll them."""

    kind = "none"

    def __init__(
        self,
        registry: Registry,
        *,
        on_roll: Callable[[DieState, int, bool], str | None] = lambda die, face, moved: None,
        on_word: Callable[[DieState, str], None] = lambda die, words: None,
        on_change: Callable[[], None] = lambda: None,
        report: Callable[[str], None] = lambda text: None,
        clock: Callable[[], float] = time.monotonic,
        away_after: float = AWAY_AFTER,
    ) -> None:
        self.registry = registry
        self.on_roll, self.on_word, self.on_change, self.report = on_roll, on_word, on_change, report
        self.clock, self.away_after = clock, away_after
        self.dice: dict[str, DieState] = {}
        self.seat_colours: Callable[[], dict[str, int]] = dict  # set by serve: the game's seat -> ink index
        # Set by serve: the die's last face went into a seat's private pool (``DiceFeed.hidden_from``), so
        # nothing said to every phone may depend on it (#33).
        self.private_face: Callable[[str], bool] = lambda die_id: False
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
        """A die came to rest on ``face``. Seen moving first, it is a roll; the same face again without
        moving is the same frame repeated (a flood), dropped; another face without moving is handed on
        as unmoved (it never starts a game's roll). A die whose last face is private drops every unmoved
        frame: whether it still shows that face is not said to the phones."""
        private = self.private_face(die_id)
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            moved, die.rolling = die.rolling, False
            if not moved and (face == die.last_face or private):
                die.extra["repeats"] = die.extra.get("repeats", 0) + 1
                return
            paired = die.paired
        outcome = None
        if paired:  # an unpaired die in reach is nobody's: its rolls are not used
            outcome = self.on_roll(die, face, moved)
        with self._lock:
            die.last_face = face  # after the feed: a private roll is marked private before any phone reads it
        if outcome:
            self.signal(die, outcome)
        self._changed()

    def unreadable(self, die_id: str, why: str) -> None:
        """The die sent a roll that cannot be read for certain: refused, and said on every phone."""
        log.info("smart die %s: a roll we could not read: %s", die_id, why)
        self.said(die_id, "sent a roll we could not read: roll it again")

    def said(self, die_id: str, words: str, outcome: str = "refused") -> None:
        """Something the die did that is not a roll, said to the players ("Red d6 is tilted: roll it again")."""
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            die.rolling = False
        if die.paired:
            self.on_word(die, f"{die.label} {words}")
            self.signal(die, outcome)
        self._changed()

    def showing(self, die_id: str, face: int | None) -> None:
        """What a die that just connected shows (Pixels IAmADie): back from a drop-out on another face
        than its last, it was rolled while out of reach, and that roll was not used: said so. A die whose last
        face is private is told to roll again whatever it shows, as every phone reads the words."""
        private = self.private_face(die_id)
        with self._lock:
            die = self.dice.get(die_id)
            if die is None or not die.extra.pop("returning", False):
                return
            lost = face is not None and die.last_face is not None and face != die.last_face
        if private:
            self.said(die_id, "is back: if it was rolled while out of reach, that roll was not used, roll it again")
        elif lost:
            self.said(
                die_id, f"came back showing {face}: a roll made while it was out of reach was not used, roll it again"
            )

    def resting(self, die_id: str) -> None:
        """The die came to rest without a roll (Pixels "onFace"): whatever moved it, nothing was rolled."""
        with self._lock:
            die = self.dice.get(die_id)
            if die is not None:
                die.rolling = False

    def signal(self, die: DieState, outcome: str) -> None:
        """Show on the die what became of its roll: "taken", "refused" (or ignored), "identify"."""
        die.extra.setdefault("signals", []).append(outcome)
        del die.extra["signals"][:-20]
        try:
            self._signal(die, outcome)
        except Exception:  # a blink that fails is not a reason to lose the roll
            log.exception("smart die %s: could not show %s on it", die.label, outcome)

    def blink(self, die_id: Any) -> dict[str, Any]:
        """ "Identify" on the dice page: the die blinks, so the players know which one it is."""
        die = self.die(die_id)
        if die.connection != "connected":
            raise RuleError(f"{die.label} is not connected ({die.connection}): it cannot blink now")
        self.signal(die, "identify")
        return die.to_dict()

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

    def battery(self, die_id: str, level: int | None, charging: bool) -> None:
        """A battery reading (``level`` None: only the charging state changed). Going below
        ``LOW_BATTERY`` % is said once, until it is charged again."""
        with self._lock:
            die = self.dice.get(die_id)
            if die is None:
                return
            if level is not None:
                die.battery = level
            die.charging = charging
            low = die.battery is not None and die.battery < LOW_BATTERY and not charging
            said, die.extra["low_said"] = die.extra.get("low_said", False), low
            if low != said and die.paired:  # kept for the doctor, written only when it crosses the line
                self.registry.put(die.id, battery=die.battery if low else None)
        if low and not said and die.paired:
            self.report(f"{die.label} has {die.battery}% battery left: charge it soon")
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
                if was in ("away", "reconnecting") and die.paired:
                    die.extra["returning"] = True  # what it shows now says whether it rolled while away
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

    def _signal(self, die: DieState, outcome: str) -> None:
        """Blink a real die (Bluetooth); a simulated die only keeps the list in ``extra["signals"]``."""

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
