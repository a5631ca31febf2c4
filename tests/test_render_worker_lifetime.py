"""The e-paper's render worker ends with the server, even after ``kill -9``.

The worker's pool queue never reaches end-of-file in the worker, so before this it waited forever
after a SIGKILL and held the server's stdout open: whoever read the server's output (journald, a
terminal, this suite) never saw its end.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

from tests.test_serve_process import Server


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_render_worker_ends_with_a_killed_server(tmp_path):
    server = Server(tmp_path / "data").start()
    assert server.proc is not None and server.proc.stdout is not None
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline:  # the worker starts with the hardware, after the panel answers
        workers = {p for p in children(server.proc.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()}
        if workers:
            break
        time.sleep(0.2)
    assert workers, "serve started no render worker"

    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(timeout=20)
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.append(server.proc.stdout.read()), daemon=True)
    reader.start()
    reader.join(timeout=15)
    assert not reader.is_alive(), "the server's stdout stayed open after it was killed"
    server.proc.stdout.close()
    deadline = time.monotonic() + 15
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(p) for p in workers), f"render worker(s) {workers} outlived the killed server"
