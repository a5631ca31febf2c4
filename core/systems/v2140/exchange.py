"""Exchanges: the actor's dice against the target's, normal or risky, die by die.

Every die put forward ends in exactly one fate, so dice are conserved and the
e-paper can mark each one:

- ``captured``: taken by the other side as a book (``by`` names the side);
- ``paired``: unanswered dice paired up two for one into a book for their own side;
- ``returned``: not matched, back into its owner's pool and re-rolled;
- ``won``: the winner's own die that beat the other (it leaves the table);
- ``discarded``: a final tie, or the odd die of an unanswered pull ("The other one is lost").

The rulebook's readings behind each rule are in docs/systems/v2140.md ("Readings").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import ceil

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import rules
from tableside.core.systems.v2140.pool import high_to_low
from tableside.core.text import N_
from tableside.core.words import plural

ACTOR, TARGET = "actor", "target"
FATES = ("captured", "paired", "returned", "won", "discarded")


@dataclass(frozen=True)
class Fate:
    side: str  # whose die it was: "actor" or "target"
    face: int
    fate: str  # one of FATES
    by: str | None = None  # the side whose book it became (captured, paired)

    def to_dict(self) -> dict:
        return {"side": self.side, "face": self.face, "fate": self.fate, "by": self.by}


@dataclass(frozen=True)
class Outcome:
    """A resolved exchange: each die's fate, the books each side gains and the dice that go back."""

    kind: str  # "normal", "risky" or "unanswered"
    fates: tuple[Fate, ...]
    books: dict[str, int] = field(default_factory=dict)
    returned: dict[str, tuple[int, ...]] = field(default_factory=dict)
    winner: str | None = None
    reason: str = ""

    def count(self, fate: str) -> int:
        return sum(1 for f in self.fates if f.fate == fate)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "fates": [f.to_dict() for f in self.fates],
            "books": dict(self.books),
            "returned": {k: list(v) for k, v in self.returned.items()},
            "winner": self.winner,
            "reason": self.reason,
        }


def other(side: str) -> str:
    return TARGET if side == ACTOR else ACTOR


def most_forward(pool_size: int) -> int:
    """ "You shouldn't use more than half of your dice in one pull": half, rounded up.

    Rounded up because the rulebook's own table does it: Wire pushes two of his three sixes,
    and a participant with one die left can still act.
    """
    return ceil(pool_size / 2)


def check_forward(pool_size: int, count: int, who: str, exception: bool) -> None:
    """Refuse a pull of more than half the pool unless the table marks it as the exception."""
    if count < 1:
        raise RuleError(N_("{who} must put forward at least one die", who=who))
    if count > pool_size:
        held = plural(pool_size, "die")
        raise RuleError(
            N_("{who} holds {held} in the scene pool, cannot put forward {count}", who=who, held=held, count=count)
        )
    if count > most_forward(pool_size) and not exception:
        raise RuleError(
            N_(
                "{who} may put forward at most {most_forward} of {pool_size} dice (more than half needs the table to "
                "mark it as the exception, like setting off a bomb)",
                who=who,
                most_forward=most_forward(pool_size),
                pool_size=pool_size,
            )
        )


def answer_count(forward: int, target_pool: int) -> int:
    """The target matches the count, or puts forward every die it has when it has fewer."""
    return min(forward, target_pool)


def unanswered(actor: Sequence[int]) -> Outcome:
    """No dice to answer: "Two of the dice are paired up and make a book ... The other one is lost."."""
    dice = high_to_low(actor)
    pairs = len(dice) // rules.DICE_PER_UNANSWERED_BOOK
    paired = pairs * rules.DICE_PER_UNANSWERED_BOOK
    fates = tuple(Fate(ACTOR, f, "paired", ACTOR) for f in dice[:paired]) + tuple(
        Fate(ACTOR, f, "discarded") for f in dice[paired:]
    )
    lost = len(dice) - paired
    made = f"{plural(paired, 'die')} {'makes' if paired == 1 else 'make'} {plural(pairs, 'book')}"
    reason = f"no dice to answer: {made}" + (f", {lost} lost" if lost else "")
    return Outcome(
        "unanswered", fates, {ACTOR: pairs, TARGET: 0}, {ACTOR: (), TARGET: ()}, ACTOR if pairs else None, reason
    )


