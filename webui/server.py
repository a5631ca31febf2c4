"""waitress, set up for an appliance on a shared Wi-Fi.

waitress's defaults suit a server behind a proxy in a data centre; on the
table's Wi-Fi every guest talks to it directly. What changes here, and why:

- **Streams do not hold worker threads.** A ``GET /api/stream`` runs as a
  normal request (join code, Host, the stream count) and sends its first
  event; then the connection is handed to the stream hub (``webui.stream``),
  which writes later events from its own thread. The worker is free at once.
  A detached connection stays readable, so a phone that leaves is seen at once
  (end of file) and its slot freed.
- **Slow clients are cut off.** A request whose headers and body are not in
  within ``header_timeout`` seconds is closed (about 100 half-open connections
  sending one byte every 10 s used to lock everyone out for 85 s); idle
  keep-alive connections close after ``channel_timeout``; one address may hold
  at most ``per_client_connections`` (loopback excepted: that is the table
  itself); the total is ``connection_limit``.
- **Bodies are small and never spooled to disk.** ``max_request_body_size``
  refuses a large body before it is buffered (waitress's default buffers 1 GiB
  of an unauthenticated body into a temporary file, which can fill the Pi's
  only partition); headers are capped with ``max_request_header_size``.
- **Phones with the code keep their connections.** A connection is a guest's
  until a request on it shows the join code (the app calls
  ``environ[TRUST_KEY]()``). Guests share ``guest_connections`` at most: a
  newcomer makes room by closing the guest connection idle the longest, so
  neither keep-alive hoarding nor slowloris can fill ``connection_limit``; and
  a guest connection idle or slow for ``guest_idle`` seconds is closed. A phone
  that holds the code keeps ``channel_timeout`` (8 guest addresses with 16
  idle keep-alives each plus slowloris used to make a phone wait 45 s).
- **Stop is quick.** Worker threads are given a second to finish, not five.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable

from tableside.webui.limits import ServerLimits
from tableside.webui.stream import Broker
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask

log = logging.getLogger(__name__)

DETACH_KEY = "tableside.detach"
TRUST_KEY = "tableside.trust"  # environ[TRUST_KEY](): this connection showed the join code


class QuickDispatcher(ThreadedTaskDispatcher):
    """waitress waits 5 s for busy workers on stop; a systemd stop must end in under 2 s."""

    shutdown_timeout = 1.0

    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool:
        return super().shutdown(cancel_pending, min(timeout, self.shutdown_timeout))


class ChannelSink:
    """A detached connection as the hub sees it: append bytes, end it."""

    def __init__(self, channel: HubChannel, chunked: bool, backlog: int) -> None:
        self.channel = channel
        self.chunked = chunked
        self.backlog = backlog

    def _frame(self, data: bytes) -> bytes:
        if not self.chunked or not data:
            return data
        return b"%X\r\n%s\r\n" % (len(data), data)

    def push(self, data: bytes) -> bool:
        ch = self.channel
        if not ch.connected or ch.will_close:
            return False
        payload = self._frame(data)
        with ch.outbuf_lock:
            if ch.total_outbufs_len > self.backlog:
                return False
            ch.outbufs[-1].append(payload)
            ch.current_outbuf_count += len(payload)
            ch.total_outbufs_len += len(payload)
        ch.server.pull_trigger()
        return True

    def end(self, data: bytes) -> None:
        ch = self.channel
        tail = self._frame(data) + (b"0\r\n\r\n" if self.chunked else b"")
        if ch.connected and not ch.will_close:
            with ch.outbuf_lock:
                ch.outbufs[-1].append(tail)
                ch.current_outbuf_count += len(tail)
                ch.total_outbufs_len += len(tail)
        ch.close_when_flushed = True
        with contextlib.suppress(OSError):  # the server may be closed already
            ch.server.pull_trigger()


class HubTask(WSGITask):
    """A WSGI task whose app may ask to hand the connection to the stream hub.

    The app calls ``environ[DETACH_KEY](attach, release)``: after a 200 response's
    head and body are written, ``attach(sink)`` gets the connection; if the task
    fails or the phone is gone first, ``release()`` frees the stream's slot.
    """

    _detach: tuple[Callable[[ChannelSink], None], Callable[[], None]] | None = None
    _handed = False

    def get_environment(self):
        environ = super().get_environment()
        environ[DETACH_KEY] = self._request_detach
        environ[TRUST_KEY] = self._trust
        return environ

    def _trust(self) -> None:
        self.channel.trusted = True

    def _request_detach(self, attach: Callable[[ChannelSink], None], release: Callable[[], None]) -> None:
        self._detach = (attach, release)

    def service(self) -> None:
        try:
            super().service()
        finally:
            if self._detach is not None and not self._handed:
                self._detach[1]()

    def finish(self) -> None:
        if self._detach is None or not self.status.startswith("200") or not self.channel.connected:
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        self.close_on_finish = False  # the hub keeps the connection open
        channel = self.channel
        assert isinstance(channel, HubChannel)
        sink = ChannelSink(channel, self.chunked_response, channel.server.limits.stream_backlog)
        self._handed = True
        channel.hand_over(sink, self._detach[0])


class JsonErrorTask(ErrorTask):
    """waitress's own refusals (a body over the limit, headers too large, a malformed request) answer
    ``{"error": ...}`` like every other error, not waitress's plain text."""

    def execute(self) -> None:
        error = self.request.error
        limit = self.channel.server.adj.max_request_body_size
        message = {
            413: f"the request body is too large (at most {limit // 1024} KiB)",
            431: "the request headers are too large",
        }.get(error.code, f"{error.reason.lower()}: {error.body}")
        body = json.dumps({"error": message}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class HubChannel(HTTPChannel):
    """An HTTP connection that tracks how long a request takes and can be handed to the hub."""

    task_class = HubTask
    error_task_class = JsonErrorTask
    detached = False
    trusted = False  # a request on it showed the join code
    request_began: float | None = None
    served = 0
    _sink: ChannelSink | None = None

    def hand_over(self, sink: ChannelSink, on_detach: Callable[[ChannelSink], None]) -> None:
        with self.requests_lock:
            for extra in self.requests[1:]:  # nothing may be answered after a stream
                extra.close()
            del self.requests[1:]
            self.detached = True
            self._sink = sink
        on_detach(sink)
        if not self.connected:  # gone while we were handing over
            self.server.broker.detach(sink)

    def received(self, data: bytes) -> bool:
        if self.detached:  # a stream's client has nothing more to say; ignore it
            return True
        if self.request is None and self.request_began is None:
            self.request_began = time.monotonic()
        result = super().received(data)
        if self.request is None:
            self.request_began = None
        return result

    def service(self) -> None:
        self.served += 1
        super().service()

    def writable(self) -> bool:
        if self.requests and self.total_outbufs_len and not self.detached:
            # A worker writing an answer holds the buffer's lock and sends what it wrote itself, pulling the
            # trigger if the socket would not take it all; asking for POLLOUT meanwhile only spins the loop
            # (the socket is writable, the flush skips the held lock), taking the GIL from that worker.
            if not self.outbuf_lock.acquire(blocking=False):
                return False
            self.outbuf_lock.release()
        return super().writable()

    def readable(self) -> bool:
        if self.detached:  # keep reading so a phone that leaves is seen at once
            return not (self.will_close or self.close_when_flushed) and self.connected
        return super().readable()

    def handle_read(self) -> None:
        super().handle_read()
        if self.detached and not self.connected:
            self.handle_close()

    def handle_write(self) -> None:
        if not self.detached:
            super().handle_write()
            return
        # The hub appends from its own thread: always flush under the buffer lock.
        self._flush_exception(self._flush_some_if_lockable)
        if self.close_when_flushed and not self.total_outbufs_len:
            self.close_when_flushed = False
            self.will_close = True
        if self.will_close:
            self.handle_close()

    def handle_close(self) -> None:
        sink, self._sink = self._sink, None
        super().handle_close()
        if sink is not None:
            self.server.broker.detach(sink)


def _eviction_order(channel: HubChannel) -> tuple[int, float]:
    """Which guest connection goes first to make room: a request dribbling in (slowloris) oldest first,
    then a kept-alive connection idle the longest, and last a new one that has not spoken yet (a phone's
    first request may be a moment away)."""
    if channel.request_began is not None:
        return (0, channel.request_began)
    if channel.served:
        return (1, channel.last_activity)
    return (2, channel.creation_time)


class ApplianceServer(TcpWSGIServer):
    """waitress's TCP server with the appliance limits and the stream hub."""

    channel_class = HubChannel

    def __init__(self, app, broker: Broker, limits: ServerLimits, host: str, port: int) -> None:
        self.broker = broker
        self.limits = limits
        adj = Adjustments(
            host=host,
            port=port,
            threads=limits.threads,
            connection_limit=limits.connection_limit,
            channel_timeout=limits.channel_timeout,
            cleanup_interval=limits.cleanup_interval,
            max_request_body_size=limits.max_request_body_size,
            max_request_header_size=limits.max_request_header_size,
            inbuf_overflow=max(limits.max_request_body_size, 64 * 1024) + 1,  # never spool a body to disk
            asyncore_use_poll=True,  # select() stops at 1024 descriptors
            ident="tableside",
        )
        dispatcher = QuickDispatcher()
        dispatcher.set_thread_count(adj.threads)
        super().__init__(app, map={}, dispatcher=dispatcher, adj=adj)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
        except OSError:
            return
        client = addr[0] if isinstance(addr, tuple) else ""
        channels = list(self.active_channels.values())
        if client not in self.limits.trusted_clients:
            held = sum(1 for ch in channels if ch.addr and ch.addr[0] == client)
            if held >= self.limits.per_client_connections:
                log.warning("refused a connection from %s: it already holds %d", client, held)
                conn.close()
                return
            if not self._room_for_a_guest(channels):
                conn.close()
                return
        self.set_socket_options(conn)
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def _room_for_a_guest(self, channels: list) -> bool:
        """A new connection is a guest's until it shows the code: past ``guest_connections`` guests, the one
        least worth keeping (``_eviction_order``; never one a worker is answering) is closed to make room."""
        trusted = self.limits.trusted_clients
        guests = [
            ch
            for ch in channels
            if isinstance(ch, HubChannel)
            and not ch.trusted
            and not ch.detached
            and not (ch.addr and ch.addr[0] in trusted)
        ]
        if len(guests) < self.limits.guest_connections:
            return True
        idle = [ch for ch in guests if not ch.requests]
        if not idle:
            return False
        min(idle, key=_eviction_order).handle_close()
        return True

    def maintenance(self, now: float) -> None:
        """Close idle connections (waitress) and requests that arrive too slowly (ours)."""
        super().maintenance(now)
        mono = time.monotonic()
        wall = time.time()
        trusted = self.limits.trusted_clients
        for channel in list(self.active_channels.values()):
            if not isinstance(channel, HubChannel) or channel.detached or channel.requests:
                continue
            guest = not channel.trusted and not (channel.addr and channel.addr[0] in trusted)
            limit = min(self.limits.header_timeout, self.limits.guest_idle) if guest else self.limits.header_timeout
            began = channel.request_began
            slow = began is not None and mono - began > limit
            silent = began is None and channel.served == 0 and wall - channel.creation_time > limit
            idle = guest and began is None and wall - channel.last_activity > self.limits.guest_idle
            if slow or silent or idle:
                channel.will_close = True

    def pull_trigger(self) -> None:
        with contextlib.suppress(OSError):  # a worker finishing after close_all(): nothing left to wake
            super().pull_trigger()

    def stop_soon(self) -> None:
        """From another thread: close every connection inside the event loop, which then ends."""
        with contextlib.suppress(OSError):  # the loop already ended and closed its trigger: nothing to stop
            self.trigger.pull_trigger(self.close_all)

    def close_all(self) -> None:
        """Close every connection now (the event loop has stopped)."""
        for channel in list(self.active_channels.values()):
            try:
                if channel.total_outbufs_len:  # a last word (the streams' "bye"), if the socket takes it
                    with contextlib.suppress(Exception), channel.outbuf_lock:
                        channel._flush_some(do_close=False)
                channel.handle_close()
            except Exception:
                log.exception("closing a connection failed")
        self.close()


def make_server(app, broker: Broker, limits: ServerLimits, host: str, port: int) -> ApplianceServer:
    return ApplianceServer(app, broker, limits, host, port)
