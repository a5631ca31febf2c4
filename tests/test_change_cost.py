"""What one change costs the server, in work counted rather than timed (speed is in benchmarks/).

After each change ten phones ask for their moment at once and the e-paper draws its frame: the
public screen is made once for all of them, and the event loop does not spin while a worker writes
an answer (each spin walks every open connection and takes the interpreter from that worker).
"""

from __future__ import annotations

import random
import socket
import threading

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.server import HubChannel, make_server
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


def test_a_connection_being_answered_by_a_worker_does_not_ask_the_loop_to_write(tmp_path):
    server = make_server(lambda environ, start: [], Broker(), ServerLimits(), "127.0.0.1", 0)
    ours, theirs = socket.socketpair()
    try:
        channel = HubChannel(server, ours, ("127.0.0.1", 1), server.adj, map={})
        channel.requests.append(object())  # a worker is answering it
        with channel.outbuf_lock:
            channel.outbufs[-1].append(b"HTTP/1.1 200 OK\r\n")
            channel.total_outbufs_len = 17
        assert channel.writable()  # bytes wait and nobody is sending them: the loop sends them

        holding, done = threading.Event(), threading.Event()

        def worker() -> None:
            with channel.outbuf_lock:  # as waitress's write_soon: it sends what it wrote itself
                holding.set()
                done.wait(5)

        thread = threading.Thread(target=worker)
        thread.start()
        holding.wait(5)
        try:
            assert not channel.writable()  # the socket is writable, but a flush now would skip the held lock
        finally:
            done.set()
            thread.join(5)
        assert channel.writable()  # let go with bytes left (a full socket): the loop takes over

        channel.detached = True  # a phone's stream: the hub appends from its own thread, the loop sends
        channel.requests.clear()
        assert channel.writable()
    finally:
        server.close()
        ours.close()
        theirs.close()
