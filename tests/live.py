"""Real servers for the hardening tests: a ``tableside serve`` process, or the same
appliance server (``webui.server``) in this process with limits a test chooses.
Loopback only; every wait has a bound."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app
from tableside.webui.server import make_server
from tableside.webui.stream import Broker

from tableside.config import ServerLimits
from tests import toysystem

CODE = "PLAY42"
TABLESIDE = str(Path(sys.executable).with_name("tableside"))


def serve_argv(data: Path, port: int) -> list[str]:
    """The command line of a ``tableside serve --simulate`` with its data in ``data``, on loopback ``port``."""
    return [TABLESIDE, "serve", "--simulate", "--data", str(data), "--host", "127.0.0.1", "--port", str(port)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(
    port: int, method: str, path: str, body=None, auth: bool = True, timeout: float = 20, headers: dict | None = None
):
    """One HTTP request on a fresh connection: (status, decoded JSON or raw bytes, headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"Authorization": f"Bearer {CODE}"} if auth else {}
    data = None
    if body is not None:
        data = json.dumps(body)
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        ctype = response.getheader("Content-Type", "")
        return response.status, (json.loads(raw) if "json" in ctype else raw), dict(response.getheaders())
    finally:
        conn.close()


def open_stream(port: int, timeout: float = 20) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {CODE}\r\n\r\n".encode())
    return sock


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    seen = b""
    while marker not in seen:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"stream closed before {marker!r}: {seen!r}")
        seen += chunk
    return seen


class Process:
    """One ``tableside serve --simulate`` child on a free loopback port."""

    def __init__(self, data: Path, config: str | None = None, env: dict | None = None) -> None:
        self.data = data
        self.port = free_port()
        self.config = config
        self.env = {**os.environ, "TABLESIDE_JOIN_CODE": CODE, **(env or {})}
        self.proc: subprocess.Popen | None = None

    def argv(self) -> list[str]:
        argv = serve_argv(self.data, self.port)
        if self.config:
            path = self.data.parent / f"config-{self.port}.toml"
            path.write_text(self.config)
            argv += ["--config", str(path)]
        return argv

    def spawn(self) -> subprocess.Popen:
        self.data.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            self.argv(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=self.env,
            text=True,
        )
        return self.proc

    def start(self) -> Process:
        self.spawn()
        deadline = time.monotonic() + 90  # generous: the whole suite may be loading two cores
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.stop()}")
            try:
                if self.request("GET", "/healthz", auth=False)[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("serve did not answer /healthz within 90 s")

    def request(self, method: str, path: str, body=None, auth: bool = True, timeout: float = 20, **kw):
        status, out, _ = request(self.port, method, path, body, auth, timeout, **kw)
        return status, out

    def stop(self, sig=signal.SIGTERM, timeout: float = 20) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(5)
        out = self.proc.stdout.read()
        self.proc.stdout.close()
        return out


class InProcess:
    """The appliance server (event loop + workers + hub + limits) on a thread, over the toy system."""

    def __init__(self, folder: Path, limits: ServerLimits | None = None, keepalive: float = 15.0) -> None:
        self.limits = limits or ServerLimits()
        self.table = Table(
            Store(folder / "t.db"), rng=random.Random(1), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
        )
        self.broker = Broker(keepalive=keepalive, max_streams=self.limits.max_streams)
        self.table.subscribe(self.broker.publish)
        services = Services(
            table=self.table, join_code=CODE, frame_png=lambda: b"", press=lambda *_: {}, broker=self.broker
        )
        self.server = make_server(create_app(services), self.broker, self.limits, "127.0.0.1", 0)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body=None, auth: bool = True, timeout: float = 20, **kw):
        return request(self.port, method, path, body, auth, timeout, **kw)

    def close(self) -> None:
        self.broker.close()
        self.server.stop_soon()
        self.thread.join(10)
        self.table.store.close()
