"""Every text the e-paper draws, measured against its box, for every system's mid-game moment on every panel.

The frame (the title, the status and the prompt: what the table waits for) is drawn whole on every
panel: it fits, or the documented abbreviation rule shortens it (docs/display.md), never an ellipsis.
Every run of text stays inside the panel. On every pHAT each system's scores are drawn.
"""

from __future__ import annotations

import re

import pytest
from tableside.core.systems import get_system
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import render_layout
from tableside.display.text import ELLIPSIS, clauses, clean

from tests.golden_states import JOIN, SCENARIOS, build, play, registered

CASES = [(s, p) for s in SCENARIOS for p in PANELS]
_screens: dict[str, object] = {}


def layout_of(system: str, panel_id: str):
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    if system not in _screens:
        _screens[system] = build(system)
    screen = _screens[system]
    return screen, render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))[1]


@pytest.mark.parametrize(("system", "panel_id"), CASES, ids=[f"{s}-{p}" for s, p in CASES])
def test_the_frame_is_drawn_whole_and_every_text_stays_on_the_panel(system, panel_id):
    screen, layout = layout_of(system, panel_id)
    panel = get_panel(panel_id)
    texts = [r.text for r in layout.texts]
    # The prompt: its words, in order, over one or more lines, with no ellipsis.
    start = texts.index("▶ ")
    words, drawn = clean(screen.prompt).split(), []
    for run in texts[start + 1 :]:
        if len(drawn) >= len(words):
            break
        drawn += run.split()
    assert drawn == words, f"the prompt {screen.prompt!r} is not drawn whole: {texts[start:]}"
    # The title whole or without trailing clauses (the abbreviation rule, docs/display.md), except on a
    # pHAT, where the prompt takes the title bar's place; the status whole, shorter by the rule, or left out.
    if panel.size_class == "small":
        assert texts[0] == "▶ ", texts[0]
    else:
        assert texts[0] in clauses(screen.title), texts[0]
        assert not texts[0].endswith(ELLIPSIS)
        if screen.status and texts[1] != "▶ ":
            assert texts[1] in clauses(screen.status), texts[1]
    for run in layout.texts:  # measured: inside the panel, left to right and top to bottom
        left, top, right, bottom = run.font.getbbox(run.text)
        x, y = run.xy
        assert x + left >= 0 and y + top >= 0, (run.text, run.xy)
        assert x + right <= panel.width and y + bottom <= panel.height, (run.text, run.xy, panel.size)


def _column(title: str, column: str):
    def read(screen) -> list[str]:
        grid = next(e for e in screen.elements if e.kind == "grid" and e.title == title)
        return [r.cells[grid.columns.index(column)] for r in grid.rows]

    return read


@pytest.mark.parametrize("panel_id", [p for p in PANELS if p.startswith("phat")])
@pytest.mark.parametrize("system", sorted(SCENARIOS))
def test_the_scores_stay_on_every_phat(system, panel_id):
    """Each player's score as the system says the e-paper writes it (``GameSystem.scores``) is drawn."""
    _screen, layout = layout_of(system, panel_id)
    words = {w for r in layout.texts for w in r.text.split()}
    scores = get_system(system).scores(play(system)[1])
    assert scores
    for name, score in scores.items():
        assert score in words, f"{system} on {panel_id}: {name}'s score {score!r} missing from {sorted(words)}"


LONG_NAMES = ("Maximilianus", "Konstantinos", "Christabella", "Bartholomeww", "Wilhelminaaa")  # 12 characters


