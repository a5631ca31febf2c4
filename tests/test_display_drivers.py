"""Every inky driver class gets our frame exactly: the inky library's own driver code, stand-in SPI/GPIO.

For each controller the SPI traffic is decoded back into one ink index per
pixel and compared with the frame we drew: the red alert band arrives as the
driver's RED everywhere (not speckled by a re-dither), the header as BLACK.
This runs on whatever Pillow version the project installs (13 breaks the
drivers' own RGB path; we never take it).
"""

from __future__ import annotations

import numpy
import pytest
from PIL import Image
from tableside.core.screen import KeyFigure, Screen, Text, Track
from tableside.device.display import InkyDisplay, panel_for_driver
from tableside.display.panels import PANELS, get_panel
from tableside.display.quantize import to_driver_image, to_panel_image
from tableside.display.render import metrics, render

from tests.inky_standins import Bus, NoEEPROM, undo_geometry, unpack_bits, unpack_nibbles

SCREEN = Screen(
    title="VENOM Assault · Round 3",
    status="Combat",
    alert="Alert!",
    elements=(
        KeyFigure("Health", "5"),
        KeyFigure("Defense", "4", tone="accent"),
        Track("Event track", 2, 0, 5, style="boxes"),
        Text("The Leader retreats."),
    ),
)


@pytest.fixture(autouse=True)
def _no_sleep(monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)


