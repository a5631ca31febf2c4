"""The Stats page at 500 finished games (#34), for ``benchmarks/run.py --only stats``.

The games are those of the Stats page's tests (``tests/stats_games.py``: the four systems in turn, 2-7 a game
night), played through the app in this process (Flask's test client, no sockets: seconds, not a minute) into a
data folder that a real ``tableside serve --simulate`` then opens. Its CPU is the server process's own (user and
system, all threads, from /proc) over many requests, against ``GET /healthz`` on the same server in the same run;
the size is the answer's body, as sent without and with gzip. Then a roll's time while a phone keeps asking for
the Stats page (asking again as soon as it is answered: the page is made again after each roll), against the
same rolls with nobody asking and, as a control, while a phone keeps asking for ``GET /healthz`` at the same rhythm
(what any phone asking costs a roll: the server's threads share one interpreter lock), taken in turns.

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
        rolls, requests = _rolls_while_asked(server.port, n)
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
    alone = rolls["nobody asking"]
    control = "GET /healthz (the control: the cheapest page)"
    for page, what in (("/healthz", control), ("/api/stats", "the Stats page")):
        times, asked = rolls[page], requests[page]
        row = Row("stats page", f"POST a roll while a phone keeps asking for {what}", statistics.median(times))
        row.p99, row.n = pct(times, 99), len(times)
        row.baseline, row.base_p50 = "the same rolls, nobody asking", statistics.median(alone)
        row.ratio = row.p50 / row.base_p50
        row.note = (
            f"the phone asks again as soon as it is answered ({asked} requests meanwhile); "
            f"rolls 20 ms apart, in {ROUNDS} rounds taken in turns with the other rows; nobody asking p99 "
            f"{pct(alone, 99):.2f} ms"
        )
        if page == "/api/stats":
            control = statistics.median(rolls["/healthz"])
            row.note += f"; against the control's p50 {control:.2f} ms: x{row.p50 / control:.2f}"
        report.add(row)
    report.notes.append(STATS_NOTE)


STATS_NOTE = (
    "stats page: the rolls' rows are the same rolls (20 ms apart, the table's own 1d6) in rounds taken in turns: "
    "nobody asking, a phone asking GET /healthz again as soon as it is answered (the control: what any phone "
    "asking costs a roll, the server's threads sharing one interpreter lock), and a phone asking GET /api/stats "
    "likewise. The game on the table is the last of the games built, a Venus 2140 game, which counts from its "
    "first action: after each roll the Stats page reads that game's new entry, and makes the page again when its "
    "figures move (its length, each second); the requests between two rolls are answered from what is kept"
)


ROUNDS = 4  # the three ways of rolling taken in turns, so a change in the machine's load falls on all three


def _rolls_while_asked(port: int, n: int) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Wall times of ``n`` rolls with nobody asking, ``n`` while another phone keeps asking for ``GET /healthz``
    (the control: what any phone asking costs a roll) and ``n`` while it keeps asking for the Stats page, in
    ``ROUNDS`` rounds taken in turns; and how many requests the asking phone made during each."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    rolls: dict[str, list[float]] = {"nobody asking": [], "/healthz": [], "/api/stats": []}
    requests = dict.fromkeys(rolls, 0)

    def timed(out: list[float], count: int) -> None:
        for _ in range(count):
            start = time.perf_counter()
            _roll(conn)
            out.append((time.perf_counter() - start) * 1000)
            time.sleep(0.02)

    try:
        for _round in range(ROUNDS):
            for page in rolls:
                if page == "nobody asking":
                    timed(rolls[page], n // ROUNDS)
                    continue
                halt = threading.Event()
                other = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

                def asking(page: str = page, other: http.client.HTTPConnection = other, halt=halt) -> None:
                    while not halt.is_set():
                        _get(other, page, gz=True)
                        requests[page] += 1

                thread = threading.Thread(target=asking, daemon=True)
                thread.start()
                timed(rolls[page], n // ROUNDS)
                halt.set()
                thread.join(30)
                other.close()
        return rolls, requests
    finally:
        conn.close()


if __name__ == "__main__":
    import tempfile

    count = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else GAMES
    with tempfile.TemporaryDirectory() as tmp:
        stats_page(Report(), Path(tmp), count)
