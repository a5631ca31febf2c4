"""The renderer's contract, the virtual display and choosing the display at start-up."""

from __future__ import annotations

import pytest
from PIL import Image
from tableside.core.screen import Bar, Bars, DiceGroup, Die, KeyFigure, Screen, Text, Track
from tableside.device.display import VirtualDisplay, open_display
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.quantize import to_panel_image
from tableside.display.render import render

SCREEN = Screen(
    title="VENOM Assault · Round 3",
    status="Ana · Combat",
    alert="Event track at 5: the Mission's final effect applies",
    prompt="Ana: draw the Event card",
    elements=(
        KeyFigure("Health", "3"),
        KeyFigure("Defense", "4"),
        KeyFigure("VENOM Strikes! next", "27%", tone="accent"),
        Track("Event track", 2, 0, 5, style="boxes"),
        DiceGroup("Combat 5d6 vs Defense 4", (Die(4, "hit"), Die(6, "hit"), Die(4, "hit"), Die(2), Die(1)), "captured"),
        Bars("Population", (Bar("Ana", 12, 30, 0), Bar("Bo", 20, 30, 1)), threshold=24),
        Text("Cards left: 22"),
    ),
)
JOIN = JoinInfo("http://192.168.1.20:8080", "K7QX4M")


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_every_panel_gets_a_frame_of_its_size_in_its_own_inks(panel_id):
    panel = get_panel(panel_id)
    image = render(SCREEN, panel, JOIN)
    assert image.size == panel.size
    colours = {rgb for _, rgb in image.getcolors(maxcolors=1 << 16)}
    assert colours <= set(panel.palette), colours - set(panel.palette)  # no anti-aliasing, no stray colour
    quantized = to_panel_image(image, panel)
    assert quantized.mode == "P" and len(quantized.getpalette()) == 3 * len(panel.inks)
    assert quantized.convert("RGB").tobytes() == image.tobytes()  # no ink lost in quantizing


def test_render_is_deterministic():
    panel = get_panel("spectra-7.3")
    assert render(SCREEN, panel, JOIN).tobytes() == render(SCREEN, panel, JOIN).tobytes()


def test_virtual_display_keeps_the_png_and_writes_it_atomically(tmp_path):
    panel = get_panel("impression-7.3")
    slept = []
    display = VirtualDisplay(panel, tmp_path / "display.png", sleep=slept.append)
    display.show(render(SCREEN, panel))
    with Image.open(tmp_path / "display.png") as saved:
        saved.load()
    assert saved.size == (800, 480) and saved.mode == "P" and display.png and display.frames == 1
    assert not (tmp_path / "display.tmp").exists()
    assert slept == [panel.refresh_seconds]  # it took as long as the real board would


def test_open_display_falls_back_to_virtual_and_says_why(tmp_path):
    display, note = open_display("auto", None, tmp_path)
    assert isinstance(display, VirtualDisplay) and "no Inky found" in note
    with pytest.raises(RuntimeError, match="no Inky display"):
        open_display("inky", None, tmp_path)
    display, note = open_display("virtual", "phat-red", tmp_path)
    assert display.panel.size == (212, 104) and "virtual" in note


def test_display_model_names_a_board_without_eeprom(tmp_path):
    # No Pi here: the named driver is built, cannot claim its GPIO, and the fallback
    # simulates the same model instead of a default panel.
    display, note = open_display("auto", None, tmp_path, model="spectra-7.3")
    assert isinstance(display, VirtualDisplay) and display.panel.id == "spectra-7.3" and "no Inky" in note
    with pytest.raises(ValueError, match="unknown panel"):
        open_display("auto", None, tmp_path, model="impression-9")
