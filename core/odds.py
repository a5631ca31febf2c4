"""Exact dice odds, as fractions, so "0.5" on the panel is 1/2 and not 0.4999.

Systems use these to show "chance to capture" or "chance to destroy" before a
roll. Everything is exact (``fractions.Fraction``); callers format as percent.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def face_chance(sides: int, at_least: int) -> Fraction:
    """Chance that one fair die of ``sides`` faces (1..sides) shows ``at_least`` or more."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    hits = sides - max(at_least, 1) + 1
    return Fraction(min(max(hits, 0), sides), sides)


def at_least_k(n: int, p: Fraction, k: int) -> Fraction:
    """Binomial chance of at least ``k`` successes in ``n`` independent trials of chance ``p``."""
    if k <= 0:
        return Fraction(1)
    if k > n:
        return Fraction(0)
    return sum(
        (Fraction(comb(n, i)) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)),
        Fraction(0),
    )


def percent(p: Fraction, digits: int = 1) -> str:
    """'51%' or '33.3%': at most ``digits`` decimals, no trailing zeros."""
    text = f"{float(p) * 100:.{digits}f}".rstrip("0").rstrip(".")
    return f"{text}%"
