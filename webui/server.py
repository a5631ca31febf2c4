"""Tableside's HTTP server: asyncio and h11 (public APIs only), set up for an appliance on a shared Wi-Fi.

One event loop accepts and reads every socket; h11 parses and frames HTTP/1.1; a few request worker
threads run the Flask app (WSGI) and send each answer themselves as far as the socket takes it
(``webui.wire``). Why not waitress or uvicorn (the candidates are measured side by side in
``benchmarks/servers.py``, the choice in docs/architecture.md): neither offers, through a public API, what
the table needs below, and waitress answers only with a worker held per stream.

- **Streams do not hold worker threads.** A ``GET /api/stream`` runs as a normal request (join code,
  Host, the stream count) and sends its first event; then the connection is handed to the stream hub
  (``webui.stream``), which writes later events from its own thread through the loop. A detached
  connection stays readable, so a phone that leaves is seen at once (end of file) and its slot freed.
- **A slow reader never holds a worker.** A worker sends what the socket takes at once and leaves the
  rest to the loop, which sends it as fast as the phone reads (an export, a game's log); the worker takes
  the next request. The hub writes events the same way.
- **Slow clients are cut off.** A request whose headers and body are not in within ``header_timeout``
  seconds is closed; idle keep-alive connections close after ``channel_timeout``; one address may hold
  at most ``per_client_connections`` (loopback excepted: that is the table itself); past
  ``connection_limit`` the server stops accepting until one closes.
- **Bodies are small and never spooled to disk.** A body over ``max_request_body_size`` is refused
  before it is read; headers are capped with ``max_request_header_size``. The server's own refusals
  answer ``{"error": ...}`` like every other error.
- **Phones with the code keep their connections.** A connection is a guest's until a request on it
  shows the join code (the app calls ``environ[TRUST_KEY]()``). Guests share ``guest_connections`` at
  most: a newcomer makes room by closing the guest connection least worth keeping (never one being
  answered, never one whose bytes are still unread: a phone's request may be waiting for the loop), and a
  guest connection idle or slow for ``guest_idle`` seconds is closed.
- **Stop is quick.** Streams get their "bye", workers get a second, every connection is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http import HTTPStatus
from urllib.parse import unquote_to_bytes

import h11
from tableside.webui.limits import ServerLimits
from tableside.webui.stream import Broker
from tableside.webui.wire import PIPELINED, StreamSink, Wire, Workers

log = logging.getLogger(__name__)

DETACH_KEY = "tableside.detach"  # environ[DETACH_KEY](attach, release): hand this connection to the hub
TRUST_KEY = "tableside.trust"  # environ[TRUST_KEY](): this connection showed the join code
PIECE = 64 * 1024  # a worker hands a long answer to the loop in pieces of about this size
BACKLOG = 256 * 1024  # bytes waiting for a slow phone past which its answer is parked (no worker held)
RESUME = 64 * 1024  # ... and made on again once the phone has read down to this
SLICE = 256 * 1024  # bytes of a long answer made per turn of a worker: new requests go before the next
STOP_WAIT = 1.0  # seconds a stopping server gives busy workers (a systemd stop must end in under 2 s)


class Connection:
    """One client connection: h11 reads its requests; each complete one goes to a worker, which writes the
    answer itself. ``lock`` keeps h11's state one thread's at a time (the loop reading, a worker answering)."""

    def __init__(self, server: ApplianceServer, sock: socket.socket, addr: tuple) -> None:
        self.server = server
        self.limits = server.limits
        self.addr = addr
        self.client = addr[0] if addr else ""
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=self.limits.max_request_header_size)
        self.lock = threading.Lock()
        self.closed = False
        self.busy = False  # a worker is answering
        self.detached = False  # the stream hub writes to it
        self.trusted = False  # a request on it showed the join code
        self.heard = False  # bytes of it were read: until then nobody can tell a phone from a guest
        self.created = self.last_activity = time.monotonic()
        self.request_began: float | None = None
        self.served = 0
        self.paused = False  # reading paused: pipelined bytes came while a worker answers
        self.sink: StreamSink | None = None
        self.request: h11.Request | None = None
        self.body = bytearray()
        self.status_code = 0  # of the answer being written
        self.unsent = (-1, 0.0)  # bytes waiting for the client, and since when that number stands
        self.wire = Wire(server, sock, self)
        server.connections.add(self)

    # -- the wire (on the loop) ---------------------------------------------------------------------
    def connection_lost(self, exc) -> None:
        self.closed = True
        self.server.forget(self)
        sink, self.sink = self.sink, None
        if sink is not None:
            self.server.broker.detach(sink)

    def data_received(self, data: bytes) -> None:
        self.last_activity = time.monotonic()
        self.heard = True
        if self.detached:  # a request sent behind a stream: refused in words, as the stream's last event
            if data.strip():
                self.refuse_pipelined()
            return
        with self.lock:
            if self.request_began is None and self.h11.their_state is h11.IDLE:
                self.request_began = self.last_activity
            self.h11.receive_data(data)
            if self.busy and not self.paused:  # no pipelined requests pile up while one is answered
                self.paused = True
                self.wire.pause_reading()
            self.next_request()

    def eof_received(self) -> bool:
        """True: keep the connection until the answer a worker is making is written."""
        if self.detached or not self.busy:
            return False
        with self.lock:
            self.h11.receive_data(b"")
        return True

    # -- requests -----------------------------------------------------------------------------------
    def next_request(self) -> None:
        """Read events until a request is complete (then a worker takes it) or more bytes are needed."""
        while not self.busy and not self.closed and not self.detached:
            try:
                event = self.h11.next_event()
            except h11.RemoteProtocolError as exc:
                self.refuse(exc.error_status_hint, str(exc))
                return
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return
            if isinstance(event, h11.Request):
                if not self.take_request(event):
                    return
            elif isinstance(event, h11.Data):
                self.body += event.data
                if len(self.body) > self.limits.max_request_body_size:
                    self.refuse(413)
                    return
            elif isinstance(event, h11.EndOfMessage):
                self.request_began = None
                self.busy = True
                self.served += 1
                self.server.workers.submit(Answer(self, self.request, bytes(self.body)).run)
                return
            elif isinstance(event, h11.ConnectionClosed):
                self.close()
                return

    def take_request(self, request: h11.Request) -> bool:
        self.request, self.body, self.status_code = request, bytearray(), 0
        size = len(request.method) + len(request.target) + sum(len(k) + len(v) + 4 for k, v in request.headers)
        if size > self.limits.max_request_header_size:  # h11's own bound holds only for a head still arriving
            self.refuse(431)
            return False
        length = next((v for k, v in request.headers if k == b"content-length"), None)
        if length is not None and int(length) > self.limits.max_request_body_size:
            self.refuse(413)
            return False
        if self.h11.they_are_waiting_for_100_continue:
            self.wire.write(self.h11.send(h11.InformationalResponse(status_code=100, headers=[])))
        return True

    def refuse(self, status: int, detail: str = "") -> None:
        """The server's own refusal, as JSON like the app's, in the phone's language (the request's
        Accept-Language, when its head arrived); the connection closes after it."""
        from tableside.webui.i18n import server_words  # the catalogs only once a request is refused

        message = server_words(self.request, status, detail, self.limits.max_request_body_size // 1024)
        body = json.dumps({"error": message}).encode()
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        self.wire.write(head.encode() + body)
        self.close()

    # -- answers (from the worker) ------------------------------------------------------------------
    def answer(self, status: str | None, headers: list, data: bytes, done: bool, detach) -> None:
        """Write what a worker produced: the head (first time), body bytes, and the end when ``done``; the
        next request (or the hub taking a stream over) is the loop's."""
        with self.lock:
            self._answer(status, headers, data, done, detach)

    def _answer(self, status: str | None, headers: list, data: bytes, done: bool, detach) -> None:
        if self.closed:
            if done and detach is not None:
                detach[1]()  # the stream's slot, reserved by the app
            return
        try:
            out = b""
            if status is not None:
                code, _, reason = status.partition(" ")
                self.status_code = int(code)
                out += self.h11.send(h11.Response(status_code=int(code), headers=headers, reason=reason.encode()))
            if data and self.request.method != b"HEAD":  # a HEAD's answer is its head alone
                out += self.h11.send(h11.Data(data=data))
            if done and detach is not None and self.request.method == b"HEAD":  # a HEAD stream: its head alone
                detach, release = None, detach[1]
                release()
            if done and detach is not None and self.status_code == 200:
                self.wire.write(out)
                if not self.server.soon(self.hand_over, detach[0]):
                    detach[1]()
                return
            if done:
                if detach is not None:
                    detach[1]()
                out += self.h11.send(h11.EndOfMessage())
            self.wire.write(out)
        except h11.LocalProtocolError as exc:  # e.g. more bytes than its Content-Length said
            log.warning("closing a connection: the answer broke HTTP (%s)", exc)
            if detach is not None:
                detach[1]()
            self.server.soon(self.close)
            return
        if done:
            self.server.soon(self.finished)

    def finished(self) -> None:
        """On the loop, once an answer is written: the next request on this connection."""
        with self.lock:
            self._finished()

    def _finished(self) -> None:
        self.busy = False
        if self.server.guest(self):
            self.server.trim_guests()  # room may have been made past the cap while every guest was busy
        if self.h11.our_state is h11.MUST_CLOSE or self.h11.their_state in (h11.MUST_CLOSE, h11.CLOSED):
            self.close()
            return
        try:
            self.h11.start_next_cycle()
        except h11.LocalProtocolError:  # the client's request was not read to its end
            self.close()
            return
        self.last_activity = time.monotonic()
        if self.paused:
            self.paused = False
            self.wire.resume_reading()
        self.next_request()

    def hand_over(self, attach: Callable[[StreamSink], None]) -> None:
        """The answer was a stream: from now on the hub writes its events (chunked, never ended by h11)."""
        self.busy = False
        self.detached = True
        self.sink = StreamSink(self, self.limits.stream_backlog, chunked=self.h11.their_http_version == b"1.1")
        if self.paused:  # keep reading, so a phone that leaves is seen at once
            self.paused = False
            self.wire.resume_reading()
        attach(self.sink)
        if self.h11.trailing_data[0].strip():  # a request came behind the stream's before it was handed over
            self.refuse_pipelined()

    def refuse_pipelined(self) -> None:
        """A request sent behind a stream on its connection is never answered there: the stream ends with
        an event saying why (it cannot be told apart from the events in any other way), then closes."""
        sink = self.sink
        if sink is not None:
            self.server.broker.detach(sink)
            sink.end(PIPELINED)

    def end_stream(self) -> None:
        self.sink = None  # the hub has already forgotten it
        self.close()

    def close(self) -> None:
        """On the loop: close after what is written is sent."""
        if not self.closed:
            self.closed = True
            self.server.forget(self)
            self.wire.close()


