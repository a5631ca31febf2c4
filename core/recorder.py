"""Recorded randomness: the dice object a handler rolls through.

A handler calls ``ctx.dice.roll("attack", "3d10")`` as often as the rules need,
mid-handler, with counts that depend on earlier rolls. Every roll is recorded
under its label with every face, and the records go into the log entry. The
faces come from one of three places, and the handler never knows which:

- the RNG (Tableside rolls);
- faces a player typed in from physical dice, consumed in order across every
  roll of the action; when they run out the action is refused with
  ``needs_dice`` naming the roll still to be made, which a phone turns into a
  prompt;
- a recording (redo and replay), so history replays exactly and the RNG is
  never called.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tableside.core import dice
from tableside.core.errors import BadRequest, RuleError
from tableside.core.text import N_
from tableside.core.words import plural

MAX_TYPED_FACES = 200  # physical faces typed in for one action, explosions included
TABLE = ""  # a roll's ``by`` for dice that are no player's (a random pick): the luck report's "The table"
Owner = str | Sequence[str] | None  # a roll's ``by``: one seat, a seat per die, TABLE, or None (not said)


def typed_faces(raw: Any) -> list | None:
    """Physical faces typed in for an action: a list in order, or a count per face (high to low)."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        raw = dice.faces_from_counts(raw, MAX_TYPED_FACES)
    if isinstance(raw, str) or not isinstance(raw, list):
        raise BadRequest(N_("'faces' must be a list of faces in the order rolled, or a count per face"))
    if len(raw) > MAX_TYPED_FACES:
        raise RuleError(
            N_("at most {maximum} typed-in faces for one action, got {got}", maximum=MAX_TYPED_FACES, got=len(raw))
        )
    return raw


class NeedsDice(RuleError):
    """Typed-in faces ran out: 422 with ``needs_dice`` naming what is still to be rolled."""

    def __init__(self, label: str, expr: str, given: int, shown: str | None = None, by: Any = None) -> None:
        left = f"only {plural(given, 'typed-in face')} left for it" if given else "no typed-in faces left for it"
        super().__init__(f"{shown or label} needs {expr}: {left}; type in the rest or let Tableside roll")
        self.needs_dice = [{"label": label, "expr": expr, **({"shown": shown} if shown and shown != label else {})}]
        self.by = list(by) if isinstance(by, list | tuple) else by  # whose dice (``Dice.roll``): smart dice match it


class ReplayMismatch(RuleError):
    """A recording that does not fit the rules any more (a rules change, a damaged log)."""


class UnsaidRoll(RuleError):
    """A handler rolled without saying whose dice they are (``by``) or how they read (``mark``): the action
    is refused (nothing changes), so a system that forgets either fails its first test, not the luck report."""


def _take_typed(e: dice.DiceExpr, queue: Sequence[Any], start: int) -> list[int] | None:
    """The faces ``e`` uses from ``queue[start:]`` (explosions add one each), or None if too few.

    Each typed face is read as a face of *this* roll's die only when this roll consumes it, so
    one action may roll different dice (a d2 then a d6) from one list of typed faces.
    """
    needed, i, faces = e.count, start, []
    while i < start + needed:
        if i >= len(queue):
            return None
        face = _read_typed(queue[i], e.sides)
        faces.append(face)
        if e.explode and face == e.sides:
            needed += 1
            if needed - e.count > dice.MAX_EXPLOSIONS:
                raise dice.DiceError(f"{e.text} exploded into more than {dice.MAX_EXPLOSIONS} extra dice, the cap")
        i += 1
    return faces


def _read_typed(value: Any, sides: int) -> int:
    """A typed face on a d``sides`` (a d10's 0 is the 10); a face the die does not have is a 422."""
    try:
        return dice.read_face(value, sides)
    except dice.DiceError as exc:
        raise RuleError(exc.message) from exc


