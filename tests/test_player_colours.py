"""A player has one colour: their rows and bars on the Game tab and the e-paper, and their line on the
History chart, in every system (the chart is drawn with ``webui.history.chart_svg``'s palette)."""

from __future__ import annotations

import html
import re

import pytest
from tableside.core.systems import get_system
from tableside.webui.history import PALETTE, chart_svg

from tests.golden_states import SCENARIOS, play, registered


def _screen_colours(screen) -> dict[str, int]:
    """Each coloured row or bar's name (without tags such as " (Cmdr)" or " Medal") and its colour."""
    out: dict[str, int] = {}
    for element in screen.elements:
        for row in (*getattr(element, "bars", ()), *getattr(element, "rows", ())):
            if row.colour is not None:
                out.setdefault(re.sub(r" \(Cmdr\)| Medal$", "", row.label), row.colour)
    return out


def _chart_colour(svg: str, series: str) -> str:
    """The colour of the legend swatch beside ``series`` in the drawn chart."""
    found = re.search(r'fill="(#[0-9a-f]{6})" style="[^"]*"/><text [^>]*>' + re.escape(html.escape(series)) + ":", svg)
    assert found, f"no legend entry for {series!r}"
    return found.group(1)


def _names(series: str, player: str) -> bool:
    """Whether a chart series is the player's: "Ann", "Ann: Leaders captured", "Ann's score"."""
    return series == player or series.startswith((f"{player}: ", f"{player}'s "))


@pytest.mark.parametrize("system_id", sorted(SCENARIOS))
def test_each_player_has_the_same_colour_on_the_board_and_the_chart(system_id: str) -> None:
    if system_id not in registered():
        pytest.skip(f"{system_id} is not registered")
    system = get_system(system_id)
    screen, state = play(system_id)
    on_board = _screen_colours(screen)
    series = system.chart_series(state)
    names = list(series)
    svg = chart_svg(
        "t", "Round", names, [{"x": 1, "values": series}, {"x": 2, "values": series}], system.chart_colours(state)
    )
    players = 0
    for name in names:
        owner = next((p for p in on_board if _names(name, p)), None)
        if owner is None:
            continue  # a series of the game, not of a player (VENOM's Event Track)
        players += 1
        assert _chart_colour(svg, name) == PALETTE[on_board[owner]], f"{system_id}: {name} is not {owner}'s colour"
    assert players >= 2, f"{system_id}: the chart names no player the board colours"
    others = [_chart_colour(svg, n) for n in names if not any(_names(n, p) for p in on_board)]
    assert not set(others) & {PALETTE[c] for c in on_board.values()}, "a game's line has a player's colour"


def test_the_chart_paints_a_player_as_the_phone_board_does() -> None:
    """The chart's colours are the board's (style.css --p0..--p6, light mode) and, inside the page, the board's
    variables themselves, so a player keeps their colour in dark mode too."""
    from pathlib import Path

    from tableside.core.screen import PLAYER_INKS

    css = (Path(__file__).resolve().parents[1] / "webui" / "static" / "style.css").read_text()
    light = css.split("@media")[0]
    board = dict(re.findall(r"--p(\d): (#[0-9a-f]{6})", light))
    assert [board[str(i)] for i in range(len(PLAYER_INKS))] == list(PALETTE[: len(PLAYER_INKS)])
    svg = chart_svg("t", "Round", ["Ann (Venus)"], [{"x": 1, "values": {"Ann (Venus)": 1}}], {"Ann (Venus)": 6})
    assert "stroke:var(--p6, #7b1fa2)" in svg and "fill:var(--p6, #7b1fa2)" in svg


def test_players_keep_apart_on_an_e_paper_that_lacks_their_colour() -> None:
    """Venus is purple; no colour board has a purple ink, so Venus's bars and swatches are red and blue pixels
    alternating (``PURPLE_MIX``), which reads as purple, never another player's ink: beside red Mars and green
    Earth every player keeps their own. (Purple was drawn orange on a 7-colour board and green or blue on a
    Spectra board, #17.) A panel without both red and blue keeps the stand-ins."""
    from tableside.core.screen import PLAYER_INKS
    from tableside.core.systems.vnm import SYSTEM
    from tableside.display.canvas import PURPLE_MIX, Inks
    from tableside.display.panels import INK_RGB, get_panel
    from tableside.display.render import _player_colours

    purple, green, red = (PLAYER_INKS.index(c) for c in ("purple", "green", "red"))
    for panel_id in ("spectra-7.3", "impression-7.3", "spectra-4", "impression-5.7"):
        inks = Inks(get_panel(panel_id))
        assert inks.player(purple) == PURPLE_MIX, panel_id  # alone
        inks.share([purple, green, red])
        assert inks.player(green) == INK_RGB["green"] and inks.player(red) == INK_RGB["red"]
        assert inks.player(purple) == PURPLE_MIX, panel_id
    assert Inks(get_panel("what-red")).player(purple) == INK_RGB["black"]  # a two-ink board: every player black
    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Venus", "Earth", "Mars"], "first_player": "Venus"}))
    assert {purple, green, red} <= set(_player_colours(SYSTEM.screen(state)))  # what the renderer shares


def test_venus_purple_is_drawn_in_red_and_blue_pixels_alternating_with_its_name_solid() -> None:
    """The pattern is in the frame as the panel gets it: a Venus bar's pixels alternate red and blue (no other
    colour, so the driver shows it as drawn), and the name beside it is one solid ink. Seen failing before:
    the bar was solid green on a Spectra board."""
    import numpy
    from tableside.core.screen import PLAYER_INKS, Bar, Bars, Screen
    from tableside.display.panels import INK_RGB, get_panel
    from tableside.display.quantize import to_panel_image
    from tableside.display.render import render_layout

    venus = PLAYER_INKS.index("purple")
    bars = Bars("Population", (Bar("Ann (Venus)", 30, 40, colour=venus), Bar("Bob (Mars)", 9, 40, colour=0)), 26, 1)
    for panel_id in ("spectra-7.3", "impression-7.3"):
        panel = get_panel(panel_id)
        image, layout = render_layout(Screen("VNM", elements=(bars,)), panel)
        frame = numpy.array(to_panel_image(image, panel).convert("RGB"))
        ((_e, box),) = layout.kept
        name = next(r for r in layout.texts if r.text.startswith("Ann"))
        row = name.box[1] + (name.box[3] - name.box[1]) // 2
        middle = frame[row, (box[0] + box[2]) // 2 - 20 : (box[0] + box[2]) // 2 + 20]
        red, blue = numpy.array(INK_RGB["red"]), numpy.array(INK_RGB["blue"])
        assert all((p == red).all() or (p == blue).all() for p in middle), panel_id
        assert all((a == red).all() != (b == red).all() for a, b in zip(middle, middle[1:], strict=False))
        assert name.ink in (INK_RGB["black"], INK_RGB["blue"])  # text never in the pattern