def _three_colour(driver, bus, panel) -> numpy.ndarray:
    from inky import ssd1608

    bw_cmd, red_cmd = (
        (ssd1608.WRITE_RAM, ssd1608.WRITE_ALTRAM) if driver.__module__.endswith("ssd1608") else (0x24, 0x26)
    )
    region_shape = numpy.rot90(driver.buf, driver.rotation // 90).shape if driver.rotation else driver.buf.shape
    (bw,) = bus.data_of(bw_cmd)
    (red,) = bus.data_of(red_cmd)
    not_black = undo_geometry(driver, unpack_bits(bw, region_shape))
    is_red = undo_geometry(driver, unpack_bits(red, region_shape))
    h, w = driver.height, driver.width
    if hasattr(driver, "offset_y"):  # SSD1608: the frame is pasted into a larger canvas
        oy, ox = driver.offset_y, driver.offset_x
        not_black, is_red = not_black[oy : oy + h, ox : ox + w], is_red[oy : oy + h, ox : ox + w]
    else:  # inky.Inky reshapes the image's rows into its (cols, rows) buffer as they are
        not_black, is_red = not_black.reshape(h, w), is_red.reshape(h, w)
    return numpy.where(is_red == 1, 2, numpy.where(not_black == 0, 1, 0))


def _seven_colour(driver, bus, panel) -> numpy.ndarray:
    (data,) = bus.data_of(0x10)
    return unpack_nibbles(data, (driver.height, driver.width))


def _spectra_7_3(driver, bus, panel) -> numpy.ndarray:
    (data,) = bus.data_of(0x10)
    native = unpack_nibbles(data, (driver.height, driver.width))
    return numpy.array([0, 1, 2, 3, 255, 4, 5])[native]  # driver colours 0-3, 5, 6 back to palette order


def _spectra_13_3(driver, bus, panel) -> numpy.ndarray:
    (a,) = bus.data_of(0x10, cs=driver.cs_pin_0)
    (b,) = bus.data_of(0x10, cs=driver.cs_pin_1)
    region = numpy.rot90(numpy.zeros((driver.height, driver.width)), -1)  # (1600, 1200) after the driver's turn
    half_a = unpack_nibbles(a, (region.shape[0], 600))
    half_b = unpack_nibbles(b, (region.shape[0], region.shape[1] - 600))
    native = numpy.rot90(numpy.hstack([half_a, half_b]), 1)
    return numpy.array([0, 1, 2, 3, 255, 4, 5])[native]


CASES = [
    # panel id, driver module, constructor kwargs, busy line behaviour, decoder
    ("phat-red", "inky.inky", {"resolution": (212, 104), "colour": "red"}, "idle-low", _three_colour),
    (
        "phat-ssd1608-black",
        "inky.inky_ssd1608",
        {"resolution": (250, 122), "colour": "black"},
        "idle-low",
        _three_colour,
    ),
    ("phat-ssd1608-red", "inky.inky_ssd1608", {"resolution": (250, 122), "colour": "red"}, "idle-low", _three_colour),
    ("what-red", "inky.inky", {"resolution": (400, 300), "colour": "red"}, "idle-low", _three_colour),
    ("what-yellow", "inky.inky", {"resolution": (400, 300), "colour": "yellow"}, "idle-low", _three_colour),
    ("impression-5.7", "inky.inky_uc8159", {"resolution": (600, 448)}, "idle-low", _seven_colour),
    ("impression-7.3", "inky.inky_ac073tc1a", {"resolution": (800, 480)}, "idle-low", _seven_colour),
    ("spectra-7.3", "inky.inky_e673", {"resolution": (800, 480)}, "idle-high", _spectra_7_3),
    ("spectra-13.3", "inky.inky_el133uf1", {"resolution": (1600, 1200)}, "toggle", _spectra_13_3),
]


def _driver(module: str, kwargs: dict, busy: str):
    import importlib

    cls = importlib.import_module(module).Inky
    cs = (26, 16) if module.endswith("el133uf1") else (8,)
    bus = Bus(busy=busy, cs_pins=cs)
    driver = cls(**kwargs, spi_bus=bus, i2c_bus=NoEEPROM(), gpio=bus)
    if module.endswith("el133uf1"):  # with handles passed in, the driver never names its two chip selects
        driver.cs0_pin, driver.cs1_pin = driver.cs_pin_0, driver.cs_pin_1
    return driver, bus


@pytest.mark.parametrize(("panel_id", "module", "kwargs", "busy", "decode"), CASES, ids=[c[0] for c in CASES])
def test_the_frame_reaches_the_panel_with_the_intended_ink_in_each_region(panel_id, module, kwargs, busy, decode):
    panel = get_panel(panel_id)
    driver, bus = _driver(module, kwargs, busy)
    assert panel_for_driver(driver) == panel  # chosen by the driver's class, then size and ink
    image = render(SCREEN, panel)
    InkyDisplay(driver, panel).show(image)

    sent = decode(driver, bus, panel)
    drawn = numpy.array(to_panel_image(image, panel), dtype=numpy.uint8)
    assert sent.shape == drawn.shape
    assert (sent == drawn).all(), f"{int((sent != drawn).sum())} pixels changed on the way to the panel"

    m = metrics(panel)
    header = sent[1 : m.header - 2, panel.width - 1 :]  # the header bar right of the status
    assert (header == panel.inks.index("black")).all()
    band = sent[m.header + 2 : m.header + m.line - 1, panel.width * 3 // 4 : panel.width - 2]
    alert_ink = "red" if panel.has("red") else "yellow" if panel.has("yellow") else "black"
    assert (band == panel.inks.index(alert_ink)).all(), f"alert band is not all {alert_ink}"
    inks_used = {panel.inks[i] for i in numpy.unique(sent)}
    assert inks_used <= set(panel.inks)
    if panel.has("red"):
        assert "red" in inks_used


def test_spectra_frames_carry_exactly_the_drivers_six_pure_colours():
    """The E673/EL133UF1 drivers re-dither any "P" frame whose palette is not exactly their six colours."""
    from inky.inky_e673 import DESATURATED_PALETTE

    panel = get_panel("spectra-7.3")
    frame = to_driver_image(render(SCREEN, panel), panel)
    assert frame.mode == "P" and len(frame.palette.colors) == 6
    assert frame.getpalette() == [v for rgb in DESATURATED_PALETTE[:6] for v in rgb]


def test_an_rgb_frame_would_be_speckled_by_the_spectra_driver_which_is_why_we_never_send_one():
    """The control for the test above: the driver's own RGB path dithers a mid red into black specks."""
    driver, bus = _driver("inky.inky_e673", {"resolution": (800, 480)}, "idle-high")
    image = Image.new("RGB", (800, 480), (200, 20, 20))
    driver.set_image(image)
    assert len(numpy.unique(driver.buf)) > 1


def test_black_only_panels_never_draw_white_text_on_a_colour_they_cannot_show():
    panel = get_panel("phat-ssd1608-black")
    image = render(SCREEN, panel)
    colours = {rgb for _n, rgb in image.getcolors()}
    assert colours <= {(0, 0, 0), (255, 255, 255)}
    m = metrics(panel)
    band = numpy.array(to_panel_image(image, panel))[m.header + 1 : m.header + m.line, :]
    assert (band == panel.inks.index("black")).mean() > 0.5  # the alert band is black, its text white


def test_unknown_boards_ask_for_display_model():
    class Strange:
        resolution = (800, 480)
        colour = "multi"

    with pytest.raises(ValueError, match="display.model"):
        panel_for_driver(Strange())


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_every_display_model_builds_its_driver_and_maps_back_to_itself(panel_id):
    from tableside.device.display import driver_for_model

    panel = get_panel(panel_id)
    bus = Bus()
    driver = driver_for_model(panel, spi_bus=bus, i2c_bus=NoEEPROM(), gpio=bus)
    assert (driver.width, driver.height) == panel.size
    assert panel_for_driver(driver) == panel


def test_the_two_800x480_boards_get_different_palettes():
    seven, spectra = (
        _driver("inky.inky_ac073tc1a", {"resolution": (800, 480)}, "idle-low")[0],
        _driver("inky.inky_e673", {"resolution": (800, 480)}, "idle-high")[0],
    )
    a, b = panel_for_driver(seven), panel_for_driver(spectra)
    assert a.inks.index("red") == 4 and b.inks.index("red") == 3 and len(b.inks) == 6
