"""The smallest panels (Inky pHAT 212x104 and 250x122): what players need mid-turn stays on the image.

Each check reads the text runs the renderer drew (``Layout.texts``) and proves each run is really on
the image: drawn alone at the same place in the same font and ink, every one of its pixels is found
in the frame, whole (no "…"), inside the panel and at least body-text size.
"""

from __future__ import annotations

import numpy
import pytest
from PIL import Image, ImageDraw
from tableside.core.screen import KeyFigure, Screen, Text, Track
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, WHITE, get_panel
from tableside.display.render import Layout, TextRun, metrics, render_layout
from tableside.display.text import ELLIPSIS

from tests.golden_states import build, registered
from tests.test_venom_helpers import act, attacking

JOIN = JoinInfo("http://192.168.1.20:8080", "K7QX4M")
PHATS = sorted(p for p, panel in PANELS.items() if panel.size_class == "small")


def test_every_phat_board_is_covered():
    assert {get_panel(p).size for p in PHATS} == {(212, 104), (250, 122)} and len(PHATS) == 7


def on_image(image: Image.Image, run: TextRun) -> bool:
    """Every pixel of ``run``, drawn alone, is in ``image`` in the run's ink (nothing covers or clips it)."""
    alone = Image.new("RGB", image.size, WHITE)
    draw = ImageDraw.Draw(alone)
    draw.fontmode = "1"
    draw.text(run.xy, run.text, font=run.font, fill=run.ink)
    ink = numpy.array(alone) != numpy.array(WHITE, dtype=numpy.uint8)
    mask = ink.any(axis=2)
    frame = numpy.array(image.convert("RGB"))
    return bool(mask.any()) and bool((frame[mask] == numpy.array(run.ink, dtype=numpy.uint8)).all())


def shown(image: Image.Image, layout: Layout, text: str, min_size: int) -> TextRun:
    """The run that draws ``text`` whole, checked to be on the image and at least ``min_size`` px."""
    runs = [r for r in layout.texts if r.text == text]
    assert runs, f"{text!r} is not drawn whole; drawn: {[r.text for r in layout.texts]}"
    run = runs[0]
    x0, y0, x1, y1 = run.box
    assert x0 >= 0 and y0 >= 0 and x1 <= image.width and y1 <= image.height, f"{text!r} off the panel: {run.box}"
    assert run.size >= min_size, f"{text!r} at {run.size} px, smaller than body text ({min_size} px)"
    assert on_image(image, run), f"{text!r} is covered or clipped"
    return run


def labelled(image: Image.Image, layout: Layout, label: str, value: str, min_size: int) -> None:
    """The element labelled ``label`` is kept, and its label and ``value`` are drawn whole inside its box."""
    boxes = [box for e, box in layout.kept if getattr(e, "label", None) == label]
    assert boxes, f"{label} was left out"
    x0, y0, x1, y1 = boxes[0]

    def inside(r: TextRun) -> bool:  # a descender may reach into the gap below
        return x0 <= r.box[0] and r.box[2] <= x1 and y0 <= r.box[1] and r.box[3] <= y1 + 3

    labels = [r for r in layout.texts if r.text == label and inside(r)]
    values = [r for r in layout.texts if r.text == value and inside(r)]
    assert labels and on_image(image, labels[0]), f"the label {label!r} is not on the image whole"
    assert values, f"{label}: {value!r} is not drawn whole in its box; drawn: {[r.text for r in layout.texts]}"
    assert values[0].size >= min_size, f"{label} {value!r} at {values[0].size} px, under {min_size} px"
    assert on_image(image, values[0]), f"{label} {value!r} is covered or clipped"


