"""The moment on the e-paper: what reads together is drawn together, and a large panel uses its space.

Measured on the drawn layouts (element boxes and pixels), for each system's golden moment: a VENOM
Leader's Health and Defense form one block with nothing between them on every panel (they were once
split across the two columns with the Combat Dice between), and on a large panel neither half of the
body ends in an empty band (Venusian Vegas once left the right half empty for 69 px below its grid on
the 7.3", Venus 2140 91 px, and a third of the right half on the 13.3").
"""

from __future__ import annotations

import numpy
import pytest
from tableside.core.screen import DiceGroup, Die, Screen, Text, Track
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import metrics, render_layout

from tests.golden_states import JOIN, SCENARIOS, build, play, registered

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


LARGE = sorted(p for p, panel in PANELS.items() if panel.size_class == "large")


def empty_bands(image, layout) -> tuple[int, int]:
    """Pixel rows at the bottom of the body's left and right halves with no ink (a 1 px column rule is none)."""
    x0, y0, x1, y1 = layout.body
    pixels = numpy.array(image.convert("RGB"))[y0:y1, x0:x1]
    mid = (x1 - x0) // 2
    bands = []
    for half in (pixels[:, :mid], pixels[:, mid:]):
        inked = numpy.where((half != 255).any(axis=2).sum(axis=1) > 2)[0]
        bands.append((y1 - y0) - (int(inked[-1]) + 1 if inked.size else 0))
    return bands[0], bands[1]


@pytest.mark.parametrize("system", sorted(SCENARIOS))
@pytest.mark.parametrize("panel_id", LARGE)
def test_no_large_panel_leaves_an_empty_band_below_its_body(system, panel_id):
    """No empty third in either half on any large panel; on the 7.3" boards, not even a fifth."""
    image, layout = render_layout(screen_of(system), get_panel(panel_id), JoinInfo(*JOIN))
    body = layout.body[3] - layout.body[1]
    most = body / 5 if panel_id.endswith("7.3") else body / 3
    left, right = empty_bands(image, layout)
    assert max(left, right) < most, f"{system}: {left} px (left) and {right} px (right) of {body} px empty"


@pytest.mark.parametrize("panel_id", [p for p in LARGE if p.endswith("7.3")])
def test_venom_before_a_leader_leaves_no_column_half_empty(panel_id):
    """The Event phase's moment (no Leader yet): the Active Events go beside the Event Track, not under the
    players' grid with the Event Track alone in its column (114 px of 284 were empty below it)."""
    if "venom" not in registered():
        pytest.skip("venom is not registered")
    screen, _state = play("venom", "draw_event")
    image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
    body = layout.body[3] - layout.body[1]
    left, right = empty_bands(image, layout)
    assert max(left, right) < body / 5, f"{left} px (left) and {right} px (right) of {body} px empty"


