"""A client connection's socket and the threads that write to it, for ``webui.server``.

The event loop reads each socket; a request worker or the stream hub writes its bytes itself as far as the
socket takes them, under the wire's lock, and leaves only the rest to the loop, so no answer waits for the
loop to be scheduled and a slow reader holds no thread.
"""

from __future__ import annotations

import collections
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any, Protocol


class Server(Protocol):
    """What a wire needs of ``webui.server.ApplianceServer`` (a protocol: this module stays below it)."""

    loop: Any

    def soon(self, fn: Callable, *args: Any) -> bool: ...


class Connection(Protocol):
    """What a wire and a stream sink need of ``webui.server.Connection``."""

    closed: bool
    wire: Wire
    server: Server

    def data_received(self, data: bytes) -> None: ...

    def eof_received(self) -> bool | None: ...

    def connection_lost(self, exc: Exception | None) -> None: ...

    def end_stream(self) -> None: ...


log = logging.getLogger("tableside.webui.server")
PIPELINED = (  # the last event of a stream that a request was sent behind (HTTP/1.1 pipelining)
    b'event: refused\ndata: {"error": "a request was sent behind a stream on the same connection: the stream '
    b'ends here; send requests on another connection"}\n\n'
)


class Workers:
    """Request worker threads (daemons: a request still running never keeps a stopping process alive). A
    new request goes before the next slice of a long answer (``later``), so a phone's short request waits
    for at most one slice per worker however many long answers are being made."""

    def __init__(self, count: int) -> None:
        self.busy = 0
        self._cond = threading.Condition()
        self._jobs: collections.deque = collections.deque()
        self._later: collections.deque = collections.deque()
        self.threads = [
            threading.Thread(target=self._run, name=f"request-{i}", daemon=True) for i in range(max(1, count))
        ]
        for thread in self.threads:
            thread.start()

    def submit(self, job: Callable[[], None] | None, later: bool = False) -> None:
        with self._cond:
            (self._later if later else self._jobs).append(job)
            self._cond.notify()

    def _take(self) -> Callable[[], None] | None:
        with self._cond:
            while not self._jobs and not self._later:
                self._cond.wait()
            job = self._jobs.popleft() if self._jobs else self._later.popleft()
            if job is not None:
                self.busy += 1
            return job

    def _run(self) -> None:
        while (job := self._take()) is not None:
            try:
                job()
            except Exception:
                log.exception("a request worker failed")
            finally:
                with self._cond:
                    self.busy -= 1

    def stop(self) -> None:
        for _ in self.threads:
            self.submit(None)


class StreamSink:
    """A detached connection as the hub sees it (``webui.stream.Sink``): append bytes, end it. Called from
    the hub's thread; the bytes are written by the loop, framed as the answer's chunks."""

    def __init__(self, connection: Connection, backlog: int, chunked: bool) -> None:
        self.connection = connection
        self.backlog = backlog
        self.chunked = chunked  # an HTTP/1.0 client reads until the connection closes, unframed

    def _frame(self, data: bytes) -> bytes:
        if not self.chunked or not data:
            return data
        return b"%X\r\n%s\r\n" % (len(data), data)

    def push(self, data: bytes) -> bool:
        c = self.connection
        if c.closed or c.wire.get_write_buffer_size() > self.backlog:
            return False
        c.wire.write(self._frame(data))
        return True

    def end(self, data: bytes) -> None:
        c = self.connection
        c.wire.write(self._frame(data) + (b"0\r\n\r\n" if self.chunked else b""))
        c.server.soon(c.end_stream)


class Wire:
    """A client's socket. The loop reads it; any thread writes to it: what the socket takes is sent at once by
    that thread (a worker's answer, the hub's event), the rest by the loop when the socket has room."""

    def __init__(self, server: Server, sock: socket.socket, connection: Connection) -> None:
        self.server = server
        self.loop = server.loop
        self.sock = sock
        self.fd = sock.fileno()
        self.connection = connection
        self.lock = threading.Lock()
        self.out = bytearray()  # what the socket has not taken yet
        self.writing = False  # the loop waits for room to send ``out``
        self.closing = False  # close once ``out`` is sent
        self.closed = False
        self.drained: Callable[[], None] | None = None  # told once ``out`` is down to ``low`` (or closed)
        self.low = 0
        self.reading = True
        self.loop.add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # reset: as gone as an end of file
        if data:
            self.connection.data_received(data)
        elif self.connection.eof_received():
            self.pause_reading()  # a worker is answering: its answer goes out, then the connection closes
        else:
            self.abort()

    def write(self, data: bytes) -> None:
        """From any thread."""
        with self.lock:
            if self.closed or not data:
                return
            if not self.out:
                try:
                    sent = self.sock.send(data)
                except (BlockingIOError, InterruptedError):
                    sent = 0
                except OSError:  # gone: its reader sees the end
                    return
                if sent == len(data):
                    return
                data = data[sent:]
            self.out += data
            if self.writing:
                return
            self.writing = True
        self.server.soon(self._wait_for_room)

    def _wait_for_room(self) -> None:
        if not self.closed:
            self.loop.add_writer(self.fd, self._room)

    def when_drained(self, low: int, high: int, callback: Callable[[], None]) -> bool:
        """From a worker: True when more than ``high`` bytes wait for the client; ``callback()`` is then
        called on the loop once they are down to ``low`` or the connection closed. False: go on writing."""
        with self.lock:
            if self.closed or len(self.out) <= high:
                return False
            self.drained, self.low = callback, low
            return True

    def _room(self) -> None:
        with self.lock:
            try:
                sent = self.sock.send(self.out)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                sent = len(self.out)
            del self.out[:sent]
            drained = None
            if self.drained is not None and len(self.out) <= self.low:
                drained, self.drained = self.drained, None
            if self.out:
                if drained is not None:
                    drained()
                return
            self.writing = False
            closing = self.closing
        self.loop.remove_writer(self.fd)
        if drained is not None:
            drained()
        if closing:
            self.abort()

    def read_now(self) -> None:
        """On the loop: read what the client has sent already, without waiting for the loop's turn."""
        if self.reading and not self.closed:
            self._readable()

    def get_write_buffer_size(self) -> int:
        return len(self.out)

    def pause_reading(self) -> None:
        self.reading = False
        self.loop.remove_reader(self.fd)

    def resume_reading(self) -> None:
        if not self.closed:
            self.reading = True
            self.loop.add_reader(self.fd, self._readable)

    def close(self) -> None:
        """On the loop: close once what is written is sent."""
        with self.lock:
            if self.out and not self.closed:
                self.closing = True
                return
        self.abort()

    def abort(self) -> None:
        """On the loop: close now."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.out.clear()
            drained, self.drained = self.drained, None
        self.loop.remove_reader(self.fd)
        self.loop.remove_writer(self.fd)
        self.sock.close()
        self.connection.connection_lost(None)
        if drained is not None:  # a parked answer: its worker sees the connection closed and ends it
            drained()
