"""Server-Sent Events: one event per change, carrying the new version.

Why a hub: the server runs each request on one of a few worker threads, and a
stream that blocks in a generator would keep its thread for as long as the phone
stays: 24 phones (or one guest opening 24 streams) used to starve every other
request under waitress. Under Tableside's own server (``webui.server``) a stream's request
only runs long enough to check the join code and send the first event; then
the connection is handed to this hub, which writes every later event and
keepalive from one thread of its own. A phone that leaves is noticed by the
server's event loop at once (end of file), not at the next keepalive.

Streams are counted: past ``max_streams`` a new one is refused with 503 and a
hint to poll ``GET /api/sessions/active`` instead. Under another WSGI server
(Flask's test client) the hub falls back to a blocking generator.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Protocol

log = logging.getLogger(__name__)


class Sink(Protocol):
    """Where the hub writes one stream's bytes (a detached server connection, ``webui.server.StreamSink``)."""

    def push(self, data: bytes) -> bool:
        """Queue bytes for the phone; False when it is gone or too far behind."""

    def end(self, data: bytes) -> None:
        """Send the last bytes and close the connection."""


class Broker:
    """Fans table events out to every open stream; ``publish`` never blocks the table."""

    def __init__(self, keepalive: float = 15.0, max_streams: int = 64, max_queue: int = 100) -> None:
        self.keepalive = keepalive
        self.max_streams = max_streams
        self.max_queue = max_queue
        self._lock = threading.Lock()
        self._sinks: set[Sink] = set()
        self._on_gone: dict[Sink, Callable[[], None]] = {}  # told when that stream ends (a seat's presence)
        self._queues: set[queue.Queue] = set()  # fallback generators
        self._reserved = 0
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self.closed = threading.Event()
        self._thread: threading.Thread | None = None

    # -- counting ---------------------------------------------------------------
    @property
    def clients(self) -> int:
        """Open streams (attached, waiting to attach, or fallback generators)."""
        with self._lock:
            return self._reserved

    def reserve(self) -> bool:
        """Count one more stream, or False when ``max_streams`` are open (the caller answers 503)."""
        with self._lock:
            if self.closed.is_set() or self._reserved >= self.max_streams:
                return False
            self._reserved += 1
            return True

    def release(self) -> None:
        with self._lock:
            self._reserved = max(0, self._reserved - 1)

    # -- hub mode -----------------------------------------------------------------
    def attach(self, sink: Sink, on_gone: Callable[[], None] | None = None) -> None:
        """Take over a connection whose reservation was made; the hub writes to it from now on.
        ``on_gone()`` runs once when it ends."""
        with self._lock:
            if self.closed.is_set():
                self._reserved = max(0, self._reserved - 1)
                closed = True
            else:
                self._sinks.add(sink)
                if on_gone is not None:
                    self._on_gone[sink] = on_gone
                closed = False
        if closed:
            if on_gone is not None:
                on_gone()
            sink.end(_format({"kind": "bye"}))
            return
        self._ensure_thread()

    def detach(self, sink: Sink) -> None:
        """The connection closed (phone gone, timeout): forget it and free its slot."""
        with self._lock:
            if sink in self._sinks:
                self._sinks.discard(sink)
                self._reserved = max(0, self._reserved - 1)
            gone = self._on_gone.pop(sink, None)
        if gone is not None:
            gone()

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None and not self.closed.is_set():
                self._thread = threading.Thread(target=self._run, name="stream-hub", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while not self.closed.is_set():
            try:
                event = self._events.get(timeout=self.keepalive)
            except queue.Empty:
                self._send(b": keepalive\n\n")
                continue
            if event is None:
                return
            self._send(_format(event).encode())

    def _send(self, data: bytes) -> None:
        with self._lock:
            sinks = list(self._sinks)
        for sink in sinks:
            try:
                alive = sink.push(data)
            except Exception:  # one broken connection must never stop the others
                log.exception("stream write failed")
                alive = False
            if not alive:  # gone, or so far behind it will reload anyway
                self.detach(sink)
                sink.end(b"")

    # -- both modes ---------------------------------------------------------------
    def publish(self, event: dict) -> None:
        """Called by the table after each committed change; O(1), never blocks."""
        if self.closed.is_set():
            return
        with self._lock:
            hub = self._thread is not None
            queues = list(self._queues)
        if hub:  # before the first phone's stream there is no hub: nothing to queue (it would pile up unread)
            self._events.put(event)
        for q in queues:
            _offer(q, event)

    def close(self) -> None:
        """Say goodbye to every phone and close their connections (server stopping)."""
        with self._lock:
            if self.closed.is_set():
                return
            self.closed.set()
            sinks = list(self._sinks)
            self._sinks.clear()
            self._on_gone.clear()
            queues = list(self._queues)
        self._events.put(None)
        bye = _format({"kind": "bye"}).encode()
        for sink in sinks:
            try:
                sink.end(bye)
            except Exception:
                log.exception("closing a stream failed")
        for q in queues:
            _offer(q, {"kind": "bye"})

    def stream(self, hello: dict) -> Iterator[str]:
        """The fallback: a blocking generator, for servers that cannot hand a connection over.

        The caller has already made a reservation; it is released when the generator ends.
        """
        q: queue.Queue = queue.Queue(self.max_queue)
        with self._lock:
            self._queues.add(q)
        try:
            yield _format(hello)
            while not self.closed.is_set():
                try:
                    event = q.get(timeout=self.keepalive)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if event.get("kind") == "bye":
                    return
                yield _format(event)
        finally:
            with self._lock:
                self._queues.discard(q)
            self.release()


def _offer(q: queue.Queue, event: dict) -> None:
    try:
        q.put_nowait(event)
    except queue.Full:  # a stalled phone: drop its oldest news, it will reload
        try:
            q.get_nowait()
            q.put_nowait(event)
        except (queue.Empty, queue.Full):
            pass


def format_event(event: dict) -> str:
    """One SSE frame; ``kind`` is the event name the page listens for."""
    return _format(event)


def _format(event: dict) -> str:
    kind = event.get("kind", "change")
    return f"event: {kind}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"
