"""Issue #18's figures: a phone under a guests' connection attack, the chart, luck and export of long
games (time and memory), rebuilding a game from its log whatever its undo history, SIGTERM under chart
load, and what restore recovers from a truncated file. Loopback only; short runs.

    .venv/bin/python benchmarks/security.py            # 10,000 and 50,000 actions (a few minutes)
    .venv/bin/python benchmarks/security.py --quick    # 2,000 and 10,000

It writes its own section of benchmarks/results.md (``SECTION``), keeping the rest of the file.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import shutil
import signal
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

from run import AUTH, CODE, ROLL, Report, Row, Server, _fmt, _new_table, pct, write_section

SECTION = "## Security and recovery (benchmarks/security.py)"
# how to read this section's figures (its opening paragraph, after "shared with other work")
ABOUT = (
    "(load average above 6 during these runs: compare a row with its "
    "baseline, not across rows). Times in milliseconds unless marked."
)


# -- a phone while guests hoard connections -------------------------------------------------------
def _phone_ask(port: int) -> float:
    """Seconds until a phone with the code has its answer; a refused or reset connection counts as 30 s."""
    started = time.perf_counter()
    try:
        return _phone_request(port, started)
    except OSError:
        return 30.0


def _phone_request(port: int, started: float) -> float:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.30", 0))
    try:
        sock.sendall(f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    finally:
        sock.close()
    if not reply.startswith(b"HTTP/1.1 200"):
        raise ConnectionError(f"no answer: {reply[:40]!r}")
    return time.perf_counter() - started


class _Guests(threading.Thread):
    """Guests on 127.0.0.2-9 holding 16 idle keep-alive connections each (a /healthz every 20 s, as in
    the review) and slowloris from 127.0.0.11-18 (16 each, a header line a second), reconnecting."""

    def __init__(self, port: int, idle: bool, slow: bool) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.halt = threading.Event()
        self.pools: list[tuple[str, bytes, bytes | None, list[socket.socket]]] = []
        if idle:
            for i in range(2, 10):
                self.pools.append((f"127.0.0.{i}", b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", None, []))
        if slow:
            for i in range(11, 19):
                self.pools.append((f"127.0.0.{i}", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: 1\r\n", []))
        self.opened = 0

    def run(self) -> None:
        tick = 0
        while not self.halt.is_set():
            for source, first, line, socks in self.pools:
                while len(socks) < 16 and not self.halt.is_set():
                    try:
                        sock = socket.create_connection(("127.0.0.1", self.port), 0.5, source_address=(source, 0))
                        sock.sendall(first)
                        sock.setblocking(False)
                    except OSError:
                        break
                    socks.append(sock)
                    self.opened += 1
                for sock in list(socks):
                    try:
                        with contextlib.suppress(BlockingIOError):
                            if sock.recv(65536) == b"":
                                raise ConnectionResetError
                        if line is not None and tick % 5 == 0:
                            sock.sendall(line)
                    except OSError:
                        socks.remove(sock)
                        sock.close()
            tick += 1
            self.halt.wait(0.2)
        for *_, socks in self.pools:
            for sock in socks:
                sock.close()


def phone_under_attack(report: Report, folder: Path, asks: int) -> None:
    server = Server(folder / "attack").start()
    try:
        quiet = [_phone_ask(server.port) * 1000 for _ in range(asks)]
        for name, idle, slow in (
            ("8 guest addresses x 16 idle keep-alive connections", True, False),
            ("slowloris from 8 guest addresses (16 each)", False, True),
            ("both at once", True, True),
        ):
            guests = _Guests(server.port, idle, slow)
            guests.start()
            time.sleep(3)
            waits = []
            for _ in range(asks):
                waits.append(_phone_ask(server.port) * 1000)
                time.sleep(0.1)
            guests.halt.set()
            guests.join(10)
            report.add(
                Row(
                    "availability",
                    f"a phone with the code (new connection) under {name}",
                    statistics.median(waits),
                    pct(waits, 99),
                    baseline="same, no guests",
                    base_p50=statistics.median(quiet),
                    ratio=statistics.median(waits) / statistics.median(quiet),
                    goal="answered within 1 s",
                    holds=max(waits) < 1000,
                    note=f"worst {_fmt(max(waits), 'ms')}; guests opened {guests.opened:,} connections",
                    n=len(waits),
                )
            )
    finally:
        server.stop()


# -- chart, luck and export of a long game ------------------------------------------------------
def _long_game(folder: Path, count: int):
    table = _new_table(folder)
    for _ in range(count):
        table.act(dict(ROLL), source="api")
    return table


def _client(table):
    from tableside.webui.app import Services, create_app

    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: {})
    return create_app(services).test_client()


def _peak_mb(fn) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def heavy_reads(report: Report, folder: Path, counts: tuple[int, ...], rounds: int) -> None:
    for count in counts:
        table = _long_game(folder / f"reads{count}", count)
        routes = {
            "chart": "/api/panel/chart.svg",
            "luck": "/api/panel/luck",
            "export": "/api/sessions/active/export",
        }
        for name, path in routes.items():
            client = _client(table)  # a fresh app: nothing folded yet

            def get(client=client, path=path) -> None:
                r = client.get(path, headers=AUTH, buffered=False)
                assert r.status_code == 200, r.status_code
                for _ in r.iter_encoded():  # read as a phone would, a piece at a time (not kept)
                    pass
                r.close()

            started = time.perf_counter()
            get()
            cold = (time.perf_counter() - started) * 1000
            warm = []
            repeats = rounds if name != "export" else max(3, rounds // 8)  # a whole export is long
            for _ in range(repeats):  # the History tab open: one change, then the phone fetches again
                table.act(dict(ROLL), source="api")
                started = time.perf_counter()
                get()
                warm.append((time.perf_counter() - started) * 1000)
            peak_cold = _peak_mb(lambda path=path, table=table: get(_client(table), path))
            table.act(dict(ROLL), source="api")
            peak_warm = _peak_mb(get)
            incremental = name != "export"
            report.add(
                Row(
                    "heavy reads",
                    f"{name} at {count:,} actions, after each new action"
                    + (" (folded forward from the last look)" if incremental else " (the whole log, streamed)"),
                    statistics.median(warm),
                    pct(warm, 95),
                    baseline="first request (everything folded)",
                    base_p50=cold,
                    ratio=statistics.median(warm) / cold,
                    goal="p95 < 100 ms at 10,000" if count == 10_000 else "",
                    holds=pct(warm, 95) < 100 if count == 10_000 else None,
                    note=f"p99 column is p95; peak extra memory {peak_warm:.1f} MB (first request {peak_cold:.1f} MB)"
                    + ("; goal < 10 MB at 50,000" if count == 50_000 else ""),
                    n=repeats,
                )
            )
        table.store.close()


def resident_memory(report: Report, folder: Path, count: int) -> None:
    """``tableside serve`` on the long game heavy_reads left behind: resident memory after the chart, the
    luck report and an export of the whole log."""
    data = folder / f"reads{count}"
    server = Server(data).start()
    try:
        client = server.client(timeout=300)
        fresh = server.rss_mb()
        for path in ("/api/sessions/active", "/api/panel/chart.svg", "/api/panel/luck", "/api/sessions/active/export"):
            status, _ = client.call("GET", path)
            assert status == 200, (path, status)
        rss = server.rss_mb()
        client.close()
    finally:
        server.stop()
    report.add(
        Row(
            "memory",
            f"resident memory of tableside serve on a {count:,}-action game after its chart, luck and export",
            rss,
            None,
            unit="MB",
            baseline="the same server just started on it",
            base_p50=fresh,
            ratio=rss / fresh,
            goal="< 80 MB at 50,000",
            holds=rss < 80 if count >= 50_000 else None,
        )
    )


# -- slow, stalled and many readers of long answers (issue #33) -------------------------------------
def _with_readers(folder: Path, count: int, make, seconds: float):
    """A ``count``-action game served; the readers ``make(port)`` builds, side by side with a phone."""
    from readers import side_by_side

    data = folder / f"readers{count}"
    _long_game(data, count).close()
    server = Server(data).start()
    try:
        base = [_phone_ask(server.port) * 1000 for _ in range(20)]
        fresh = server.rss_mb()
        readers = make(server.port)
        waits, peak, deleted = side_by_side(server, readers, seconds, _phone_ask)
    finally:
        server.stop()
    shutil.rmtree(data, ignore_errors=True)
    return readers, waits, base, f"peak RSS {peak:.0f} MB (just started {fresh:.0f} MB; goal < 80 MB)", peak, deleted


def slow_export_readers(report: Report, folder: Path, count: int, seconds: float) -> None:
    """4 phones on a long game's export, 2 reading at 64 kB/s and 2 stalled, beside a phone's request."""
    from readers import Reader

    path = "/api/sessions/active/export"
    make = lambda port: [Reader(port, path, 40 + i, 64_000 if i < 2 else 0) for i in range(4)]  # noqa: E731
    readers, waits, base, memory, peak, deleted = _with_readers(folder, count, make, seconds)
    read = sum(r.read for r in readers[:2]) / 1e6
    what = f"4 phones on a {count:,}-action export (2 reading at 64 kB/s, 2 stalled)"
    note = f"{memory}; deleted temp files {deleted:.1f} MB; the slow two read {read:.1f} MB in {seconds:.0f} s"
    _reader_row(report, what, waits, base, note, peak)


def whole_log_readers(report: Report, folder: Path, count: int, seconds: float) -> None:
    """8 phones reading a long game's whole log at once, again and again, beside a phone's request."""
    from readers import Reader

    make = lambda port: [Reader(port, "/api/sessions/active/log", 50 + i, None) for i in range(8)]  # noqa: E731
    readers, waits, base, memory, peak, deleted = _with_readers(folder, count, make, seconds)
    read = sum(r.read for r in readers) / 1e6
    what = f"8 phones reading the whole log of a {count:,}-action game at once"
    whole = sum(r.whole for r in readers)
    note = f"{memory}; {whole} whole logs read ({read:.0f} MB) in {seconds:.0f} s; deleted temp files {deleted:.1f} MB"
    _reader_row(report, what, waits, base, note, peak)


def _reader_row(report: Report, what: str, waits: list[float], base: list[float], note: str, peak: float) -> None:
    report.add(
        Row(
            "slow readers",
            f"a phone with the code (new connection) while {what}",
            statistics.median(waits),
            pct(waits, 99),
            baseline="same server, nobody reading",
            base_p50=statistics.median(base),
            ratio=statistics.median(waits) / statistics.median(base),
            goal="answered within 1 s; server < 80 MB",
            holds=max(waits) < 1000 and peak < 80,
            note=f"worst {_fmt(max(waits), 'ms')}; {note}",
            n=len(waits),
        )
    )


# -- rebuilding from the log with undo/redo pairs ---------------------------------------------------
def reopen_without_states(report: Report, folder: Path, count: int, pairs: tuple[int, ...]) -> None:
    from tableside.core.store import Store
    from tableside.core.table import Table

    base = None
    for k in pairs:
        table = _new_table(folder / f"reopen{k}")
        every = count // (k + 1) if k else count + 1
        for i in range(1, count + 1):
            table.act(dict(ROLL), source="api")
            if i % every == 0 and k:
                table.undo(source="api")
                table.redo(source="api")
        sid = table.view()["id"]
        table.store.drop_snapshots(sid)
        db = table.store.path
        table.store.close()
        times = []
        Table(Store(db)).store.close()  # untimed: the first open in a process pays for imports and caches
        for _ in range(3):
            started = time.perf_counter()
            again = Table(Store(db))
            times.append(time.perf_counter() - started)
            assert again.view()["readonly"] is None
            again.store.close()
        if base is None:
            base = statistics.median(times)
        report.add(
            Row(
                "rebuild",
                f"reopen a {count:,}-action game without stored states, {k} undo/redo pairs",
                statistics.median(times),
                max(times),
                unit="s",
                baseline="0 pairs",
                base_p50=base,
                ratio=statistics.median(times) / base,
                goal="linear: about the same as 0 pairs",
                holds=statistics.median(times) < 2 * base + 0.05,
                note="p99 column: slowest of 3; it doubled with each pair (10 pairs at 50,000 did not finish)",
                n=3,
            )
        )


# -- SIGTERM while phones fetch the chart ------------------------------------------------------------
def sigterm_under_chart_load(report: Report, folder: Path, count: int, runs: int) -> None:
    times = []
    for run in range(runs):
        data = folder / f"stopchart{run}"
        _long_game(data, count).close()
        server = Server(data).start()
        halt = threading.Event()

        def loop(port=server.port, halt=halt) -> None:
            while not halt.is_set():
                with contextlib.suppress(OSError):
                    conn = socket.create_connection(("127.0.0.1", port), timeout=5)
                    conn.sendall(
                        f"GET /api/panel/chart.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n"
                        "Connection: close\r\n\r\n".encode()
                    )
                    while conn.recv(65536):
                        pass
                    conn.close()

        def act(server=server, halt=halt) -> None:
            client = server.client()
            while not halt.is_set():
                with contextlib.suppress(Exception):
                    client.call("POST", "/api/sessions/active/actions", ROLL)

        workers = [threading.Thread(target=loop, daemon=True) for _ in range(4)]
        workers.append(threading.Thread(target=act, daemon=True))
        for w in workers:
            w.start()
        time.sleep(2)
        times.append(server.stop(signal.SIGTERM))
        halt.set()
        for w in workers:
            w.join(10)
    report.add(
        Row(
            "stop",
            f"SIGTERM to exit while 4 guests loop the chart of a {count:,}-action game and a phone acts",
            statistics.median(times),
            max(times),
            unit="s",
            goal="< 2 s",
            holds=max(times) < 2,
            note="p99 column: slowest run",
            n=runs,
        )
    )


# -- restore from a truncated file -------------------------------------------------------------------
def restore_truncated(report: Report, folder: Path, before: int, after: int, cut_pages: int) -> None:
    from tableside import cli
    from tableside.backup import Backups, check_database

    live = folder / "restore-live"
    table = _new_table(live)
    for _ in range(before):
        table.act(dict(ROLL), source="api")
    table.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = folder / "restore-data"
    data.mkdir()
    Backups(live / "tableside.db", folder=data / "backups").make()
    for _ in range(after):
        table.act(dict(ROLL), source="api")
    db = data / "tableside.db"
    shutil.copyfile(live / "tableside.db", db)  # what a kill -9 leaves: the file and its journal
    shutil.copyfile(live / "tableside.db-wal", data / "tableside.db-wal")
    table.store.close()
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size - cut_pages * 4096)
    assert check_database(db) is not None
    started = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        assert cli.main(["restore", "--data", str(data)]) == 0
    took = time.perf_counter() - started
    conn = sqlite3.connect(db)
    entries = conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]
    conn.close()
    recovered = entries - before
    report.add(
        Row(
            "recovery",
            f"entries newer than the backup recovered by restore (file cut by {cut_pages} pages, journal kept)",
            recovered,
            None,
            unit="",
            baseline="acknowledged since the backup",
            base_p50=after,
            ratio=recovered / after,
            goal="every readable one",
            holds=recovered == after,
            note=f"{entries:,} entries after restore; restore took {took:.2f} s; it recovered 0 before",
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 and 10,000 actions, fewer repetitions")
    parser.add_argument(
        "--only", help="comma-separated: attack,reads,rebuild,stop,restore,slowread,wholelog,guess,probes"
    )
    args = parser.parse_args(argv)
    every = {"attack", "reads", "rebuild", "stop", "restore", "slowread", "wholelog", "guess", "probes"}
    only = set(args.only.split(",")) if args.only else every
    counts = (2_000, 10_000) if args.quick else (10_000, 50_000)
    report = Report()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tableside-security-") as tmp:
        folder = Path(tmp)
        if "attack" in only:
            phone_under_attack(report, folder, 10 if args.quick else 20)
        if "reads" in only:
            heavy_reads(report, folder, counts, 20 if args.quick else 40)
            resident_memory(report, folder, counts[-1])
        if "rebuild" in only:
            reopen_without_states(report, folder, counts[0], (0, 5, 10))
        if "stop" in only:
            sigterm_under_chart_load(report, folder, counts[0], 2 if args.quick else 3)
        if "restore" in only:
            restore_truncated(report, folder, 1_000, 200, 3)
        if "slowread" in only:
            slow_export_readers(report, folder, 10_000 if args.quick else 50_000, 10 if args.quick else 30)
        if "wholelog" in only:
            whole_log_readers(report, folder, 10_000 if args.quick else 122_000, 10 if args.quick else 30)
        if "guess" in only:
            from guessing import right_code_during_guessing

            right_code_during_guessing(report, folder, 10 if args.quick else 25)
        if "probes" in only:
            from probes import private_probes

            private_probes(report)
    write_section(report, SECTION, "security.py", args.quick, time.perf_counter() - started, ABOUT)
    print(json.dumps({"rows": len(report.rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
