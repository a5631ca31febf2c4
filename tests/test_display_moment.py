"""The moment on the e-paper: what reads together is drawn together.

Measured on the drawn layouts (element boxes), for each system's golden moment on every panel: a
VENOM Leader's Health and Defense form one block with nothing between them (they were once split
across the two columns with the Combat Dice between).
"""

from __future__ import annotations

import pytest
from tableside.core.screen import DiceGroup, Die, Screen, Text, Track
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import metrics, render_layout

from tests.golden_states import JOIN, build, registered

_screens: dict[str, Screen] = {}


def screen_of(system: str) -> Screen:
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    if system not in _screens:
        _screens[system] = build(system)
    return _screens[system]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two boxes share more than an edge."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _one_block(layout, labels: tuple[str, ...]) -> None:
    """The boxes of the tracks named ``labels`` make one block: no other element is drawn inside it."""
    boxes = {e.label: box for e, box in layout.kept if isinstance(e, Track) and e.label in labels}
    assert set(boxes) == set(labels), f"not all of {labels} kept: {sorted(boxes)}"
    block = (
        min(b[0] for b in boxes.values()),
        min(b[1] for b in boxes.values()),
        max(b[2] for b in boxes.values()),
        max(b[3] for b in boxes.values()),
    )
    inside = [e for e, box in layout.kept if getattr(e, "label", None) not in labels and _overlap(box, block)]
    assert not inside, f"{labels} are split by {inside}"


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_the_leaders_health_and_defense_read_as_one_block(panel_id):
    _image, layout = render_layout(screen_of("venom"), get_panel(panel_id), JoinInfo(*JOIN))
    _one_block(layout, ("Health", "Defense"))


@pytest.mark.parametrize("panel_id", ["impression-5.7", "impression-7.3", "spectra-7.3"])
def test_the_leaders_tracks_are_drawn_as_scales_one_under_the_other(panel_id):
    """Where the panel has the room, the two scales line up cell under cell, at the class's track size."""
    _image, layout = render_layout(screen_of("venom"), get_panel(panel_id), JoinInfo(*JOIN))
    boxes = {e.label: box for e, box in layout.kept if isinstance(e, Track)}
    health, defense = boxes["Health"], boxes["Defense"]
    assert (health[0], health[2]) == (defense[0], defense[2])  # the same column, the same width
    assert health[3] <= defense[1] and defense[1] - health[3] <= metrics(get_panel(panel_id)).pad
    assert health[3] - health[1] >= metrics(get_panel(panel_id)).track


def test_neighbouring_tracks_on_one_scale_are_never_split_across_columns():
    """The layout rule itself: the first column has room for one track below the texts, not for two."""
    screen = Screen(
        title="Tracks",
        prompt="Roll",
        elements=(
            Text("A long line about the place this happens, wrapped to two lines", priority=1),
            Text("Another line, the scores", priority=1),
            Track("Health", 2, 1, 8, priority=1),
            Track("Defense", 4, 1, 8, priority=1),
            DiceGroup("5d6", tuple(Die(f) for f in (1, 2, 3, 4, 5)), priority=2),
        ),
    )
    for panel_id in ("impression-5.7", "impression-7.3"):
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        _one_block(layout, ("Health", "Defense"))
