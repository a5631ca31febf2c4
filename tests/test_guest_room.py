"""A phone's new connection is never the one closed to make room for guests (issue #33, item 4: the
availability test lost a phone's connection under load with ConnectionResetError)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tableside.config import ServerLimits
from tests.live import CODE, InProcess

PHONE = f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode()
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _connect(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def _answer(sock: socket.socket) -> bytes:
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {reply!r}")
        reply += chunk
    return reply


@pytest.fixture
def server(tmp_path):
    server = InProcess(tmp_path, ServerLimits(guest_connections=2, cleanup_interval=0.2))
    yield server
    server.close()


def _pause_loop(server, seconds: float) -> threading.Event:
    """Hold the server's event loop (as a loaded machine does): connections wait, unread, in the backlog."""
    held = threading.Event()

    def hold() -> None:
        held.set()
        time.sleep(seconds)

    server.server.soon(hold)
    assert held.wait(5)
    return held


def _gate_healthz(server) -> threading.Event:
    """Guests' requests wait for a worker until the gate opens (a loaded Pi)."""
    gate = threading.Event()
    app = server.server.app

    def slow_healthz(environ, start_response):
        if environ["PATH_INFO"] == "/healthz":
            gate.wait(10)
        return app(environ, start_response)

    server.server.app = slow_healthz
    return gate


def _phone_answered(gate: threading.Event, phone: socket.socket, others: list[socket.socket], wait: float) -> None:
    """After ``wait`` the guests' requests go on; the phone is answered (not reset, not closed)."""
    try:
        time.sleep(wait)
        gate.set()
        assert _answer(phone).startswith(b"HTTP/1.1 200")
    finally:
        gate.set()
        for sock in (phone, *others):
            sock.close()


def test_a_phone_whose_request_is_not_read_yet_is_not_closed_for_a_newcomer(server):
    gate = _gate_healthz(server)
    _pause_loop(server, 0.5)
    busy = _connect(server.port, "127.0.0.2")
    busy.sendall(HEALTHZ)  # taken in first: its request keeps a worker
    phone = _connect(server.port, "127.0.0.30")
    phone.sendall(PHONE)  # sent at once; the loop reads it only after it takes the next connection in
    newcomer = _connect(server.port, "127.0.0.3")
    _phone_answered(gate, phone, [busy, newcomer], wait=0.8)


def test_a_phone_is_taken_in_while_every_guest_waits_for_a_worker(server):
    gate = _gate_healthz(server)
    guests = [_connect(server.port, f"127.0.0.{i}") for i in (2, 3)]
    for g in guests:
        g.sendall(HEALTHZ)
    time.sleep(0.3)  # both busy: nobody the server may close to make room
    phone = _connect(server.port, "127.0.0.30")
    phone.sendall(PHONE)
    _phone_answered(gate, phone, guests, wait=0.3)
