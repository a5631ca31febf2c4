"""Dice expressions (contract section 3): a small subset of Foundry VTT's syntax.

A hand-written tokenizer and recursive-descent parser rather than regexes, so every bad
expression gets a one-line message saying what is wrong and where. Typed-in physical
faces go through the same explode/keep/count code as random ones, so they can't disagree.

Grammar (case-insensitive, spaces ignored)::

    expr     := [INT] "d" INT modifier* constant* END
    modifier := "x" | "cs" (">=" | ">" | "<=" | "<" | "=") INT | ("kh" | "kl" | "dh" | "dl") [INT]
    constant := ("+" | "-") INT
"""

from __future__ import annotations

import functools
import operator
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tableside.core.errors import BadRequest, RuleError
from tableside.core.text import N_
from tableside.core.words import plural

MAX_DICE = 100
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_EXPLOSIONS = 100  # extra dice one roll may add: 100d2x would otherwise run on and on
MAX_TEXT = 100  # characters in an expression
MAX_DIGITS = 6  # per number: keeps int() cheap and messages short

KEEP_OPS = ("kh", "kl", "dh", "dl")
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
}
# Longest first within each group: "dl2" is drop-lowest, not a die; ">=" is not ">" then "=".
_KINDS = {
    **dict.fromkeys(("cs", *KEEP_OPS, "d", "x"), "word"),
    **dict.fromkeys(_COMPARE, "op"),
    "+": "sign",
    "-": "sign",
}
_HINTS = {"op": " (count successes with cs, as in 2d10cs>=8)", "word": " (x, cs and keep/drop go before + and -)"}
_DIGITS = "0123456789"
_system_random = random.SystemRandom()


class DiceError(BadRequest):
    """An expression or typed face that can't be rolled (HTTP 400, CLI exit 2). One line."""


@dataclass(frozen=True)
class DiceExpr:
    """A parsed expression. ``text`` is the input with spaces removed and letters lower-cased."""

    text: str
    count: int
    sides: int
    explode: bool = False
    keep: tuple[str, int] | None = None  # ("kh" | "kl" | "dh" | "dl", n)
    success: tuple[str, int] | None = None  # (">=", 8)
    modifier: int = 0


@dataclass(frozen=True)
class RollResult:
    """One roll: every face in the order rolled, the faces kept, successes and total."""

    expr: str
    rolls: list[int]
    kept: list[int]
    successes: int | None
    total: int

    def to_dict(self) -> dict:
        """The JSON shape of ``tableside roll --json`` and ``POST /api/rolls``."""
        return {
            "expr": self.expr,
            "rolls": list(self.rolls),
            "kept": list(self.kept),
            "successes": self.successes,
            "total": self.total,
        }


class _Token(NamedTuple):
    kind: str  # "int", "word", "op", "sign" or "end"
    text: str
    pos: int  # 0-based; messages say pos + 1


def _tokenize(shown: str) -> list[_Token]:
    low = "".join(c.lower() if c.isascii() else c for c in shown)  # ASCII only: keeps positions
    tokens: list[_Token] = []
    i = 0
    while i < len(low):
        rest = low[i:]
        digits = rest[: len(rest) - len(rest.lstrip(_DIGITS))]
        word = digits or next((w for w in _KINDS if rest.startswith(w)), "")
        if not word and rest[0] != " ":
            raise DiceError(f"unexpected {shown[i]!r} at position {i + 1} in {shown!r}")
        if word:
            tokens.append(_Token("int" if digits else _KINDS[word], word, i))
        i += len(word) or 1
    return [*tokens, _Token("end", "", len(low))]


