"""Issue #17's figures: what the phone page costs, measured with the page's own requests.

- per change: bytes a phone transfers (request and response headers, bodies as sent, its share of the
  event stream) for one action made elsewhere, in Debian's chromium driving the real page
  (``webui/static/app.js``), against the page's former sequence (state, ``actions?brief=1``,
  ``log?after=N``) fetched by the same page after the same change;
- reads under load: 10 phones doing what the page does after each change (an event, then
  ``moment?after=N&base=TAG``) while actions arrive at 5 a second, against the same 10 phones
  doing the former three GETs;
- first load of a long game: bytes and time of a new phone opening a 50,000-action game in chromium,
  the moment request alone timed over loopback, and the server's peak memory, against the former
  first load (the whole log).

Loopback only; bounded loops.

    .venv/bin/python benchmarks/phone_page.py            # 50,000 actions (a few minutes)
    .venv/bin/python benchmarks/phone_page.py --quick    # 5,000 actions, shorter runs

It writes its own section of benchmarks/results.md (``SECTION``), keeping the rest of the file.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.client
import json
import os
import selectors
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from run import CODE, Report, Row, Server, _new_table, open_stream, pct, write_section

SECTION = "## The phone page (benchmarks/phone_page.py)"
# how to read this section's figures (its opening paragraph, after "shared with other work")
ABOUT = (
    "(compare a row with its baseline, not across rows). The page is "
    "`webui/static/app.js` (and its modules, `webui/static/js/`) in Debian's chromium (Playwright), 390x844 "
    "with touch; bytes are Playwright's request "
    "sizes (request and response headers, bodies as sent, gzip accepted) plus the event stream's bytes from the "
    "DevTools protocol. Times in milliseconds unless marked."
)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
ARGS += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
HEADERS = {"Authorization": f"Bearer {CODE}", "Accept": "application/json", "Accept-Encoding": "gzip"}
# The page's former refresh after a change (app.js before the moment route), fetched by the page itself.
FORMER = """async (after) => {
  const o = { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-cache" };
  await Promise.all([fetch("/api/sessions/active", o).then((r) => r.text()),
    fetch("/api/sessions/active/actions?brief=1", o).then((r) => r.text()),
    fetch(`/api/sessions/active/log?after=${after}`, o).then((r) => r.text())]);
}"""
SETTLED = "() => S.inflight === 0 && S.view && S.view.version >= %d"


class Meter:
    """Bytes the page sent and received per request (headers included, bodies as sent), and on the stream."""

    def __init__(self, page) -> None:
        self.done: list = []
        self.stream = 0
        self.streams: set[str] = set()
        page.on("requestfinished", lambda request: self.done.append(request))
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.send("Network.enable")

    def _sent(self, e) -> None:
        if "/api/stream" in e["request"]["url"]:
            self.streams.add(e["requestId"])

    def _data(self, e) -> None:
        if e["requestId"] in self.streams:
            self.stream += e.get("encodedDataLength") or e.get("dataLength") or 0

    def take(self) -> tuple[dict[str, int], int]:
        """(bytes by URL, stream bytes) since the last take."""
        out: dict[str, int] = {}
        for request in self.done:
            s = request.sizes()
            n = s["requestHeadersSize"] + s["requestBodySize"] + s["responseHeadersSize"] + s["responseBodySize"]
            out[request.url] = out.get(request.url, 0) + n
        self.done.clear()
        stream, self.stream = self.stream, 0
        return out, stream


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def _post(port: int, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Authorization": f"Bearer {CODE}", "Content-Type": "application/json"}
        conn.request("POST", "/api/sessions/active/actions", json.dumps(body), headers)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


# -- (a) bytes per change per phone ------------------------------------------------------------------------
def per_change(report: Report, folder: Path, system: str, changes: int) -> None:
    server = Server(folder / f"change-{system}").start()
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": system})
        for _ in range(20):  # a game under way
            c.json("POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d10"})
        c.close()
        with chromium() as browser:
            context = browser.new_context(**PHONE, base_url=f"http://127.0.0.1:{server.port}")
            context.set_default_timeout(30_000)
            page = context.new_page()
            meter = Meter(page)
            page.goto(f"/join?code={CODE}")
            page.wait_for_selector("#link.live")
            page.wait_for_function(SETTLED % 20)
            meter.take()
            new, old, stream, revalidated, former = [], [], [], 0, 0
            for _ in range(changes):
                before = page.evaluate("() => S.lastSeq")
                version = _post(server.port, {"type": "roll", "expr": "2d10"})["version"]
                page.wait_for_function(SETTLED % version)
                page.wait_for_timeout(100)  # nothing else follows
                mine, streamed = meter.take()
                page.evaluate(FORMER, before)
                theirs, _ = meter.take()
                new.append(sum(mine.values()) + streamed)
                old.append(sum(theirs.values()) + streamed)
                stream.append(streamed)
                former += len(theirs)
                revalidated += sum(1 for url, n in theirs.items() if n < 400 and "actions" in url)
                assert all("/moment?" in url for url in mine), mine
            context.close()
        n50, o50 = statistics.median(new), statistics.median(old)
        report.add(
            Row(
                "per change",
                f"bytes one phone transfers per change, {system} (one action from elsewhere; the page in chromium)",
                n50 / 1024,
                max(new) / 1024,
                unit="KB",
                n=changes,
                baseline="the former state + actions?brief=1 + log?after=N, same page, same change",
                base_p50=o50 / 1024,
                ratio=n50 / o50,
                goal="< 2 kB",
                holds=max(new) < 2000,
                note=f"p99 column is the largest; request and response headers included, the change event "
                f"{statistics.median(stream):.0f} B of it; the former actions?brief=1 answered 304 "
                f"{revalidated} times of {changes}",
            )
        )
    finally:
        server.stop()


# -- (b) GET latency with 10 phones following the table -------------------------------------------------
class Phone:
    """One phone following the table: its event stream and its kept-alive connection, as plain sockets.

    It has loaded the page: its connection is open and has shown the code (its first load is measured on
    its own, ``first_load``), so the first GET timed is a read after a change, like every other."""

    def __init__(self, port: int, former: bool, version: int, tag: str) -> None:
        self.former = former
        self.version, self.tag, self.seq = version, tag, version
        self.newest = version  # the newest version an event announced
        self.times: list[float] = []
        self.stream = open_stream(port)
        self.events = b""
        self.conn = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.todo: list[str] = []  # GETs still to send for the change being followed
        self.got = b""  # the answer arriving
        self.sent_at = 0.0
        self._send("/api/sessions/active/moment?after=0")
        while self._answer(self.conn.recv(65536)) is None:
            pass
        self.times.clear()
        self.stream.setblocking(False)
        self.conn.setblocking(False)

    def _send(self, path: str) -> None:
        head = "".join(f"{k}: {v}\r\n" for k, v in HEADERS.items())
        self.got = b""
        self.sent_at = time.perf_counter()
        self.conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{head}\r\n".encode())

    def _answer(self, chunk: bytes) -> bytes | None:
        """Add what arrived; the body once the whole answer is in (timed as its last byte arrives)."""
        if not chunk:
            raise ConnectionError("the server closed a phone's connection")
        self.got += chunk
        head, sep, body = self.got.partition(b"\r\n\r\n")
        if not sep:
            return None
        fields = {k.strip().lower(): v.strip() for k, _, v in (x.partition(b":") for x in head.split(b"\r\n")[1:])}
        if b"content-length" not in fields:  # every answer the page reads here has a length
            raise ValueError(f"an answer without Content-Length: {head[:200]!r}")
        if len(body) < int(fields[b"content-length"]):
            return None
        self.times.append((time.perf_counter() - self.sent_at) * 1000)
        return gzip.decompress(body) if fields.get(b"content-encoding") == b"gzip" else body

    def _follow(self) -> None:
        """After an event: the page's GETs for the newest change, one at a time, as the page sends them."""
        if self.todo or self.newest <= self.version:
            return
        if self.former:
            self.todo = ["/api/sessions/active", "/api/sessions/active/actions?brief=1",
                         f"/api/sessions/active/log?after={self.seq}"]  # fmt: skip
        else:
            self.todo = [f"/api/sessions/active/moment?after={self.seq}&base={self.tag}"]
        self.version = self.newest
        self._send(self.todo[0])

    def on_stream(self) -> None:
        chunk = self.stream.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed a phone's stream")
        self.events += chunk
        while b"\n\n" in self.events:
            frame, self.events = self.events.split(b"\n\n", 1)
            if b"event: change\n" in frame:  # (the stream is chunked: a chunk's size may lead the frame)
                self.newest = max(self.newest, json.loads(frame.split(b"data: ", 1)[1])["version"])
        self._follow()

    def on_answer(self) -> None:
        body = self._answer(self.conn.recv(65536))
        if body is None:
            return
        path = self.todo.pop(0)
        if "/moment" in path:
            m = json.loads(body)
            self.tag, log = m["tag"], m["log"]
            self.version = max(self.version, (m.get("view") or {}).get("version", 0))
        else:
            log = json.loads(body) if "/log" in path else None
        if log:
            self.seq = log[-1]["seq"]
        if self.todo:
            self._send(self.todo[0])
        else:
            self._follow()

    def close(self) -> None:
        self.stream.close()
        self.conn.close()


class Crowd(threading.Thread):
    """Ten phones served by one thread on non-blocking sockets (as a load generator like wrk does).

    Each answer is timed when its last byte arrives; parsing happens after. Ten phones as ten threads of
    one interpreter would queue for its GIL behind each other's parsing and count that wait as the
    server's: a table's phones each have their own processor."""

    def __init__(self, phones: list[Phone]) -> None:
        super().__init__(daemon=True)
        self.phones = phones
        self.stop = threading.Event()
        self.selector = selectors.DefaultSelector()
        for p in phones:
            self.selector.register(p.stream, selectors.EVENT_READ, p.on_stream)
            self.selector.register(p.conn, selectors.EVENT_READ, p.on_answer)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                for key, _ in self.selector.select(0.1):
                    key.data()
        finally:
            self.selector.close()
            for p in self.phones:
                p.close()


def reads_under_load(
    report: Report, folder: Path, seconds: float, phones: int = 10, rate: float = 5.0, rounds: int = 4
) -> None:
    server = Server(folder / "reads").start()
    load = os.getloadavg()[0]
    try:
        c = server.client()
        c.json("POST", "/api/sessions", {"system": "vnm"})
        rows: dict[bool, list[float]] = {True: [], False: []}
        cpu = {True: 0.0, False: 0.0}  # the server's CPU seconds (user + system) while each ran
        changes = {True: 0, False: 0}
        for _ in range(rounds):  # in turns, so both see the same load from other work on the machine
            for former in (True, False):
                first = c.json("GET", "/api/sessions/active/moment?after=0")
                version, tag = first["view"]["version"], first["tag"]
                crowd = Crowd([Phone(server.port, former, version, tag) for _ in range(phones)])
                crowd.start()
                used = _cpu_s(server)
                deadline = time.monotonic() + seconds / rounds
                while time.monotonic() < deadline:
                    c.call("POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d10"})
                    changes[former] += 1
                    time.sleep(1 / rate)
                time.sleep(1)
                cpu[former] += _cpu_s(server) - used
                crowd.stop.set()
                crowd.join(10)
                rows[former] += [t for p in crowd.phones for t in p.times]
        c.close()
        old, new = rows[True], rows[False]
        report.add(
            Row(
                "reads",
                f"GET p99, {phones} phones doing what the page does after each change, actions at {rate:g}/s",
                statistics.median(new),
                pct(new, 99),
                n=len(new),
                baseline="the same phones doing the former state + actions + log",
                base_p50=statistics.median(old),
                ratio=pct(new, 99) / pct(old, 99),
                goal="p99 < 25 ms",
                holds=pct(new, 99) < 25,
                note=f"one GET per phone per change (the former: three, p99 {pct(old, 99):.1f} ms over {len(old)}); "
                f"the two run in turns, {rounds} rounds each; load average (1 min) {load:.1f} before, "
                f"{os.getloadavg()[0]:.1f} after; the server's CPU per change (an action and the phones' reads, "
                f"less swayed by the load) {cpu[False] / changes[False] * 1000:.1f} ms, the former "
                f"{cpu[True] / changes[True] * 1000:.1f} ms",
            )
        )
    finally:
        server.stop()


