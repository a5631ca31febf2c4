"""Streams must not starve the API (issue 13): real sockets on loopback, every wait bounded.

Bounds here are generous (5 s) and only guard against the freezes the issue
found (45 s for a plain GET during a reconnect storm); speed is in benchmarks/.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tableside.config import ServerLimits
from tests.live import InProcess, Process, open_stream, read_until

FREEZE = 5.0  # seconds: anything slower is the freeze the issue found


@pytest.fixture
def live(tmp_path):
    made = []

    def start(**limits):
        server = InProcess(tmp_path / f"s{len(made)}", ServerLimits(**limits))
        made.append(server)
        return server

    yield start
    for server in made:
        server.close()


def _start_game(server):
    status, body, _ = server.request("POST", "/api/sessions", {"system": "toy", "options": {}})
    assert status == 201, body


@pytest.fixture
def process(tmp_path):
    server = Process(tmp_path / "data").start()  # the real `tableside serve`, default limits
    yield server
    server.stop()


def test_fifty_streams_and_a_reconnect_storm_leave_get_and_post_answering(process):
    server = process
    status, body = server.request("POST", "/api/sessions", {"system": "venom"})
    assert status == 201, body
    streams = [open_stream(server.port, timeout=FREEZE) for _ in range(50)]
    try:
        for sock in streams:
            read_until(sock, b"event: hello")
        status, view = server.request("GET", "/api/sessions/active", timeout=FREEZE)
        assert status == 200 and view["version"] == 0
        status, out = server.request("POST", "/api/rolls", {"expr": "3d6"}, timeout=FREEZE)
        assert status == 200, out
        for sock in streams:  # every phone hears about it
            assert b'"version":1' in read_until(sock, b'"version":1')

        # The Wi-Fi blinks: 20 phones drop and reconnect at once while others keep asking.
        for sock in streams[:20]:
            sock.close()
        storm: list[socket.socket] = []
        errors: list[BaseException] = []

        def reconnect():
            try:
                sock = open_stream(server.port, timeout=FREEZE)
                read_until(sock, b"event: hello")
                storm.append(sock)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=reconnect) for _ in range(20)]
        for t in threads:
            t.start()
        answers = [server.request("GET", "/api/sessions/active", timeout=FREEZE)[0] for _ in range(5)]
        answers.append(server.request("POST", "/api/rolls", {"expr": "2d6"}, timeout=FREEZE)[0])
        for t in threads:
            t.join(3 * FREEZE)
        streams = streams[20:] + storm
        assert not errors, errors
        assert answers == [200] * 6 and len(storm) == 20
    finally:
        for sock in streams:
            sock.close()


def test_past_the_maximum_a_new_stream_gets_503_with_a_polling_hint(live):
    server = live(max_streams=3)
    streams = [open_stream(server.port, timeout=FREEZE) for _ in range(3)]
    try:
        for sock in streams:
            read_until(sock, b"event: hello")
        status, body, headers = server.request("GET", "/api/stream", timeout=FREEZE)
        assert status == 503
        assert body["poll"] == "/api/sessions/active" and "too many open streams (3)" in body["error"]
        assert headers["Retry-After"].isdigit()
    finally:
        for sock in streams:
            sock.close()


def test_a_stopping_table_refuses_a_stream_as_stopping_not_as_too_many(live):
    """The hub closed (the server stopping) is no limit of open streams: no "too many", no hint to poll."""
    server = live(max_streams=3)
    server.broker.close()
    status, body, headers = server.request("GET", "/api/stream", timeout=FREEZE)
    assert (status, body) == (503, {"error": "the table is stopping"})
    assert "Retry-After" not in headers


def test_a_phone_that_leaves_frees_its_stream_at_once(live):
    server = live(max_streams=2)
    first, second = open_stream(server.port, timeout=FREEZE), open_stream(server.port, timeout=FREEZE)
    read_until(first, b"event: hello")
    read_until(second, b"event: hello")
    assert server.broker.clients == 2
    first.close()
    deadline = time.monotonic() + FREEZE  # seen at the close itself, not at the next keepalive (15 s)
    while server.broker.clients != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.broker.clients == 1
    third = open_stream(server.port, timeout=FREEZE)
    try:
        assert b"event: hello" in read_until(third, b"event: hello")
    finally:
        second.close()
        third.close()


def test_streams_do_not_hold_worker_threads(live):
    server = live(threads=2, max_streams=10)
    streams = [open_stream(server.port, timeout=FREEZE) for _ in range(6)]
    try:
        for sock in streams:
            read_until(sock, b"event: hello")
        # With one thread per stream, two threads and six streams would answer nothing.
        assert server.request("GET", "/healthz", auth=False, timeout=FREEZE)[0] == 200
        _start_game(server)
        for sock in streams:
            read_until(sock, b"event: session")
    finally:
        for sock in streams:
            sock.close()


def test_a_stream_is_chunked_with_no_length_so_browsers_keep_reading(live):
    server = live()
    sock = open_stream(server.port, timeout=FREEZE)
    try:
        head = read_until(sock, b"event: hello").split(b"\r\n\r\n")[0].lower()
        assert b"transfer-encoding: chunked" in head and b"content-length" not in head
        assert b"content-type: text/event-stream" in head
        _start_game(server)
        assert b"event: session" in read_until(sock, b"event: session")
    finally:
        sock.close()
