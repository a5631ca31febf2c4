"""Scene pools: how many dice a participant draws, rolling them in, and tossing the little ones.

Pure functions over plain lists of faces. Dice come from ``draw(label, count)``, a
function the caller hands in (the session's recorded dice, or faces a player typed
in), so the same code serves a physical roll and a Tableside roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import rules
from tableside.core.text import N_
from tableside.core.words import plural

Draw = Callable[[str, int], list[int]]


@dataclass(frozen=True)
class PoolDice:
    """What a participant draws for a scene pool, as counts a person reads off the sheet.

    ``assists`` and ``secondary_assists`` are gear qualities; a rack is ``rack`` dice.
    """

    primary_skills: int = 0
    secondary_skills: int = 0
    assists: tuple[int, ...] = ()
    secondary_assists: tuple[int, ...] = ()
    gear_circumstances: int = 0
    circumstances: int = 0
    racks: int = 0
    rack: int = rules.DEFAULT_RACK
    follow_up: int = 0

    def parts(self) -> dict[str, int]:
        """Dice from each source, in the order the rulebook lists them."""
        return {
            "primary": self.primary_skills * rules.PRIMARY_DICE_PER_SKILL,
            "secondary": self.secondary_skills * rules.SECONDARY_DICE_PER_SKILL,
            "assists": sum(q // rules.ASSIST_DIVISOR for q in self.assists),
            "secondary_assists": sum(q // rules.SECONDARY_ASSIST_DIVISOR for q in self.secondary_assists),
            "gear_circumstances": self.gear_circumstances * rules.GEAR_CIRCUMSTANCE_DICE,
            "circumstances": self.circumstances * rules.CIRCUMSTANCE_DICE,
            "racks": self.racks * self.rack,
            "follow_up": self.follow_up,
        }

    def count(self) -> int:
        return sum(self.parts().values())


@dataclass(frozen=True)
class RollIn:
    """One roll into a scene pool: every face in the order rolled, by wave, and what stayed.

    ``waves[0]`` is the starting dice, ``waves[1]`` the dice rolled in for its sixes, and so on.
    """

    waves: tuple[tuple[int, ...], ...]
    kept: tuple[int, ...] = field(default=())
    tossed: tuple[int, ...] = field(default=())

    @property
    def rolled_in(self) -> int:
        return sum(len(w) for w in self.waves[1:])


def check_face(face: object, where: str = "a die") -> int:
    """A d6 face, 1-6; anything else is refused naming it."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= rules.SIDES:
        raise RuleError(N_("{where}: a d6 face is 1-6, got {face}", where=where, face=repr(face)))
    return face


def high_to_low(faces: Iterable[int]) -> list[int]:
    return sorted(faces, reverse=True)


def stays(face: int) -> bool:
    """4, 5 and 6 stay in the pool; "Toss all 1s, 2s, and 3s. Those dice are gone."."""
    return face > rules.TOSS_AT_MOST


def roll_in(count: int, draw: Draw, label: str = "pool") -> RollIn:
    """Roll ``count`` dice into a pool: each 6 rolls one more die in (which may roll in again),
    1-3 are tossed, the rest stay.

    6655433221 with the roll-ins 55 keeps 6655554; 643221 with the roll-in 1 keeps 64.
    """
    if count < 0:
        raise RuleError(N_("cannot roll {count} dice", count=count))
    if count > rules.MAX_DICE_IN_ROLL:
        raise RuleError(
            N_(
                "a roll starts with at most {max_dice_in_roll} dice, got {count}",
                max_dice_in_roll=rules.MAX_DICE_IN_ROLL,
                count=count,
            ),
            rule="pool_limit",
        )
    waves: list[tuple[int, ...]] = []
    to_roll, extra = count, 0
    wave_label = label
    while to_roll:
        faces = tuple(check_face(f, wave_label) for f in draw(wave_label, to_roll))
        if len(faces) != to_roll:
            raise RuleError(
                N_(
                    "{wave_label}: needs {dice}, got {n_faces}",
                    wave_label=wave_label,
                    dice=plural(to_roll, "die"),
                    n_faces=len(faces),
                )
            )
        waves.append(faces)
        to_roll = sum(1 for f in faces if f == rules.ROLL_IN_FACE)
        extra += to_roll
        if extra > rules.MAX_ROLL_INS:
            raise RuleError(
                N_(
                    "{label}: more than {max_roll_ins} dice rolled in; roll the rest as a new pool",
                    label=label,
                    max_roll_ins=rules.MAX_ROLL_INS,
                ),
                rule="pool_limit",
            )
        wave_label = f"{label} roll-in {len(waves)}"
    every = [f for w in waves for f in w]
    return RollIn(
        waves=tuple(waves),
        kept=tuple(high_to_low(f for f in every if stays(f))),
        tossed=tuple(high_to_low(f for f in every if not stays(f))),
    )


