"""The e-paper never shows a stale game as live, and a stop never cuts a refresh (issue 32).

The panels are inky's own driver code (inky 2.6.0 from PyPI, as installed) on the stand-in SPI/GPIO
of tests/inky_standins.py. The refresh waits are the drivers' own: ``inky_ac073tc1a.Inky._update``
waits ``_busy_wait(45.0)  # 41 seconds in testing`` and ``inky_el133uf1.Inky._update``
``_refresh_wait(65.0)``; a refresh cut short can latch the 13.3" in a fault (inky_el133uf1.py).
"""

from __future__ import annotations

import argparse
import random
import re
import threading
from pathlib import Path

import numpy
import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.display import Board, InkyDisplay, longest_refresh
from tableside.display.panels import PANELS, get_panel
from tableside.display.quantize import to_panel_image
from tableside.display.render import render
from tableside.webui.stream import Broker

from tableside.backup import DamagedDatabase
from tableside.cli import build_parser
from tableside.config import Config
from tableside.faults import Faults
from tableside.frames import OFF, failed_screen, off_screen
from tableside.hardware import Hardware
from tableside.network import current
from tableside.serve import run_serve
from tests import toysystem
from tests.test_display_drivers import _driver, _seven_colour

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "tableside.service"


@pytest.fixture(autouse=True)
def _no_sleep(monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)  # the drivers' reset pulses; their busy waits see the stand-in


def test_a_start_that_fails_draws_its_error_on_a_panel_that_can_be_driven(tmp_path, monkeypatch):
    panel = get_panel("impression-7.3")
    driver, bus = _driver("inky.inky_ac073tc1a", {"resolution": (800, 480)}, "idle-low")
    monkeypatch.setattr("tableside.device.display.find_board", lambda model=None: Board(driver, panel, "detected"))
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "PLAY42")
    (tmp_path / "tableside.db").write_bytes(b"not a database at all, " * 200)  # the card lost the file's start
    args = build_parser().parse_args(["serve", "--data", str(tmp_path), "--port", "8123"])
    with pytest.raises(DamagedDatabase) as failed:
        run_serve(args)
    what, _, fix = str(failed.value).partition("; ")
    assert "is damaged" in what and fix
    sent = _seven_colour(driver, bus, panel)
    expected = failed_screen(what, fix, current(8123).url)
    drawn = numpy.array(to_panel_image(render(expected, panel), panel), dtype=numpy.uint8)
    assert (sent == drawn).all()  # the panel says what failed, the fix and the address: not the last game
    before = len(bus.transfers)
    with pytest.raises(DamagedDatabase):
        run_serve(args)  # systemd restarting: the same error is on the panel already, no new refresh
    assert len(bus.transfers) == before


def on_a_board(tmp_path, kind: str) -> Hardware:
    """The hardware of a table with a toy game, not simulated: the display ``kind`` from the config."""
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    table.create_session("toy", {"limit": 100})
    args = argparse.Namespace(simulate=False, panel=None)
    return Hardware(Config(display=kind), args, table, Broker(), Faults(tmp_path), tmp_path, "PLAY42")


