"""core.words: one rule for counts everywhere a person reads them ("1 die", "3 books")."""

from __future__ import annotations

import pytest
from tableside.core.words import plural, plural_of


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [
        (1, "book", "1 book"),
        (0, "book", "0 books"),
        (3, "book", "3 books"),
        (1, "die", "1 die"),
        (2, "die", "2 dice"),
        (2, "Murphy die", "2 Murphy dice"),
        (1, "six", "1 six"),
        (2, "six", "2 sixes"),
        (1, "Player Point", "1 Player Point"),
        (4, "Player Point", "4 Player Points"),
        (-1, "card", "-1 cards"),
    ],
)
def test_a_count_is_said_with_its_noun_as_a_person_would(count, noun, said):
    assert plural(count, noun) == said


def test_an_odd_plural_is_given_once_where_it_is_used():
    assert plural(2, "permanent effect") == "2 permanent effects"
    assert plural(2, "thing to fix", "things to fix") == "2 things to fix"
    assert plural_of("match") == "matches" and plural_of("rack") == "racks"
    assert plural_of("log entry") == "log entries" and plural_of("day") == "days"
