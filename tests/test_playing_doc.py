"""The players' guide (docs/playing.md, issue 38) cannot drift: each phone picture it shows is one the browser test
takes (tests/test_playing_browser.py), each e-paper picture one of the goldens, and the README points to it first."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from PIL import Image

from tests import browser_support
from tests.golden_states import SCENARIOS, readme_image

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "playing.md"
TAKER = REPO / "tests" / "test_playing_browser.py"


def shown(text: str) -> list[str]:
    """The images a Markdown page shows (``![...](path)``), as written."""
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)


def taken(source: str) -> set[str]:
    """The names of every ``picture(page, "NAME")`` call in the browser test's source."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "picture"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
        ):
            out.add(node.args[1].value)
    return out


def phone_pictures(text: str) -> set[str]:
    """The guide's phone pictures, by name: ``images/playing-NAME.png`` -> NAME."""
    return {m.group(1) for p in shown(text) if (m := re.fullmatch(r"images/playing-([\w-]+)\.png", p))}


def test_every_picture_of_the_guide_is_there():
    for path in shown(GUIDE.read_text()):
        assert (GUIDE.parent / path).is_file(), f"docs/playing.md shows {path}, which is not there"


def test_every_phone_picture_of_the_guide_is_one_the_browser_test_takes_and_the_other_way_round():
    guide, test = phone_pictures(GUIDE.read_text()), taken(TAKER.read_text())
    assert guide, "docs/playing.md shows no phone picture"
    assert guide - test == set(), f"docs/playing.md shows pictures no test takes: {sorted(guide - test)}"
    assert test - guide == set(), f"pictures taken that docs/playing.md does not show: {sorted(test - guide)}"
    size = (browser_support.PHONE["viewport"]["width"], browser_support.PHONE["viewport"]["height"])
    for name in guide:
        with Image.open(GUIDE.parent / "images" / f"playing-{name}.png") as image:  # a phone's screen, as taken
            assert image.size == size


def test_every_e_paper_picture_of_the_guide_is_a_golden_copy_and_every_system_has_a_section():
    text = GUIDE.read_text()
    goldens = {readme_image(system).relative_to(GUIDE.parent).as_posix() for system in SCENARIOS}
    others = [p for p in shown(text) if not re.fullmatch(r"images/playing-[\w-]+\.png", p)]
    assert set(others) <= goldens, f"pictures no test makes: {sorted(set(others) - goldens)}"
    for system in SCENARIOS:  # each system: its own heading, its e-paper and at least two table moments
        assert re.search(rf"^## .*\(`{system}`\)$", text, re.M), f"docs/playing.md has no section for {system}"
        assert f"images/epaper-{system}.png" in others, system
        assert len({n for n in phone_pictures(text) if n.startswith(f"{system}-")}) >= 2, system


def test_the_readme_points_to_the_players_guide_first():
    readme = (REPO / "README.md").read_text()
    docs = re.findall(r"\]\((docs/[^)#\s]+\.md)", readme)
    assert docs and docs[0] == "docs/playing.md", f"the README's first page link is {docs[:1]}, not docs/playing.md"
    assert readme.index("](docs/playing.md)") < readme.index("\n## "), "the guide's link is not above the first section"


def test_a_picture_the_guide_shows_but_no_test_takes_is_found():
    assert taken('picture(page, "vnm-attack")\nshot(page, "x")') == {"vnm-attack"}
    assert phone_pictures("![a](images/playing-vnm-attack.png) ![b](images/epaper-vnm.png)") == {"vnm-attack"}