def normal(actor: Sequence[int], target: Sequence[int], actor_left: int, target_left: int) -> Outcome:
    """A normal exchange, compared pair by pair from the highest die down.

    A tie puts both dice at stake; the next higher die captures the other side's dice at
    stake and the die it beat (Shred's 6 against Jack's 4: one book; the GM's 66 against
    Shred's 65: two books). Dice one side cannot match return to their pool. A stake still
    open at the end goes whole to the side that still has dice when the other has none left
    (Shred's last six against Jack's "for two books"; the GM's 655 against Wire's lone six),
    else the last tied dice are discarded. ``*_left`` are the dice left in each pool.
    """
    if not target:
        return unanswered(actor)
    a, t = high_to_low(actor), high_to_low(target)
    fates: list[Fate] = []
    books = {ACTOR: 0, TARGET: 0}
    stake: list[tuple[str, int]] = []
    for x, y in zip(a, t, strict=False):
        if x == y:
            stake += [(ACTOR, x), (TARGET, y)]
            continue
        win = ACTOR if x > y else TARGET
        win_face, lose_face = (x, y) if win == ACTOR else (y, x)
        for side, face in stake:
            if side == win:
                fates.append(Fate(side, face, "won"))
            else:
                fates.append(Fate(side, face, "captured", win))
                books[win] += 1
        fates += [Fate(win, win_face, "won"), Fate(other(win), lose_face, "captured", win)]
        books[win] += 1
        stake = []
    n = min(len(a), len(t))
    extra_side = ACTOR if len(a) > n else TARGET
    extra = (a if extra_side == ACTOR else t)[n:]
    reason = ""
    if stake:
        has = {
            ACTOR: bool(actor_left) or (extra_side == ACTOR and bool(extra)),
            TARGET: bool(target_left) or (extra_side == TARGET and bool(extra)),
        }
        if has[ACTOR] != has[TARGET]:
            win = ACTOR if has[ACTOR] else TARGET
            fates += [Fate(side, face, "captured", win) for side, face in stake]
            books[win] += len(stake)
            reason = f"the {other(win)} has no dice left to break the tie: the {win} takes the stake"
        else:
            fates += [Fate(side, face, "discarded") for side, face in stake]
            reason = "the last dice compared tied: discarded"
    fates += [Fate(extra_side, face, "returned") for face in extra]
    returned = {side: tuple(extra) if extra_side == side else () for side in (ACTOR, TARGET)}
    winner = ACTOR if books[ACTOR] > books[TARGET] else TARGET if books[TARGET] > books[ACTOR] else None
    return Outcome("normal", tuple(fates), books, returned, winner, reason)


def risky(actor: Sequence[int], target: Sequence[int]) -> Outcome:
    """A risky exchange: "The dice on each side are simply totaled and the higher total captures
    all the dice, taking all of the opponent's dice as books." Equal totals: nobody captures,
    all the dice are discarded (the reading for a tie the rulebook does not cover)."""
    if not target:
        return unanswered(actor)
    a, t = high_to_low(actor), high_to_low(target)
    ta, tt = sum(a), sum(t)
    if ta == tt:
        fates = tuple(Fate(ACTOR, f, "discarded") for f in a) + tuple(Fate(TARGET, f, "discarded") for f in t)
        return Outcome(
            "risky", fates, {ACTOR: 0, TARGET: 0}, {ACTOR: (), TARGET: ()}, None, f"totals tie at {ta}: all discarded"
        )
    win = ACTOR if ta > tt else TARGET
    mine, theirs = (a, t) if win == ACTOR else (t, a)
    fates = tuple(Fate(win, f, "won") for f in mine) + tuple(Fate(other(win), f, "captured", win) for f in theirs)
    return Outcome(
        "risky",
        fates,
        {win: len(theirs), other(win): 0},
        {ACTOR: (), TARGET: ()},
        win,
        f"total {max(ta, tt)} beats {min(ta, tt)}",
    )


def tally(outcome: Outcome) -> dict[str, int]:
    """The dice law's counts: captured is every die that became a book (``captured``, ``paired``);
    discarded is the winners' own dice and final ties (``won``, ``discarded``)."""
    return {
        "captured": outcome.count("captured") + outcome.count("paired"),
        "returned": outcome.count("returned"),
        "discarded": outcome.count("won") + outcome.count("discarded"),
    }


def conservation(put_forward: int, captured: int, returned: int, discarded: int, at_stake: int = 0) -> str | None:
    """The dice law for one exchange: captured + returned + discarded + at stake = put forward. None when it holds."""
    if captured + returned + discarded + at_stake != put_forward:
        return (
            f"dice not conserved: {captured} captured + {returned} returned + {discarded} discarded + "
            f"{at_stake} at stake != {put_forward} put forward"
        )
    return None
