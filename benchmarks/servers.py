"""Issue #37: the ways to serve the live updates on public APIs only, measured side by side in one run.

Each candidate serves the same Flask app (the real table, systems and routes, no hardware) in a process
of its own on loopback, and is measured in turn with the others:

- ``tableside``: Tableside's own server (``webui/server.py``): asyncio and h11, 2 request workers, a
  stream handed to the hub after its first event;
- ``uvicorn``: uvicorn (h11) serving the Flask app through a2wsgi's WSGI adapter (2 workers), the stream
  a native async ASGI endpoint fed by the same hub (join code and Host checks left out: it only streams);
- ``waitress``: plain waitress, public API only: a stream is the app's blocking generator, so it holds a
  worker; it is given 66 workers (64 streams and two to answer).

Figures: ready (process start to ``/healthz``) against the empty Flask app on the same server
(``benchmarks/empty_app.py``), resident memory, GET p99 with 10 phones at 5 actions a second (the phones
of ``benchmarks/phone_page.py``), streams held with the API answering under 1 s and what the 65th is
told, SIGTERM to exit with the streams open.

    .venv/bin/python benchmarks/servers.py [--quick] [--only tableside,uvicorn]

It writes its own section of benchmarks/results.md (``SECTION``). uvicorn and a2wsgi come with the
``bench`` extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

from phone_page import Crowd, Phone, _cpu_s
from run import CODE, HERE, Report, Row, Server, pct, precompile, write_section

SECTION = "## Server candidates (benchmarks/servers.py)"
ABOUT = (
    "(compare candidates within a row group, measured in turns in one run). Each candidate serves the same "
    "Flask app; times in milliseconds unless marked."
)
CANDIDATES = ("tableside", "uvicorn", "waitress")
STREAMS = 64


# -- the candidates, each in its own process ----------------------------------------------------------------
def build_app(data: Path, broker):
    from tableside.core.store import Store
    from tableside.core.table import Table
    from tableside.webui.app import Services, create_app

    table = Table(Store(data / "tableside.db"), rng=random.Random(1))
    table.subscribe(broker.publish)
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda *_: {}, broker=broker)
    return create_app(services)


def native_stream(broker):
    """``GET /api/stream`` as an ASGI endpoint: the hub's events, written by the event loop."""
    import asyncio
    import json

    from tableside.webui.stream import format_event

    async def disconnected(receive) -> None:
        while (await receive())["type"] != "http.disconnect":  # the request's (empty) body comes first
            pass

    async def stream(scope, receive, send) -> None:
        if not broker.reserve():
            body = json.dumps({"error": "too many open streams", "poll": "/api/sessions/active"}).encode()
            headers = [(b"content-type", b"application/json"), (b"retry-after", b"30")]
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        loop = asyncio.get_running_loop()
        events: asyncio.Queue = asyncio.Queue()

        class Sink:  # webui.stream.Sink: called from the hub's thread
            def push(self, data: bytes) -> bool:
                loop.call_soon_threadsafe(events.put_nowait, data)
                return True

            def end(self, data: bytes) -> None:
                loop.call_soon_threadsafe(events.put_nowait, data)
                loop.call_soon_threadsafe(events.put_nowait, None)

        sink = Sink()
        headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        hello = format_event({"kind": "hello", "version": None}).encode()
        await send({"type": "http.response.body", "body": hello, "more_body": True})
        broker.attach(sink)
        gone = asyncio.ensure_future(disconnected(receive))
        try:
            while True:
                got = asyncio.ensure_future(events.get())
                done, _ = await asyncio.wait({got, gone}, return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    got.cancel()
                    return
                data = got.result()
                if data is None:
                    return
                await send({"type": "http.response.body", "body": data, "more_body": True})
        finally:
            broker.detach(sink)
            gone.cancel()

    return stream


def serve_candidate(name: str, port: int, data: Path) -> None:
    from tableside.webui.stream import Broker

    from tableside.config import ServerLimits

    limits = ServerLimits()
    broker = Broker(max_streams=STREAMS)
    app = build_app(data, broker)
    if name == "tableside":
        from tableside.webui.server import make_server

        server = make_server(app, broker, limits, "127.0.0.1", port)
        signal.signal(signal.SIGTERM, lambda *_: server.stop_soon())
        server.run()
    elif name == "uvicorn":
        import uvicorn
        from a2wsgi import WSGIMiddleware

        wsgi = WSGIMiddleware(app, workers=limits.threads)
        stream = native_stream(broker)

        async def asgi(scope, receive, send) -> None:
            if scope["type"] == "http" and scope["path"] == "/api/stream":
                await stream(scope, receive, send)
            else:
                await wsgi(scope, receive, send)

        config = uvicorn.Config(
            asgi, host="127.0.0.1", port=port, lifespan="off", log_level="warning", timeout_graceful_shutdown=1
        )
        uvicorn.Server(config).run()
        broker.close()
    elif name == "waitress":
        from waitress import serve

        signal.signal(signal.SIGTERM, lambda *_: (broker.close(), sys.exit(0)))
        serve(app, host="127.0.0.1", port=port, threads=STREAMS + 2, channel_timeout=30)
    else:
        raise SystemExit(f"no candidate {name!r}: {', '.join(CANDIDATES)}")


# -- measuring ---------------------------------------------------------------------------------------------
BEFORE = "waitress-hub"  # the server before issue #37 (waitress subclassed), from another checkout: --before
PYTHON = {name: sys.executable for name in CANDIDATES}


def command(name: str, kind: str = "serve") -> list[str]:
    """The candidate's process: ``servers.py serve NAME PORT DATA`` (``empty`` for the empty Flask app). The
    server before #37 is that checkout's own ``webui.server``, run by its venv's Python as "tableside"."""
    return [PYTHON[name], str(HERE / "servers.py"), kind, "tableside" if name == BEFORE else name]


def _get(port: int, path: str, timeout: float) -> tuple[int, float, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    began = time.perf_counter()
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {CODE}"})
        response = conn.getresponse()
        body = response.read()
        took = time.perf_counter() - began
        hint = {"poll": b'"poll"' in body, "retry": response.getheader("Retry-After")}
        return response.status, took, hint
    finally:
        conn.close()


def _stream(port: int, timeout: float) -> socket.socket | None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
    seen = b""
    with contextlib.suppress(OSError):
        while b"event: hello" not in seen:
            chunk = sock.recv(4096)
            if not chunk:
                break
            seen += chunk
    if b"event: hello" in seen:
        return sock
    sock.close()
    return None


def ready_rows(report: Report, wanted: list[str], folder: Path, runs: int) -> None:
    """Start to ready of the empty Flask app and of the Tableside app on each candidate, all in turns."""
    empty: dict[str, list[float]] = {name: [] for name in wanted}
    full: dict[str, list[float]] = {name: [] for name in wanted}
    cpu: dict[tuple[str, str], list[float]] = {}  # the process's CPU until ready: what a busy machine moves least
    for i in range(runs):
        for name in wanted:
            for times, kind in ((empty[name], "empty"), (full[name], "serve")):
                server = Server(folder / f"{name}-{kind}{i}", command=command(name, kind))
                times.append(server.start().ready_s)
                cpu.setdefault((name, kind), []).append(_cpu_s(server))
                server.stop()
    for name in wanted:
        for what, base, mine, goal in (
            ("ready (start to /healthz)", empty[name], full[name], True),
            ("CPU until ready (user + system, 10 ms ticks)", cpu[name, "empty"], cpu[name, "serve"], False),
        ):
            ratio = statistics.median(mine) / statistics.median(base)
            report.add(
                Row(
                    name,
                    f"{name}: {what}, the Tableside app",
                    statistics.median(mine),
                    max(mine),
                    unit="s",
                    n=runs,
                    baseline="empty Flask app, same server",
                    base_p50=statistics.median(base),
                    ratio=ratio,
                    goal="within x1.2" if goal else "",
                    holds=ratio <= 1.2 if goal else None,
                    note="p99 column: slowest run; every candidate's runs in turns",
                )
            )


def follow(server: Server, seconds: float) -> tuple[list[float], int]:
    """10 phones following the table while actions arrive at 5 a second: each answer's time, and the changes."""
    c = server.client()
    first = c.json("GET", "/api/sessions/active/moment?after=0")
    crowd = Crowd([Phone(server.port, False, first["view"]["version"], first["tag"]) for _ in range(10)])
    crowd.start()
    deadline = time.monotonic() + seconds
    changes = 0
    while time.monotonic() < deadline:
        c.call("POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d10"})
        changes += 1
        time.sleep(1 / 5)
    time.sleep(1)
    crowd.stop.set()
    crowd.join(10)
    c.close()
    return [t for p in crowd.phones for t in p.times], changes


def load_rows(report: Report, wanted: list[str], folder: Path, seconds: float, rounds: int) -> None:
    """Every candidate up at once; the phones follow each in turn, ``rounds`` times."""
    servers = {name: Server(folder / name, command=command(name)).start() for name in wanted}
    try:
        fresh = {name: server.rss_mb() for name, server in servers.items()}
        idle: dict[str, list[float]] = {name: [] for name in wanted}
        times: dict[str, list[float]] = {name: [] for name in wanted}
        changes = dict.fromkeys(wanted, 0)
        used = dict.fromkeys(wanted, 0.0)
        for server in servers.values():
            server.client().json("POST", "/api/sessions", {"system": "vnm"})
        for _ in range(rounds):
            for name, server in servers.items():
                idle[name] += [_get(server.port, "/api/sessions/active", 5)[1] * 1000 for _ in range(20)]
                before = _cpu_s(server)
                got, made = follow(server, seconds / rounds)
                used[name] += _cpu_s(server) - before
                times[name] += got
                changes[name] += made
        for name in wanted:
            report.add(
                Row(
                    name,
                    f"{name}: GET p99, 10 phones following the table, actions at 5/s",
                    statistics.median(times[name]),
                    pct(times[name], 99),
                    n=len(times[name]),
                    baseline="GET state, idle",
                    base_p50=statistics.median(idle[name]),
                    ratio=pct(times[name], 99) / statistics.median(idle[name]),
                    goal="p99 < 25 ms",
                    holds=pct(times[name], 99) < 25,
                    note=f"{changes[name]} changes in {rounds} rounds taken in turns with the other candidates; "
                    "each phone reads the moment after each event; the server's CPU per change (an action and "
                    f"10 phones' reads, less swayed by the load) {used[name] / changes[name] * 1000:.1f} ms",
                )
            )
        for name, server in servers.items():
            streams_rows(report, name, server, fresh[name])
    finally:
        for server in servers.values():
            server.stop()


def streams_rows(report: Report, name: str, server: Server, fresh: float) -> None:
    held, socks, slowest = 0, [], 0.0
    for _ in range(STREAMS):
        sock = _stream(server.port, 2.0)
        if sock is None:
            break
        socks.append(sock)
        try:
            status, took, _ = _get(server.port, "/api/sessions/active", 1.0)
        except OSError:
            break
        if status != 200 or took > 1.0:
            break
        slowest = max(slowest, took)
        held += 1
    try:
        status, _, hint = _get(server.port, "/api/stream", 2.0)
        told = f"{status}{' with the polling hint' if hint['poll'] else ''}"
    except OSError as exc:
        told = f"no answer ({type(exc).__name__})"
    with_streams = server.rss_mb()
    report.add(
        Row(
            name,
            f"{name}: streams held, the API answering under 1 s",
            held,
            None,
            unit="",
            goal=f"{STREAMS}, the next told to poll",
            holds=held == STREAMS and told.startswith("503 with"),
            note=f"the next stream: {told}; slowest GET meanwhile {slowest * 1000:.0f} ms",
        )
    )
    report.add(
        Row(
            name,
            f"{name}: resident memory with {held} streams open",
            with_streams,
            None,
            unit="MB",
            baseline="fresh",
            base_p50=fresh,
            ratio=with_streams / fresh,
        )
    )
    stopped = server.stop()
    for sock in socks:
        sock.close()
    report.add(
        Row(
            name,
            f"{name}: SIGTERM to exit with {held} streams open",
            stopped,
            None,
            unit="s",
            goal="< 2 s",
            holds=stopped < 2,
        )  # fmt: skip
    )


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["serve"]:  # a candidate's own process: serve NAME PORT DATA
        serve_candidate(sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))
        return 0
    if argv is None and sys.argv[1:2] == ["empty"]:  # the empty Flask app on a candidate: empty NAME PORT DATA
        import empty_app

        empty_app.serve(sys.argv[2], int(sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--only", default="", help="comma-separated candidates (default: all)")
    parser.add_argument("--before", help=f"a venv's python whose checkout has the old server: adds {BEFORE!r}")
    args = parser.parse_args(argv)
    wanted = [c for c in args.only.split(",") if c] or list(CANDIDATES)
    if args.before:
        PYTHON[BEFORE] = args.before
        wanted.append(BEFORE)
    report = Report()
    report.notes.append(precompile())
    started = time.perf_counter()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="tableside-servers-") as tmp:
        for part, rows in (
            ("ready", lambda: ready_rows(report, wanted, Path(tmp) / "ready", 3 if args.quick else 5)),
            (
                "load",
                lambda: load_rows(report, wanted, Path(tmp) / "load", 8 if args.quick else 32, 2 if args.quick else 4),
            ),
        ):
            try:
                rows()
            except Exception as exc:  # one part failing must not lose the other's figures
                report.add(Row(part, f"{part}: failed", note=f"{type(exc).__name__}: {exc}"))
    took = time.perf_counter() - started
    conditions = f"(load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end) {ABOUT}"
    write_section(report, SECTION, "servers.py", args.quick, took, conditions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
