"""The rules search's time per query on the four rulebooks (#35), for ``benchmarks/run.py --only rules``.

Each query is timed in turns with a plain ``SELECT count(*)`` on the same in-memory FTS5 database, so a
slow machine or a loaded one moves both. The same measurement runs again in a child process inside the
Pi-sized cgroup (12% of one core, as ``pi``), where the goal is under 50 ms a query (the median: a quota's p99
holds the waits of its 100 ms periods, for the count(*) beside it too).

    .venv/bin/python benchmarks/rules_search.py [--child N]   # --child: print the figures as JSON
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from run import CpuQuota, Row, interleaved, pct

# The questions a table asks (tests/test_rulebook_search.py finds each one's passage first), and two harder ones:
# a word in every book, and a phrase that matches nothing (then any word: two passes).
QUERIES = ("Mind Control", "modifier token", "Automatic Success", "gone gone gone", "dice", '"roll the dice twice"')


def measure(n: int) -> dict:
    """Build the index once (its first search), then n rounds of: a plain count(*), each query in turn."""
    from tableside.core.rulebook_search import RulebookIndex

    index = RulebookIndex()
    start = time.perf_counter()
    index.search(QUERIES[0])
    built = (time.perf_counter() - start) * 1000
    turn = iter(range(1 << 62))

    def one_search() -> None:
        index.search(QUERIES[next(turn) % len(QUERIES)])

    plain, searched = interleaved([index.count, one_search], n)
    return {"built_ms": built, "passages": index.count(), "plain": plain, "search": searched}


def _rows(report, figures: dict, where: str, goal: str) -> None:
    plain, searched = figures["plain"], figures["search"]
    p50, b50 = statistics.median(searched), statistics.median(plain)
    what = f"a search of the four rulebooks ({figures['passages']} passages, FTS5 bm25 + highlight){where}"
    row = Row("rules search", what, p50, pct(searched, 99), n=len(searched), goal=goal)
    row.baseline, row.base_p50, row.ratio = "SELECT count(*) on the same db", b50, p50 / b50
    row.holds = p50 < 50 if goal else None
    row.note = (
        f"index built on the first search in {figures['built_ms']:.1f} ms; {len(QUERIES)} queries in turn; "
        f"count(*) p99 {pct(plain, 99):.3g} ms (under a quota a p99 holds its 100 ms periods' waits)"
    )
    report.add(row)


def rules_search(report, n: int, share: float = 0.12) -> None:
    """In process, then in a child process under ``share`` of one core (where the machine allows a cgroup)."""
    _rows(report, measure(n), "", "")
    with CpuQuota(share, tag="-rules") as quota:
        if quota.procs is None:
            report.add(Row("rules search", "under a CPU quota", note=f"not possible here: {quota.why_not}"))
            return
        argv = [sys.executable, __file__, "--child", str(n)]
        child = ["sh", "-c", f'echo $$ > "{quota.procs}" && exec "$@"', "sh", *argv]
        out = subprocess.run(child, capture_output=True, text=True, check=True, timeout=600).stdout
    _rows(report, json.loads(out), f", under {share:.0%} of one core", "p50 < 50 ms")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(measure(int(sys.argv[2]))))
    else:
        from run import Report

        rules_search(Report(), 500)
