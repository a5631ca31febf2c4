"""A partial benchmark run rewrites only what it measured (benchmarks/run.py write_markdown).

Two sections share the row group "stop" (the idle stop and the stop with 20 streams open); a run of one of
them once dropped the other's row, and the notes that explained the rows it kept.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BEFORE = """# Tableside benchmark results

| section | measure | p50 | p99 | n | baseline | baseline p50 | ratio | goal | holds | note |
|---|---|---|---|---|---|---|---|---|---|---|
| stats | a roll beside the Stats page | 3.55 ms | - |  |  | - |  |  |  |  |
| stop | SIGTERM to exit (idle server) | 0.0638 s | - |  |  | - |  | < 2 s | yes |  |
| stop | SIGTERM to exit with 20 streams open | 0.0315 s | 0.0639 s | 3 |  | - |  | < 2 s | yes |  |

## Notes

- a partial run (stats): the rows of the other sections are from the previous run
- stats page: the rolls' rows are the same rolls in rounds taken in turns

## Mutation testing

kept as it is
"""


def load_run():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_run"] = module  # dataclasses look their module up while the class is made
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_a_partial_run_keeps_what_it_did_not_measure(tmp_path, monkeypatch):
    run = load_run()
    monkeypatch.setattr(run, "HERE", tmp_path)
    (tmp_path / "results.md").write_text(BEFORE)
    report = run.Report()
    report.add(run.Row("stop", "SIGTERM to exit (idle server)", 0.114, None, unit="s", goal="< 2 s", holds=True))
    report.notes.append("a partial run (startup): the rows of the other sections are from the previous run")
    run.write_markdown(report, argparse.Namespace(quick=False, only="startup"), 1.0)
    text = (tmp_path / "results.md").read_text()
    assert "SIGTERM to exit with 20 streams open | 0.0315 s" in text
    assert text.count("SIGTERM to exit (idle server)") == 1 and "0.114 s" in text and "0.0638 s" not in text
    assert "a roll beside the Stats page" in text
    assert "- stats page: the rolls' rows are the same rolls" in text
    assert "a partial run (stats)" not in text and "a partial run (startup)" in text
    assert text.rstrip().endswith("kept as it is")
