"""Running under systemd the way the platform expects: journal priorities, READY=1 and a watchdog.

- Log lines go to the journal through stderr; systemd reads a ``<N>`` prefix on each line as its
  priority (``SyslogLevelPrefix=``, on by default), so ``journalctl -p err`` finds the errors. The
  prefix is written only when stderr *is* the journal (``$JOURNAL_STREAM`` names its device and
  inode, sd_journal_stream_fd(3)): a terminal or a test sees plain lines.
- ``sd_notify`` in pure Python (a datagram to ``$NOTIFY_SOCKET``, sd_notify(3); no C library):
  ``READY=1`` once the server answers, ``STOPPING=1`` at a stop, and with ``WatchdogSec=`` a
  ``WATCHDOG=1`` each time the server's own ``/healthz`` answers, every half of ``$WATCHDOG_USEC``.
  A server that hangs stops answering, the pings stop, and systemd restarts it.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import urllib.request
from typing import TextIO

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an http_proxy
# syslog priorities (sd-daemon.h: SD_ERR "<3>", SD_WARNING "<4>", SD_INFO "<6>", SD_DEBUG "<7>")
PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


def to_journal(stream: TextIO | None = None, env: dict[str, str] | None = None) -> bool:
    """Is ``stream`` (stderr) connected to the journal? ``$JOURNAL_STREAM`` is "DEVICE:INODE" of it."""
    env = os.environ if env is None else env
    stream = sys.stderr if stream is None else stream
    try:
        device, inode = (int(part) for part in env.get("JOURNAL_STREAM", "").split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (device, inode)


class JournalFormatter(logging.Formatter):
    """``<3>message`` for an error: every line of a multi-line record (a traceback) gets the prefix."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{PRIORITY.get(record.levelno, 3 if record.levelno > logging.ERROR else 6)}>"
        return "\n".join(prefix + line for line in text.splitlines() or [""])


def setup_logging(level: int = logging.INFO, stream: TextIO | None = None, env: dict[str, str] | None = None) -> None:
    """The server's logging: plain lines, with journal priorities when stderr is the journal."""
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        JournalFormatter("%(message)s") if to_journal(stream, env) else logging.Formatter("%(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def notify(state: str, env: dict[str, str] | None = None) -> bool:
    """Send ``state`` ("READY=1", "WATCHDOG=1", ...) to systemd; False when not run by it (or it failed)."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "/@":
        return False
    target = "\0" + address[1:] if address[0] == "@" else address  # "@name": the abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(state.encode(), target)
    except OSError:
        return False
    return True


def watchdog_interval(env: dict[str, str] | None = None) -> float | None:
    """Seconds between pings (half of ``$WATCHDOG_USEC``, sd_watchdog_enabled(3)), or None without one."""
    env = os.environ if env is None else env
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 2e6


class Watchdog:
    """Pings systemd each time the server's own ``/healthz`` answers: a hung server is restarted."""

    def __init__(self, port: int, host: str, interval: float, env: dict[str, str] | None = None) -> None:
        near = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
        self.url = f"http://{'[' + near + ']' if ':' in near else near}:{port}/healthz"
        self.interval = interval
        self.env = env
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def alive(self) -> bool:
        try:
            with _DIRECT.open(self.url, timeout=self.interval) as answer:
                return answer.status == 200
        except OSError:
            return False

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.alive():
                notify("WATCHDOG=1", self.env)
            else:
                logging.getLogger("tableside").warning("the watchdog got no answer from %s", self.url)