def venom_states() -> dict[str, tuple[dict, str]]:
    """VENOM attack states with the capture figure each shows: before the roll, would abort, after a roll."""
    before = attacking(health=3, defense=4, dice=5)
    captured, _ = act(before, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    missed, _ = act(before, {"type": "combat_roll"}, faces=[1, 2, 3, 1, 2])
    return {
        "before the roll": (before, "50%"),
        "would abort": (attacking(health=4, defense=4, dice=3), "abort"),
        "captured": (captured, "CAPTURED"),
        "not captured": (missed, "not captured"),
    }


STATES = venom_states()


@pytest.mark.parametrize("panel_id", PHATS)
@pytest.mark.parametrize("state_name", sorted(STATES))
def test_venom_attack_shows_health_defense_and_capture_on_every_phat(panel_id, state_name):
    state, capture = STATES[state_name]
    panel = get_panel(panel_id)
    screen = VENOM.screen(state)
    image, layout = render_layout(screen, panel, JOIN)
    body = metrics(panel).text
    labelled(image, layout, "Capture", capture, body)
    labelled(image, layout, "Health", f"{state['health_track']}/8", body)
    labelled(image, layout, "Defense", f"{state['defense_track']}/8", body)
    assert not [e for e in layout.dropped if e.priority == 1], "a priority-1 element was left out"


@pytest.mark.parametrize("panel_id", ["what-red", "impression-7.3"])
def test_the_larger_panels_still_draw_the_venom_tracks_as_scales(panel_id):
    state, _capture = STATES["before the roll"]
    image, layout = render_layout(VENOM.screen(state), get_panel(panel_id), JOIN)
    cells = [r.text for r in layout.texts if r.text in {str(n) for n in range(1, 9)}]
    assert cells.count("4") >= 2  # the numbered boxes of Health and Defense
    labelled_runs = [r.text for r in layout.texts]
    assert "Health" in labelled_runs and "3/8" in labelled_runs


def golden_screen(system: str, upto: str):
    """A golden scenario's screen right after its first action of type ``upto``."""
    return build(system, upto)


@pytest.mark.parametrize("panel_id", ["phat-red", "phat-ssd1608-red"])
def test_vnm_attack_odds_and_the_roll_stay_on_the_phat(panel_id):
    if "vnm" not in registered():
        pytest.skip("vnm is not registered")
    panel = get_panel(panel_id)
    image, layout = render_layout(golden_screen("vnm", "declare_target"), panel, JOIN)
    odds = [r for r in layout.texts if "51% to" in r.text]
    assert odds and on_image(image, odds[0]), "the chance of the declared attack is not on the pHAT"
    image, layout = render_layout(golden_screen("vnm", "attack"), panel, JOIN)
    assert not [e for e in layout.dropped if e.kind == "dice"], "the attack roll is not on the pHAT"
    # the verdict "Cy (Pluto)'s spaceship destroyed" in the documented short form (docs/display.md)
    shown(image, layout, "Cy's spaceship destroyed", metrics(panel).label)
    for name in ("Ann", "Bob", "Cy", "Dee"):  # the population bars stay
        shown(image, layout, name, metrics(panel).label)


@pytest.mark.parametrize("panel_id", ["phat-red", "phat-ssd1608-red"])
def test_v2140_exchange_stays_on_the_phat(panel_id):
    if "v2140" not in registered():
        pytest.skip("v2140 is not registered")
    panel = get_panel(panel_id)
    image, layout = render_layout(golden_screen("v2140", "put_forward"), panel, JOIN)
    shown(image, layout, "Shred 6 against GM ?", metrics(panel).text)
    for name in ("Shred", "Sven", "GM"):
        shown(image, layout, name, metrics(panel).label)


@pytest.mark.parametrize("panel_id", ["phat-red", "phat-ssd1608-red"])
def test_vegas_player_names_and_round_stay_whole_on_the_phat(panel_id):
    if "vegas" not in registered():
        pytest.skip("vegas is not registered")
    panel = get_panel(panel_id)
    image, layout = render_layout(golden_screen("vegas", "trick_winner"), panel, JOIN)
    for name in ("Ann", "Bob", "Cy"):
        shown(image, layout, name, metrics(panel).label)
    labelled(image, layout, "Round", "1/4", metrics(panel).text)
    shown(image, layout, "High Wins", metrics(panel).text)


# --- the generic rules behind it -------------------------------------------------------------------


def crowded(*extra) -> Screen:
    return Screen(
        "Game",
        "R1",
        prompt="Ann: roll",
        elements=(
            Text("A long line of text that needs two lines on a small panel to be read whole", priority=1),
            KeyFigure("Chance", "81.2%", unit="(5 dice)", priority=1, tone="accent"),
            Track("Speed", 3, 1, 8, priority=1),
            Track("Armour", 6, 1, 8, priority=1),
            *extra,
        ),
    )


def test_priority_one_tracks_become_numbers_rather_than_being_dropped():
    panel = get_panel("phat-red")
    image, layout = render_layout(crowded(), panel, JOIN)
    assert not layout.dropped
    labelled(image, layout, "Speed", "3/8", metrics(panel).text)
    labelled(image, layout, "Armour", "6/8", metrics(panel).text)


def test_a_less_important_figure_never_cuts_a_priority_one_figure():
    panel = get_panel("phat-red")
    low = KeyFigure("A rather long label for a minor number", "12/34", unit="(35%)", priority=3)
    image, layout = render_layout(crowded(low), panel, JOIN)
    assert not [e for e in layout.dropped if e.priority == 1]
    labelled(image, layout, "Chance", "81.2%", metrics(panel).text)
    assert not [r for r in layout.texts if r.text.endswith(ELLIPSIS) and r.text.startswith(("Cha", "Spe", "Arm"))]


def test_figures_on_one_line_keep_every_value_whole_and_leave_out_labels_that_do_not_fit():
    panel = get_panel("phat-red")
    figures = (
        KeyFigure("Round", "1/4"),
        KeyFigure("Trump", "Bot", tone="accent"),
        KeyFigure("Rank", "High Wins", tone="accent"),
        KeyFigure("Points", "12"),
    )
    screen = Screen(
        "Cards",
        "R1",
        prompt="Bob: lead",
        elements=(
            *figures,
            Text("a line", priority=1),
            Text("and another line", priority=1),
            Text("and a third", priority=1),
        ),
    )
    image, layout = render_layout(screen, panel, JOIN)
    for value in ("1/4", "Bot", "High Wins", "12"):
        shown(image, layout, value, metrics(panel).text)
    assert not [r for r in layout.texts if r.text.endswith(ELLIPSIS)]


def test_the_compact_forms_never_leave_the_body():
    for panel_id in PHATS:
        panel = get_panel(panel_id)
        for state, _capture in STATES.values():
            _image, layout = render_layout(VENOM.screen(state), panel, JOIN)
            x0, y0, x1, y1 = layout.body
            boxes = [box for _e, box in layout.kept]
            assert all(x0 <= a and c <= x1 and y0 <= b and d <= y1 for a, b, c, d in boxes)
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def v2140_unanswered_exchange():
    """Shred puts a 6 forward against Sven, who has no dice; button B resolves it (#17 F8, as the lead played it)."""
    from tableside.core.system import run_action
    from tableside.core.systems.v2140 import SYSTEM as V2140

    state = V2140.start(V2140.validate_options({"players": ["Shred", "Sven"]}))
    for raw, faces in (
        ({"type": "prepare_pool", "participant": "Shred", "primary_skills": 2}, None),
        ({"type": "roll_pool", "participant": "Shred"}, [6, 5, 5, 4, 4]),
        ({"type": "put_forward", "actor": "Shred", "target": "Sven", "dice": [6]}, None),
        ({"type": "resolve"}, None),
    ):
        state = run_action(V2140, state, raw, faces=faces).state
    return V2140.screen(V2140.redact(state, None))


@pytest.mark.parametrize("panel_id", [*PHATS, "what-red"])
def test_v2140_an_unanswered_exchange_names_both_sides_and_says_no_dice(panel_id):
    """The wHAT showed "Shred 6 against Sven -: no books", "+0 books" under Shred, and a second "+0 books" with no
    name (Sven's side, with no dice, had no heading); the pHAT "+0 books" alone. Each side is named with its books,
    and a side with no dice says so."""
    panel = get_panel(panel_id)
    image, layout = render_layout(v2140_unanswered_exchange(), panel, JOIN)
    texts = [r.text for r in layout.texts]
    said = "Shred 6 against Sven (no dice): no books"  # whole, on one line or two (the smallest pHATs)
    assert said in " ".join(texts), texts
    assert all(on_image(image, r) for r in layout.texts if r.text in said), texts
    # no outcome without its side ("+2 more", what the body left out counted, is no outcome)
    marks = (" more", " column", " columns")
    assert not [t for t in texts if (t.startswith(("+", "-")) and not t.endswith(marks)) or " -:" in t], texts
    if panel_id == "what-red":
        shown(image, layout, "Shred +0 books", metrics(panel).label)
        if any(getattr(e, "text", "") == "Sven: no dice, +0 books" for e in layout.dropped):
            # the scores' 4 mm rows take its room (#36): the line under the body counts what it left out
            assert f"+{len(layout.dropped)} more" in texts, texts
        else:
            shown(image, layout, "Sven: no dice, +0 books", metrics(panel).text)


def test_v2140_exchange_dice_are_said_as_a_person_says_them():
    """The e-paper's exchange lines ran the faces together ("Shred 65 against Sven 4"): a reader could not tell
    a 65 from a 6 and a 5 (#36). They are said "6 and 5", as on the phone (core.words.faces_words)."""
    from tableside.core.system import run_action
    from tableside.core.systems.v2140 import SYSTEM as V2140

    state = V2140.start(V2140.validate_options({"players": ["Shred", "Sven"]}))
    for raw, faces in (
        ({"type": "prepare_pool", "participant": "Shred", "primary_skills": 2}, None),
        ({"type": "roll_pool", "participant": "Shred"}, [6, 5, 5, 4, 4]),
        ({"type": "prepare_pool", "participant": "Sven", "primary_skills": 2}, None),
        ({"type": "roll_pool", "participant": "Sven"}, [4, 3, 3, 2]),
        ({"type": "put_forward", "actor": "Shred", "target": "Sven", "dice": [6, 5]}, None),
    ):
        state = run_action(V2140, state, raw, faces=faces).state
    pending = " | ".join(e.text for e in V2140.screen(V2140.redact(state, None)).elements if e.kind == "text")
    assert "Shred 6 and 5 against Sven" in pending, pending
    for raw in ({"type": "answer", "dice": [4]}, {"type": "resolve"}):
        state = run_action(V2140, state, raw).state
    last = " | ".join(e.text for e in V2140.screen(V2140.redact(state, None)).elements if e.kind == "text")
    assert "Shred 6 and 5 against Sven 4" in last, last
