"""Tableside benchmarks: one command, a table on stdout, ``benchmarks/results.md`` written.

    .venv/bin/python benchmarks/run.py            # everything (a few minutes)
    .venv/bin/python benchmarks/run.py --quick    # fewer repetitions, for a smoke run
    .venv/bin/python benchmarks/run.py --no-pi    # skip the CPU-quota ("Pi-sized") run

Every figure is a median and a p99 over many repetitions, next to a baseline
measured in the same run on the same machine, and the ratio between them.
Servers are real ``tableside serve --simulate`` processes on loopback. The
"Pi-sized" run puts the server in a cgroup with 12% of one core (``cpu.max``
or ``cpu.cfs_quota_us``) where the machine allows it, and says so when not.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TABLESIDE = str(Path(sys.executable).with_name("tableside"))
CODE = "BENCH42"
AUTH = {"Authorization": f"Bearer {CODE}", "Content-Type": "application/json"}
ROLL = {"type": "roll", "expr": "5d6cs>=4"}


# -- statistics ------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Row:
    section: str
    what: str
    p50: float | None = None
    p99: float | None = None
    unit: str = "ms"
    baseline: str = ""
    base_p50: float | None = None
    ratio: float | None = None
    goal: str = ""
    holds: bool | None = None
    note: str = ""
    n: int = 0


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        print(_line(row), flush=True)
        return row


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}".strip()


def _line(row: Row) -> str:
    verdict = {True: "yes", False: "NO", None: "-"}[row.holds]
    return (
        f"{row.section:<14} {row.what:<58} p50 {_fmt(row.p50, row.unit):>11}  p99 {_fmt(row.p99, row.unit):>11}"
        f"  x{_fmt(row.ratio):>6} vs {row.baseline:<30} goal: {row.goal:<28} {verdict}"
    )


def timed(fn: Callable[[], object], n: int, warmup: int = 5) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


# -- servers ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A ``tableside serve --simulate`` process, optionally inside a CPU-quota cgroup."""

    def __init__(
        self,
        data: Path,
        cgroup: CpuQuota | None = None,
        config: str = "",
        empty: bool = False,
        bin: Path | None = None,
        command: list[str] | None = None,
        simulate: bool = True,
        env: dict[str, str] | None = None,
    ) -> None:
        self.simulate = simulate  # False: the config's display (benchmarks/pi_render.py: inky on stand-in SPI)
        self.extra_env = env or {}
        self.empty = empty  # the empty Flask app (benchmarks/empty_app.py) instead of tableside serve
        self.command = command  # another server process, run as COMMAND PORT DATA (benchmarks/servers.py)
        self.bin = bin  # another venv's bin/ (an installed copy), else this one's
        self.data = data
        self.port = free_port()
        self.cgroup = cgroup
        self.config = config
        self.proc: subprocess.Popen | None = None
        self.ready_s = 0.0
        self.started = 0.0

    def start(self) -> Server:
        self.data.mkdir(parents=True, exist_ok=True)
        argv = [
            str(self.bin / "tableside") if self.bin else TABLESIDE,
            "serve",
            *(["--simulate"] if self.simulate else []),
            "--data",
            str(self.data),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]
        if self.empty:
            argv = [
                str(self.bin / "python") if self.bin else sys.executable,
                str(HERE / "empty_app.py"),
                str(self.port),
            ]
        if self.command:
            argv = [*self.command, str(self.port), str(self.data)]
        if self.config:
            cfg = self.data.parent / f"bench-{self.port}.toml"
            cfg.write_text(self.config)
            argv += ["--config", str(cfg)]
        if self.cgroup:  # join the cgroup before exec, so start-up is measured under the quota too
            argv = ["sh", "-c", f'echo $$ > "{self.cgroup.procs}" && exec "$@"', "sh", *argv]
        env = {**os.environ, "TABLESIDE_JOIN_CODE": CODE, **self.extra_env}
        started = self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tableside serve exited with {self.proc.returncode}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    self.ready_s = time.perf_counter() - started
                    conn.close()
                    return self
            except OSError:
                time.sleep(0.01)
        raise RuntimeError("tableside serve did not become ready in 60 s")

    def client(self, timeout: float = 30) -> Client:
        return Client(self.port, timeout)

    def hardware_up(self, started: float | None = None, timeout: float = 60) -> float:
        """Seconds from start until /api/hardware reports the display and buttons up."""
        c = self.client()
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                status, raw = c.call("GET", "/api/hardware")
                if status == 200 and json.loads(raw).get("buttons") not in (None, "starting"):
                    return time.perf_counter() - (started if started is not None else self.started)
                time.sleep(0.02)
        finally:
            c.close()
        raise RuntimeError("the display and buttons did not come up")

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self, sig: int = signal.SIGTERM) -> float:
        """Signal it; returns seconds until it exited."""
        assert self.proc is not None
        started = time.perf_counter()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        return time.perf_counter() - started


