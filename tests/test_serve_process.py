"""A real ``tableside serve --simulate`` process over HTTP: durability, SSE, buttons."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.live import CODE, TABLESIDE, free_port, serve_argv
from tests.live import open_stream as _open_stream
from tests.live import read_until as _read_until


class Server:
    """One ``tableside serve`` child process on a free loopback port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.extra: list[str] = []  # more command-line arguments (``--config FILE``)

    def start(self) -> Server:
        env = {**os.environ, "TABLESIDE_JOIN_CODE": CODE}
        self.proc = subprocess.Popen(
            [*serve_argv(self.data, self.port), *self.extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.kill()}")
            try:
                if self.request("GET", "/healthz", auth=False)[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("serve did not answer /healthz within 30 s")

    def request(self, method: str, path: str, body=None, auth: bool = True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        headers = {"Authorization": f"Bearer {CODE}"} if auth else {}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        ctype = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if "json" in ctype else raw

    def kill(self, sig=signal.SIGKILL, wait: float = 20) -> str:
        """Signal the process, wait for it (``wait`` seconds at most), and return everything it printed."""
        assert self.proc is not None and self.proc.stdout is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(timeout=wait)
        out = self.proc.stdout.read()
        self.proc.stdout.close()
        return out


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "data").start()
    yield s
    if s.proc and not s.proc.stdout.closed:
        s.kill(signal.SIGTERM)


def test_start_up_prints_url_and_join_code(server):
    out = server.kill(signal.SIGTERM)
    assert f"http://127.0.0.1:{server.port}/" in out and f"Join code: {CODE}" in out
    assert "virtual" in out and server.proc.returncode == 0


def test_100_actions_survive_sigkill(server):
    status, made = server.request("POST", "/api/sessions", {"system": "venom"})
    assert status == 201, made
    last = None
    for i in range(100):
        status, last = server.request(
            "POST",
            "/api/sessions/active/actions",
            {"type": "roll", "expr": "5d6cs>=4", "expected_version": i},
        )
        assert status == 200, last
    assert last["version"] == 100
    server.kill(signal.SIGKILL)

    again = Server(server.data)
    again.port = server.port
    again.start()
    try:
        status, view = again.request("GET", "/api/sessions/active")
        assert status == 200
        assert (view["id"], view["version"]) == (made["id"], 100)
        # The roll on the table survives, as logged.
        assert [r["rolls"] for r in view["roll"]["rolls"]] == [r["rolls"] for r in last["rolls"]]
        status, log = again.request("GET", "/api/sessions/active/log")
        assert [e["seq"] for e in log] == list(range(1, 101))
        assert all(len(e["rolls"][0]["rolls"]) == 5 for e in log)
    finally:
        again.kill(signal.SIGTERM)


def test_virtual_button_presses_are_logged_as_buttons(server):
    server.request("POST", "/api/sessions", {"system": "venom"})
    status, _ = server.request("POST", "/api/buttons/B", {"hold": False})
    assert status in (200, 422)
    status, log = server.request("GET", "/api/sessions/active/log")
    if log:
        assert log[-1]["source"] == "button"
    status, body = server.request("POST", "/api/buttons/Z")
    assert status == 404 and "buttons are A, B, C and D" in body["error"]


def test_ten_phone_streams_and_the_api_still_answers(server):
    server.request("POST", "/api/sessions", {"system": "venom"})
    streams = [_open_stream(server.port) for _ in range(10)]
    try:
        for sock in streams:
            _read_until(sock, b"event: hello")
        start = time.monotonic()
        status, out = server.request("POST", "/api/rolls", {"expr": "3d6"})
        assert status == 200 and time.monotonic() - start < 15  # a generous bound: it must not hang
        results = {}

        def read(i, sock):
            results[i] = _read_until(sock, b"event: change")

        threads = [threading.Thread(target=read, args=(i, s)) for i, s in enumerate(streams)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert len(results) == 10
        assert all(b'"version":1' in r for r in results.values())
    finally:
        for sock in streams:
            sock.close()


def test_roll_command_contract():
    def run(*args):
        return subprocess.run([TABLESIDE, "roll", *args], capture_output=True, text=True, timeout=60)

    out = run("10d6xcs>=4", "--faces", "6,6,5,5,4,3,3,2,2,1,5,5", "--json")
    body = json.loads(out.stdout)
    assert out.returncode == 0 and body["rolls"] == [6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5] and body["successes"] == 7
    body = json.loads(run("2d10cs>=8", "--faces", "0,7", "--json").stdout)
    assert body["rolls"] == [10, 7] and body["successes"] == 1
    for args in (("2d10cs>=8", "--faces", "11,7", "--json"), ("banana",)):
        bad = run(*args)
        assert bad.returncode == 2 and bad.stdout == ""
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    seeded = [run("4d6kh3", "--seed", "7", "--json").stdout for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_export_writes_the_log(tmp_path, server):
    server.request("POST", "/api/sessions", {"system": "venom"})
    server.request("POST", "/api/rolls", {"expr": "2d10cs>=8", "faces": [0, 7]})
    env = {**os.environ, "TABLESIDE_DATA": str(server.data)}
    out = subprocess.run([TABLESIDE, "export"], capture_output=True, text=True, env=env, timeout=60)
    log = json.loads(out.stdout)["log"]
    assert out.returncode == 0 and log[-1]["rolls"][0]["rolls"] == [10, 7]
    csv_out = subprocess.run(
        [TABLESIDE, "export", "--format", "csv"], capture_output=True, text=True, env=env, timeout=60
    )
    assert csv_out.stdout.splitlines()[0].startswith("seq,kind,type,source")
    missing = subprocess.run(
        [TABLESIDE, "export", "--data", str(tmp_path / "empty")], capture_output=True, text=True, timeout=60
    )
    assert missing.returncode == 2 and "no Tableside data" in missing.stderr


def test_terminal_keys_press_the_virtual_buttons(tmp_path):
    import pty

    master, slave = pty.openpty()
    port = free_port()
    env = {**os.environ, "TABLESIDE_JOIN_CODE": CODE}
    proc = subprocess.Popen(
        serve_argv(tmp_path, port),
        stdin=slave,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    server = Server(tmp_path)
    server.port = port
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if server.request("GET", "/healthz", auth=False)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        server.request("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ana", "Ben"]}})
        os.write(master, b"b")  # B: a single die (the Commander roll-off before the game starts)
        log = []
        for _ in range(100):
            log = server.request("GET", "/api/sessions/active/log")[1]
            if log:
                break
            time.sleep(0.05)
        assert log and log[0]["source"] == "button"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        os.close(master)


def test_a_stop_sent_to_the_whole_process_group_ends_quietly(tmp_path):
    """systemd's default stop (KillMode=control-group), Ctrl-C in a terminal and ``timeout`` signal every
    process of the group, the render worker too: the server still draws its last frame and ends with no
    traceback and no "display failed" (the worker used to die first: BrokenProcessPool)."""
    port = free_port()
    proc = subprocess.Popen(
        serve_argv(tmp_path / "data", port),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "TABLESIDE_JOIN_CODE": CODE},
        text=True,
        start_new_session=True,  # its own process group, as under systemd
    )
    try:
        probe = Server(tmp_path / "data")
        probe.port = port
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the first frame drawn: the render worker is running
            try:
                if probe.request("GET", "/display.png")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("no frame within 30 s")
        os.killpg(proc.pid, signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "BrokenProcessPool" not in out and "display failed" not in out, out