class Answer:
    """One request run by the WSGI app on a worker thread; what it writes is handed to the loop."""

    def __init__(self, connection: Connection, request: h11.Request, body: bytes) -> None:
        self.connection = connection
        self.request = request
        self.body = body
        self.status: str | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.detach: tuple[Callable, Callable] | None = None
        self.head_handed = False  # the answer's status line is on its way: a failure now can only close
        self.result: object = None  # the app's iterable, closed once the answer ends or the phone leaves
        self.chunks: Iterator[bytes] = iter(())

    def environ(self) -> dict:
        c, r = self.connection, self.request
        target = r.target
        if target.startswith((b"http://", b"https://")):  # absolute form: the path is after the authority
            target = b"/" + target.split(b"/", 3)[3] if target.count(b"/") >= 3 else b"/"
        path, _, query = target.partition(b"?")
        host, port = c.server.host, c.server.effective_port
        environ = {
            "REQUEST_METHOD": r.method.decode("ascii"),
            "SCRIPT_NAME": "",
            "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
            "QUERY_STRING": query.decode("latin-1"),
            "SERVER_NAME": host,
            "SERVER_PORT": str(port),
            "SERVER_PROTOCOL": f"HTTP/{r.http_version.decode('ascii')}",
            "SERVER_SOFTWARE": "tableside",
            "REMOTE_ADDR": c.client,
            "REMOTE_PORT": str(c.addr[1]) if len(c.addr) > 1 else "",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(self.body),
            "wsgi.input_terminated": True,
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
            DETACH_KEY: self._request_detach,
            TRUST_KEY: self._trust,
        }
        for name, value in r.headers:
            if b"_" in name:  # X-Foo_Bar would pose as X-Foo-Bar in the environ: dropped, as waitress does
                continue
            key = name.decode("latin-1").upper().replace("-", "_")
            key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"
            text = value.decode("latin-1")
            environ[key] = f"{environ[key]},{text}" if key in environ else text
        if self.body or "CONTENT_LENGTH" in environ:
            environ["CONTENT_LENGTH"] = str(len(self.body))
        return environ

    def _trust(self) -> None:
        self.connection.trusted = True

    def _request_detach(self, attach: Callable, release: Callable[[], None]) -> None:
        self.detach = (attach, release)

    def start_response(self, status: str, headers: list, exc_info=None):
        if exc_info is not None and self.head_handed:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status = status
        self.headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        return self._write_now

    def _write_now(self, data: bytes) -> None:  # WSGI's legacy write(): sent as a piece of its own
        self._hand(data, done=False)

    def _hand(self, data: bytes, done: bool) -> None:
        status, self.status = self.status, None  # the head goes once, with the first bytes
        detach = self.detach if done else None
        if status is None and not data and not done:
            return
        self.head_handed = self.head_handed or status is not None
        self.connection.answer(status, self.headers, data, done, detach)

    def run(self) -> None:
        try:
            self.result = self.connection.server.app(self.environ(), self.start_response)
        except Exception:
            log.exception("the app failed")
            self._fail()
            return
        self.chunks = iter(self.result)
        if self.request.method == b"HEAD":  # its head alone: the body is never made
            self.chunks = iter(())
        self.pump()

    def pump(self) -> None:
        """Make the answer, a piece at a time, while the phone keeps up. Past ``BACKLOG`` bytes waiting for
        it, the answer is parked and this worker is free: the loop hands the rest to a worker again once
        the phone has read down to ``RESUME`` (a slow or stalled reader holds no worker and no memory)."""
        c = self.connection
        pending: list[bytes] = []
        size = made = 0
        if c.closed:  # it left while the answer was parked
            self._close_result()
            return
        try:
            for chunk in self.chunks:
                if chunk:
                    pending.append(chunk)
                    size += len(chunk)
                if size >= PIECE:
                    self._hand(b"".join(pending), done=False)
                    made, pending, size = made + size, [], 0
                    if c.closed:  # the phone left (or was cut off): the rest is never made
                        self._close_result()
                        return
                    if c.wire.when_drained(RESUME, BACKLOG, self._resume):
                        return
                    if made >= SLICE:  # new requests first: the rest is made after them
                        self._resume()
                        return
            self._hand(b"".join(pending), done=True)
        except Exception:
            log.exception("the app failed while answering")
            self._fail()
        self._close_result()

    def _resume(self) -> None:
        """From the loop: the phone read what was waiting (or left); a worker makes the next pieces."""
        self.connection.server.workers.submit(self.pump, later=True)

    def _close_result(self) -> None:
        result, self.result = self.result, None
        if result is not None and hasattr(result, "close"):
            try:
                result.close()  # an export's or a log's own connection to the database is closed here
            except Exception:
                log.exception("closing an answer")

    def _fail(self) -> None:
        c = self.connection
        if self.detach is not None:
            self.detach[1]()
            self.detach = None
        if self.head_handed:
            c.server.soon(c.close)
            return
        from tableside.webui.i18n import server_words

        body = json.dumps({"error": server_words(self.request, 500)}).encode()
        self.status = "500 Internal Server Error"
        self.headers = [(b"Content-Type", b"application/json"), (b"Content-Length", b"%d" % len(body))]
        self._hand(body, done=True)


