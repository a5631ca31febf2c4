"""The e-paper driver's work runs in the render worker, never in the server (issue 32).

inky 2.6.0's own driver code (as installed from PyPI: ``inky_ac073tc1a.Inky`` sends its frame with one
``spidev.xfer`` per byte, ``inky_el133uf1.Inky`` with ``xfer3`` to two chip selects) runs on the
stand-in ``spidev`` and ``gpiodevice`` of tests/standin_modules (on tests/inky_standins.Bus), put first
on the path the spawned worker gets. Every SPI command writes the pid that sent it: only the worker's.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import time
from pathlib import Path

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.stream import Broker

from tableside.config import Config
from tableside.faults import Faults
from tableside.hardware import Hardware
from tests import toysystem

STANDINS = Path(__file__).resolve().parent / "standin_modules"


def spi_log(path: Path) -> list[tuple[int, int]]:
    if not path.exists():
        return []
    return [tuple(map(int, line.split())) for line in path.read_text().split("\n") if line]


@pytest.fixture
def board(tmp_path, monkeypatch):
    """A table whose display is a real inky driver (named by display.model) on stand-in SPI and GPIO."""
    monkeypatch.syspath_prepend(str(STANDINS))  # the spawned worker gets this path: the stand-ins come first
    log = tmp_path / "spi.log"
    monkeypatch.setenv("TABLESIDE_STANDIN_SPI_LOG", str(log))
    monkeypatch.setattr("tableside.pi.pi_model", lambda: None)  # gpiozero's MockFactory for the buttons
    made = []

    def make(model: str) -> Hardware:
        table = Table(
            Store(tmp_path / f"{model}.db"),
            rng=random.Random(1),
            systems=toysystem.get,
            catalogue=lambda: [toysystem.SYSTEM],
        )
        table.create_session("toy", {"limit": 100})
        args = argparse.Namespace(simulate=False, panel=None)
        parts = Hardware(
            Config(display="inky", model=model), args, table, Broker(), Faults(tmp_path), tmp_path, "PLAY42"
        )
        made.append(parts)
        return parts

    yield make, log
    for parts in made:
        parts.stop()
        parts.table.store.close()


def wait_for(check, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(("model", "frame_bytes"), [("impression-7.3", 192_000), ("spectra-13.3", 960_000)])
def test_the_real_driver_sends_the_frame_from_the_worker_never_from_the_server(board, model, frame_bytes):
    make, log = board
    parts = make(model)
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(30)
    assert wait_for(lambda: parts.worker.refreshes >= 1, 60), parts.status()
    status = parts.status()
    assert status["display"] == "inky" and status["panel"] == model and status["display_error"] is None
    sent = spi_log(log)
    pids = {pid for pid, _ in sent}
    assert pids == {parts.renderer.pid} and os.getpid() not in pids  # SPI only in the worker
    assert max(count for _, count in sent) >= frame_bytes  # the whole frame went over the stand-in bus
    assert parts.display.shown_by == parts.renderer.pid
    assert parts.worker.png().startswith(b"\x89PNG")  # the phones' preview comes from the server as before
    before = parts.worker.refreshes
    parts.press("B", False)  # a change: a new frame, shown by the worker again
    assert wait_for(lambda: parts.worker.refreshes > before, 60)
    assert {pid for pid, _ in spi_log(log)} == {parts.renderer.pid}


def test_a_worker_that_dies_is_started_again_reported_and_opens_the_board_again(board, caplog):
    make, log = board
    parts = make("impression-7.3")
    parts.start(8080, "127.0.0.1")
    assert parts.ready.wait(30) and wait_for(lambda: parts.worker.refreshes >= 1, 60)
    first = parts.renderer.pid
    os.kill(first, signal.SIGKILL)  # out of memory, say
    time.sleep(0.3)
    before = parts.worker.refreshes
    parts.press("B", False)
    assert wait_for(lambda: parts.worker.refreshes > before, 60), parts.status()
    assert parts.renderer.restarts >= 1
    assert any("render worker" in r.getMessage() and "died" in r.getMessage() for r in caplog.records)
    new = {pid for pid, _ in spi_log(log)} - {first}
    assert new and os.getpid() not in new and parts.display.shown_by in new  # a new worker drives the board
    assert parts.status()["display_error"] is None
