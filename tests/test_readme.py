"""The README shows the product (issue 21): its pictures are made by the test suite and current, its links
and the docs' links point at files in the repository, its two commands keep their markers."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy
import pytest
from PIL import Image

from tests import browser_support
from tests.golden_states import README_PANEL, SCENARIOS, golden_path, readme_image, registered

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "docs" / "systems").glob("*.md"))]


def _pixels(path: Path) -> numpy.ndarray:
    with Image.open(path) as image:
        return numpy.array(image.convert("RGB"))


@pytest.mark.parametrize("system", sorted(set(SCENARIOS) & registered()))
def test_the_readme_e_paper_pictures_are_the_current_goldens(system):
    path = readme_image(system)
    assert path.exists(), f"{path.name} is missing: run .venv/bin/python -m tests.golden_states --update"
    golden = golden_path(system, README_PANEL)
    assert numpy.array_equal(_pixels(path), _pixels(golden)), (
        f"docs/images/{path.name} is not {golden.name}: run .venv/bin/python -m tests.golden_states --update"
    )


def test_the_readme_shows_an_e_paper_and_a_phone_picture_made_by_the_tests():
    shown = re.findall(r"\]\((docs/images/[^)]+\.png)\)", README)
    assert any("/epaper-" in p for p in shown) and any("/phone-" in p for p in shown)
    for name in browser_support.README_SHOTS.values():
        path = REPO / "docs" / "images" / name
        assert f"docs/images/{name}" in shown, f"the README does not show {name}"
        with Image.open(path) as image:  # the phone's screen as the browser test took it
            assert image.size == (
                browser_support.PHONE["viewport"]["width"],
                browser_support.PHONE["viewport"]["height"],
            )


def test_a_phone_picture_is_rewritten_only_when_the_panel_looks_different(tmp_path):
    import io

    def png(color, dot=None) -> bytes:
        image = Image.new("RGB", (100, 100), color)
        if dot:
            image.paste((0, 0, 0), dot)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    path = tmp_path / "phone.png"
    assert browser_support.readme_shot(png("white"), path)  # new: written
    assert not browser_support.readme_shot(png("white", (0, 0, 10, 10)), path)  # 1% changed: a die's face
    assert browser_support.readme_shot(png("white", (0, 0, 50, 50)), path)  # 25%: the panel changed
    assert path.read_bytes() == png("white", (0, 0, 50, 50))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_link_points_at_a_file_in_the_repository(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(REPO)} links to {target}, which is not there"
    assert "shared/facts.md" not in page.read_text()


def test_the_readme_keeps_its_two_commands_where_ci_finds_them():
    out = subprocess.run(
        ["awk", "/<!-- test-command -->/{getline; getline; print; exit}", str(REPO / "README.md")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().startswith("python3 -m venv .venv && ") and "pytest" in out.stdout
    assert "<!-- serve-command -->" in README and "tableside serve" in README


def test_without_chromium_the_browser_tests_skip_saying_why_unless_ci(monkeypatch):
    monkeypatch.setattr(browser_support, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="tests need Debian's chromium"):
        browser_support.launch(None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true, so they must run"):
        browser_support.launch(None)