@pytest.mark.parametrize("panel_id", [p for p in LARGE if p.endswith("7.3")])
def test_a_sparse_moment_draws_its_prompt_bigger_rather_than_leave_a_band(panel_id):
    """Venus 2140 before an exchange has only the scene's pools to show: the prompt (the moment) takes the
    room, above the usual quarter more than the title, instead of 84 of 334 px left empty below the body."""
    if "v2140" not in registered():
        pytest.skip("v2140 is not registered")
    screen, _state = play("v2140", "roll_pool")
    panel = get_panel(panel_id)
    image, layout = render_layout(screen, panel, JoinInfo(*JOIN))
    body = layout.body[3] - layout.body[1]
    left, right = empty_bands(image, layout)
    assert max(left, right) < body / 5, f"{left} px (left) and {right} px (right) of {body} px empty"
    texts = list(layout.texts)
    prompt = texts[[r.text for r in texts].index("▶ ") + 1]  # the prompt's first line follows its arrow
    assert prompt.size > metrics(panel).title * 5 // 4
    assert not layout.dropped and layout.tightest == 0


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_vnm_race_bars_are_the_main_element_with_whose_turn_marked(panel_id):
    """VNM: the population bars are kept on every panel, the biggest element of the body (across it where
        there are columns), and only the player whose turn it is has the name marked (the accent ink, or bold where
    the panel has no accent text ink) and an accent bar beside it."""
    from tableside.core.screen import Bars
    from tableside.display.canvas import Inks

    screen = screen_of("vnm")
    panel = get_panel(panel_id)
    image, layout = render_layout(screen, panel, JoinInfo(*JOIN))
    bars = [(e, box) for e, box in layout.kept if isinstance(e, Bars)]
    assert bars, "the race bars are left out"
    (race, (x0, y0, x1, y1)), area = bars[0], lambda b: (b[2] - b[0]) * (b[3] - b[1])
    assert all(area(box) <= area((x0, y0, x1, y1)) for e, box in layout.kept if e is not race)
    if panel.size_class != "small":
        assert x1 - x0 >= (layout.body[2] - layout.body[0]) - 2, "the race does not read across the body"
    turn = [b.label for b in race.bars if b.note == "turn"]
    assert len(turn) == 1
    accent = Inks(panel).accent_text
    runs = {r.text: r for r in layout.texts if y0 <= r.xy[1] <= y1}
    for bar in race.bars:
        drawn = [r for text, r in runs.items() if bar.label.startswith(text.rstrip("…")) and text]
        assert drawn, f"{bar.label} is not drawn on the bars"
        run = drawn[0]
        marked = (run.ink == accent and accent != (0, 0, 0)) or "Bold" in run.font.getname()[1]
        assert marked == (bar.label in turn), f"{bar.label}: ink {run.ink}, {run.font.getname()}"
    pixels = numpy.array(image.convert("RGB"))
    name = [r for text, r in runs.items() if turn[0].startswith(text.rstrip("…")) and text][0]
    beside = pixels[name.box[1] : name.box[3], x0 : name.box[0]]
    assert (beside == numpy.array(Inks(panel).accent, dtype=numpy.uint8)).all(axis=2).any(), "no turn bar"


@pytest.mark.parametrize("system", sorted(SCENARIOS))
@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_only_the_moments_figures_are_drawn_bigger_than_the_prompt(system, panel_id):
    """The prompt is the biggest text of the body's frame: only the key figures (and tracks drawn as figures)
    may be bigger; no grid, text, bar or dice label is."""
    _image, layout = render_layout(screen_of(system), get_panel(panel_id), JoinInfo(*JOIN))
    _prompt_is_biggest(layout)


SPARSE = Screen(
    title="Sparse",
    prompt="Ann: choose the card to play from the hand, then pass the turn on",  # two lines: it cannot grow
    elements=(Text("Cards left: 22", priority=1), Text("Next: Bob", priority=2)),
)


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_a_sparse_body_drawn_bigger_stays_smaller_than_the_prompt(panel_id):
    _image, layout = render_layout(SPARSE, get_panel(panel_id), JoinInfo(*JOIN))
    _prompt_is_biggest(layout)


def _prompt_is_biggest(layout) -> None:
    from tableside.core.screen import KeyFigure

    texts = list(layout.texts)
    start = [r.text for r in texts].index("▶ ") + 1
    prompt = texts[start].size
    figures = [box for e, box in layout.kept if isinstance(e, KeyFigure | Track)]
    for run in texts[start:]:
        if run.xy[1] < layout.body[1] or any(
            b[0] <= run.xy[0] <= b[2] and b[1] - 2 <= run.xy[1] <= b[3] for b in figures
        ):
            continue
        assert run.size <= prompt, f"{run.text!r} is drawn at {run.size} px, above the prompt's {prompt}"


