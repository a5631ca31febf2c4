"""The end of a game on the e-paper (#34): the winner(s) and the final scores are its largest things, on every
panel class, and whole on the pHAT; each end screen matches its golden image (tests/golden/*-end-*.png).

Seen failing on the old code: VENOM's Medal of Honor was a thin alert band while "not captured" and
"VENOM Strikes! next" were the largest texts; Venus Needs Men's win was only a band over the population bars.
"""

from __future__ import annotations

import pytest
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import render_layout

from tests.golden_states import ENDINGS, GOLDEN_PANELS, golden_path, play, registered, render_golden
from tests.test_display_text_fit import JOIN, check_whole
from tests.test_golden import check_golden

CASES = [(system, panel_id) for system in sorted(ENDINGS) for panel_id in sorted(PANELS)]
WINNER = {"vegas": "Ann", "venom": "Ann", "vnm": "Ann (Venus)"}
FINAL = {
    "vegas": "Final: Ann 9 VP · Cy 7 VP · Bob 4 VP",
    "venom": "Final: Ann 2 VP · Bob 0 VP · Cy 0 VP",
    "vnm": "Final: Ann (Venus) 26 · Bob (Mars) 12",
}


@pytest.mark.parametrize(("system", "panel_id"), CASES, ids=[f"{s}-{p}" for s, p in CASES])
def test_the_winner_and_the_final_scores_lead_whole_and_largest(system, panel_id):
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    screen, _state = play(system, end=True)
    panel = get_panel(panel_id)
    image, layout = render_layout(screen, panel, JOIN)
    check_whole(image, layout, f"{system} end on {panel_id}")
    runs = [(run.text, run.font.size) for run in layout.texts]
    drawn = " ".join(text for text, _size in runs)
    assert WINNER[system] in [text for text, _size in runs], f"{panel_id}: no winner in {drawn!r}"
    biggest = max(size for _text, size in runs)
    winner = max(size for text, size in runs if text == WINNER[system])
    assert winner == biggest, f"{panel_id}: the winner is not the largest text: {runs}"
    # The final scores are on the panel whole, on one or two lines (a pHAT wraps them).
    assert FINAL[system].replace(" ", "") in drawn.replace(" ", ""), f"{panel_id}: scores cut: {drawn!r}"
    for stale in ("not captured", "VENOM Strikes! next"):
        assert stale not in drawn, f"{panel_id}: stale {stale!r} still shown at the end"


GOLDEN = [(system, panel_id) for system in sorted(ENDINGS) for panel_id in GOLDEN_PANELS]


@pytest.mark.parametrize(("system", "panel_id"), GOLDEN, ids=[f"{s}-end-{p}" for s, p in GOLDEN])
def test_the_end_screen_matches_its_golden_image(system, panel_id):
    check_golden(golden_path(system, panel_id, end=True), render_golden(system, panel_id, end=True))
