"""The e-paper render stays off the request path (issue 13): ``GET /display.png`` hands out
the frame the display thread drew, and each change is rendered once."""

from __future__ import annotations

import random

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.display.panels import get_panel

from tableside import serve
from tests import toysystem


def test_display_png_serves_the_display_threads_frame_without_rendering(tmp_path, monkeypatch):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get,
                  catalogue=lambda: [toysystem.SYSTEM])
    table.create_session("toy")
    renders = []
    real_render = serve.render
    monkeypatch.setattr(serve, "render", lambda *a, **k: renders.append(1) or real_render(*a, **k))
    frames = serve.Frames(table, get_panel("what-red"))
    image = frames.draw()  # what the display thread does after a change
    assert len(renders) == 1 and image.size == (400, 300)
    drawn = frames.png()
    assert drawn.startswith(b"\x89PNG") and len(renders) == 1  # no second render for the phone
    table.act({"type": "add", "points": 3})
    assert frames.png() == drawn and len(renders) == 1  # the request never renders; the thread will
    frames.draw()
    assert frames.png() != drawn and len(renders) == 2
    table.store.close()


def test_without_a_display_thread_png_renders_on_demand(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get,
                  catalogue=lambda: [toysystem.SYSTEM])
    frames = serve.Frames(table, get_panel("what-red"))
    first = frames.png()
    table.create_session("toy")
    assert frames.png() != first
    table.store.close()