class Client:
    """One keep-alive connection, like a phone's browser."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.port = port
        self.timeout = timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        data = json.dumps(body) if body is not None else None
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=AUTH)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: dict | None = None):
        status, raw = self.call(method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path} -> {status}: {raw[:200]!r}")
        return json.loads(raw)

    def close(self) -> None:
        self.conn.close()


def open_stream(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
    seen = b""
    while b"event: hello" not in seen:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError(f"stream refused: {seen[:200]!r}")
        seen += chunk
    return sock


class Drain(threading.Thread):
    """Reads a stream like a phone would, counting bytes."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(daemon=True)
        self.sock = sock
        self.bytes = 0

    def run(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := self.sock.recv(65536):
                self.bytes += len(chunk)


# -- CPU quota -------------------------------------------------------------------------------
class CpuQuota:
    """A cgroup with a share of one core (v2 ``cpu.max`` or v1 ``cpu.cfs_quota_us``)."""

    def __init__(self, share: float, tag: str = "") -> None:
        self.share = share
        self.tag = tag  # two cgroups at once (a server and its render worker) need two names
        self.path: Path | None = None
        self.procs: Path | None = None
        self.why_not = ""

    def __enter__(self) -> CpuQuota:
        name = f"tableside-bench-{os.getpid()}{self.tag}"
        period = 100_000
        candidates = [
            (Path("/sys/fs/cgroup"), "v2"),
            (Path("/sys/fs/cgroup/unified"), "v2"),
            (Path("/sys/fs/cgroup/cpu"), "v1"),
            (Path("/sys/fs/cgroup/cpu,cpuacct"), "v1"),
        ]
        errors = []
        for base, kind in candidates:
            path = base / name
            try:
                if kind == "v2":
                    if "cpu" not in (base / "cgroup.controllers").read_text().split():
                        continue
                    path.mkdir()
                    (path / "cpu.max").write_text(f"{int(period * self.share)} {period}")
                else:
                    if not (base / "cpu.cfs_quota_us").exists():
                        continue
                    path.mkdir()
                    (path / "cpu.cfs_period_us").write_text(str(period))
                    (path / "cpu.cfs_quota_us").write_text(str(int(period * self.share)))
                self.path, self.procs = path, path / "cgroup.procs"
                return self
            except OSError as exc:
                errors.append(f"{base}: {exc.strerror or exc}")
                with contextlib.suppress(OSError):
                    path.rmdir()
        self.why_not = "; ".join(errors) or "no writable cgroup with a cpu controller"
        return self

    def __exit__(self, *exc) -> None:
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.rmdir()


# -- sections --------------------------------------------------------------------------------
class BareInsert:
    """The baseline: one INSERT with the same durability as the store (WAL, synchronous=FULL)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(folder / "bare.db"), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute(
            "CREATE TABLE log (session_id TEXT, seq INTEGER, action TEXT, result TEXT, PRIMARY KEY (session_id, seq))"
        )
        self.payload = json.dumps({**ROLL, "faces": [1, 2, 3, 4, 5]})
        self.result = json.dumps({"summary": "5d6cs>=4: 2 successes", "rolls": [1, 2, 3, 4, 5]})
        self.seq = 0

    def __call__(self) -> None:
        self.seq += 1
        self.conn.execute("INSERT INTO log VALUES ('s', ?, ?, ?)", (self.seq, self.payload, self.result))

    def close(self) -> None:
        self.conn.close()


def interleaved(fns: list[Callable[[], object]], n: int, warmup: int = 5) -> list[list[float]]:
    """Time each function n times, taking turns, so disk and machine noise hit them alike."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    out: list[list[float]] = [[] for _ in fns]
    for _ in range(n):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            out[i].append((time.perf_counter() - start) * 1000)
    return out


def _new_table(folder: Path, system: str = "venom"):
    from tableside.core.store import Store
    from tableside.core.table import Table

    table = Table(Store(folder / "tableside.db"), rng=random.Random(1))
    options = {"players": ["Ann", "Bob"]} if system == "venom" else None
    try:
        table.create_session(system, options)
    except Exception:
        table.create_session(system)
    return table


def action_path(report: Report, folder: Path, n: int) -> None:
    bare = BareInsert(folder / "bare")
    table = _new_table(folder / "inproc")
    statements: list[str] = []
    table.store.conn.set_trace_callback(statements.append)
    table.act(dict(ROLL), source="api")
    per_append = len(statements)
    table.store.conn.set_trace_callback(None)
    position, state = table.position(), table.current_state()
    assert position is not None and state is not None
    entry = next(table.store.entries(position[0], after=position[1] - 1))
    appended = [10**6]

    def append() -> None:  # the log write alone: one action's entry, as Table.act writes it
        appended[0] += 1
        table.store.append("bench", appended[0], entry, state)

    base, log_only, inproc = interleaved([bare, append, lambda: table.act(dict(ROLL), source="api")], n)
    table.store.close()
    base50 = statistics.median(base)
    report.add(
        Row(
            "action path",
            "bare sqlite3 INSERT (WAL, synchronous=FULL)",
            base50,
            pct(base, 99),
            baseline="itself",
            base_p50=base50,
            ratio=1.0,
            n=n,
        )
    )
    a50 = statistics.median(log_only)
    report.add(
        Row(
            "action path",
            f"in-process append of one action's log entry (Store.append; {per_append} SQL statement)",
            a50,
            pct(log_only, 99),
            baseline="bare INSERT (interleaved)",
            base_p50=base50,
            ratio=a50 / base50,
            goal="within 2x of bare INSERT",
            holds=a50 <= 2 * base50,
            n=n,
        )
    )
    p50 = statistics.median(inproc)
    report.add(
        Row(
            "action path",
            "in-process Table.act (roll: check, roll, rules, laws, append)",
            p50,
            pct(inproc, 99),
            baseline="bare INSERT (interleaved)",
            base_p50=base50,
            ratio=p50 / base50,
            goal="within 2x of bare INSERT",
            holds=p50 <= 2 * base50,
            n=n,
        )
    )

    server = Server(folder / "http").start()
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
        base2, health, post = interleaved(
            [
                bare,
                lambda: c.call("GET", "/healthz"),
                lambda: c.call("POST", "/api/sessions/active/actions", dict(ROLL)),
            ],
            n,
        )
        b50, h50, p50 = statistics.median(base2), statistics.median(health), statistics.median(post)
        report.add(
            Row(
                "action path",
                "GET /healthz over HTTP (keep-alive)",
                h50,
                pct(health, 99),
                baseline="bare INSERT (interleaved)",
                base_p50=b50,
                ratio=h50 / b50,
                n=n,
            )
        )
        ratio = (p50 - h50) / b50
        report.add(
            Row(
                "action path",
                "POST one action over HTTP (ratio after subtracting GET /healthz)",
                p50,
                pct(post, 99),
                baseline="bare INSERT (interleaved)",
                base_p50=b50,
                ratio=ratio,
                goal="(POST - healthz) within 3x",
                holds=ratio <= 3,
                n=n,
            )
        )
        c.close()
    finally:
        server.stop()
    empty = Server(folder / "empty", empty=True).start()
    try:
        c = empty.client()
        base3, health, echo = interleaved(
            [bare, lambda: c.call("GET", "/healthz"), lambda: c.call("POST", "/echo", dict(ROLL))], n
        )
        b50, h50, e50 = statistics.median(base3), statistics.median(health), statistics.median(echo)
        report.add(
            Row(
                "action path",
                "an empty Flask app: JSON POST answered with a state-sized body "
                "(ratio after subtracting its GET /healthz)",
                e50,
                pct(echo, 99),
                baseline="bare INSERT (interleaved)",
                base_p50=b50,
                ratio=(e50 - h50) / b50,
                note=f"its GET /healthz p50 {h50:.3g} ms: Flask's own cost of a POST, no table",
                n=n,
            )
        )
        c.close()
    finally:
        empty.stop()
        bare.close()


def reads_with_phones(report: Report, folder: Path, n: int, phones: int = 10, rate: float = 5.0) -> None:
    server = Server(folder / "reads").start()
    stop = threading.Event()
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
        idle = timed(lambda: c.call("GET", "/api/sessions/active"), n)
        streams = [open_stream(server.port) for _ in range(phones)]
        drains = [Drain(s) for s in streams]
        for d in drains:
            d.start()

        def writer() -> None:
            w = server.client()
            while not stop.is_set():
                w.call("POST", "/api/sessions/active/actions", dict(ROLL))
                stop.wait(1 / rate)
            w.close()

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        state = timed(lambda: c.call("GET", "/api/sessions/active"), n)
        status, _ = c.call("GET", "/api/sessions/active/actions")
        actions = timed(lambda: c.call("GET", "/api/sessions/active/actions"), n) if status == 200 else []
        stop.set()
        t.join(10)
        i50 = statistics.median(idle)
        report.add(
            Row(
                "reads",
                "GET state, idle (no streams, no writes)",
                i50,
                pct(idle, 99),
                baseline="itself",
                base_p50=i50,
                ratio=1.0,
                n=n,
            )
        )
        s50, s99 = statistics.median(state), pct(state, 99)
        report.add(
            Row(
                "reads",
                f"GET state, {phones} streams open, actions at {rate:g}/s",
                s50,
                s99,
                baseline="GET state idle",
                base_p50=i50,
                ratio=s50 / i50,
                goal="p99 < 25 ms",
                holds=s99 < 25,
                n=n,
            )
        )
        if actions:
            a50, a99 = statistics.median(actions), pct(actions, 99)
            report.add(
                Row(
                    "reads",
                    f"GET available actions, {phones} streams, {rate:g} actions/s",
                    a50,
                    a99,
                    baseline="GET state idle",
                    base_p50=i50,
                    ratio=a50 / i50,
                    goal="p99 < 25 ms",
                    holds=a99 < 25,
                    n=n,
                )
            )
        else:
            report.add(Row("reads", "GET available actions", note=f"route answers {status}: not measured"))
        for s in streams:
            s.close()
        c.close()
    finally:
        stop.set()
        server.stop()


def reconnect_storm(report: Report, folder: Path, open_streams: int = 50, storm: int = 20) -> None:
    server = Server(folder / "storm").start()
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
        base = timed(lambda: c.call("GET", "/api/sessions/active"), 100)
        streams = [open_stream(server.port) for _ in range(open_streams)]
        waits: list[float] = []
        hello: list[float] = []
        done = threading.Event()

        def asker() -> None:
            a = server.client()
            while not done.is_set():
                start = time.perf_counter()
                a.call("GET", "/api/sessions/active")
                waits.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                a.call("POST", "/api/sessions/active/actions", dict(ROLL))
                waits.append((time.perf_counter() - start) * 1000)
            a.close()

        def reconnect(i: int) -> None:
            streams[i].close()
            start = time.perf_counter()
            streams[i] = open_stream(server.port)
            hello.append((time.perf_counter() - start) * 1000)

        askers = [threading.Thread(target=asker, daemon=True) for _ in range(2)]
        for t in askers:
            t.start()
        for _round in range(5):
            threads = [threading.Thread(target=reconnect, args=(i,)) for i in range(storm)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            time.sleep(0.2)
        done.set()
        for t in askers:
            t.join(30)
        b50 = statistics.median(base)
        worst = max(waits + hello)
        report.add(
            Row(
                "reconnect",
                f"GET/POST during 5 storms of {storm} reconnects ({open_streams} streams)",
                statistics.median(waits),
                pct(waits, 99),
                baseline="GET state, no streams",
                base_p50=b50,
                ratio=statistics.median(waits) / b50,
                goal="no request waits > 1 s",
                holds=worst < 1000,
                note=f"worst {worst:.0f} ms",
                n=len(waits),
            )
        )
        report.add(
            Row(
                "reconnect",
                "a reconnecting phone until its first event",
                statistics.median(hello),
                pct(hello, 99),
                baseline="GET state, no streams",
                base_p50=b50,
                ratio=statistics.median(hello) / b50,
                goal="< 1 s",
                holds=max(hello) < 1000,
                n=len(hello),
            )
        )
        for s in streams:
            s.close()
        c.close()
    finally:
        server.stop()


def startup_and_memory(report: Report, folder: Path, runs: int, counts: tuple[int, ...]) -> None:
    bare = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - start)
    ready, empty = [], []
    for i in range(runs):
        server = Server(folder / f"start{i}").start()
        ready.append(server.ready_s)
        server.stop()
        server = Server(folder / f"empty{i}", empty=True).start()
        empty.append(server.ready_s)
        server.stop()
    b50, r50, e50 = statistics.median(bare), statistics.median(ready), statistics.median(empty)
    report.add(
        Row(
            "start-up",
            "an empty Flask app under the same server to ready (benchmarks/empty_app.py)",
            e50,
            max(empty),
            unit="s",
            baseline="python -c pass",
            base_p50=b50,
            ratio=e50 / b50,
            note="p99 column: slowest run",
            n=runs,
        )
    )
    report.add(
        Row(
            "start-up",
            "tableside serve --simulate to ready (/healthz answers)",
            r50,
            max(ready),
            unit="s",
            baseline="empty Flask app",
            base_p50=e50,
            ratio=r50 / e50,
            goal="< 1.5 s",
            holds=r50 < 1.5,
            note="p99 column: slowest run",
            n=runs,
        )
    )

    server = Server(folder / "memory").start()
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
        fresh = server.rss_mb()
        done = 0
        rss = {}
        per_action = {}
        for target in counts:
            lat = []
            while done < target:
                start = time.perf_counter()
                c.call("POST", "/api/sessions/active/actions", dict(ROLL))
                lat.append((time.perf_counter() - start) * 1000)
                done += 1
            rss[target] = server.rss_mb()
            per_action[target] = statistics.median(lat[-200:])
        for target in counts:
            goal = "< 80 MB" if target == counts[0] else f"flat after {counts[0]:,}"
            holds = rss[target] < 80 if target == counts[0] else rss[target] - rss[counts[0]] < 10
            report.add(
                Row(
                    "memory",
                    f"resident memory after {target:,} actions",
                    rss[target],
                    None,
                    unit="MB",
                    baseline="fresh server",
                    base_p50=fresh,
                    ratio=rss[target] / fresh,
                    goal=goal,
                    holds=holds,
                )
            )
        first = per_action[counts[0]]
        for target in counts:
            report.add(
                Row(
                    "memory",
                    f"POST p50 over the last 200 actions before {target:,}",
                    per_action[target],
                    None,
                    baseline=f"same at {counts[0]:,}",
                    base_p50=first,
                    ratio=per_action[target] / first,
                    goal="flat as the log grows",
                    holds=per_action[target] < 1.5 * first + 0.5,
                )
            )
        c.close()
    finally:
        stopped = server.stop()
    report.add(Row("stop", "SIGTERM to exit (idle server)", stopped, None, unit="s", goal="< 2 s", holds=stopped < 2))


def stop_with_streams(report: Report, folder: Path, runs: int = 3) -> None:
    times = []
    for i in range(runs):
        server = Server(folder / f"stop{i}").start()
        streams = [open_stream(server.port) for _ in range(20)]
        times.append(server.stop())
        for s in streams:
            s.close()
    report.add(
        Row(
            "stop",
            "SIGTERM to exit with 20 streams open",
            statistics.median(times),
            max(times),
            unit="s",
            goal="< 2 s",
            holds=max(times) < 2,
            note="p99 column: slowest run",
            n=runs,
        )
    )


def long_games(report: Report, folder: Path, counts: tuple[int, ...]) -> None:
    from tableside.core.store import Store
    from tableside.core.table import Table

    for count in counts:
        path = folder / f"long{count}"
        table = _new_table(path)
        session = table.view()["id"]
        lat = []
        for i in range(count):
            start = time.perf_counter()
            table.act(dict(ROLL), source="api")
            if i >= count - 200:
                lat.append((time.perf_counter() - start) * 1000)
        table.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        table.store.close()
        db = path / "tableside.db"
        size = db.stat().st_size
        fresh = folder / f"empty{count}"
        _new_table(fresh).store.close()
        empty = (fresh / "tableside.db").stat().st_size
        per = (size - empty) / count
        report.add(
            Row(
                "long games",
                f"database bytes per action at {count:,} actions (VENOM rolls)",
                per,
                None,
                unit="B",
                baseline="empty database",
                base_p50=empty,
                ratio=None,
                goal="flat, < 1 KB",
                holds=per < 1024,
            )
        )
        report.add(
            Row(
                "long games",
                f"Table.act p50 over the last 200 of {count:,}",
                statistics.median(lat),
                pct(lat, 99),
                goal="flat as the log grows",
            )
        )
        reopen = []
        for _ in range(5):
            start = time.perf_counter()
            t = Table(Store(db))
            reopen.append((time.perf_counter() - start) * 1000)
            t.store.close()
        report.add(
            Row(
                "long games",
                f"reopen a {count:,}-action session",
                statistics.median(reopen),
                max(reopen),
                goal="< 300 ms at 10,000",
                holds=statistics.median(reopen) < 300,
            )
        )
        import tracemalloc

        t = Table(Store(db))
        start = time.perf_counter()
        t.replay(session)
        took = (time.perf_counter() - start) * 1000  # timed without tracemalloc, which slows Python several-fold
        tracemalloc.start()
        t.replay(session)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        t.store.close()
        report.add(
            Row(
                "long games",
                f"replay {count:,} actions from the log alone (peak {peak:.1f} MB)",
                took,
                None,
                goal="< 1 s at 10,000, flat memory",
                holds=took < 1000,
                note=f"peak {peak:.1f} MB",
            )
        )

    # Per-change traffic per phone, over HTTP, at the largest count.
    count = counts[-1]
    server = Server(folder / f"traffic{count}")
    # Build the history in-process first (fast), then serve it.
    table = _new_table(server.data)
    for _ in range(count):
        table.act(dict(ROLL), source="api")
    table.store.close()
    server.start()
    try:
        c = server.client()
        version = c.json("GET", "/api/sessions/active")["version"]
        c.call("POST", "/api/sessions/active/actions", dict(ROLL))
        status, paged = c.call("GET", f"/api/sessions/active/log?since={version}")
        _, state = c.call("GET", "/api/sessions/active")
        _, full = c.call("GET", "/api/sessions/active/log")
        paged_ok = status == 200 and len(paged) < len(full) / 10
        per_change = len(state) + (len(paged) if paged_ok else len(full))
        report.add(
            Row(
                "long games",
                f"per-change traffic per phone at {count:,} actions (state + new log)",
                per_change / 1024,
                None,
                unit="KB",
                baseline="whole log refetched",
                base_p50=(len(state) + len(full)) / 1024,
                ratio=per_change / (len(state) + len(full)),
                goal="< 5 kB",
                holds=per_change < 5000,
                note="" if paged_ok else "no log paging: the whole log is refetched",
            )
        )
        c.close()
    finally:
        server.stop()


def dice(report: Report, n: int) -> None:
    """n d6 through core.dice with its default generator (SystemRandom), 100 dice per roll."""
    from tableside.core import dice as core_dice

    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        rng.randint(1, 6)
    base = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(n // 100):
        core_dice.roll("100d6")
    took = time.perf_counter() - start
    report.add(
        Row(
            "dice",
            f"{n:,} d6 from the default generator (SystemRandom, 100 per roll)",
            took,
            None,
            unit="s",
            baseline="random.Random().randint loop",
            base_p50=base,
            ratio=took / base,
        )
    )


def pi_sized(report: Report, folder: Path, n: int, share: float = 0.12) -> None:
    with CpuQuota(share) as quota:
        if quota.procs is None:
            report.add(Row("pi-sized", "CPU quota run", note=f"not possible here: {quota.why_not}"))
            report.notes.append(f"Pi-sized run skipped: {quota.why_not}")
            return
        empty, runs, up, again = [], [], [], []
        starts = 7  # start-up under a quota is noisy (100 ms quota periods): a median of seven, taken in turns
        for i in range(starts):
            server = Server(folder / f"empty{i}", cgroup=quota, empty=True).start()
            empty.append(server.ready_s)
            server.stop()
            server = Server(folder / f"pi{i}", cgroup=quota).start()
            runs.append(server.ready_s)
            up.append(server.hardware_up())
            if i < starts - 1:
                server.stop()
        try:
            c = server.client(timeout=60)
            c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})

            def paced_roll() -> None:  # a busy table: two actions a second, not a flood
                time.sleep(0.5)
                start = time.perf_counter()
                c.call("POST", "/api/rolls", {"expr": "5d6cs>=4"})
                post.append((time.perf_counter() - start) * 1000)

            post: list[float] = []
            for _ in range(n):
                paced_roll()
            health = timed(lambda: c.call("GET", "/healthz"), n, warmup=3)
            state = timed(lambda: c.call("GET", "/api/sessions/active"), n, warmup=3)
            png = []
            for _ in range(max(5, n // 10)):
                c.call("POST", "/api/rolls", {"expr": "2d6"})
                start = time.perf_counter()
                c.call("GET", "/display.png")
                png.append((time.perf_counter() - start) * 1000)
            version = c.json("GET", "/api/sessions/active")["version"]
            c.close()
        finally:
            server.stop()
        for _ in range(starts):  # a restart mid-game (a power blip): the same folder, a game of that many actions
            restarted = Server(server.data, cgroup=quota)
            restarted.start()
            again.append(restarted.ready_s)
            restarted.stop()
    r50, e50, a50 = statistics.median(runs), statistics.median(empty), statistics.median(again)
    label = f"{share:.0%} of one core"
    report.add(
        Row(
            "pi-sized",
            f"an empty Flask app under the same server to ready, under {label}",
            e50,
            max(empty),
            unit="s",
            note="p99 column: slowest run; the floor for any Flask app",
            n=len(empty),
        )
    )
    for when, times, t50 in (
        ("a new data folder", runs, r50),
        (f"restart mid-game, {version} actions in the log", again, a50),
    ):
        report.add(
            Row(
                "pi-sized",
                f"ready under {label} ({when})",
                t50,
                max(times),
                unit="s",
                baseline="empty Flask app",
                base_p50=e50,
                ratio=t50 / e50,
                goal="< 2 s",
                holds=t50 < 2,
                note="p99 column: slowest run",
                n=len(times),
            )
        )
    report.add(
        Row(
            "pi-sized",
            f"display and buttons up under {label} (a new data folder)",
            statistics.median(up),
            max(up),
            unit="s",
            baseline="ready",
            base_p50=r50,
            ratio=statistics.median(up) / r50,
            note="they start once the panel answers",
            n=len(up),
        )
    )
    h50 = statistics.median(health)
    p50 = statistics.median(post)
    report.add(Row("pi-sized", f"GET /healthz under {label}", h50, pct(health, 99), n=n))
    report.add(
        Row(
            "pi-sized",
            f"POST a roll (2 a second), durable and acknowledged, under {label}",
            p50,
            pct(post, 99),
            baseline="GET /healthz (same quota)",
            base_p50=h50,
            ratio=p50 / h50,
            goal="p50 < 30 ms",
            holds=p50 < 30,
            note=f"max {max(post):.0f} ms",
            n=n,
        )
    )
    report.add(
        Row(
            "pi-sized",
            f"GET state under {label}",
            statistics.median(state),
            pct(state, 99),
            baseline="GET /healthz (same quota)",
            base_p50=h50,
            ratio=statistics.median(state) / h50,
            n=n,
        )
    )
    report.add(
        Row(
            "pi-sized",
            f"GET /display.png after a change under {label}",
            statistics.median(png),
            pct(png, 99),
            baseline="GET /healthz (same quota)",
            base_p50=h50,
            ratio=statistics.median(png) / h50,
            n=len(png),
        )
    )


# -- output ----------------------------------------------------------------------------------------
LOAD_AT_START: tuple[float, float, float] | None = None


def machine() -> list[str]:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB RAM"
    return [
        f"- Run at {datetime.now(UTC).isoformat(timespec='seconds')} on {platform.system()} {platform.release()} "
        f"({platform.machine()})",
        f"- CPU: {cpu}, {os.cpu_count()} logical cores available; {mem}",
        f"- Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}",
        f"- Load average (1, 5, 15 min) at the start: {LOAD_AT_START}, at the end: {os.getloadavg()}; other work "
        "on the machine shows up in the p99 columns and in the baselines measured beside them",
    ]


# results.md's sections from the first of these headings on are other scripts' (security.py, mutation.py)
KEEP_FROM = ("## Security and recovery", "## Mutation testing")
TABLE_HEAD = [
    "| section | measure | p50 | p99 | n | baseline | baseline p50 | ratio | goal | holds | note |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]


def markdown_row(r: Row) -> str:
    """One row of a results.md table (``TABLE_HEAD``'s columns)."""
    verdict = {True: "yes", False: "**no**", None: ""}[r.holds]
    return (
        f"| {r.section} | {r.what} | {_fmt(r.p50, r.unit)} | {_fmt(r.p99, r.unit)} | {r.n or ''} | "
        f"{r.baseline} | {_fmt(r.base_p50, r.unit if r.baseline else '')} | "
        f"{'x' + _fmt(r.ratio) if r.ratio is not None else ''} | {r.goal} | {verdict} | {r.note} |"
    )


def write_section(report: Report, section: str, script: str, quick: bool, took: float, conditions: str) -> None:
    """Write another script's own ``section`` of results.md, keeping the rest of the file.

    Rows of an earlier run this one did not measure (a run with ``--only``) stay, in their order; a new
    section goes before the mutation-testing one. ``conditions`` follows "shared with other work" in the
    section's opening paragraph: how to read its figures.
    """
    lines = [
        section,
        "",
        f"Written by `.venv/bin/python benchmarks/{script}{' --quick' if quick else ''}` (last run "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {took:.0f} s; rows of sections not rerun are kept), "
        f"loopback only, on the machine above, shared with other work {conditions}",
        "",
        *TABLE_HEAD,
    ]
    fresh = {r.what: markdown_row(r) for r in report.rows}
    out = HERE / "results.md"
    text = out.read_text() if out.exists() else ""
    head, found, rest = text.partition(section)
    kept = {}
    for line in rest.split("\n## ")[0].splitlines() if found else []:
        cells = line.split(" | ")
        if line.startswith("| ") and len(cells) > 2 and cells[1] not in ("measure", "---"):
            kept[cells[1]] = fresh.pop(cells[1], line)
    lines += [*kept.values(), *fresh.values()]
    tail = ""
    if found:
        nxt = rest.find("\n## ")
        tail = rest[nxt:] if nxt >= 0 else ""
    else:
        head, mark, after = text.partition("## Mutation testing")
        tail = (mark + after) if mark else ""
    out.write_text(head.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n" + ("\n" + tail.lstrip("\n") if tail else ""))


def write_markdown(report: Report, args: argparse.Namespace, took: float) -> Path:
    out = HERE / "results.md"
    lines = [
        "# Tableside benchmark results",
        "",
        "Written by `.venv/bin/python benchmarks/run.py` (see benchmarks/README.md). Times in milliseconds "
        "unless marked; p50 is the median, p99 the 99th percentile of the repetitions (n). Each ratio is "
        "against the baseline named beside it, measured in the same run on the same machine.",
        "",
        *machine(),
        f"- Mode: {'quick' if args.quick else 'full'}{f', only {args.only}' if args.only else ''}; "
        f"whole run took {took:.0f} s",
        "",
        *TABLE_HEAD,
    ]
    text = out.read_text() if out.exists() else ""
    if args.only:  # a partial run keeps the rows it did not measure again (two sections share "stop")
        ran = {r.what for r in report.rows}
        for line in text.split("\n## ")[0].splitlines():
            cells = line.split(" | ")
            if line.startswith("| ") and not line.startswith(("| section", "|---")) and cells[1] not in ran:
                lines.append(line)
    lines += [markdown_row(r) for r in report.rows]
    notes = [f"- {n}" for n in report.notes]
    if args.only:  # the notes that explain the kept rows stay too (not the last partial run's own line)
        before = text.split("\n## Notes\n", 1)[1].split("\n## ", 1)[0] if "\n## Notes\n" in text else ""
        notes += [n for n in before.splitlines() if n.startswith("- ") and not n.startswith("- a partial run")]
        notes = list(dict.fromkeys(notes))
    if notes:
        lines += ["", "## Notes", "", *notes]
    starts = [i for i in (text.find(heading) for heading in KEEP_FROM) if i >= 0]
    if starts:  # figures other scripts write (benchmarks/security.py, mutation.py) stay
        lines += ["", text[min(starts) :].rstrip("\n")]
    out.write_text("\n".join(lines) + "\n")
    return out


def precompile() -> str:
    """Byte-compile Tableside's own modules, as ``pip install`` does on the Pi (install.sh).

    An editable checkout run with PYTHONDONTWRITEBYTECODE (set on some build machines) would
    otherwise compile every module at every start: 50 ms of CPU, most of a second at 12% of a core.
    """
    import compileall

    ok = all(
        compileall.compile_dir(str(ROOT / name), quiet=2)
        for name in ("core", "device", "display", "webui", "tableside")
    )
    return (
        "Tableside's modules were byte-compiled first, as pip does at install"
        if ok
        else ("byte-compiling Tableside's modules failed: start-up figures include compiling them")
    )


def rules_search(report: Report, n: int) -> None:
    """The rulebooks' search against a plain count(*) on its database (benchmarks/rules_search.py)."""
    from rules_search import rules_search as measured

    measured(report, n)


def stats_page(report: Report, folder: Path, quick: bool) -> None:
    """The Stats page at 500 finished games, its server CPU against GET /healthz (benchmarks/stats_page.py)."""
    from stats_page import stats_page as measured

    measured(report, folder, n=30 if quick else 100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--no-pi", action="store_true", help="skip the CPU-quota run")
    parser.add_argument("--only", default="", help="comma-separated sections to run (default: all)")
    args = parser.parse_args(argv)
    n = 100 if args.quick else 500
    counts = (1000, 2000) if args.quick else (1000, 10000)
    sections: dict[str, Callable[[Report, Path], None]] = {
        "action": lambda r, f: action_path(r, f, n),
        "reads": lambda r, f: reads_with_phones(r, f, n),
        "storm": lambda r, f: reconnect_storm(r, f),
        "startup": lambda r, f: startup_and_memory(r, f, 3 if args.quick else 7, counts),
        "stop": lambda r, f: stop_with_streams(r, f),
        "long": lambda r, f: long_games(r, f, counts),
        "dice": lambda r, f: dice(r, 100_000 if args.quick else 1_000_000),
        "pi": lambda r, f: pi_sized(r, f, 30 if args.quick else 100),
        "rules": lambda r, f: rules_search(r, n),
        "stats": lambda r, f: stats_page(r, f, args.quick),
    }
    wanted = [s for s in args.only.split(",") if s] or list(sections)
    if "page" in wanted:  # it was a section here: the same goals, measured without the page itself
        raise SystemExit("the phone page is measured by benchmarks/phone_page.py (the page itself, in chromium)")
    if args.no_pi and "pi" in wanted:
        wanted.remove("pi")
    global LOAD_AT_START
    LOAD_AT_START = os.getloadavg()
    compiled = precompile()
    report = Report()
    report.notes.append(compiled)
    if args.only:
        report.notes.append(f"a partial run ({args.only}): the rows of the other sections are from the previous run")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tableside-bench-") as tmp:
        for name in wanted:
            try:
                sections[name](report, Path(tmp) / name)
            except Exception as exc:  # one broken section must not lose the others' figures
                report.add(Row(name, "section failed", note=f"{type(exc).__name__}: {exc}"))
    path = write_markdown(report, args, time.perf_counter() - started)
    print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