def roll_in_all_faces(count: int, faces: Sequence[int]) -> RollIn:
    """A roll typed in all at once, roll-ins included, in any order (a count per face).

    Only sixes roll in, so every face rolled is known from the dice on the table: the
    starting dice plus one die per six. The count must agree, else the table misread a die.
    """
    faces = [check_face(f, "a typed-in die") for f in faces]
    sixes = sum(1 for f in faces if f == rules.ROLL_IN_FACE)
    if len(faces) != count + sixes:
        raise RuleError(
            N_(
                "{dice} with {sixes} rolled in make {made}, but {faces} was typed in",
                dice=plural(count, "die"),
                sixes=plural(sixes, "six"),
                made=plural(count + sixes, "die"),
                faces=plural(len(faces), "face"),
            )
            if len(faces) == 1
            else N_(
                "{dice} with {sixes} rolled in make {made}, but {faces} were typed in",
                dice=plural(count, "die"),
                sixes=plural(sixes, "six"),
                made=plural(count + sixes, "die"),
                faces=plural(len(faces), "face"),
            )
        )
    return RollIn(
        waves=(tuple(high_to_low(faces)),),
        kept=tuple(high_to_low(f for f in faces if stays(f))),
        tossed=tuple(high_to_low(f for f in faces if not stays(f))),
    )


def resist(draw: Draw, quality: int, label: str = "resist") -> RollIn:
    """Resist Dice: roll the gear's quality and keep the 4+ (the rulebook names no roll-in for these)."""
    if quality < 0:
        raise RuleError(N_("a gear quality is 0 or more, got {quality}", quality=quality))
    faces = tuple(check_face(f, label) for f in draw(label, quality)) if quality else ()
    return RollIn(
        waves=(faces,),
        kept=tuple(high_to_low(f for f in faces if f >= rules.RESIST_KEEP_AT_LEAST)),
        tossed=tuple(high_to_low(f for f in faces if f < rules.RESIST_KEEP_AT_LEAST)),
    )


def take_from(pool: Sequence[int], dice: Sequence[int], who: str, seen: bool = False) -> list[int]:
    """The pool with ``dice`` taken out; refuses dice the pool does not hold, naming them.

    ``seen``: the dice were entered by a phone that is not the pool's seat (the table's, for a seat no phone
    holds). That phone is answered from what is public only, the count (#33: a refusal naming the missing
    faces told it the pool): dice the pool does not hold are taken as seen face up on the table, each in place
    of the pool's lowest die left, so every other phone gets the same answer whatever the faces are."""
    for face in dice:
        check_face(face, f"{who}'s dice")
    if len(dice) > len(pool):
        raise RuleError(
            N_(
                "{who} holds {dice} in the scene pool, cannot put forward {n_dice}",
                who=who,
                dice=plural(len(pool), "die"),
                n_dice=len(dice),
            )
        )
    have, want = Counter(pool), Counter(dice)
    short = {face: n - have[face] for face, n in want.items() if n > have[face]}
    if short and seen:
        left = high_to_low((have - want).elements())
        return left[: len(pool) - len(dice)]
    if short:
        missing = ", ".join(plural(n, f"more {face}") for face, n in sorted(short.items(), reverse=True))
        raise RuleError(N_("{who}'s scene pool does not hold those dice: needs {missing}", who=who, missing=missing))
    left = Counter(pool) - want
    return high_to_low(left.elements())


def seen_summary(ctx: Any, pool: Sequence[int], dice: Sequence[int], who: str, summary: str) -> str:
    """The summary of dice named from ``who``'s pool, and who reads which (#33).

    Entered by a phone that is not ``who``'s (``take_from`` seen), the entry is ``who``'s private one: every
    other phone reads ``summary`` and the same words whatever the pool holds; ``who``'s own phone reads which
    named dice the pool did not hold and which of its dice went in their place."""
    if ctx.seat == who:
        return summary
    ctx.private(
        who,
        N_(
            "{summary} (entered by another phone: a die not in {who}'s pool stands in for its lowest)",
            summary=summary,
            who=who,
        ),
    )
    have, want = Counter(pool), Counter(dice)
    missing = high_to_low((want - have).elements())
    if not missing:
        return summary
    taken = high_to_low((have - want).elements())[len(pool) - len(dice) :]
    missing_faces, taken_faces = "".join(map(str, missing)), "".join(map(str, taken))
    return N_(
        "{summary}; {who}'s pool did not hold {missing}: {taken} from it went in their place",
        summary=summary,
        who=who,
        missing=missing_faces,
        taken=taken_faces,
    )


def follow_up_split(pool_size: int) -> tuple[int, int]:
    """Follow Up: (tossed, kept). "Everyone takes half their dice ... (rounding down) and tosses them out."""
    tossed = pool_size // rules.FOLLOW_UP_TOSS_DIVISOR
    return tossed, pool_size - tossed
