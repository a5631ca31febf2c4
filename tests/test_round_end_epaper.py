"""A round's end on the e-paper (#34): until the next action the panel leads with "Round 1 is over" and what the
round changed, one line per player (Vegas rounds, Venus 2140 conflicts, VENOM turns, VNM rounds), from the same
history book the phones read (``webui.rounds.told_by``); whole on every panel class, the pHAT included; each
system's round-end screen matches its golden image (tests/golden/*-round-*.png); and a served table's e-paper
(``tableside serve --simulate``) shows it and drops it after the next action.

Seen failing before: the e-paper showed the round's stale content (VENOM's last combat, "Capture: captured")
and nothing of what the round changed; FrameSource took no summary.
"""

from __future__ import annotations

import io
import random
import time
from dataclasses import replace

import numpy
import pytest
from PIL import Image
from tableside.core.round_summary import round_end_screen
from tableside.core.screen import Grid, GridRow, KeyFigure, Outcome, Screen, Text
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.display.panels import PANELS, get_panel
from tableside.display.quantize import to_panel_image
from tableside.display.render import render_layout
from tableside.webui.app import Services, create_app
from tableside.webui.rounds import told_by

from tableside.frames import FrameSource
from tests.golden_states import GOLDEN_PANELS, ROUND_ENDS, SCENARIOS, golden_path, render_golden, round_end
from tests.test_display_text_fit import JOIN, _renamed, check_whole
from tests.test_golden import check_golden

SYSTEMS = sorted(ROUND_ENDS)
ROUND = {"vegas": "Round 1", "venom": "Ann's Turn (Round 1)", "vnm": "Round 1", "v2140": "Conflict 1"}
# What each round changed, as the e-paper says it (the phones' lines also say each number now).
CHANGED = {
    "vegas": [
        "Ann: VP +9, tokens \u22121 · won 1 trick",
        "Bob: VP +4, track increases +1 · won 1 trick",
        "Cy: VP +7, tokens \u22121 · won no tricks",
    ],
    "venom": ["Ann: Victory Points +2, Leaders captured +1", "Event Track: +1"],
    "vnm": ["Cy (Pluto): population +2, spaceships on the board \u22121", "Dee (Titan): spaceships on the board +1"],
    "v2140": ["Shred: books +1 · bought Scar on GM"],
}
UNCHANGED = {"vegas": None, "venom": "No change: Bob; Cy", "vnm": "No change: Ann (Venus); Bob (Mars)"}
UNCHANGED["v2140"] = "No change: Sven; GM"
# The next action after the round's end: the system's own screen is back.
NEXT = {
    "vegas": {"type": "start_round"},
    "venom": {"type": "next_phase"},
    "vnm": {"type": "end_turn"},
    "v2140": {"type": "buy_goal", "participant": "Shred", "goal": "Tell me something useful", "price": 1},
}
_SHOWN: dict[str, Screen] = {}


def _shown(system: str) -> Screen:
    if system not in _SHOWN:
        _SHOWN[system] = round_end(system)[0]
    return _SHOWN[system]


def _summary(seq: int) -> dict:
    lines = [
        {"name": "Ann", "changes": [{"label": "VP", "change": 3, "now": 5}], "told": ["won 1 trick"], "text": "x"},
        {"name": "Bob", "changes": [], "told": [], "text": "Bob: no change"},
        {"name": "Cy", "changes": [], "told": [], "text": "Cy: no change"},
    ]
    return {"round": "Round 1", "seq": seq, "lines": lines, "outcome": "Ann won the round"}


