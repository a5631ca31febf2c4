"""Render benchmark: median time per layout per panel class, and a 4,000-character name.

Run from the repository root:  .venv/bin/python benchmarks/render_bench.py
It writes benchmarks/render.md (committed) and prints the same table. A
benchmark, not a test: timings depend on the machine (a Pi Zero 2 W is several
times slower than a desktop core).
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

from tableside.display import text as text_module
from tableside.display.join import JoinInfo
from tableside.display.panels import get_panel
from tableside.display.quantize import to_panel_image
from tableside.display.render import render, render_join

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.golden_states import SCREENS  # noqa: E402  (the golden mid-game screens, one per system)

PANELS = ["phat-red", "phat-ssd1608-red", "what-red", "impression-5.7", "impression-7.3", "spectra-7.3", "spectra-13.3"]
JOIN = JoinInfo("http://192.168.178.23:8080", "K7QX4M")


def median_ms(fn, runs: int) -> float:
    """The median CPU time of ``fn`` in ms: the process's own time, so a machine shared with other work
    (the 2-core CI box) slows the rows less than wall-clock time would."""
    fn()  # warm the font cache
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def cold(fn):
    """``fn`` with the text measurements remembered across renders forgotten first: the cost of a frame
    whose texts are all new (the warm column is a frame of the same screen again)."""

    def run():
        text_module._width.cache_clear()
        text_module._ink_width.cache_clear()
        return fn()

    return run


def main() -> None:
    screens = {name: build() for name, build in SCREENS.items()}
    rows = []
    for panel_id in PANELS:
        panel = get_panel(panel_id)
        runs = 5 if panel.width > 1000 else 15
        join = median_ms(lambda p=panel: to_panel_image(render_join(p, JOIN, "No game yet"), p), runs)
        for name, screen in screens.items():
            frame = lambda s=screen, p=panel: to_panel_image(render(s, p, JOIN), p)  # noqa: E731
            ms, ms_cold = median_ms(frame, runs), median_ms(cold(frame), runs)
            rows.append((panel.size_class, panel_id, name, ms, ms_cold, ms_cold / join))
        rows.append((panel.size_class, panel_id, "join screen", join, join, 1.0))
    long_name = "Ω" * 4000
    from tableside.core.screen import KeyFigure, Screen, Text

    long_screen = Screen(
        title=long_name,
        status=long_name,
        alert=long_name,
        prompt=long_name,
        elements=(KeyFigure(long_name, long_name), Text(long_name)),
    )
    long_rows = []
    for panel_id in ("phat-red", "what-red", "impression-7.3", "spectra-13.3"):
        panel = get_panel(panel_id)
        long_rows.append((panel_id, median_ms(lambda p=panel: render(long_screen, p, JOIN), 9)))

    lines = [
        "# Render benchmark",
        "",
        f"`.venv/bin/python benchmarks/render_bench.py` on {platform.machine()}, Python {platform.python_version()}, "
        f"{platform.processor() or 'unknown CPU'}. Median CPU time of repeated renders, screen model to the panel's "
        "indexed frame (render + quantize), font cache warm. *warm*: the same screen again (text widths "
        "remembered from the last frame); *cold*: every text width measured anew; *x join*: cold against the "
        "join screen of the same panel in the same run (the ratio to compare across runs on a loaded machine).",
        "",
        "| class | panel | layout | warm ms | cold ms | x join |",
        "|---|---|---|---:|---:|---:|",
        *(f"| {c} | {p} | {n} | {ms:.1f} | {cm:.1f} | {r:.1f} |" for c, p, n, ms, cm, r in rows),
        "",
        "A 4,000-character name in the title, status, alert, prompt, a key figure and a text (every text cut to "
        "its room with an ellipsis; target under 50 ms):",
        "",
        "| panel | median ms |",
        "|---|---:|",
        *(f"| {p} | {ms:.1f} |" for p, ms in long_rows),
        "",
    ]
    text = "\n".join(lines)
    (Path(__file__).parent / "render.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