class _Parser:
    """Recursive descent over the tokens, one method per grammar rule."""

    def __init__(self, shown: str) -> None:
        self.shown, self.tokens, self.i = shown, _tokenize(shown), 0
        self.explode, self.keep, self.success = False, None, None

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> str:
        self.i += 1
        return self.tokens[self.i - 1].text

    def fail(self, expected: str, hint: str = "") -> DiceError:
        tok = self.peek()
        if tok.kind == "end":
            return DiceError(f"{self.shown!r} ends too soon: expected {expected}{hint}")
        return DiceError(f"expected {expected} at position {tok.pos + 1} in {self.shown!r}, got {tok.text!r}{hint}")

    def number(self, expected: str) -> int:
        tok = self.peek()
        if tok.kind != "int":
            raise self.fail(expected)
        if len(tok.text) > MAX_DIGITS:
            raise DiceError(
                f"number at position {tok.pos + 1} in {self.shown!r} is too big (at most {MAX_DIGITS} digits)"
            )
        return int(self.take())

    def expr(self) -> DiceExpr:
        count = self.number("a number of dice") if self.peek().kind == "int" else 1
        if self.peek().text != "d":
            raise self.fail("'d' and a number of sides", " (as in 2d6)")
        self.take()
        sides = self.number("a number of sides after 'd'")
        while self.peek().kind == "word" and self.peek().text != "d":
            self.modifier(self.take())
        total = 0
        while self.peek().kind == "sign":
            sign = self.take()
            total += self.number(f"a number after {sign!r}") * (1 if sign == "+" else -1)
        tok = self.peek()
        if tok.kind != "end":
            hint = "" if tok.text == "d" else _HINTS.get(tok.kind, "")
            raise DiceError(f"unexpected {tok.text!r} at position {tok.pos + 1} in {self.shown!r}{hint}")
        text = self.shown.replace(" ", "").lower()
        return DiceExpr(text, count, sides, self.explode, self.keep, self.success, total)

    def modifier(self, word: str) -> None:
        if word in ("x", "cs") and (self.explode if word == "x" else self.success):
            raise DiceError(f"{word!r} given twice in {self.shown!r}")
        if word == "x":
            self.explode = True
        elif word == "cs":
            if self.peek().kind != "op":
                raise self.fail("a comparison after 'cs'", " (>=, >, <=, < or =, as in cs>=4)")
            op = self.take()
            self.success = (op, self.number(f"a target number after 'cs{op}'"))
        elif self.keep:
            raise DiceError(
                f"only one of kh, kl, dh, dl is allowed, got {self.keep[0]!r} and {word!r} in {self.shown!r}"
            )
        else:
            self.keep = (word, self.number(f"a number after {word!r}") if self.peek().kind == "int" else 1)


def parse(text: str) -> DiceExpr:
    """Parse and check an expression such as ``10d6xcs>=4`` or ``4d6kh3+1``.

    Remembered for the last few hundred good expressions (a ``DiceExpr`` is frozen):
    replaying a long game parses the same few expressions thousands of times.
    """
    if not isinstance(text, str):
        raise DiceError(f"a dice expression must be text, got {type(text).__name__}")
    return _parse(text)


@functools.lru_cache(maxsize=512)
def _parse(text: str) -> DiceExpr:
    shown = " ".join(text.split())  # one line in every message, whatever whitespace came in
    if not shown:
        raise DiceError("empty dice expression: expected something like 2d6")
    if len(shown) > MAX_TEXT:
        raise DiceError(f"dice expression is too long ({len(shown)} characters, at most {MAX_TEXT})")
    e = _Parser(shown).expr()
    if not 1 <= e.count <= MAX_DICE:
        raise DiceError(f"can't roll {e.count} dice in {e.text!r}: 1-{MAX_DICE} dice at a time")
    if e.sides == 1 and e.explode:
        raise DiceError(f"a d1 can't explode (every roll is its maximum): use {MIN_SIDES}-{MAX_SIDES} sides")
    if not MIN_SIDES <= e.sides <= MAX_SIDES:
        raise DiceError(f"no d{e.sides} in {e.text!r}: dice need {MIN_SIDES}-{MAX_SIDES} sides")
    if e.keep and not 1 <= e.keep[1] <= e.count:
        op, n = e.keep
        raise DiceError(
            f"can't {'keep' if op[0] == 'k' else 'drop'} {n} of the {plural(e.count, 'die')} in "
            f"{e.text!r} ({op}N needs N of 1-{e.count})"
        )
    if e.success and count_successes(range(1, e.sides + 1), *e.success) == 0:
        raise DiceError(
            f"cs{''.join(map(str, e.success))} can never succeed on a d{e.sides} (faces 1-{e.sides}) in {e.text!r}"
        )
    return e


def count_successes(faces: Iterable[int], op: str, target: int) -> int:
    """How many faces pass ``face <op> target``, as in ``cs>=4``."""
    if op not in _COMPARE:
        raise DiceError(f"unknown success test {op!r}: use one of {', '.join(_COMPARE)}")
    return sum(1 for face in faces if _COMPARE[op](face, target))


