"""Typed-in faces across rolls of different dice in one action (a d2, then a d6)."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.recorder import Dice


def test_each_typed_face_is_read_on_the_die_that_consumes_it():
    d = Dice(typed=[2, 5, "0"])
    for label, sides, face in (("first", 2, 2), ("second", 6, 5), ("third", 10, 10)):
        assert d.faces(label, 1, sides=sides, by="Ann") == [face]
        d.mark()
    assert [r["label"] for r in d.finish()] == ["first", "second", "third"]


def test_a_face_the_consuming_die_lacks_is_still_refused():
    d = Dice(typed=[5])
    with pytest.raises(RuleError, match="face 5 is not on a d2"):
        d.faces("pick", 1, sides=2)