# -- (c) first load of a long game ----------------------------------------------------------------------------
def _cpu_s(server: Server) -> float:
    """CPU seconds the server process has used (user and system, all its threads)."""
    assert server.proc is not None
    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_mb(server: Server) -> float:
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def first_load(report: Report, folder: Path, count: int, loads: int) -> None:
    server = Server(folder / f"long{count}")
    table = _new_table(server.data, "vnm")
    for _ in range(count):
        table.act({"type": "roll", "expr": "2d10"}, source="api")
    table.store.close()
    server.start()
    try:
        started_mb = _peak_mb(server)
        data, everything, times, walls = [], [], [], []
        with chromium() as browser:
            for _ in range(loads):
                context = browser.new_context(**PHONE, base_url=f"http://127.0.0.1:{server.port}")
                context.set_default_timeout(60_000)
                page = context.new_page()
                meter = Meter(page)
                started = time.perf_counter()
                page.goto(f"/join?code={CODE}")
                page.wait_for_function(SETTLED % count)
                walls.append((time.perf_counter() - started) * 1000)
                shown = page.evaluate("() => S.log.length")
                api = [r for r in meter.done if "/api/" in r.url and "/api/stream" not in r.url]
                spans = [(r.timing["startTime"], r.timing["startTime"] + r.timing["responseEnd"]) for r in api]
                times.append(max(e for _, e in spans) - min(s for s, _ in spans))
                sizes, streamed = meter.take()
                data.append(sum(n for url, n in sizes.items() if "/api/" in url) + streamed)
                everything.append(sum(sizes.values()) + streamed)
                context.close()
        page_mb = _peak_mb(server)
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        moment = [0]

        def get(path: str) -> int:  # as a phone asks: gzip accepted; the bytes as sent
            c.request("GET", path, headers=HEADERS)
            return len(c.getresponse().read())

        def fetch_moment() -> None:
            moment[0] = get("/api/sessions/active/moment?after=0")

        replay = [_timed(fetch_moment) for _ in range(20)]
        whole: list[float] = []
        size = [0]

        def fetch_whole() -> None:
            for path in ("/api/sessions/active", "/api/sessions/active/actions?brief=1", "/api/sessions/active/log"):
                size[0] += get(path)

        for _ in range(3):
            size[0] = 0
            whole.append(_timed(fetch_whole))
        c.close()
        former_mb = _peak_mb(server)
        report.add(
            Row(
                "first load",
                f"bytes a phone transfers opening a {count:,}-action game (the page in chromium: its API requests)",
                statistics.median(data) / 1024,
                max(data) / 1024,
                unit="KB",
                n=loads,
                baseline="the former first load: state, actions and the whole log (gzip, bodies only)",
                base_p50=size[0] / 1024,
                ratio=statistics.median(data) / size[0],
                goal="< 100 kB",
                holds=max(everything) < 100_000,
                note=f"p99 column is the largest; with the page itself (HTML, script, style, icons) "
                f"{max(everything) / 1024:.1f} KB at most; {shown} log entries shown, older ones on request",
            )
        )
        report.add(
            Row(
                "first load",
                f"time of the page's API requests opening a {count:,}-action game (chromium's request timing)",
                statistics.median(times),
                max(times),
                n=loads,
                baseline="the former first load (state, actions, whole log) over loopback",
                base_p50=statistics.median(whole),
                ratio=statistics.median(times) / statistics.median(whole),
                goal="< 300 ms",
                holds=max(times) < 300,
                note=f"p99 column is the largest; navigation to the game drawn {statistics.median(walls):.0f} ms "
                f"(p50, script and style included); the moment alone over loopback p50 "
                f"{statistics.median(replay):.1f} ms, {moment[0] / 1024:.1f} KB",
            )
        )
        report.add(
            Row(
                "first load",
                f"server's peak resident memory after phones opened a {count:,}-action game",
                page_mb,
                None,
                unit="MB",
                baseline="its peak once the former first load ran",
                base_p50=former_mb,
                ratio=page_mb / former_mb,
                goal="flat: as when it started",
                holds=page_mb < started_mb + 20,
                note=f"VmHWM; {started_mb:.0f} MB when ready",
            )
        )
    finally:
        server.stop()


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5,000 actions, shorter runs")
    parser.add_argument("--only", help="comma-separated: change,reads,first")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else {"change", "reads", "first"}
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    report = Report()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tableside-page-") as tmp:
        folder = Path(tmp)
        if "change" in only:
            for system in ("vnm", "venom"):
                per_change(report, folder, system, 10 if args.quick else 30)
        if "reads" in only:
            reads_under_load(report, folder, 8 if args.quick else 40)
        if "first" in only:
            first_load(report, folder, 5_000 if args.quick else 50_000, 3 if args.quick else 5)
    write_section(report, SECTION, "phone_page.py", args.quick, time.perf_counter() - started, ABOUT)
    print(json.dumps({"rows": len(report.rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