def test_the_round_end_screen_leads_with_the_round_and_what_changed_while_no_action_followed():
    board = Grid("Players", ("VP",), (GridRow("Ann", ("5",)), GridRow("Bob", ("2",))), priority=1)
    screen = Screen(
        "Game",
        status="Round over",
        elements=(KeyFigure("Capture", "not captured"), board, Text("VP Ann 5 · Bob 2", priority=1)),
        alert="Bob's bonus",
        prompt="Start round 2 (button C)",
    )
    shown = round_end_screen(screen, _summary(7), 7)
    assert shown.alert == "Round 1 is over" and shown.alert.msgid == "{round} is over"
    texts = [(e.text, e.priority) for e in shown.elements if e.kind == "text"]
    assert texts[:4] == [
        ("Ann: VP +3 · won 1 trick", 1),
        ("No change: Bob; Cy", 2),
        ("Ann won the round", 2),
        ("Bob's bonus", 2),  # the system's own alert stays, below the round's lines
    ]
    assert [e.kind for e in shown.elements if e.priority == 1] == ["text"]  # only what the round changed
    assert all(e.kind != "figure" for e in shown.elements)  # last turn's news goes
    assert board in [replace(e, priority=1) for e in shown.elements if e.kind == "grid"]  # the board stays, below
    assert shown.prompt == screen.prompt and shown.title == screen.title
    assert round_end_screen(screen, _summary(7), 8) is screen  # an action followed: the system's screen is back
    assert round_end_screen(screen, None, 7) is screen
    over = replace(screen, result=Outcome("Winner", ("Ann",), (("Ann", "5"),)))
    assert round_end_screen(over, _summary(7), 7) is over  # the end of the game outranks its last round


def _played(tmp_path, system: str) -> tuple[Table, FrameSource]:
    options, actions = SCENARIOS[system]
    table = Table(Store(tmp_path / f"{system}.db"), rng=random.Random(1))
    table.create_session(system, options)
    for action in actions:
        table.act(action, source="cli")
    app = create_app(Services(table=table, join_code="K7QX4M", frame_png=lambda: b"", press=lambda b, h: None))
    return table, FrameSource(table, get_panel("what-red"), lambda: JOIN, round_end=told_by(app, table))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_frame_after_a_round_end_tells_it_and_after_the_next_action_does_not(tmp_path, system):
    table, frames = _played(tmp_path, system)
    try:
        kind, before, _join = frames.spec()
        assert kind == "screen" and before.alert is None  # mid-round: the system's own screen
        for action in ROUND_ENDS[system]:
            table.act(action, source="cli")
        kind, shown, join = frames.spec()
        assert kind == "screen" and shown.alert == f"{ROUND[system]} is over"
        texts = [e.text for e in shown.elements if e.kind == "text"]
        assert texts[: len(CHANGED[system])] == CHANGED[system], texts
        _image, layout = render_layout(shown, frames.panel, join)  # and the frame drawn says it
        drawn = " ".join(r.text for r in layout.texts)
        assert f"{ROUND[system]} is over" in drawn and _renamed(CHANGED[system][0], dict(layout.names)) in drawn
        table.act(NEXT[system], source="cli")
        kind, after, _join = frames.spec()
        assert after.alert is None and not any(getattr(e, "text", "") in CHANGED[system] for e in after.elements)
        assert after == table.screen()
    finally:
        table.store.close()


def test_a_failing_summary_leaves_the_game_s_own_screen(tmp_path):
    table, frames = _played(tmp_path, "vegas")
    try:
        for action in ROUND_ENDS["vegas"]:
            table.act(action, source="cli")

        def broken():
            raise RuntimeError("the history book is damaged")

        frames.round_end = broken
        assert frames.spec()[1] == table.screen()
    finally:
        table.store.close()


CASES = [(system, panel_id) for system in SYSTEMS for panel_id in sorted(PANELS)]


