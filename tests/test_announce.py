"""Phones find the table (issue 38): a real ``tableside serve`` announces "Tableside on HOSTNAME" as an
``_http._tcp`` DNS-SD service while it serves, and says goodbye when it stops. Seen with python-zeroconf's
own ``ServiceBrowser`` on loopback (multicast to 224.0.0.251 looped back on this machine, nothing sent to
any other address)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tableside import announce
from tests.live import Process


def test_on_by_default_except_on_loopback_and_as_configured(monkeypatch):
    monkeypatch.delenv("TABLESIDE_ANNOUNCE", raising=False)  # the suite's own setting (conftest.py)
    assert announce.wanted(None, "0.0.0.0") and announce.wanted(None, "192.168.1.20")
    assert not announce.wanted(None, "127.0.0.1") and not announce.wanted(None, "::1")
    assert announce.wanted(True, "127.0.0.1") and not announce.wanted(False, "0.0.0.0")
    monkeypatch.setenv("TABLESIDE_ANNOUNCE", "0")
    assert not announce.wanted(None, "0.0.0.0") and announce.wanted(True, "0.0.0.0")
    monkeypatch.setenv("TABLESIDE_ANNOUNCE", "1")
    assert announce.wanted(None, "127.0.0.1") and not announce.wanted(False, "127.0.0.1")
    assert announce.service_name("games-table.lan") == "Tableside on games-table"
    assert len(announce.service_name("x" * 80).encode()) == 63


class Seen:
    """What a ServiceBrowser reports for _http._tcp: names added and removed, with an event for each."""

    def __init__(self) -> None:
        self.added: list[str] = []
        self.removed: list[str] = []
        self.changed = threading.Event()

    def add_service(self, zc, type_, name):
        self.added.append(name)
        self.changed.set()

    def remove_service(self, zc, type_, name):
        self.removed.append(name)
        self.changed.set()

    def update_service(self, zc, type_, name):
        pass


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_the_table_is_announced_while_serving_and_gone_after_stop(tmp_path):
    from zeroconf import IPVersion, ServiceBrowser, Zeroconf

    server = Process(tmp_path / "data", config="[server]\nannounce = true\n")
    browser_zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    seen = Seen()
    ServiceBrowser(browser_zc, announce.SERVICE, seen)
    try:
        server.start()

        def ours() -> str | None:
            for name in seen.added:
                info = browser_zc.get_service_info(announce.SERVICE, name, timeout=2000)
                if info is not None and info.port == server.port:
                    return name
            return None

        assert _wait(lambda: ours() is not None, 30), f"not announced: {seen.added}"
        name = ours()
        assert name.startswith(f"Tableside on {socket.gethostname().split('.')[0]}")
        info = browser_zc.get_service_info(announce.SERVICE, name, timeout=2000)
        assert info.parsed_addresses() == ["127.0.0.1"] and info.properties == {b"path": b"/"}
        out = server.stop()
        assert _wait(lambda: name in seen.removed, 10), f"no goodbye: {seen.removed}"
        assert f"Phones: announced on the network as '{name.removesuffix('.' + announce.SERVICE)}'" in out
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
        browser_zc.close()


def test_a_loopback_table_announces_nothing_by_default():
    assert announce.start(None, "127.0.0.1", 8080, say=print) is None