@dataclass
class Dice:
    """Rolls for one action. Build with ``rng`` (random), ``typed`` (physical) or ``replay``."""

    rng: random.Random | None = None
    typed: Sequence[Any] | None = None
    replay: Sequence[dict] | None = None
    records: list[dict] = field(default_factory=list)
    _used: int = 0
    _marked: set[int] = field(default_factory=set)  # the records ``mark()`` has read, by index

    def roll(self, label: str, expr: str, shown: str | None = None, by: Owner = None) -> dice.RollResult:
        """Roll ``expr`` (e.g. ``"3d10cs>=8"``), recorded under ``label``. ``shown``: the roll's name as
        the table reads it where that is not ``label`` ("Ann (Venus) vs Cy (Pluto)" for "Venus vs
        Pluto"): the label stays what a replay checks, so renaming what players read breaks no log.
        ``by``: whose dice these are, a seat ("Cy": the attacker, whichever phone sent the roll), one seat
        per die (a roll-off), or ``TABLE`` (nobody's: a random pick); the luck report counts them so.
        ``finish()`` refuses an action with a roll that has no ``by`` or was not followed by ``mark()``."""
        e = dice.parse(expr)
        if self.replay is not None:
            result = self._replayed(label, e)
        elif self.typed is not None:
            faces = _take_typed(e, self.typed, self._used)
            if faces is None:
                raise NeedsDice(label, e.text, len(self.typed) - self._used, shown, by)
            self._used += len(faces)
            result = dice.roll(e, faces=faces)
        else:
            result = dice.roll(e, rng=self.rng)
        record = {"label": label, **result.to_dict()}
        if shown and shown != label:
            record["shown"] = shown
        if by is not None:
            record["by"] = list(by) if isinstance(by, list | tuple) else str(by)
        self.records.append(record)
        return result

    def faces(self, label: str, count: int, sides: int = 6, shown: str | None = None, by: Owner = None) -> list[int]:
        """``count`` plain faces of a d``sides`` (none when count is 0); ``shown`` and ``by`` as in ``roll``."""
        if count <= 0:
            return []
        return list(self.roll(label, f"{count}d{sides}", shown, by).rolls)

    def mark(self, marks: Sequence[str] = (), verdict: str | None = None, hit_chance: Fraction | None = None) -> None:
        """How the newest roll reads on the table: a mark per die (``hit``, ``miss``, ``kept``, ...)
        and the verdict in words. Kept in its log record, so the table shows what the log says.
        ``hit_chance``: each die's exact chance of a ``hit`` as the rules stood when it was rolled (a VENOM
        Combat Die against the Defense Track), said only where the rules know it: the recap then reads the
        roll by its hits, as the game counts it, not by its total (kept as "n/d": the log is JSON)."""
        if not self.records:
            raise RuntimeError("mark() follows a roll: nothing has been rolled yet")
        if hit_chance is not None and (not marks or not 0 <= hit_chance <= 1):
            raise ValueError(f"hit_chance {hit_chance} needs a mark per die and a chance from 0 to 1")
        self._marked.add(len(self.records) - 1)
        record = self.records[-1]
        if marks:
            if len(marks) != len(record["rolls"]):
                raise ValueError(
                    f"{len(marks)} marks for the {plural(len(record['rolls']), 'die')} of {record['label']}"
                )
            record["marks"] = list(marks)
        if verdict is not None:
            record["verdict"] = verdict
        if hit_chance is not None:
            chance = Fraction(hit_chance)
            record["hit_chance"] = f"{chance.numerator}/{chance.denominator}"

    def finish(self) -> list[dict]:
        """The records, after checking each says whose dice (``by``) and was marked, and that every typed or
        recorded face was used."""
        if self.typed is not None and self.records and self._used < len(self.typed):
            extra = len(self.typed) - self._used
            raise RuleError(f"{plural(extra, 'typed-in face')} left over: this action rolled only {self._used}")
        if self.replay is not None and len(self.records) != len(self.replay):
            raise ReplayMismatch(
                f"the recording has {plural(len(self.replay), 'roll')} but the rules made {len(self.records)}"
            )
        for i, record in enumerate(self.records):
            missing = [what for what, ok in (("by=", "by" in record), ("mark()", i in self._marked)) if not ok]
            if missing:
                raise UnsaidRoll(
                    f"{record['label']}: the rules rolled without {' and '.join(missing)}; every roll says whose "
                    "dice they are (by=) and how they read (ctx.dice.mark() after it): a fault in this game system"
                )
        return self.records

    def _replayed(self, label: str, e: dice.DiceExpr) -> dice.RollResult:
        assert self.replay is not None
        n = len(self.records)
        if n >= len(self.replay):
            raise ReplayMismatch(f"the rules now roll {label} ({e.text}), which the recording does not have")
        rec = self.replay[n]
        if rec.get("label") != label or dice.parse(rec["expr"]).text != e.text:
            raise ReplayMismatch(
                f"the recording has {rec.get('label')} ({rec.get('expr')}) where the rules now roll {label} ({e.text})"
            )
        return dice.roll(e, faces=rec["rolls"])


@dataclass
class Context:
    """What a handler gets beside state and action: the dice, who acts, the options."""

    dice: Dice
    seat: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    system: Any = None
    private_to: str | None = None
    public_summary: str | None = None
    # True while the entry is re-applied from the log: it was accepted when it was recorded. A check
    # added since that refuses earlier what the rules refused later anyway (Vegas: a second token of a
    # colour in a trick, now refused as the card is played) skips itself here, so old logs still replay.
    replaying: bool = False

    def private(self, seat: str, public_summary: str) -> None:
        """This entry's dice and result are ``seat``'s alone; everyone else reads ``public_summary``."""
        self.private_to = seat
        self.public_summary = public_summary
