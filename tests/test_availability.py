"""Phones that hold the join code keep being answered while guests without it hoard connections
(issue #18, finding 4: 8 guest addresses x 16 idle keep-alive connections made a phone wait 45 s;
slowloris from 8 addresses, 8 s). Loopback only: guests are 127.0.0.2-9 and 127.0.0.11-18."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

from tableside.config import ServerLimits
from tests.live import CODE, InProcess

HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
PHONE = f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode()


class Guests:
    """8 addresses holding 16 idle keep-alive connections each (a /healthz now and then), and 8 more
    addresses sending their headers a line a second (slowloris), reconnecting whatever is closed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stop = threading.Event()
        self.idle: dict[str, list[socket.socket]] = {f"127.0.0.{i}": [] for i in range(2, 10)}
        self.slow: dict[str, list[socket.socket]] = {f"127.0.0.{i}": [] for i in range(11, 19)}
        self.opened = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, source: str, first: bytes) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=0.5, source_address=(source, 0))
            sock.sendall(first)
            self.opened += 1
            return sock
        except OSError:
            return None

    def _top_up(self, pool: dict[str, list[socket.socket]], first: bytes) -> None:
        for source, socks in pool.items():
            while len(socks) < 16 and not self.stop.is_set():
                sock = self._open(source, first)
                if sock is None:
                    break
                socks.append(sock)

    def _run(self) -> None:
        tick = 0
        while not self.stop.is_set():
            self._top_up(self.idle, HEALTHZ)
            self._top_up(self.slow, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for pool, line in ((self.idle, None), (self.slow, b"X-Slow: 1\r\n")):
                for socks in pool.values():
                    for sock in list(socks):
                        try:
                            sock.setblocking(False)
                            with contextlib.suppress(BlockingIOError):
                                if sock.recv(65536) == b"":
                                    raise ConnectionResetError
                            if line is not None and tick % 5 == 0:
                                sock.sendall(line)
                            elif line is None and tick % 20 == 0:
                                sock.sendall(HEALTHZ)
                        except OSError:
                            socks.remove(sock)
                            sock.close()
            tick += 1
            self.stop.wait(0.2)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        for pool in (self.idle, self.slow):
            for socks in pool.values():
                for sock in socks:
                    sock.close()


def _ask(port: int, sock: socket.socket | None = None) -> tuple[float, socket.socket]:
    """Seconds until a phone with the code has its answer (on ``sock``, or a new connection)."""
    began = time.monotonic()
    if sock is None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=("127.0.0.30", 0))
    sock.settimeout(20)
    sock.sendall(PHONE)
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    length = int(next(h.split(b":")[1] for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    assert head.startswith(b"HTTP/1.1 200"), head
    return time.monotonic() - began, sock


@pytest.fixture
def server(tmp_path):
    server = InProcess(tmp_path, ServerLimits(cleanup_interval=0.2))
    yield server
    server.close()


def test_a_phone_with_the_code_is_answered_within_a_second_while_guests_hoard_connections(server):
    kept = _ask(server.port)[1]  # a phone that was here before the guests came
    guests = Guests(server.port)
    guests.thread.start()
    try:
        time.sleep(2.5)  # the guests hold their connections (the server closes and they reconnect)
        waits = []
        for _ in range(8):
            wait, sock = _ask(server.port)  # a new connection each time
            sock.close()
            waits.append(wait)
            time.sleep(0.3)
        held = [_ask(server.port, kept)[0] for _ in range(3)]  # its keep-alive connection was kept
    finally:
        guests.close()
        kept.close()
    assert guests.opened >= 8 * 16 + 8 * 16
    print("phone waits", [round(w, 3) for w in waits], "kept", [round(w, 3) for w in held], guests.opened)
    assert max(waits) < 1.0, waits
    assert max(held) < 1.0, held
