"""The renderer, the virtual display, the display worker, and the inky library's own driver."""

from __future__ import annotations

import threading

import numpy
import pytest
from PIL import Image
from tableside.core.system import RollView, Row, Screen, Section
from tableside.device.display import DisplayWorker, InkyDisplay, VirtualDisplay, open_display
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import render, to_panel_image

SCREEN = Screen(
    title="VENOM Assault · Round 3",
    status="Ana · Combat",
    sections=(
        Section("Tracks", (Row("Event track", "2/5", bar=(2, 5)), Row("Health", "3"), Row("Defense", "4"))),
        Section("Deck", (Row("VENOM Strikes! next", "27%", accent=True), Row("Cards left", "22"))),
    ),
    roll=RollView("Combat 5d6 vs Defense 4", (4, 6, 4, 2, 1), (True, True, True, False, False), "captured"),
    alert="Event track at 5: the Mission's final effect applies",
)


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_every_panel_gets_a_frame_of_its_size_in_its_own_inks(panel_id):
    panel = get_panel(panel_id)
    image = render(SCREEN, panel)
    assert image.size == panel.size
    colours = {rgb for _, rgb in image.getcolors(maxcolors=1 << 16)}
    assert colours <= set(panel.palette), colours - set(panel.palette)
    quantized = to_panel_image(image, panel)
    assert quantized.mode == "P"
    assert quantized.convert("RGB").tobytes() == image.tobytes()  # no ink lost in quantizing


def test_render_is_deterministic_and_shows_the_roll_hits_in_the_accent_ink():
    panel = get_panel("what-red")
    first, second = render(SCREEN, panel), render(SCREEN, panel)
    assert first.tobytes() == second.tobytes()
    reds = sum(n for n, rgb in first.getcolors() if rgb == panel.accent)
    no_hits = Screen(**{**SCREEN.__dict__, "roll": RollView("r", (4, 6, 4, 2, 1), (False,) * 5, "")})
    fewer = sum(n for n, rgb in render(no_hits, panel).getcolors() if rgb == panel.accent)
    assert reds > fewer


def test_long_text_is_cut_to_fit_not_drawn_off_the_panel():
    panel = get_panel("phat-red")
    screen = Screen(title="A very long title that cannot possibly fit on a pHAT at all", status="x" * 80,
                    sections=(Section("S", tuple(Row(f"row {i}", "9" * 30) for i in range(40))),))
    image = render(screen, panel)
    assert image.size == (212, 104)


def test_virtual_display_keeps_the_png_and_writes_it_atomically(tmp_path):
    panel = get_panel("impression-7.3")
    display = VirtualDisplay(panel, tmp_path / "display.png")
    display.show(render(SCREEN, panel))
    with Image.open(tmp_path / "display.png") as saved:
        saved.load()
    assert saved.size == (800, 480) and saved.mode == "P" and display.png and display.frames == 1
    assert not (tmp_path / "display.tmp").exists()


def test_open_display_falls_back_to_virtual_and_says_why(tmp_path):
    display, note = open_display("auto", None, tmp_path)
    assert isinstance(display, VirtualDisplay) and "no Inky found" in note
    with pytest.raises(RuntimeError, match="no Inky display"):
        open_display("inky", None, tmp_path)
    display, note = open_display("virtual", "phat-red", tmp_path)
    assert display.panel.size == (212, 104) and "virtual" in note


class SlowDisplay:
    def __init__(self, panel):
        self.panel = panel
        self.name = "slow"
        self.shown = []
        self.gate = threading.Event()
        self.entered = threading.Event()

    def show(self, image):
        self.entered.set()
        self.gate.wait(5)
        self.shown.append(image)


def test_worker_draws_only_the_newest_state():
    panel = get_panel("what-red")
    display = SlowDisplay(panel)
    counter = {"n": 0}

    def frame():
        counter["n"] += 1
        return render(Screen(title=f"frame {counter['n']}"), panel)

    worker = DisplayWorker(display, frame)
    worker.start()
    assert display.entered.wait(5)  # the first frame is now stuck in a slow refresh
    for _ in range(10):
        worker.request()
    display.gate.set()
    for _ in range(100):
        if worker.shown == 2:
            break
        threading.Event().wait(0.02)
    worker.stop()
    assert len(display.shown) == 2 and counter["n"] == 2  # 11 requests, two refreshes: the first and the newest


# --- the inky library's own driver, with stand-in SPI, I2C and GPIO -----------------


class FakeSPI:
    def __init__(self):
        self.sent: list[list[int]] = []

    def open(self, bus, dev):
        pass

    def xfer3(self, values):
        self.sent.append(list(values))


class NoEEPROM:
    def write_i2c_block_data(self, *args):
        raise OSError("no EEPROM")

    def read_i2c_block_data(self, *args):
        raise OSError("no EEPROM")


class FakeGPIO:
    def set_value(self, pin, value):
        pass

    def get_value(self, pin):
        from gpiod.line import Value

        return Value.INACTIVE  # never busy


def test_inky_what_driver_receives_our_frame_over_spi(monkeypatch):
    from inky.inky import Inky

    monkeypatch.setattr("time.sleep", lambda s: None)
    spi = FakeSPI()
    driver = Inky((400, 300), "red", spi_bus=spi, i2c_bus=NoEEPROM(), gpio=FakeGPIO())
    panel = get_panel("what-red")
    image = render(SCREEN, panel)
    InkyDisplay(driver, panel).show(image)
    expected = numpy.array(to_panel_image(image, panel), dtype=numpy.uint8)
    assert (driver.buf.reshape(expected.shape) == expected).all()
    assert sum(len(chunk) for chunk in spi.sent) > 2 * 400 * 300 // 8  # both colour planes went out
    red_plane = numpy.packbits(numpy.where(driver.buf == 2, 1, 0)).tolist()
    assert any(chunk == red_plane for chunk in spi.sent)
