"""Every text on the e-paper is whole: each golden scenario drawn on every panel, each run measured.

The canvas records every run of text with the text it was asked to draw and the room it was given
(``TextRun.asked``, ``TextRun.room``). Here each run is measured again with Pillow's ``textbbox`` in
its own font, and must lie inside its room and the panel, be the text it was asked for with no "…"
(or the documented abbreviation, docs/display.md), not overlap another run, and be on the image,
pixel for pixel (nothing drawn over it). On the pHAT every player's score stays, on the same line as
the player's name.
"""

from __future__ import annotations

import re
from typing import Any

import numpy
import pytest
from PIL import Image, ImageDraw
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import Layout, TextRun, render_layout
from tableside.display.text import ELLIPSIS, FORMS, clean

from tests.golden_states import SCENARIOS, play, registered

JOIN = JoinInfo("http://192.168.1.20:8080", "K7QX4M")
CASES = [(system, panel_id) for system in sorted(SCENARIOS) for panel_id in sorted(PANELS)]
_PLAYED: dict[str, tuple[Any, dict]] = {}


def _played(system: str) -> tuple[Any, dict]:
    if system not in _PLAYED:
        _PLAYED[system] = play(system)
    return _PLAYED[system]


def measured(run: TextRun) -> tuple[int, int, int, int]:
    """The run's ink box as Pillow draws it (no anti-aliasing, as on the panel)."""
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # as the canvas draws: an RGB image, no anti-aliasing
    draw.fontmode = "1"
    return tuple(int(v) for v in draw.textbbox(run.xy, run.text, font=run.font))  # type: ignore[return-value]


def on_image(image: Image.Image, run: TextRun) -> bool:
    """Every pixel of ``run``, drawn alone, is in ``image`` in the run's ink (white text on a bar too)."""
    ground = (255, 0, 255)  # no panel ink
    alone = Image.new("RGB", image.size, ground)
    draw = ImageDraw.Draw(alone)
    draw.fontmode = "1"
    draw.text(run.xy, run.text, font=run.font, fill=run.ink)
    mask = (numpy.array(alone) != numpy.array(ground, dtype=numpy.uint8)).any(axis=2)
    frame = numpy.array(image.convert("RGB"))
    return bool(mask.any()) and bool((frame[mask] == numpy.array(run.ink, dtype=numpy.uint8)).all())


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def scores(system: str, state: dict) -> list[tuple[str, str]]:
    """(player as the e-paper names them, score as drawn) for each player: what must stay on a pHAT."""
    from tableside.core.systems import get_system

    return list(get_system(system).scores(state).items())


