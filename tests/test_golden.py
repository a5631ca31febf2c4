"""Golden images: each system's mid-game screen on one panel of each class, against a committed PNG.

A reviewer looks at tests/golden/*.png; this test fails when a change moves
more than a few pixels. After a deliberate change of the look, regenerate with
``.venv/bin/python -m tests.golden_states --update`` and look at the PNGs again.
"""

from __future__ import annotations

from pathlib import Path

import numpy
import pytest
from PIL import Image

from tests.golden_states import GOLDEN_PANELS, SCENARIOS, golden_path, registered, render_golden

TOLERANCE = 0.002  # share of pixels allowed to differ (FreeType versions hint a few glyph edges differently)

CASES = [(system, panel_id) for system in sorted(SCENARIOS) for panel_id in GOLDEN_PANELS]


def check_golden(path: Path, image: Image.Image) -> None:
    """``image`` is the committed golden ``path``, but for a few glyph edges."""
    assert path.exists(), f"no golden image {path.name}: run .venv/bin/python -m tests.golden_states --update"
    now = numpy.array(image.convert("RGB"))
    with Image.open(path) as saved:
        golden = numpy.array(saved.convert("RGB"))
    assert now.shape == golden.shape
    changed = numpy.any(now != golden, axis=2).mean()
    assert changed <= TOLERANCE, (
        f"{changed:.2%} of the pixels changed; if that is intended, run "
        ".venv/bin/python -m tests.golden_states --update and look at the PNGs"
    )


@pytest.mark.parametrize(("system", "panel_id"), CASES, ids=[f"{s}-{p}" for s, p in CASES])
def test_the_mid_game_screen_matches_its_golden_image(system, panel_id):
    if system not in registered():
        pytest.skip(f"{system} is not a registered system yet")
    check_golden(golden_path(system, panel_id), render_golden(system, panel_id))