class SlowDriver:
    """An inky driver whose refresh takes as long as the test says (``release``), like the ink does."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.refreshing = threading.Event()
        self.images: list = []
        self.shown: list = []

    def set_image(self, image):
        self.images.append(image)

    def show(self):
        self.refreshing.set()
        self.release.wait(30)
        self.shown.append(self.images[-1])


def test_a_stop_during_a_long_refresh_lets_it_finish_then_says_the_table_is_off(tmp_path, monkeypatch):
    panel = get_panel("impression-7.3")
    driver = SlowDriver()
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)
    monkeypatch.setattr(
        "tableside.device.display.open_display", lambda *a, **k: (InkyDisplay(driver, panel), "Inky display (test)")
    )
    parts = on_a_board(tmp_path, "inky")
    table = parts.table
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(20) and driver.refreshing.wait(20)  # the first frame is going onto the ink
    stopper = threading.Thread(target=parts.stop)
    stopper.start()
    stopper.join(1.0)
    assert stopper.is_alive()  # the stop waits for the ink; it does not cut the refresh
    assert driver.shown == []
    driver.release.set()
    stopper.join(30)
    assert not stopper.is_alive()
    assert len(driver.shown) == 2  # the refresh under way completed, then the "off" frame
    off = to_panel_image(render(off_screen(), panel), panel)
    assert numpy.array_equal(numpy.array(driver.shown[-1]), numpy.array(off))
    assert any(OFF[0] in getattr(e, "text", "") for e in off_screen().elements)
    table.store.close()


def test_the_stop_path_and_the_unit_outlast_the_longest_refresh_of_every_board():
    assert longest_refresh(get_panel("impression-7.3")) >= 45
    assert longest_refresh(get_panel("spectra-13.3")) >= 65
    longest = max(longest_refresh(p) for p in PANELS.values())
    stop = int(re.search(r"^TimeoutStopSec=(\d+)$", UNIT.read_text(), re.M).group(1))
    assert stop >= 2 * longest + 10  # a refresh under way, then the "off" frame, then some to spare


def test_a_busy_line_that_never_goes_ready_is_a_display_fault_not_a_refresh(tmp_path, monkeypatch):
    """inky_e673's _busy_wait: a BUSY line held high 'assume[s] we're not getting a signal' and sleeps the
    whole timeout without a word; the refresh looked successful. Now it is a reported display fault."""
    import inky.inky_e673 as e673
    from tableside.device.display import BusyNeverReady, RefreshScheduler

    from tableside.faults import Faults as Kept

    clock = {"now": 0.0}
    fake = type("FakeTime", (), {})()
    fake.monotonic = lambda: clock["now"]
    fake.sleep = lambda seconds: clock.__setitem__("now", clock["now"] + seconds)
    monkeypatch.setattr(e673, "time", fake)
    monkeypatch.setattr("tableside.device.inky_board.time", fake)
    panel = get_panel("spectra-7.3")
    driver, _bus = _driver("inky.inky_e673", {"resolution": (800, 480)}, "idle-high")  # BUSY never drops
    display = InkyDisplay(driver, panel)
    with pytest.raises(BusyNeverReady, match=r"BUSY line \(GPIO17\) never went ready.*_busy_wait\(32 s\)"):
        display.show(render(off_screen(), panel))
    faults = Kept(tmp_path)
    worker = RefreshScheduler(display, lambda: render(off_screen(), panel), faults=faults)
    worker.start()
    try:
        for _ in range(400):  # real time: the module's clock is the fake one here
            if "display" in faults.snapshot():
                break
            threading.Event().wait(0.05)
        assert worker.refreshes == 0 and "never went ready" in faults.snapshot()["display"]["error"]
    finally:
        worker.stop()


def test_auto_on_a_pi_looks_again_for_a_board_that_did_not_answer_at_start(tmp_path, monkeypatch):
    from tableside import hardware as hardware_module

    monkeypatch.setattr(hardware_module, "DISPLAY_RETRY", 0.05)
    monkeypatch.setattr(hardware_module, "DISPLAY_RETRY_MAX", 0.1)
    monkeypatch.setattr(hardware_module, "pi_model", lambda: "Raspberry Pi 4 Model B Rev 1.5")
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)  # mock pins: no GPIO here
    panel = get_panel("impression-7.3")
    driver, bus = _driver("inky.inky_ac073tc1a", {"resolution": (800, 480)}, "idle-low")
    tries = []

    def find_board(model=None):
        tries.append(model)
        if len(tries) < 3:
            raise RuntimeError("No EEPROM detected! You must manually initialise your Inky board.")
        return Board(driver, panel, "detected")

    monkeypatch.setattr("tableside.device.display.find_board", find_board)
    parts = on_a_board(tmp_path, "auto")
    table = parts.table
    try:
        parts.start(8080, "127.0.0.1")
        assert parts.ready.wait(20)
        deadline = 200
        while parts.status()["display"] != "inky" and deadline:
            threading.Event().wait(0.05)
            deadline -= 1
        assert parts.status()["display"] == "inky" and len(tries) >= 3
        assert parts.worker.wait_idle(20) and bus.transfers  # the found board is drawn on
    finally:
        parts.stop()
        table.store.close()


def test_a_card_that_cannot_keep_the_mark_still_draws_the_error_once(tmp_path, monkeypatch):
    """A full or read-only card cannot keep which error the panel shows: /run/tableside (the unit's
    RuntimeDirectory) keeps it, so systemd's restarts do not redraw it every time."""
    from tableside.hardware import say_start_failed
    from tableside.storage import StorageFault

    panel = get_panel("impression-7.3")
    driver, bus = _driver("inky.inky_ac073tc1a", {"resolution": (800, 480)}, "idle-low")
    monkeypatch.setattr("tableside.device.display.find_board", lambda model=None: Board(driver, panel, "detected"))
    (tmp_path / "run").mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path / "run"))
    unwritable = tmp_path / "gone" / "data"  # nothing can be written there
    failed = StorageFault("the SD card is full: free at least 12 MB; delete what you do not need")
    args = argparse.Namespace(simulate=False, panel=None)
    assert say_start_failed(Config(), args, unwritable, 8080, failed) is True
    sent = len(bus.transfers)
    assert say_start_failed(Config(), args, unwritable, 8080, failed) is False
    assert len(bus.transfers) == sent
