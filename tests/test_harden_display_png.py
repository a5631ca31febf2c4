"""The e-paper render stays off the request path (issue 13): ``GET /display.png`` hands out
the frame the display's render thread drew, and each change is rendered once."""

from __future__ import annotations

import random

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.display import RefreshScheduler, VirtualDisplay
from tableside.display.panels import get_panel

from tableside.frames import FrameSource
from tests import toysystem


def _table(tmp_path):
    return Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )


def test_display_png_serves_the_render_threads_frame_without_rendering(tmp_path):
    table = _table(tmp_path)
    table.create_session("toy")
    panel = get_panel("what-red")
    source = FrameSource(table, panel)
    renders = []

    def image():
        renders.append(1)
        return source.image()

    scheduler = RefreshScheduler(VirtualDisplay(panel, refresh_seconds=0), image)
    table.subscribe(scheduler.request)
    scheduler.start()
    assert scheduler.wait_idle(10) and len(renders) == 1
    drawn = scheduler.png()
    for _ in range(5):
        assert scheduler.png() == drawn  # a phone asking never renders
    assert drawn.startswith(b"\x89PNG") and len(renders) == 1
    table.act({"type": "add", "points": 3})
    assert scheduler.wait_idle(10) and len(renders) == 2  # the change is rendered once, by the thread
    assert scheduler.png() != drawn
    scheduler.stop()
    table.store.close()


def test_before_the_first_render_there_is_no_frame_and_nothing_renders(tmp_path):
    table = _table(tmp_path)
    renders = []
    scheduler = RefreshScheduler(VirtualDisplay(get_panel("what-red"), refresh_seconds=0), lambda: renders.append(1))
    assert scheduler.png() == b"" and renders == []  # GET /display.png answers 503 until then
    table.store.close()
