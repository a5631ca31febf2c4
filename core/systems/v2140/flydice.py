"""Fly-Dice: a one-off roll when a character turns to a similar goal mid-conflict.

"The offending character makes a one-time roll of their base attack ... against a single
rack or the opponent's skill—adding a new die for every six rolled and dropping ones, twos and
threes. All of these dice are compared and the successful party gains the high dice of this
roll and may add it onto their existing scene pool."

Reading: both rolls are compared as a normal exchange compares, highest die first, the first
unequal pair deciding (all equal: the side with more dice; identical: nobody). The winner adds
the dice their own roll kept (the "high dice": 4+, roll-ins included) to their scene pool;
the loser's roll is gone. James's 554 against the GM's 66554 with the roll-ins 55: the GM
adds 6655554.
"""

from __future__ import annotations

from collections.abc import Sequence

from tableside.core.systems.v2140.pool import high_to_low

ATTACKER, DEFENDER = "attacker", "defender"


def winner(attacker: Sequence[int], defender: Sequence[int]) -> str | None:
    a, d = high_to_low(attacker), high_to_low(defender)
    for x, y in zip(a, d, strict=False):
        if x != y:
            return ATTACKER if x > y else DEFENDER
    if len(a) != len(d):
        return ATTACKER if len(a) > len(d) else DEFENDER
    return None