def check_names(layout: Layout, where: str) -> None:
    """Where a frame shortens the players' names (docs/display.md, "Names on a small panel"): each is whole or
    its first letters and a full stop, no two read alike, and no text writes a shortened name whole."""
    drawn = dict(layout.names)
    for name, form in drawn.items():
        assert form == name or (form.endswith(".") and name.startswith(form[:-1]) and len(form) < len(name)), (
            f"{where}: {name!r} drawn as {form!r}, not a documented shorter name"
        )
    read = [form.rstrip(".").casefold() for form in drawn.values()]
    assert len(set(read)) == len(read), f"{where}: two players read alike: {sorted(drawn.values())}"
    for name, form in drawn.items():
        if form != name:
            whole = [r.text for r in layout.texts if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", r.text)]
            assert not whole, f"{where}: {name!r} is {form!r} on this panel but whole in {whole}"


def check_whole(image: Image.Image, layout: Layout, where: str) -> None:
    assert not layout.lost, f"{where}: no room at all for {layout.lost}"
    check_names(layout, where)
    boxes = []
    for run in layout.texts:
        box = measured(run)
        assert ELLIPSIS not in run.text, f"{where}: {run.asked!r} cut to {run.text!r}"
        forms = FORMS[run.rule](run.asked) if run.rule else [run.asked]
        assert run.text in forms, f"{where}: {run.asked!r} drawn as {run.text!r}, not a documented form"
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= image.width and box[3] <= image.height, (
            f"{where}: {run.text!r} off the panel at {box}"
        )
        if run.room is not None:
            r = run.room
            assert r[0] <= box[0] and box[2] <= r[2] and r[1] <= box[1] and box[3] <= r[3], (
                f"{where}: {run.text!r} measures {box}, wider than its room {r}"
            )
        for other, obox in boxes:
            assert not _overlap(box, obox), f"{where}: {run.text!r} {box} overlaps {other!r} {obox}"
        boxes.append((run.text, box))
        assert on_image(image, run), f"{where}: {run.text!r} is covered or clipped"


def check_counted(layout: Layout, panel_id: str, where: str) -> None:
    """What the body left out is counted in the line under it on every panel with one (all but the pHAT): "+2
    more" where two elements had no room, and no such mark where none was left out."""
    if get_panel(panel_id).size_class == "small":
        return
    under = [r.text for r in layout.texts if r.xy[1] >= layout.body[3] and re.fullmatch(r"\+\d+ more", r.text)]
    want = [f"+{len(layout.dropped)} more"] if layout.dropped else []
    assert under == want, f"{where}: left out {len(layout.dropped)}, counted {under}"


def check_scores(layout: Layout, pairs: list[tuple[str, str]], where: str) -> None:
    runs = [(r.text, measured(r)) for r in layout.texts]
    drawn = dict(layout.names)  # each player as this frame names them: whole, or shortened the same everywhere
    for whole, score in pairs:
        name = drawn.get(whole, whole)
        names = [box for text, box in runs if text == name or text.startswith(name + " ")]
        if any(f" {name} {score}" in f" {text} " or f"{name} {score} " in f"{text} " for text, _b in runs):
            continue  # one line of scores, "VP Ann 2 · Bob 0 · Cy 0"
        assert names, f"{where}: {name} is not on the panel; drawn: {[t for t, _b in runs]}"
        same_line = [
            text
            for text, box in runs
            for nb in names
            if box[1] < nb[3] and nb[1] < box[3] and box[0] > nb[0] and (text == score or text.startswith(score + " "))
        ]
        assert same_line, f"{where}: {name}'s score {score} is not beside the name; drawn: {[t for t, _b in runs]}"


@pytest.mark.parametrize(("system", "panel_id"), CASES, ids=[f"{s}-{p}" for s, p in CASES])
def test_every_text_of_the_golden_scenario_is_whole_on_every_panel(system, panel_id):
    if system not in registered():
        pytest.skip(f"{system} is not a registered system yet")
    screen, state = _played(system)
    panel = get_panel(panel_id)
    image, layout = render_layout(screen, panel, JOIN)
    where = f"{system} on {panel_id}"
    check_whole(image, layout, where)
    check_counted(layout, panel_id, where)
    if panel.size_class == "small":
        check_scores(layout, scores(system, state), where)


def test_the_measurement_catches_a_cut_text():
    """The check itself: a prompt too long for a pHAT is reported, not passed."""
    from tableside.core.screen import Screen

    screen = Screen("T", prompt="word " * 60)
    image, layout = render_layout(screen, get_panel("phat-red"), JOIN)
    with pytest.raises(AssertionError, match="cut to|no room"):
        check_whole(image, layout, "long prompt")


def test_the_abbreviation_rules_keep_whole_phrases():
    from tableside.display.text import clauses, font, heading_forms, shorten, wrap_whole

    assert clauses("R1 Ann (Venus): Attack (1 left)") == [
        "R1 Ann (Venus): Attack (1 left)",
        "R1 Ann (Venus): Attack",
        "R1 Ann: Attack (1 left)",  # then a player's short name: the world(s) after the name go
        "R1 Ann: Attack",
    ]
    assert clauses("Cy (Pluto)'s spaceship destroyed") == [
        "Cy (Pluto)'s spaceship destroyed",
        "Cy's spaceship destroyed",
    ]
    assert clauses("Wally (Mars, Venus)") == ["Wally (Mars, Venus)", "Wally"]  # no break inside a parenthesis
    assert clauses("Ann: apply the Combat Abilities, then next phase")[-1] == "Ann: apply the Combat Abilities"
    assert clauses("Venus 2140 - conflict 1, round 1")[1:] == ["Venus 2140 - conflict 1", "Venus 2140"]
    assert heading_forms("Leaders") == ["Leaders", "Lea", "Le", "L"]
    f = font(11)
    assert shorten("Ann (Venus)", f, int(f.getlength("Ann (Ven"))) == "Ann"
    assert shorten("Ann (Venus)", f, 5) == ""  # nothing fits: the caller leaves it out or cuts (and the test fails)
    assert wrap_whole("one two three", f, int(f.getlength("one two")) + 1, 2) == ["one two", "three"]
    assert wrap_whole("one two three", f, int(f.getlength("one two")) + 1, 1) is None
    assert wrap_whole("unbreakable", f, 10, 3) is None  # a word wider than the line is never cut


STEPS = [(s, a) for s, (_o, actions) in SCENARIOS.items() for a in sorted({x["type"] for x in actions})]


@pytest.mark.parametrize(("system", "upto"), STEPS, ids=[f"{s}-{a}" for s, a in STEPS])
def test_every_step_of_each_scenario_is_whole_on_every_panel_with_the_scores_on_a_phat(system, upto):
    """The golden moment is one step; each earlier one is measured the same way (VENOM's Event Phase once
    had no scores on a pHAT, a roll-off tie's prompt was cut with an ellipsis there)."""
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    screen, state = play(system, upto)
    for panel_id in PANELS:
        image, layout = render_layout(screen, get_panel(panel_id), JOIN)
        check_whole(image, layout, f"{system} after {upto} on {panel_id}")
        check_counted(layout, panel_id, f"{system} after {upto} on {panel_id}")
        if panel_id.startswith("phat"):
            check_scores(layout, scores(system, state), f"{system} after {upto} on {panel_id}")


def test_the_venom_players_grid_headings_keep_one_size_with_a_gap_on_the_13_3_inch_panel():
    """Seen failing on the old code: "Rewards" drawn smaller than "Leaders" and 3 px from it (equal cells too
    narrow for it, while "VP" had room to spare)."""
    if "venom" not in registered():
        pytest.skip("venom is not a registered system yet")
    screen, _state = _played("venom")
    _image, layout = render_layout(screen, get_panel("spectra-13.3"), JOIN)
    heads = [r for r in layout.texts if r.rule == "heading" and r.asked in ("VP", "Leaders", "Rewards")]
    assert [r.text for r in heads] == ["VP", "Leaders", "Rewards"], [r.text for r in heads]
    assert len({r.font.size for r in heads}) == 1, [(r.text, r.font.size) for r in heads]
    boxes = [measured(r) for r in heads]
    gap = min(b[0] - a[2] for a, b in zip(boxes, boxes[1:], strict=False))
    assert gap >= heads[0].font.size // 3, f"headings {gap} px apart: {boxes}"


def test_the_name_rule_shortens_alike_and_keeps_players_apart():
    """docs/display.md, "Names on a small panel": the first letters and a full stop, the first word of a name of
    several, whole where that is no shorter; two that would read alike take more letters until they differ."""
    from tableside.display.names import abbreviate, abbreviations

    assert abbreviate("Maximilianus", 5) == "Maxim."
    assert abbreviate("Maximilianus", 3) == "Max."
    assert abbreviate("Konrad", 5) == "Konrad"  # "Konra." would be no shorter
    assert abbreviate("Anna Maria", 5) == "Anna."
    assert abbreviations(["Christabella", "Christopher", "Maximilianus", "Max", "Anna Maria", "Anna Lena"], 5) == {
        "Christabella": "Christa.",
        "Christopher": "Christo.",
        "Maximilianus": "Maxim.",
        "Max": "Max",
        "Anna Maria": "Anna M.",
        "Anna Lena": "Anna L.",
    }
    assert abbreviations(["Maximilianus", "Max"], 3) == {"Maximilianus": "Maxi.", "Max": "Max"}  # not "Max." by "Max"


# --- #36: every effect whole or counted, on every panel; scores and the prompt 4 mm tall on the wHAT and 7.3" ---

# Three effects standing at the golden moment (an exchange on the table): on a wHAT they no longer fit one line
# beside it; the pHAT once left them out altogether, and the wHAT dropped "Sven: Knock Out by GM" unmarked.
EFFECTS = (
    {"type": "add_effect", "character": "Shred", "effect": "Wound", "by": "GM"},
    {"type": "add_effect", "character": "Sven", "effect": "Knock Out", "by": "GM"},
    {"type": "add_effect", "character": "Jack", "effect": "Scar", "by": "Shred"},
)
EFFECT_MOMENTS = (None, "resolve", "prepare_pool")  # the exchange on the table, the last one's dice, a scene's start


def effects_check(layout: Layout, state: dict, where: str) -> None:
    """The Effects line is on the panel, and each standing effect is in it whole, or counted in its "+N more"
    (the items rule, docs/display.md): no effect is left out unmarked."""
    from tableside.core.systems.v2140 import effects as v2140_effects

    standing = [v2140_effects.short(e) for e in state["effects"] if not e.get("ended")]
    kept = [(e, box) for e, box in layout.kept if getattr(e, "text", "").startswith("Effects:")]
    assert kept, f"{where}: no Effects line; left out: {[getattr(e, 'text', e.kind) for e in layout.dropped]}"
    _e, box = kept[0]
    inside = [r for r in layout.texts if box[1] <= r.xy[1] < box[3] and box[0] <= r.xy[0] < box[2]]
    drawn = " ".join(r.text for r in inside)
    renamed = dict(layout.names)
    missing = [s for s in standing if _renamed(s, renamed) not in drawn]
    if missing:
        assert drawn.endswith(f"+{len(missing)} more"), f"{where}: {missing} left out unmarked; drawn {drawn!r}"


def _renamed(text: str, names: dict[str, str]) -> str:
    for whole, form in names.items():
        text = re.sub(rf"(?<!\w){re.escape(whole)}(?!\w)", form, text)
    return text


@pytest.mark.parametrize("upto", EFFECT_MOMENTS, ids=[str(u) for u in EFFECT_MOMENTS])
@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_every_effect_is_whole_or_counted_on_every_panel(panel_id, upto):
    if "v2140" not in registered():
        pytest.skip("v2140 is not registered")
    screen, state = play("v2140", upto, more=EFFECTS)
    image, layout = render_layout(screen, get_panel(panel_id), JOIN)
    where = f"v2140 with three effects after {upto} on {panel_id}"
    check_whole(image, layout, where)
    check_counted(layout, panel_id, where)
    effects_check(layout, state, where)
    if panel_id.startswith("phat"):
        check_scores(layout, scores("v2140", state), where)


def test_the_items_rule_counts_what_it_leaves_out():
    from tableside.display.text import item_forms

    assert item_forms("Effects: Shred: Wound by GM; Sven: Knock Out by GM; Jack: Scar by Shred") == [
        "Effects: Shred: Wound by GM; Sven: Knock Out by GM; Jack: Scar by Shred",
        "Effects: Shred: Wound by GM; Sven: Knock Out by GM +1 more",
        "Effects: Shred: Wound by GM +2 more",
        "Effects: +3 more",
    ]
    assert item_forms("Effects: Sven: Knock Out by GM") == ["Effects: Sven: Knock Out by GM"]  # one item: whole


def text_height(run: TextRun) -> int:
    """The measure of the 4 mm floor: the drawn font's height from the top of a capital to the bottom of a
    descender, "Hg" as Pillow draws it without anti-aliasing (a digit-only score has no descender; the font
    it is drawn in is what a reader sees beside the names)."""
    x0, y0, x1, y1 = run.font.getbbox("Hg", mode="1")
    return int(y1 - y0)


def floor_px(panel_id: str) -> int:
    """4 mm in the panel's pixels, from its glass's active area (``panels.ACTIVE_AREA_MM``): wHAT 84.8 mm / 400 px
    = 0.212 mm a pixel, 19 px; 7.3" 160 mm / 800 px = 0.2 mm, 20 px."""
    import math

    from tableside.display.panels import LEGIBLE_MM

    return math.ceil(LEGIBLE_MM / get_panel(panel_id).pitch_mm - 1e-6)


def score_runs(layout: Layout, pairs: list[tuple[str, str]]) -> dict[str, list[tuple[TextRun, ...]]]:
    """Where each player's score is drawn: the run of their name with the run of their score beside it on the
    same line (a grid's row, a bar's name and value), or the one run that says both ("VP Ann 2 · Bob 0").
    A row of another grid can look alike (Vegas's tokens held, "Ann 0"): the test reads the biggest."""
    drawn = dict(layout.names)
    out: dict[str, list[tuple[TextRun, ...]]] = {}
    boxes = {id(r): measured(r) for r in layout.texts}
    for whole, score in pairs:
        name = drawn.get(whole, whole)
        found: list[tuple[TextRun, ...]] = [
            (r,) for r in layout.texts if f" {name} {score} " in f" {r.text} ".replace(" · ", " ")
        ]
        for nr in (r for r in layout.texts if r.text == name or r.text.startswith(name + " ")):
            nb = boxes[id(nr)]
            found += [
                (nr, r)
                for r in layout.texts
                if (r.text == score or r.text.startswith(score + " "))
                and boxes[id(r)][1] < nb[3]
                and nb[1] < boxes[id(r)][3]
                and boxes[id(r)][0] > nb[0]
            ][:1]
        out[whole] = found
    return out


FLOOR_PANELS = sorted(p for p, panel in PANELS.items() if panel.pitch_mm)
FLOOR_STEPS = [(s, a) for s, (_o, actions) in SCENARIOS.items() for a in [None, *sorted({x["type"] for x in actions})]]


@pytest.mark.parametrize(("system", "upto"), FLOOR_STEPS, ids=[f"{s}-{a}" for s, a in FLOOR_STEPS])
def test_scores_and_the_prompt_are_4_mm_tall_on_the_what_and_the_7_3_inch(system, upto):
    """Read across a table (#36: the wHAT's score rows were 15 px type, 11 px capitals, 2.3 mm): every player's
    name and score, and every line of the prompt, at least 4 mm from capital to descender."""
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    screen, state = play(system, upto)
    pairs = scores(system, state)
    for panel_id in FLOOR_PANELS:
        image, layout = render_layout(screen, get_panel(panel_id), JOIN)
        where = f"{system} after {upto} on {panel_id}"
        check_whole(image, layout, where)
        low = floor_px(panel_id)
        for player, found in score_runs(layout, pairs).items():
            assert found, f"{where}: {player}'s score is not on the panel"
            read = max(found, key=lambda runs: min(text_height(r) for r in runs))
            small = [(r.text, text_height(r)) for r in read if text_height(r) < low]
            assert not small, f"{where}: {player}'s score drawn {small} px tall at most, under 4 mm ({low} px)"
        prompt = clean(screen.prompt)
        lines = [r for r in layout.texts if r.xy[1] < layout.body[1] and r.text != "▶ " and r.text in prompt]
        assert lines or not prompt, f"{where}: no prompt line found"
        small = [(r.text, text_height(r)) for r in lines if text_height(r) < low]
        assert not small, f"{where}: prompt drawn {small} px tall, under 4 mm ({low} px)"


def test_the_floor_is_4_mm_of_the_what_and_the_7_3_inch_glass():
    assert floor_px("what-red") == 19 and floor_px("spectra-7.3") == 20 and floor_px("impression-7.3") == 20
    assert "phat-red" not in FLOOR_PANELS and "spectra-13.3" not in FLOOR_PANELS


def test_a_board_too_wide_for_4_mm_rows_on_a_what_keeps_its_first_columns_and_counts_the_rest():
    """Eight columns of three-digit values beside "Bartholomew" do not fit a wHAT in 4 mm rows: the board keeps
    its score and the columns after it that fit whole, and counts the others at the end of its headings' line
    (the body is not drawn bigger at the cost of a column)."""
    from tableside.core.screen import Grid, GridRow, Screen

    columns = ("VP", "Team", "Game", "Inspector", "Bot", "Mobster", "Income", "Cards")
    names = ("Alexandra", "Bartholomew", "Cy")
    rows = tuple(GridRow(n, tuple(str(100 + i) for i in range(8)), highlight=k == 0) for k, n in enumerate(names))
    screen = Screen("Venusian Vegas", prompt="Ann: play a card", elements=(Grid("Players", columns, rows, 1),))
    for panel_id in FLOOR_PANELS:
        image, layout = render_layout(screen, get_panel(panel_id), JOIN)
        check_whole(image, layout, panel_id)
        texts = [r.text for r in layout.texts]
        shown = [c for c in columns if c in texts]
        assert shown == list(columns[: len(shown)]) and shown, f"{panel_id}: {texts}"
        if len(shown) < len(columns):
            assert f"+{len(columns) - len(shown)} more" in texts, f"{panel_id}: {texts}"  # among the headings
            assert len(shown) >= 3, f"{panel_id}: only {shown} of a board with room for more"
        cells = [r for r in layout.texts if r.text.isdigit()]
        assert cells and min(text_height(r) for r in cells) >= floor_px(panel_id)
