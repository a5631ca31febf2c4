"""The e-paper's bars name every player in one form (#17, one identity per player; docs/display.md):
when one name must take its short form ("Alexandra (Pluto, Ganymede)" in bold, whose turn it is, on a
7.3" board), every row does ("Alexandra", "Bo"), so the rows read alike; where every name fits whole,
every row says it whole ("Ann (Venus)"). Seen failing on the old code: "Alexandra" beside "Bo (Venus, Mars)"."""

from __future__ import annotations

import pytest
from tableside.core.systems.vnm import SYSTEM
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import render_layout
from tableside.display.text import short_names

from tests.golden_states import JOIN

TEAMS = [{"name": "Alexandra", "home_worlds": ["Pluto", "Ganymede"]}, {"name": "Bo", "home_worlds": ["Venus", "Mars"]}]
FOUR = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Mars"]},
    {"name": "Cy", "home_worlds": ["Pluto"]},
    {"name": "Dee", "home_worlds": ["Titan"]},
]


def _bar_names(players: list[dict], panel_id: str) -> tuple[list[str], list[str]]:
    """(the bars' labels, the names drawn for them on ``panel_id``): the bars come first on the screen
    and shorten by the clauses rule (the Ships and Zap rows after them name the players too)."""
    screen = SYSTEM.screen(SYSTEM.start(SYSTEM.validate_options({"players": players})))
    labels = [b.label for e in screen.elements for b in getattr(e, "bars", ())]
    layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))[1]
    return labels, [r.text for r in layout.texts if r.asked in labels and r.rule == "clauses"][: len(labels)]


@pytest.mark.parametrize("panel_id", list(PANELS))
@pytest.mark.parametrize("players", [TEAMS, FOUR], ids=["two teams", "four players"])
def test_every_bar_names_its_player_in_the_same_form(players, panel_id):
    labels, drawn = _bar_names(players, panel_id)
    if not drawn:
        pytest.skip(f"no bars drawn on {panel_id}")
    assert drawn in ([lb for lb in labels if lb in drawn], [short_names(lb) for lb in labels]), (panel_id, drawn)
    assert len(drawn) == len(labels), (panel_id, drawn)


@pytest.mark.parametrize("panel_id", ["impression-7.3", "spectra-7.3"])
def test_a_long_team_name_in_bold_makes_every_row_short_and_a_short_list_stays_whole(panel_id):
    assert _bar_names(TEAMS, panel_id)[1] == ["Alexandra", "Bo"]
    assert _bar_names(FOUR, panel_id)[1] == ["Ann (Venus)", "Bob (Mars)", "Cy (Pluto)", "Dee (Titan)"]


ALIKE = [
    {"name": "Christabella", "home_worlds": ["Venus"]},
    {"name": "Christopher", "home_worlds": ["Mars"]},
    {"name": "Maximilianus", "home_worlds": ["Pluto"]},
    {"name": "Max", "home_worlds": ["Titan"]},
    {"name": "Anna Maria", "home_worlds": ["Ganymede"]},
    {"name": "Anna Lena", "home_worlds": ["Earth"]},
]


@pytest.mark.parametrize("panel_id", [p for p, panel in PANELS.items() if panel.size_class == "small"])
def test_names_too_long_for_a_phat_are_shortened_alike_everywhere_and_stay_apart(panel_id):
    """Six long names on a pHAT were cut with "…" in the bars ("Chri…" twice). Each is now shortened by the
    documented rule, the same in the prompt, and two that would read alike ("Chris.") take letters until they
    differ; "Max" stays whole and "Maximilianus" does not read as it."""
    from tests.test_display_text_fit import check_whole

    screen = SYSTEM.screen(SYSTEM.start(SYSTEM.validate_options({"players": ALIKE})))
    image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
    check_whole(image, layout, panel_id)
    bars = [r.text for r in layout.texts if r.rule == "clauses" and r.asked.endswith(")")][:6]
    assert bars == ["Christa.", "Christo.", "Maxim.", "Max", "Anna M.", "Anna L."], bars
    assert [r.text for r in layout.texts][1].startswith("Maxim. (Pluto)"), "the prompt names the player as the bars do"
