"""The dice are fair: a chi-square test against uniform (issue 13)."""

from __future__ import annotations

import random
from collections import Counter

from tableside.core import dice

# Chi-square critical values for 5 degrees of freedom (a d6).
CRITICAL_P001 = 20.515  # p = 0.001
CRITICAL_P1E9 = 52.0  # about p = 1e-9: a fair generator never fails this in practice


def chi_square(faces: list[int], sides: int) -> float:
    counts = Counter(faces)
    expected = len(faces) / sides
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, sides + 1))


def test_seeded_d6_are_uniform():
    rng = random.Random(20261129)
    faces = [f for _ in range(600) for f in dice.roll("100d6", rng=rng).rolls]
    assert len(faces) == 60_000
    assert chi_square(faces, 6) < CRITICAL_P001


def test_the_default_generator_is_uniform_too():
    faces = [f for _ in range(600) for f in dice.roll("100d6").rolls]
    assert chi_square(faces, 6) < CRITICAL_P1E9


def test_the_test_can_fail():
    loaded = [6] * 2000 + [f for f in range(1, 7) for _ in range(9000)]
    assert chi_square(loaded, 6) > CRITICAL_P1E9
