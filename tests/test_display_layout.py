"""Layouts per panel class: big key figures, nothing off the panel, drop by priority, six players, colour."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tableside.core.screen import Bar, Bars, DiceGroup, Die, Grid, GridRow, KeyFigure, Screen, Text, Track
from tableside.display.join import JoinInfo
from tableside.display.panels import INK_RGB, PANELS, get_panel
from tableside.display.render import metrics, render_layout
from tableside.display.text import font

JOIN = JoinInfo("http://192.168.1.20:8080", "K7QX4M")
NAMES = ["Ann", "Bob", "Cyrano de Bergerac the Third", "Dee", "Eve", "Fay"]

VENOM_LIKE = Screen(
    title="VENOM Assault · Round 3",
    status="Ann · Combat",
    prompt="Ann: roll the Combat Dice",
    elements=(
        KeyFigure("Event track", "2", "/5"),
        KeyFigure("Health", "5"),
        KeyFigure("Defense", "4"),
        KeyFigure("Capture", "81%", tone="accent"),
        Track("Event track", 2, 0, 5, style="boxes", priority=2),
        Track("Health", 5, 1, 8, priority=2),
        Track("Defense", 4, 1, 8, priority=2),
        DiceGroup(
            "Combat 5d6 vs Defense 4",
            tuple(Die(f, "hit" if f >= 4 else "miss") for f in (4, 6, 4, 2, 1)),
            "3 hits: captured",
            priority=2,
        ),
        Text("Cards left: 22; VENOM Strikes! next: 27%", priority=4),
    ),
)


def six_players(priority: int = 1) -> Bars:
    return Bars(
        "Population",
        tuple(Bar(n, 5 * i + 3, 40, colour=i) for i, n in enumerate(NAMES)),
        threshold=26,
        priority=priority,
    )


@pytest.mark.parametrize("panel_id", ["impression-7.3", "spectra-7.3"])
def test_key_figures_are_at_least_40_px_tall_on_the_7_3_inch_panels(panel_id):
    panel = get_panel(panel_id)
    image, layout = render_layout(VENOM_LIKE, panel, JOIN)
    assert font(layout.figure_size, "bold").getbbox("0")[3] - font(layout.figure_size, "bold").getbbox("0")[1] >= 40
    pixels = numpy.array(image)
    for fig, (x0, y0, x1, y1) in [(e, box) for e, box in layout.kept if isinstance(e, KeyFigure)]:
        value_area = pixels[y0 + metrics(panel).line : y1 - 3, x0 + 3 : x1 - 3]
        inked = numpy.where((value_area != 255).any(axis=2).any(axis=1))[0]
        assert inked.size and inked[-1] - inked[0] + 1 >= 40, f"{fig.label}: value only {inked.size} px tall"


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_six_players_always_fit(panel_id):
    panel = get_panel(panel_id)
    screen = Screen(title="Venus Needs Men", status="R4 Venus", elements=(six_players(), KeyFigure("Round", "4")))
    _image, layout = render_layout(screen, panel, JOIN)
    assert not layout.dropped
    ((_bars, box),) = [(e, b) for e, b in layout.kept if isinstance(e, Bars)]
    assert box[3] <= panel.height and box[2] <= panel.width


def test_small_panels_drop_by_priority_and_keep_what_matters_most():
    panel = get_panel("phat-red")
    _image, layout = render_layout(VENOM_LIKE, panel, JOIN)
    kept = [e for e, _box in layout.kept]
    assert all(isinstance(e, KeyFigure) for e in kept if e.priority == 1) and len(kept) >= 4
    assert layout.dropped and min(e.priority for e in layout.dropped) >= max(e.priority for e in kept) - 0
    big = get_panel("impression-7.3")
    assert len(render_layout(VENOM_LIKE, big, JOIN)[1].dropped) < len(layout.dropped)


element = st.one_of(
    st.builds(KeyFigure, st.text(max_size=30), st.text(min_size=1, max_size=12), priority=st.integers(1, 4)),
    st.builds(
        Track,
        st.text(max_size=30),
        st.integers(0, 12),
        st.just(0),
        st.integers(1, 12),
        style=st.sampled_from(["scale", "boxes", "bar"]),
        priority=st.integers(1, 4),
    ),
    st.builds(Text, st.text(max_size=300), priority=st.integers(1, 4)),
    st.builds(
        DiceGroup,
        st.text(max_size=30),
        st.lists(st.builds(Die, st.integers(1, 6)), max_size=20).map(tuple),
        st.text(max_size=30),
        priority=st.integers(1, 4),
    ),
    st.builds(
        Grid,
        st.text(max_size=20),
        st.lists(st.text(max_size=8), min_size=1, max_size=6).map(tuple),
        st.lists(
            st.builds(GridRow, st.text(max_size=30), st.lists(st.text(max_size=6), max_size=6).map(tuple)), max_size=6
        ).map(tuple),
        priority=st.integers(1, 4),
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(element, max_size=10),
    st.sampled_from(sorted(PANELS)),
    st.text(max_size=100),
    st.one_of(st.none(), st.text(max_size=200)),
)
def test_no_layout_ever_draws_outside_its_body(elements, panel_id, title, alert):
    panel = get_panel(panel_id)
    image, layout = render_layout(Screen(title=title, elements=tuple(elements), alert=alert), panel, JOIN)
    assert image.size == panel.size
    x0, y0, x1, y1 = layout.body
    for _e, (bx0, by0, bx1, by1) in layout.kept:
        assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1
    boxes = [box for _e, box in layout.kept]
    for i, a in enumerate(boxes):  # no two elements share pixels
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert len(layout.kept) + len(layout.dropped) == len(elements)


def test_colour_panels_use_their_colours_and_the_alert_is_solid_red():
    panel = get_panel("spectra-7.3")
    screen = Screen(title="Venus Needs Men", alert="Ann wins: 26 population", elements=(six_players(2),))
    image, _layout = render_layout(screen, panel, JOIN)
    used = {rgb for _n, rgb in image.getcolors()}
    assert {INK_RGB[c] for c in ("red", "blue", "green", "yellow")} <= used
    m = metrics(panel)
    band = numpy.array(image)[m.header + 1 : m.header + m.pad // 2, :]
    assert (band == INK_RGB["red"]).all()


def test_a_4000_character_name_is_cut_not_overflowing():
    name = "Ω" * 4000
    screen = Screen(
        title=name, status=name, alert=name, prompt=name, elements=(KeyFigure(name, name), Text(name), six_players())
    )
    for panel_id in ("phat-red", "what-red", "spectra-13.3"):
        image, layout = render_layout(screen, get_panel(panel_id), JOIN)
        assert image.size == get_panel(panel_id).size and layout.kept