def _venom_after(tmp_path, players: int, faces: list[int]):
    """VENOM right after a Commander roll-off by ``players`` seats with 12-character names."""
    import random

    from tableside.core.store import Store
    from tableside.core.table import Table

    table = Table(Store(tmp_path / f"venom{players}.db"), rng=random.Random(1))
    try:
        table.create_session("venom", {"players": list(LONG_NAMES[:players])})
        table.act({"type": "commander_roll_off", "faces": faces}, source="cli")
        return table.screen()
    finally:
        table.store.close()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_roll_off_verdict_stays_on_every_phat_with_long_names(tmp_path, players):
    """ "Konstantinos is Commander" was left out on a pHAT from three players on (the label, the dice and the
    verdict did not fit one row): it is drawn whole (smaller dice, or the verdict alone) on every pHAT."""
    faces = [3, 6, 2, 1, 1][:players]
    screen = _venom_after(tmp_path, players, faces)
    verdict = next(e.verdict for e in screen.elements if e.kind == "dice")
    assert verdict == "Konstantinos is Commander"
    for panel_id in [p for p in PANELS if p.startswith("phat")]:
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        # Konstantinos as the frame names every player (whole, or "Konst." beside five players' scores)
        said = verdict.replace("Konstantinos", dict(layout.names).get("Konstantinos", "Konstantinos"))
        assert said in texts, f"{players} players on {panel_id}: {texts}"


@pytest.mark.parametrize(
    "faces",
    [[6, 6], [6, 6, 6], [6, 6, 2, 1, 1], [6, 6, 6, 1, 1], [6, 6, 6, 6, 1], [6] * 5],
    ids=lambda f: "".join(map(str, f)),
)
def test_a_roll_off_tie_prompt_names_who_rolls_off_on_every_phat(tmp_path, faces):
    """The tie's prompt ("Roll off again for the Commander (Maximilianus and Konstantinos tied)") lost the names
    on a pHAT with 12-character names (only the brackets could go): now it says who rolls off before why, so
    the rule drops the why first ("Roll off again - Maximilianus and Konstantinos"), or says "everyone"
    when every player tied. Never cut with "…"."""
    screen = _venom_after(tmp_path, len(faces), faces)
    tied = [n for n, f in zip(LONG_NAMES, faces, strict=False) if f == 6]
    said = ["everyone"] if len(tied) == len(faces) else tied
    for panel_id in [p for p in PANELS if p.startswith("phat")]:
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        start = texts.index("▶ ")
        assert not any(ELLIPSIS in t for t in texts), texts
        prompt = " ".join(texts[start + 1 : start + 3])
        assert prompt.startswith("Roll off again"), texts
        if len(tied) <= 3:  # four 12-character names are more than two pHAT lines hold
            named = [dict(layout.names).get(n, n) for n in said]  # as the frame names each player (docs/display.md)
            assert all(name in prompt.split() for name in named), f"{panel_id}: {prompt!r} does not name {named}"


def _vegas_five(tmp_path):
    """Venusian Vegas with five players, names up to 11 characters, at the first lead (tokens held)."""
    import random

    from tableside.core.store import Store
    from tableside.core.table import Table

    names = ["Annabelle", "Bartholomew", "Cyrus", "Delphine", "Evangeline"]
    tracks = [
        ["Team", "Game", "Bot"],
        ["Game", "Inspector", "Team"],
        ["Bot", "Mobster", "Game"],
        ["Inspector", "Bot", "Mobster"],
        ["Mobster", "Team", "Inspector"],
    ]
    table = Table(Store(tmp_path / "vegas5.db"), rng=random.Random(1))
    try:
        table.create_session("vegas", {"players": names})
        for name, chosen in zip(names, tracks, strict=True):
            table.act({"type": "setup_tracks", "player": name, "tracks": chosen}, source="cli")
        table.act({"type": "start_round"}, source="cli")
        state = table.current_state()
        if state["chosen"] is None:
            table.act({"type": "choose_furthest_behind", "player": state["furthest_behind"][0]}, source="cli")
        table.act({"type": "free_increase", "track": "Game"}, source="cli")
        return table.screen()
    finally:
        table.store.close()


