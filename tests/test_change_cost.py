"""What one change costs the server, in work counted rather than timed (speed is in benchmarks/).

After each change ten phones ask for their moment at once and the e-paper draws its frame: the
public screen is made once for all of them, and a worker hands its answer to the event loop, never
waiting for a client that reads slowly.
"""

from __future__ import annotations

import random
import socket
import threading
import time

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.server import make_server
from tableside.webui.stream import Broker

from tableside.config import ServerLimits
from tests import toysystem


def test_the_public_screen_is_made_once_per_version(tmp_path, monkeypatch):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    made = []
    real = toysystem.Toy.screen
    monkeypatch.setattr(
        toysystem.Toy, "screen", lambda self, state, roll=None: made.append(1) or real(self, state, roll)
    )
    table.create_session("toy", {})
    table.view()  # a phone's moment
    table.screen()  # the e-paper's frame of the same version
    table.view("Ann")
    assert len(made) == 1
    table.act({"type": "add", "points": 1}, source="api")
    table.screen()
    table.view()
    assert len(made) == 2
    table.store.close()


def test_a_slow_reader_never_holds_a_worker(tmp_path):
    """One worker; a client asks for a long answer (24 MiB in 1 MiB pieces: past waitress's 16 MiB buffer mark
    its worker waited for the client) and reads none of it: the worker is free for the next request at once."""
    piece = b"x" * (1024 * 1024)

    def app(environ, start):  # as an export writes: piece after piece
        body = [piece] * 24 if environ["PATH_INFO"] == "/big" else [b"ok"]
        start("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(sum(map(len, body))))])
        return iter(body)

    server = make_server(app, Broker(), ServerLimits(threads=1), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    slow = socket.create_connection(("127.0.0.1", server.effective_port), timeout=10)
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        slow.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert slow.recv(64).startswith(b"HTTP/1.1 200")  # it was answered, and reads no more
        time.sleep(0.5)
        began = time.monotonic()
        with socket.create_connection(("127.0.0.1", server.effective_port), timeout=10) as quick:
            quick.sendall(b"GET /small HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert quick.recv(4096).endswith(b"\r\n\r\nok")
        assert time.monotonic() - began < 1.0
    finally:
        slow.close()
        server.stop_soon()
        thread.join(10)