def _eviction_order(c: Connection) -> tuple[int, float]:
    """Which guest connection goes first to make room: a request dribbling in (slowloris) oldest first,
    then a kept-alive connection idle the longest, and last a new one that has not spoken yet (a phone's
    first request may be a moment away)."""
    if c.request_began is not None:
        return (0, c.request_began)
    if c.served:
        return (1, c.last_activity)
    return (2, c.created)


class ApplianceServer:
    """The listening socket, the event loop, the workers and the limits."""

    def __init__(self, app, broker: Broker, limits: ServerLimits, host: str, port: int) -> None:
        self.app = app
        self.broker = broker
        self.limits = limits
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.listener = socket.create_server((host, port), family=family, backlog=1024, reuse_port=False)
        self.listener.setblocking(False)
        self.effective_port: int = self.listener.getsockname()[1]
        self.connections: set[Connection] = set()
        self.workers = Workers(limits.threads)
        self.loop = asyncio.new_event_loop()
        self._stopping: asyncio.Event | None = None
        self._tasks: list[asyncio.Future] = []
        self._room = asyncio.Event()
        self._done = False

    @property
    def at_connection_limit(self) -> bool:
        """True while ``connection_limit`` connections are open: new ones wait in the listen backlog."""
        return len(self.connections) >= self.limits.connection_limit

    def soon(self, fn: Callable, *args) -> bool:
        """Run ``fn(*args)`` on the loop, from any thread; False when the loop is gone."""
        try:
            self.loop.call_soon_threadsafe(fn, *args)
            return True
        except RuntimeError:  # the loop is closed: the server has stopped
            return False

    def forget(self, c: Connection) -> None:
        self.connections.discard(c)
        self._room.set()

    def run(self) -> None:
        """Serve until ``stop_soon()`` (or an exception such as KeyboardInterrupt), then close everything."""
        try:
            self.loop.run_until_complete(self._serve())
        finally:
            self.close_all()

    def stop_soon(self) -> None:
        """From another thread or a signal handler: stop serving; ``run()`` closes every connection and returns."""
        self.soon(lambda: self._stopping is not None and self._stopping.set())

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        self._tasks = [asyncio.ensure_future(self._accept()), asyncio.ensure_future(self._maintain())]
        await self._stopping.wait()

    async def _accept(self) -> None:
        while True:
            while self.at_connection_limit:
                self._room.clear()
                await self._room.wait()
            conn, addr = await self.loop.sock_accept(self.listener)
            if not self._admit(addr):
                conn.close()
                continue
            with contextlib.suppress(OSError):  # gone before it was taken in
                conn.setblocking(False)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                Connection(self, conn, addr)
            await asyncio.sleep(0)  # read what came on the open connections before the next accept

    def _admit(self, addr) -> bool:
        client = addr[0] if isinstance(addr, tuple) else ""
        if client in self.limits.trusted_clients:
            return True
        held = sum(1 for c in self.connections if c.client == client)
        if held >= self.limits.per_client_connections:
            log.warning("refused a connection from %s: it already holds %d", client, held)
            return False
        self.trim_guests(room_for=1)
        return True

    def guest(self, c: Connection) -> bool:
        return not c.trusted and c.client not in self.limits.trusted_clients

    def trim_guests(self, room_for: int = 0) -> None:
        """A connection is a guest's until it shows the code: past ``guest_connections - room_for`` guests,
        those least worth keeping (``_eviction_order``) are closed. Never one a worker is answering, and
        never one whose bytes are still unread (a phone's request waiting for the loop's turn): those are
        read first. When every guest is busy a newcomer is taken in past the cap (it may be a phone; the
        connection limit still holds), and the cap is restored as their answers end."""
        keep = self.limits.guest_connections - room_for
        guests = [c for c in self.connections if self.guest(c) and not c.detached]
        if len(guests) <= keep:
            return
        for c in guests:
            if not c.heard and not c.busy:
                c.wire.read_now()  # what it sent decides: a request with the code makes it busy (and trusted)
        guests = [c for c in guests if not c.closed and self.guest(c)]
        idle = sorted((c for c in guests if not c.busy), key=_eviction_order)
        for c in idle[: max(0, len(guests) - keep)]:
            c.close()

    async def _maintain(self) -> None:
        while True:
            await asyncio.sleep(self.limits.cleanup_interval)
            now = time.monotonic()
            for c in list(self.connections):
                if self._overdue(c, now):
                    c.close()

    def _overdue(self, c: Connection, now: float) -> bool:
        """Slow (a request dribbling in), silent (never spoke), idle past its timeout, or not reading."""
        unsent = c.wire.get_write_buffer_size()
        if unsent != c.unsent[0]:
            c.unsent = (unsent, now)
        if unsent and now - c.unsent[1] > self.limits.channel_timeout:
            return True  # an answer (parked, or still being made) or a stream the client stopped reading
        if c.busy:
            return False
        if c.detached:
            return False
        guest = self.guest(c)
        limit = min(self.limits.header_timeout, self.limits.guest_idle) if guest else self.limits.header_timeout
        began = c.request_began
        if began is not None:
            return now - began > limit
        if c.served == 0 and now - c.created > limit:
            return True
        idle = now - c.last_activity
        return idle > self.limits.channel_timeout or (guest and idle > self.limits.guest_idle)

    def close_all(self) -> None:
        """Close every connection (streams get their "bye" first), give busy workers a second, then stop."""
        if self._done:
            return
        self._done = True
        self.broker.close()
        if not self.loop.is_closed():
            with contextlib.suppress(Exception):
                self.loop.run_until_complete(self._close())
            self.loop.close()
        self.workers.stop()
        self.listener.close()

    async def _close(self) -> None:
        if self._stopping is not None:
            self._stopping.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.listener.close()
        deadline = time.monotonic() + STOP_WAIT
        await asyncio.sleep(0)  # the hub's goodbyes, queued from its thread, are written first
        while self.workers.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        open_ = list(self.connections)
        for c in open_:
            c.close()
        while any(not c.wire.closed for c in open_) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for c in open_:  # a client not reading its last bytes
            c.wire.abort()


def make_server(app, broker: Broker, limits: ServerLimits, host: str, port: int) -> ApplianceServer:
    return ApplianceServer(app, broker, limits, host, port)
