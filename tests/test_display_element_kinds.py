"""The renderer dispatches by ``Element.kind`` through one registry: every kind the screen model offers
has a module that measures and draws it (key figures go in the strip), and an unknown kind says so."""

from __future__ import annotations

import typing

import pytest
from tableside.core import screen
from tableside.display.canvas import Canvas
from tableside.display.elements.registry import KINDS, kind_of
from tableside.display.panels import get_panel

SAMPLES = {
    "track": screen.Track("Health", 3, 0, 8),
    "bars": screen.Bars("Population", (screen.Bar("Ann", 4, 30),), threshold=30),
    "grid": screen.Grid("Tracks", ("Team",), (screen.GridRow("Ann", ("3",)),)),
    "dice": screen.DiceGroup("Attack", (screen.Die(6, "hit"), screen.Die(2))),
    "text": screen.Text("Ann draws the Event card"),
}


def test_every_element_kind_of_the_screen_model_has_a_renderer():
    kinds = {t.__dataclass_fields__["kind"].default for t in typing.get_args(screen.Element)}
    assert kinds - {"figure"} == set(SAMPLES)
    assert set(SAMPLES) <= set(KINDS)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_kind_measures_what_it_draws_and_tighter_is_never_taller(name):
    c = Canvas(get_panel("what-red"))
    e = SAMPLES[name]
    kind = kind_of(e)
    heights = [kind.measure(c, e, 300, level) for level in range(4)]
    assert all(h > 0 for h in heights)
    assert heights == sorted(heights, reverse=True), heights
    [(drawn, box)] = kind.place(c, e, 5, 5, 300, 0)
    assert drawn is e and box == (5, 5, 305, 5 + heights[0])
    assert c.image.convert("L").getextrema()[0] < 255  # something was drawn on the white panel


def test_an_unknown_kind_is_named_in_the_error():
    class Odd:
        kind = "sparkline"

    with pytest.raises(ValueError, match="sparkline.*known: track"):
        kind_of(Odd())
