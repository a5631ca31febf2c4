"""Server-Sent Events: one event per change, carrying the new version.

Each open stream holds one waitress thread (facts.md), so streams send a
keepalive comment every ``keepalive`` seconds (which also lets waitress notice
a phone that went away) and the server is sized with threads to spare.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator


class Broker:
    """Fans table events out to every connected stream; never blocks the table."""

    def __init__(self, keepalive: float = 15.0, max_queue: int = 100) -> None:
        self.keepalive = keepalive
        self.max_queue = max_queue
        self._clients: set[queue.Queue] = set()
        self._lock = threading.Lock()
        self.closed = threading.Event()

    def publish(self, event: dict) -> None:
        with self._lock:
            clients = list(self._clients)
        for q in clients:
            try:
                q.put_nowait(event)
            except queue.Full:  # a stalled phone: drop its oldest news, it will reload
                try:
                    q.get_nowait()
                    q.put_nowait(event)
                except (queue.Empty, queue.Full):
                    pass

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def close(self) -> None:
        self.closed.set()
        self.publish({"kind": "bye"})

    def stream(self, hello: dict) -> Iterator[str]:
        q: queue.Queue = queue.Queue(self.max_queue)
        with self._lock:
            self._clients.add(q)
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
                self._clients.discard(q)


def _format(event: dict) -> str:
    kind = event.get("kind", "change")
    return f"event: {kind}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"