@pytest.mark.parametrize(("system", "panel_id"), CASES, ids=[f"{s}-{p}" for s, p in CASES])
def test_the_round_and_what_it_changed_are_whole_on_every_panel(system, panel_id):
    screen = _shown(system)
    panel = get_panel(panel_id)
    image, layout = render_layout(screen, panel, JOIN)
    where = f"{system} round end on {panel_id}"
    check_whole(image, layout, where)
    assert f"{ROUND[system]} is over" in [r.text for r in layout.texts], f"{where}: no alert"
    names = dict(layout.names)
    boxes = {e.text: box for e, box in layout.kept if e.kind == "text"}
    wanted = CHANGED[system] + ([UNCHANGED[system]] if UNCHANGED[system] and panel.size_class != "small" else [])
    for line in wanted:
        assert line in boxes, f"{where}: {line!r} left out; kept {list(boxes)}"
        box = boxes[line]
        inside = [r.text for r in layout.texts if box[1] <= r.xy[1] < box[3] and box[0] <= r.xy[0] < box[2]]
        assert " ".join(inside) == _renamed(line, names), f"{where}: {line!r} drawn as {inside}"


GOLDEN = [(system, panel_id) for system in SYSTEMS for panel_id in GOLDEN_PANELS]


@pytest.mark.parametrize(("system", "panel_id"), GOLDEN, ids=[f"{s}-round-{p}" for s, p in GOLDEN])
def test_the_round_end_screen_matches_its_golden_image(system, panel_id):
    check_golden(golden_path(system, panel_id, rounded=True), render_golden(system, panel_id, rounded=True))


FAST = "[display]\nmin_interval = 0\nsimulate_refresh = false\n"


def _top(png: bytes, rows: int) -> numpy.ndarray:
    """The frame's header, alert band and prompt: the rows above its body (the join hint below differs)."""
    return numpy.array(Image.open(io.BytesIO(png)).convert("RGB"))[:rows]


def _served_top(server, rows: int, want: numpy.ndarray, within: float = 30) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status, png = server.request("GET", "/display.png")
        if status == 200 and numpy.array_equal(_top(png, rows), want):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow
def test_a_served_table_s_e_paper_tells_the_round_end_until_the_next_action(tmp_path):
    """``tableside serve --simulate`` (its virtual wHAT): serve.py feeds the frames from the phones' history book."""
    from tests.browser_support import served
    from tests.golden_states import play
    from tests.test_tap_budget import api_act, new_game

    panel = get_panel("what-red")
    told, _state = round_end("vegas")
    after, _state = play("vegas", more=(*ROUND_ENDS["vegas"], NEXT["vegas"]))
    (told_image, told_layout), (after_image, after_layout) = (render_layout(s, panel, JOIN) for s in (told, after))
    told_rows, after_rows = told_layout.body[1], after_layout.body[1]
    assert not numpy.array_equal(_top(_png(told_image), told_rows), _top(_png(after_image), told_rows))
    serving = served(tmp_path, FAST)
    server = next(serving)
    try:
        options, actions = SCENARIOS["vegas"]
        new_game(server, "vegas", options, *actions, *ROUND_ENDS["vegas"])
        assert _served_top(server, told_rows, _top(_png(told_image), told_rows)), "no 'Round 1 is over' on the e-paper"
        api_act(server, NEXT["vegas"])
        assert _served_top(server, after_rows, _top(_png(after_image), after_rows)), "the round's end stayed up"
    finally:
        next(serving, None)  # the server stopped


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    to_panel_image(image, get_panel("what-red")).save(out, "PNG")
    return out.getvalue()


def test_a_board_s_columns_left_out_are_counted_as_columns_not_more():
    """Seen before on the wHAT: "VP Ann (Cmdr) 2 · Bob 0 · Cy 0 +2 more" under VENOM's Turn summary: the board's
    Leaders and Rewards columns left out, read as two more players. Counted as what they are."""
    image, layout = render_layout(_shown("venom"), get_panel("what-red"), JOIN)
    texts = [r.text for r in layout.texts]
    assert "VP" in texts and "+2 columns" in texts, texts
    body = [r.text for r in layout.texts if r.xy[1] < layout.body[3]]
    assert not any(t.endswith(" more") for t in body), body  # "+N more" is left for the elements under the body