def test_the_two_sides_of_an_exchange_stand_side_by_side_on_the_13_3_inch():
    """The columns are evened out in the screen's order: with both sides' dice on the table, the answer
    goes to the top of the second column beside the dice put forward, not under them beside a column
    holding one line (a third of the 13.3" body was left empty in the right half)."""
    from tableside.core.screen import DiceGroup

    if "v2140" not in registered():
        pytest.skip("v2140 is not registered")
    screen, _state = play("v2140", "answer")
    image, layout = render_layout(screen, get_panel("spectra-13.3"), JoinInfo(*JOIN))
    (forward, answer) = [box for e, box in layout.kept if isinstance(e, DiceGroup)]
    assert forward[1] == answer[1] and forward[2] <= answer[0], f"{forward} and {answer} are not side by side"
    body = layout.body[3] - layout.body[1]
    assert max(empty_bands(image, layout)) < body / 3


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_vnm_player_worlds_keep_distinct_inks_on_every_colour_panel(panel_id):
    """One identity per player on the e-paper: the five player worlds' rulebook colours (Venus Purple, Mars
    Red, Ganymede Blue, Titan Yellow, Pluto Black) get five different inks wherever the panel has five
    player inks (on a Spectra board Venus was drawn blue, as Ganymede)."""
    from tableside.core.systems.vnm.screen import world_colour
    from tableside.display.canvas import Inks

    inks = Inks(get_panel(panel_id))
    if len(inks.players) < 5:
        pytest.skip("this panel draws every player in black")
    worlds = ("Venus", "Mars", "Ganymede", "Titan", "Pluto")
    drawn = {w: inks.player(world_colour(w)) for w in worlds}
    assert len(set(drawn.values())) == len(worlds), drawn


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_five_seats_keep_five_inks_on_every_colour_panel(panel_id):
    """Venusian Vegas and VENOM colour players by seat (0-4, up to five players): five inks wherever the
    panel has five player inks (on a Spectra board the fourth seat's orange fell back to yellow, the fifth's)."""
    from tableside.display.canvas import Inks

    inks = Inks(get_panel(panel_id))
    if len(inks.players) < 5:
        pytest.skip("this panel draws every player in black")
    drawn = [inks.player(seat) for seat in range(5)]
    assert len(set(drawn)) == 5, drawn


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_vegas_tokens_held_stay_on_every_panel_beside_the_scores(panel_id):
    """Who holds which modifier tokens is a figure of the trick (Trump and Rank can change, bonuses): it was
    left out on every panel below the 13.3". Now it is kept on each, in the held form where room is short
    ("Tokens held  Bob Game, Inspector  Cy Bot": the token colours whole where they fit, never "Gm Ins",
    #36), and never at the cost of the scores."""
    from tableside.core.screen import Grid

    screen = screen_of("vegas")
    _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
    kept = {e.title for e, _box in layout.kept if isinstance(e, Grid)}
    assert {"Players", "Tokens held"} <= kept, f"kept grids: {kept}"
    drawn = " ".join(r.text for r in layout.texts)
    for word in ("Tokens held", "Bob", "Cy", "Bot"):
        assert word in drawn, f"{word!r} not drawn: {drawn}"
    assert "Bob Game, Inspector" in drawn or "Bob Gam Ins" in drawn or "Inspector" in drawn, drawn
    assert "Bob Gm" not in drawn and "×" not in drawn, drawn
    assert "VP" in drawn, "the scores are left out"


@pytest.mark.parametrize("upto", ["end_turn", "build"])
@pytest.mark.parametrize("panel_id", [p for p in LARGE if p.endswith("7.3")])
def test_vnm_turn_start_leaves_no_column_half_empty_on_the_7_3_inch(panel_id, upto):
    """A VNM turn start ("build, move, attack or collect"): the Ships grid filled the right half below the
    race while the left held one line, "Earth: 99 left", over 117 of 284 px left empty. Earth's land areas
    (what a collect takes from) now go there in the grid's list form, "Earth  China 25  India 21"."""
    if "vnm" not in registered():
        pytest.skip("vnm is not registered")
    screen, _state = play("vnm", upto)
    image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
    body = layout.body[3] - layout.body[1]
    left, right = empty_bands(image, layout)
    assert max(left, right) < body / 5, f"{left} px (left) and {right} px (right) of {body} px empty"
    drawn = " ".join(r.text for r in layout.texts)
    assert "China" in drawn and "Ships" in drawn


STEPS = [(s, a) for s, (_o, actions) in SCENARIOS.items() for a in sorted({x["type"] for x in actions})]


@pytest.mark.parametrize(("system", "upto"), STEPS, ids=[f"{s}-{a}" for s, a in STEPS])
def test_no_moment_of_a_scenario_leaves_an_empty_third_on_a_large_panel(system, upto):
    """Every step of each golden scenario, not only its last (a VNM turn start once left 117 of 284 px of
    the 7.3"'s left half empty): neither half of the body ends in an empty third on a large panel."""
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    screen, _state = play(system, upto)
    for panel_id in LARGE:
        image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        body = layout.body[3] - layout.body[1]
        left, right = empty_bands(image, layout)
        assert max(left, right) < body / 3, f"{panel_id}: {left} px (left) and {right} px (right) of {body} px"