def read_face(value: int | str, sides: int) -> int:
    """A face as typed by a player (``"0"`` or ``0`` on a d10 is the 10, as printed) -> its value."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        digits = value.strip()
        if len(digits) > MAX_DIGITS:
            raise DiceError(f"face {digits[:MAX_DIGITS]}... is not on a d{sides} (1-{sides})")
        value = int(digits)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DiceError(f"face {str(value)[:20]!r} is not a whole number")
    if sides == 10 and value == 0:
        return 10
    if not 1 <= value <= sides:
        zero = ", or 0 for the 10" if sides == 10 else ""
        raise DiceError(f"face {value} is not on a d{sides} (1-{sides}{zero})")
    return value


def faces_from_counts(counts: Mapping[Any, Any], limit: int, label: str = "faces") -> list[int]:
    """A count per face, as a person reads dice on the table (``{"6": 4, "5": 3}``: four 6s, three
    5s) -> the faces high to low by number: ``[6, 6, 6, 6, 5, 5, 5]``.

    The one reader of such a map (typed-in faces and the ``faces`` field both use it). By number,
    not by the key's text, so an exploding d10's 10 comes before the dice it added
    (``{"10": 1, "9": 1, "3": 1}`` is ``[10, 9, 3]``). Each face is checked against a die later, by
    the roll that uses it; a 0 (the d10's 10) sorts as 10.
    """
    faces: list[int] = []
    for key, count in counts.items():
        face = key if isinstance(key, int) and not isinstance(key, bool) and key >= 0 else None
        if isinstance(key, str) and key.strip().isascii() and key.strip().isdigit() and len(key.strip()) <= MAX_DIGITS:
            face = int(key.strip())
        if face is None:
            raise DiceError(f"{label}: face {str(key)[:20]!r} is not a whole number")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise DiceError(f"{label}: the count of {face}s must be a whole number 0 or more")
        if len(faces) + count > limit:
            raise RuleError(N_("{label}: at most {limit} dice at a time", label=label, limit=limit))
        faces += [face] * count
    return sorted(faces, key=lambda face: face or 10, reverse=True)


def parse_faces(text: str) -> list[int | str]:
    """``"6,6,5"`` (commas and/or spaces) -> ``[6, 6, 5]``, not yet checked against a die."""
    if not isinstance(text, str) or not text.strip():
        raise DiceError("no faces given: expected faces like 6,6,5")
    faces: list[int | str] = []
    for n, item in enumerate(re.split(r"\s*,\s*|\s+", text.strip()), 1):
        if not (item.isascii() and item.isdigit()):
            shown = "an empty entry" if not item else repr(item[:20])
            raise DiceError(f"face {n} is {shown}, not a whole number: expected faces like 6,6,5")
        if len(item) > MAX_DIGITS:
            raise DiceError(f"face {n} ({item[:MAX_DIGITS]}...) is too big for any die")
        faces.append(int(item))
    return faces


def roll(
    expr: str | DiceExpr, *, faces: Sequence[int | str] | None = None, rng: random.Random | None = None
) -> RollResult:
    """Roll ``expr``; with ``faces``, use those (a physical roll typed in) instead of random ones."""
    e = expr if isinstance(expr, DiceExpr) else parse(expr)
    if faces is None:
        rolls = _random_rolls(e, rng or _system_random)
    else:
        if isinstance(faces, str) or not isinstance(faces, Sequence):  # a str would split into chars
            raise DiceError(f"faces must be a list of numbers, got {type(faces).__name__}")
        rolls = _typed_rolls(e, [read_face(face, e.sides) for face in faces])
    kept = _keep(rolls, e.keep)
    successes = count_successes(kept, *e.success) if e.success else None
    return RollResult(e.text, rolls, kept, successes, sum(kept) + e.modifier)


def _random_rolls(e: DiceExpr, rng: random.Random) -> list[int]:
    """Roll the dice, then one more die for each maximum face, in order, until none is left."""
    rolls = [rng.randint(1, e.sides) for _ in range(e.count)]
    i = 0
    while e.explode and i < len(rolls):
        if rolls[i] == e.sides:
            _check_explosions(e, len(rolls) + 1)
            rolls.append(rng.randint(1, e.sides))
        i += 1
    return rolls


def _typed_rolls(e: DiceExpr, given: list[int]) -> list[int]:
    """Check that the typed faces are exactly what the roll uses, explosions included."""
    needed, i = e.count, 0
    while i < min(needed, len(given)):
        if e.explode and given[i] == e.sides:
            needed += 1
            _check_explosions(e, needed)
        i += 1
    if len(given) < needed:
        extra = f" ({needed - e.count} from explosions)" if needed > e.count else ""
        more = "; more if the missing dice explode" if e.explode else ""
        raise DiceError(f"{e.text} needs {plural(needed, 'face')} here{extra}, got {len(given)}{more}")
    if len(given) > needed:
        raise DiceError(f"{plural(len(given), 'face')} given but the roll used {needed}")
    return given


def _check_explosions(e: DiceExpr, dice: int) -> None:
    if dice - e.count > MAX_EXPLOSIONS:
        raise DiceError(
            f"{e.text} exploded into more than {MAX_EXPLOSIONS} extra dice, the cap: roll fewer dice or drop the x"
        )


def _keep(rolls: list[int], keep: tuple[str, int] | None) -> list[int]:
    """Faces left after keep/drop, in the order rolled (among equal faces the earlier die goes first)."""
    if keep is None:
        return list(rolls)
    op, n = keep
    lowest_first = sorted(range(len(rolls)), key=lambda i: (rolls[i], i))
    highest_first = sorted(range(len(rolls)), key=lambda i: (-rolls[i], i))
    chosen = {"kh": highest_first[:n], "kl": lowest_first[:n], "dh": highest_first[n:], "dl": lowest_first[n:]}[op]
    return [rolls[i] for i in sorted(chosen)]