def test_five_vegas_scores_stay_on_every_phat_on_two_lines(tmp_path):
    """Five names did not fit the one-line scores form ("VP  Annabelle 0  Bartholomew 0 ..."), so the whole
    board was left out of every pHAT: the scores form now wraps onto a second line."""
    screen = _vegas_five(tmp_path)
    vp = _column("Players", "VP")(screen)
    names = [r.label for e in screen.elements if e.kind == "grid" and e.title == "Players" for r in e.rows]
    for panel_id in [p for p in PANELS if p.startswith("phat")]:
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        assert all(name in texts for name in names) and all(v in texts for v in vp), f"{panel_id}: {texts}"


def test_five_vegas_boards_stay_whole_beside_the_tokens_held_on_a_what(tmp_path):
    """Above a pHAT only a priority-1 element may reduce the players' boards (priority 1) to their scores, so the
    track levels stay; and the tokens held (priority 2: "Tokens held are shown per player", #17) stay too, the
    key figures in smaller boxes for them. Seen failing before: the tokens held were left out on both panels.
    On a wHAT the scores are 4 mm tall (#36): five boards that big do not fit, so the board is its VP with the
    tracks counted ("+7 columns"), never dropped unmarked."""
    screen = _vegas_five(tmp_path)
    tokens = next(e for e in screen.elements if e.kind == "grid" and e.held)
    holders = [r.label for r in tokens.rows if any(c.strip() not in ("", "0") for c in r.cells)]
    assert len(holders) == 5
    for panel_id in ("what-red", "what-ssd1683-red", "impression-4", "spectra-4", "impression-5.7"):
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        whole = "Crd" in texts and "Tm" in texts
        counted = "VP" in texts and any(re.fullmatch(r"\+\d+ columns?", t) for t in texts)
        assert whole or (panel_id.startswith("what") and counted), (
            f"{panel_id}: the boards are not drawn whole: {texts}"
        )
        assert "Tokens held" in texts and texts.count("Evangeline") == 2, f"{panel_id}: no tokens held: {texts}"
        assert not layout.dropped, f"{panel_id}: left out {layout.dropped}"


@pytest.mark.parametrize("upto", ["draw_event", "next_phase"])
def test_venom_scores_stay_on_every_phat_before_a_leader(upto):
    """Before a Leader is chosen VENOM's VP were only in the players' grid (priority 3), left out of every
    pHAT: the grid is priority 1 then, read by its one line of scores there."""
    from tests.golden_states import play

    if "venom" not in registered():
        pytest.skip("venom is not registered")
    screen, state = play("venom", upto)
    for panel_id in [p for p in PANELS if p.startswith("phat")]:
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        assert "VP" in texts and all(any(t.startswith(p["name"]) for t in texts) for p in state["players"]), (
            f"{upto} on {panel_id}: {texts}"
        )


def test_after_a_roll_off_the_verdict_and_the_scores_share_every_phat(tmp_path):
    """Right after the Commander roll-off both stay on a pHAT: who is Commander and everyone's VP (the
    Event Track, which has no inline form there, no longer keeps the others from taking theirs)."""
    import random

    from tableside.core.store import Store
    from tableside.core.table import Table

    table = Table(Store(tmp_path / "venom.db"), rng=random.Random(1))
    try:
        table.create_session("venom", {"players": ["Ann", "Bob", "Cy"]})
        table.act({"type": "commander_roll_off", "faces": [3, 6, 2]}, source="cli")
        screen = table.screen()
    finally:
        table.store.close()
    for panel_id in [p for p in PANELS if p.startswith("phat")]:
        _image, layout = render_layout(screen, get_panel(panel_id), JoinInfo(*JOIN))
        texts = [r.text for r in layout.texts]
        assert "Bob is Commander" in texts, f"{panel_id}: {texts}"
        assert "VP" in texts and {"Ann", "Bob (Cmdr)", "Cy"} <= set(texts), f"{panel_id}: {texts}"
