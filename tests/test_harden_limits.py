"""The server's limits for an appliance (issue 13): one test per limit, real sockets on loopback.

Each test sets the limit small and shows the server acting on it; bounds are
generous and guard only against hanging.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from tableside.config import ServerLimits, load_config
from tests.live import CODE, InProcess

BOUND = 10.0


@pytest.fixture
def live(tmp_path):
    made = []

    def start(**limits):
        server = InProcess(tmp_path / f"s{len(made)}", ServerLimits(**{"cleanup_interval": 0.2, **limits}))
        made.append(server)
        return server

    yield start
    for server in made:
        server.close()


def _connect(server, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND, source_address=(source, 0))
    return sock


def _closed_by_server(sock: socket.socket) -> bool:
    """True when the server closes the connection within the bound (reads until end of file)."""
    try:
        while sock.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_large_body_is_refused_before_it_is_buffered(live):
    server = live(max_request_body_size=1024)
    sock = _connect(server)
    head = (
        f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n"
    )
    sock.sendall(head.encode() + b"{" + b" " * 2048)
    reply = b""
    while b"}" not in reply:  # the whole short answer
        chunk = sock.recv(4096)
        if not chunk:
            break
        reply += chunk
    sock.close()
    assert reply.startswith(b"HTTP/1.1 413")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert b"Content-Type: application/json" in head
    assert json.loads(body) == {"error": "the request body is too large (at most 1 KiB)"}
    assert server.request("GET", "/api/sessions")[0] == 200


def test_huge_headers_are_refused(live):
    server = live(max_request_header_size=2048)
    status, _, _ = server.request("GET", "/api/sessions", headers={"X-Junk": "j" * 4096})
    assert status == 431


def test_a_request_dribbled_in_too_slowly_is_cut_off(live):
    server = live(header_timeout=1.0)
    slow = _connect(server)
    slow.settimeout(0.25)
    started = time.monotonic()
    closed = False
    for byte in b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n":  # one byte every 0.25 s, never done
        try:
            slow.sendall(bytes([byte]))
            if slow.recv(1) == b"":
                closed = True
                break
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        if time.monotonic() - started > BOUND:
            break
    slow.close()
    assert closed
    assert server.request("GET", "/api/sessions")[0] == 200


def test_a_silent_connection_is_closed(live):
    server = live(header_timeout=0.5)
    silent = _connect(server)
    assert _closed_by_server(silent)
    silent.close()


def test_an_idle_keepalive_connection_is_closed(live):
    server = live(channel_timeout=1.0)
    sock = _connect(server)
    sock.sendall(f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
    first = sock.recv(4096)
    assert first.startswith(b"HTTP/1.1 200")
    assert _closed_by_server(sock)
    sock.close()


def test_one_device_cannot_hold_every_connection(live):
    server = live(per_client_connections=3, trusted_clients=())
    held = [_connect(server, "127.0.0.2") for _ in range(3)]
    extra = _connect(server, "127.0.0.2")
    other = _connect(server, "127.0.0.3")
    try:
        assert _closed_by_server(extra)  # the fourth from the same device is closed at once
        other.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # another device is served
        assert other.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        for sock in [*held, extra, other]:
            sock.close()


def test_the_connection_limit_holds_and_slow_clients_make_room(live):
    server = live(connection_limit=4, header_timeout=1.0)
    silent = [_connect(server) for _ in range(4)]
    try:
        deadline = time.monotonic() + BOUND
        while not server.server.at_connection_limit and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.server.at_connection_limit  # the server stopped accepting at the limit
        # The limit is reached: the next request waits in the backlog until the silent ones are cut off.
        status, body, _ = server.request("GET", "/api/sessions", timeout=BOUND)
        assert status == 200 and body == []
        assert all(_closed_by_server(sock) for sock in silent)
    finally:
        for sock in silent:
            sock.close()


def test_every_limit_is_a_config_key(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(
        "[server]\nthreads = 4\nconnection_limit = 50\nper_client_connections = 5\n"
        "channel_timeout = 20\nheader_timeout = 5\nmax_request_body_size = 4096\n"
        "max_request_header_size = 8192\nmax_streams = 10\nnames = ['Games-Table']\n"
    )
    cfg = load_config(str(path))
    assert (cfg.limits.threads, cfg.limits.connection_limit, cfg.limits.per_client_connections) == (4, 50, 5)
    assert (cfg.limits.channel_timeout, cfg.limits.header_timeout) == (20.0, 5.0)
    assert (cfg.limits.max_request_body_size, cfg.limits.max_request_header_size) == (4096, 8192)
    assert cfg.limits.max_streams == 10 and cfg.names == ("games-table",)
