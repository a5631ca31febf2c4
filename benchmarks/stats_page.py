"""The Stats page at 500 finished games (#34), for ``benchmarks/run.py --only stats``.

The games are those of the Stats page's tests (``tests/stats_games.py``: the four systems in turn, 2-7 a game
night), played through the app in this process (Flask's test client, no sockets: seconds, not a minute) into a
data folder that a real ``tableside serve --simulate`` then opens. Its CPU is the server process's own (user and
system, all threads, from /proc) over many requests, against ``GET /healthz`` on the same server in the same run;
the size is the answer's body, as sent without and with gzip. Then a roll's time while a phone keeps asking for
the Stats page, each time after a change, against the same rolls with nobody asking: the page is folded on a
connection of its own, never holding the table.

    .venv/bin/python benchmarks/stats_page.py [--games N]   # prints the rows
"""

from __future__ import annotations

import gzip
import http.client
import random
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

from phone_page import _cpu_s
from run import AUTH, CODE, Report, Row, Server, pct

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.stats_games import Clock, Games, play_nights  # noqa: E402  (the tests' games, one definition)

GAMES = 500


class InApp:
    """The Stats tests' client on Flask's test client: the same requests, no sockets."""

    def __init__(self, app) -> None:
        self.client = app.test_client()

    def json(self, method: str, path: str, body=None, seat: str | None = None):
        headers = dict(AUTH, **({"X-Tableside-Seat": seat} if seat else {}))
        answer = self.client.open(path, method=method, json=body, headers=headers)
        assert answer.status_code < 300, (method, path, answer.status_code, answer.get_data()[:200])
        return answer.get_json()


def build(folder: Path, games: int) -> float:
    """``games`` finished games in ``folder/tableside.db``; the seconds it took."""
    from tableside.core.store import Store
    from tableside.core.table import Table
    from tableside.webui.app import Services, create_app

    started = time.perf_counter()
    clock = Clock(time.mktime((2025, 1, 3, 19, 0, 0, 0, 0, -1)))
    table = Table(Store(folder / "tableside.db"), rng=random.Random(1), clock=clock)
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=table.press)
    services.new_games.per_minute = 10**6
    try:
        play_nights(Games(InApp(create_app(services)), clock, random.Random(34)), games)
    finally:
        table.store.close()
    return time.perf_counter() - started


def _get(conn: http.client.HTTPConnection, path: str, gz: bool = False) -> bytes:
    conn.request("GET", path, headers={**AUTH, **({"Accept-Encoding": "gzip"} if gz else {})})
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status, body[:200])
    return body


def _roll(conn: http.client.HTTPConnection) -> None:
    conn.request("POST", "/api/rolls", body='{"expr": "1d6", "faces": [3]}', headers=AUTH)
    response = conn.getresponse()
    response.read()
    assert response.status == 200, response.status


def _cpu_per(server: Server, fn, n: int) -> float:
    """The server's CPU per call of ``fn`` (ms), over ``n`` calls (the clock ticks are 10 ms)."""
    before = _cpu_s(server)
    for _ in range(n):
        fn()
    return (_cpu_s(server) - before) * 1000 / n


def stats_page(report: Report, folder: Path, games: int = GAMES, n: int = 100) -> None:
    built = build(folder / "built", games)
    server = Server(folder / "data")
    server.data.mkdir(parents=True, exist_ok=True)
    shutil.copy(folder / "built" / "tableside.db", server.data / "tableside.db")
    server.start()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        before = _cpu_s(server)
        start = time.perf_counter()
        raw = _get(conn, "/api/stats")
        first_ms, first_cpu = (time.perf_counter() - start) * 1000, (_cpu_s(server) - before) * 1000
        zipped = _get(conn, "/api/stats", gz=True)
        assert gzip.decompress(zipped) == raw
        healthz = _cpu_per(server, lambda: _get(conn, "/healthz"), n * 4)
        roll = _cpu_per(server, lambda: _roll(conn), n)
        changed = _cpu_per(server, lambda: (_roll(conn), _get(conn, "/api/stats", gz=True)), n) - roll
        same = _cpu_per(server, lambda: _get(conn, "/api/stats", gz=True), n)
        alone, asked = _rolls_while_asked(server.port, n)
    finally:
        conn.close()
        server.stop()
    note = f"{games} games built in {built:.0f} s; the first request summed up every game: {first_cpu:.0f} ms CPU"
    for what, cpu, goal in (
        (f"GET /api/stats at {games} finished games, after a change (server CPU)", changed, "< 50 ms"),
        (f"GET /api/stats at {games} finished games, nothing changed (server CPU)", same, "< 50 ms"),
    ):
        mean = f"the mean of {n} requests' CPU (/proc counts 10 ms ticks)"
        row = Row("stats page", what, cpu, n=n, goal=goal, note=f"{mean}; {note}" if "after" in what else mean)
        row.baseline, row.base_p50, row.ratio, row.holds = "GET /healthz (server CPU)", healthz, cpu / healthz, cpu < 50
        report.add(row)
    size = Row("stats page", f"GET /api/stats at {games} finished games, bytes", len(raw) / 1000, unit="kB")
    size.goal, size.holds = "< 100 kB", len(raw) < 100_000
    size.note = f"{len(zipped) / 1000:.1f} kB gzipped as a phone reads it; first request {first_ms:.0f} ms wall"
    report.add(size)
    what = "POST a roll while a phone asks for the Stats page after each change"
    row = Row("stats page", what, statistics.median(asked))
    row.p99, row.n = pct(asked, 99), len(asked)
    row.baseline, row.base_p50 = "the same rolls, nobody asking", statistics.median(alone)
    row.ratio = row.p50 / row.base_p50
    report.add(row)


def _rolls_while_asked(port: int, n: int) -> tuple[list[float], list[float]]:
    """Wall times of ``n`` rolls alone, then of ``n`` rolls while another phone asks for the Stats page."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    other = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    halt = threading.Event()

    def asking() -> None:
        while not halt.is_set():
            _get(other, "/api/stats", gz=True)

    def timed() -> list[float]:
        out = []
        for _ in range(n):
            start = time.perf_counter()
            _roll(conn)
            out.append((time.perf_counter() - start) * 1000)
            time.sleep(0.02)
        return out

    try:
        alone = timed()
        thread = threading.Thread(target=asking, daemon=True)
        thread.start()
        asked = timed()
        halt.set()
        thread.join(30)
        return alone, asked
    finally:
        conn.close()
        other.close()


if __name__ == "__main__":
    import tempfile

    count = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else GAMES
    with tempfile.TemporaryDirectory() as tmp:
        stats_page(Report(), Path(tmp), count)
