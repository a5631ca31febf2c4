"""The real ``tableside serve`` process (issue 13): one per data folder, a quick stop with
streams open, and join codes refused at start-up."""

from __future__ import annotations

import signal
import subprocess
import time

from tests.live import TABLESIDE, Process, open_stream, read_until


def test_a_second_server_on_the_same_data_folder_exits_naming_the_first(tmp_path):
    first = Process(tmp_path / "data").start()
    try:
        second = Process(tmp_path / "data")
        proc = second.spawn()
        out, _ = proc.communicate(timeout=90)
        assert proc.returncode == 1, out
        assert "in use by another tableside serve" in out and str(first.proc.pid) in out
        assert f"port {first.port}" in out
        assert first.request("GET", "/healthz", auth=False)[0] == 200  # the first one is untouched
    finally:
        first.stop()
    again = Process(tmp_path / "data").start()  # the lock goes with the process
    again.stop()


def test_the_lock_is_released_by_kill_9(tmp_path):
    first = Process(tmp_path / "data").start()
    first.stop(signal.SIGKILL)
    Process(tmp_path / "data").start().stop()


def test_sigterm_stops_quickly_with_streams_open(tmp_path):
    server = Process(tmp_path / "data").start()
    streams = [open_stream(server.port) for _ in range(20)]
    try:
        for sock in streams:
            read_until(sock, b"event: hello")
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=20)
        took = time.monotonic() - started
        assert server.proc.returncode == 0
        assert took < 5, f"stop took {took:.1f} s"  # generous: it used to take 6-14 s; benchmarks measure it
        for sock in streams:  # every phone is told, or at least sees the connection end
            sock.settimeout(5)
            rest = b""
            try:
                while chunk := sock.recv(4096):
                    rest += chunk
            except ConnectionResetError:
                pass
    finally:
        for sock in streams:
            sock.close()
        server.stop()


def test_an_empty_or_short_join_code_stops_serve_at_start(tmp_path):
    for code, words in (("   ", "empty or only spaces"), ("AB1", "at least 6")):
        proc = Process(tmp_path / "data", env={"TABLESIDE_JOIN_CODE": code})
        out = subprocess.run(proc.argv(), capture_output=True, text=True, env=proc.env, timeout=60)
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    assert TABLESIDE
