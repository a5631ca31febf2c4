"""Phones reading long answers slowly, stalled or all at once, for ``benchmarks/security.py`` (issue #33):
each measured beside a phone's request time and the server's resident memory in the same run."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

from run import CODE


class Reader(threading.Thread):
    """One phone reading ``path`` on loopback from 127.0.0.``n``: ``rate`` bytes a second (None: as fast as
    it can, again and again), or 0: it sends the request and never reads (a phone gone quiet)."""

    def __init__(self, port: int, path: str, n: int, rate: int | None) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.source, self.rate = port, path, f"127.0.0.{n}", rate
        self.halt = threading.Event()
        self.read = 0
        self.whole = 0  # answers read to their end

    def run(self) -> None:
        while not self.halt.is_set():
            with contextlib.suppress(OSError):
                self._once()
            if self.rate is not None:
                return

    def _once(self) -> None:
        sock = socket.socket()
        if self.rate is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)  # weak Wi-Fi: a small window
        sock.settimeout(60)
        sock.bind((self.source, 0))
        sock.connect(("127.0.0.1", self.port))
        ask = (
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\nConnection: close\r\n\r\n"
        )
        try:
            sock.sendall(ask.encode())
            while not self.halt.is_set():
                if self.rate == 0:
                    self.halt.wait(0.2)
                    continue
                chunk = sock.recv(4096 if self.rate else 1 << 20)
                if not chunk:
                    self.whole += 1
                    return
                self.read += len(chunk)
                if self.rate:
                    self.halt.wait(len(chunk) / self.rate)
        finally:
            sock.close()


def deleted_files_mb(pid: int) -> float:
    """Size of files the server holds open that were deleted (spooled answers waiting for a slow phone)."""
    total = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            if Path(fd).readlink().name.endswith("(deleted)"):
                total += fd.stat().st_size
    return total / 1e6


def side_by_side(server, readers: list[Reader], seconds: float, ask) -> tuple[list[float], float, float]:
    """Start ``readers``; for ``seconds`` a phone asks every 0.25 s (``ask(port)`` in seconds) while the
    server's resident memory is sampled. (phone times in ms, peak RSS in MB, deleted files in MB)."""
    for r in readers:
        r.start()
    time.sleep(1)
    waits: list[float] = []
    peak = deleted = 0.0
    sampler_halt = threading.Event()

    def sample() -> None:
        nonlocal peak, deleted
        while not sampler_halt.is_set():
            peak = max(peak, server.rss_mb())
            deleted = max(deleted, deleted_files_mb(server.proc.pid))
            sampler_halt.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        waits.append(ask(server.port) * 1000)
        time.sleep(0.25)
    sampler_halt.set()
    sampler.join(5)
    for r in readers:
        r.halt.set()
    for r in readers:
        r.join(10)
    return waits, peak, deleted
