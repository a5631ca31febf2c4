"""A slow or stalled phone reading a long answer holds no request worker and no memory past a bound, and
a HEAD or a request pipelined behind a stream is answered as documented (issue #33; docs/api.md)."""

from __future__ import annotations

import json
import socket
import time

import pytest
from tableside.webui import server as appliance

from tableside.config import ServerLimits
from tests.live import CODE, InProcess, read_until

ACTIONS = 6000  # about 2.8 MB of export: far past what the sockets' buffers hold


class SmallBuffers(appliance.Connection):
    """A connection whose socket buffers hold a few kB, as a Pi's do under memory pressure (on loopback
    Linux lets them grow to megabytes, which would hide what the server itself keeps)."""

    def __init__(self, server, sock, addr) -> None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        super().__init__(server, sock, addr)


@pytest.fixture(scope="module")
def long_game(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(appliance, "Connection", SmallBuffers)
        server = InProcess(tmp_path_factory.mktemp("slow"), ServerLimits(cleanup_interval=0.2))
        server.table.create_session("toy", {"limit": 10**9})
        for _ in range(ACTIONS):
            server.table.act({"type": "roll_d6", "n": 10})
        yield server
        server.close()


def _stalled(port: int, path: str) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a phone on weak Wi-Fi: reads nothing for now
    sock.settimeout(20)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """The chunked answer's body, read to its end."""
    data = read_until(sock, b"\r\n\r\n")
    while not data.endswith(b"\r\n0\r\n\r\n"):
        data += sock.recv(1 << 20)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"chunked" in head.lower(), head
    out = bytearray()
    while True:
        size, _, body = body.partition(b"\r\n")
        if int(size, 16) == 0:
            return bytes(out)
        out += body[: int(size, 16)]
        body = body[int(size, 16) + 2 :]


@pytest.mark.parametrize(
    "path", ["/api/sessions/active/export", "/api/sessions/active/export?format=csv", "/api/sessions/active/log"]
)
def test_stalled_readers_of_a_long_answer_hold_no_worker_and_little_memory(long_game, path):
    readers = [_stalled(long_game.port, path) for _ in range(3)]  # more than the two workers
    try:
        time.sleep(1.5)  # each answer made as far as the bound, then parked
        server = long_game.server
        waiting = [c.wire.get_write_buffer_size() for c in list(server.connections) if c.busy]
        assert len(waiting) == 3 and server.workers.busy == 0, (waiting, server.workers.busy)
        assert max(waiting) <= appliance.BACKLOG + 2 * appliance.PIECE, waiting
        status = long_game.request("GET", "/api/sessions", timeout=5)[0]  # another phone is answered
        assert status == 200
        bodies = [_read_all(sock) for sock in readers]  # the phones read again: each answer is whole
    finally:
        for sock in readers:
            sock.close()
    if "csv" in path:
        assert all(body.count(b"\n") == ACTIONS + 1 for body in bodies)
    else:
        entries = [json.loads(body) for body in bodies]
        entries = [e["log"] if isinstance(e, dict) else e for e in entries]
        assert all([x["seq"] for x in e] == list(range(1, ACTIONS + 1)) for e in entries)


def test_a_phone_that_leaves_a_parked_answer_frees_it(long_game):
    sock = _stalled(long_game.port, "/api/sessions/active/export")
    time.sleep(1)
    sock.close()  # gone with the answer parked: the server closes it and its reader
    deadline = time.monotonic() + 5
    while any(c.busy for c in list(long_game.server.connections)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(c.busy for c in list(long_game.server.connections))


def test_head_answers_without_a_body_even_for_the_stream(long_game):
    sock = socket.create_connection(("127.0.0.1", long_game.port), timeout=5)
    auth = f"Host: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n"
    try:
        sock.sendall(
            f"HEAD /api/stream HTTP/1.1\r\n{auth}\r\nHEAD /api/sessions/active/export HTTP/1.1\r\n{auth}\r\n"
            f"GET /healthz HTTP/1.1\r\n{auth}\r\n".encode()
        )
        seen = read_until(sock, b'{"ok":true}')
    finally:
        sock.close()
    heads = seen.split(b"\r\n\r\n")
    assert heads[0].startswith(b"HTTP/1.1 200") and b"text/event-stream" in heads[0]
    assert heads[1].startswith(b"HTTP/1.1 200") and b"attachment" in heads[1]  # nothing between the heads
    assert heads[2].startswith(b"HTTP/1.1 200") and heads[3].strip() == b'{"ok":true}'
    assert b"data:" not in seen


def test_a_request_pipelined_behind_a_stream_is_refused_in_words(long_game):
    sock = socket.create_connection(("127.0.0.1", long_game.port), timeout=5)
    auth = f"Host: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n"
    try:
        sock.sendall(f"GET /api/stream HTTP/1.1\r\n{auth}\r\nGET /healthz HTTP/1.1\r\n{auth}\r\n".encode())
        seen = read_until(sock, b"0\r\n\r\n")
        assert sock.recv(100) == b""  # then the connection closes
    finally:
        sock.close()
    assert b'"kind": "hello"' in seen or b'"hello"' in seen
    assert b"event: refused" in seen and b"send requests on another connection" in seen
    assert b'{"ok":true}' not in seen
