"""The table announces itself on the local network: an mDNS/DNS-SD ``_http._tcp`` service named after it.

A phone's browser, a network scanner or ``avahi-browse -a`` then lists "Tableside on HOSTNAME" with its
address and port, where before only the ``HOSTNAME.local`` name answered (and only for those who knew
it). python-zeroconf does the announcing (it shares UDP 5353 with avahi-daemon on a Pi). It runs on a
thread of its own: probing the name takes a second or two, and the table starts before Wi-Fi is up, so
the thread waits for an address first. On by default, except when the table listens on loopback only
(no phone could open it); ``[server] announce = false`` turns it off, ``true`` forces it
(``$TABLESIDE_ANNOUNCE=0`` or ``1`` does the same when the config file does not say).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable

from tableside.network import lan_addresses, usable

log = logging.getLogger(__name__)

SERVICE = "_http._tcp.local."
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def service_name(hostname: str | None = None) -> str:
    """The instance name a phone lists: "Tableside on HOSTNAME" (at most 63 bytes, as DNS-SD allows)."""
    host = (hostname or socket.gethostname()).split(".")[0] or "table"
    return f"Tableside on {host}".encode()[:63].decode(errors="ignore")


def wanted(setting: bool | None, listen: str) -> bool:
    """``[server] announce``, else ``$TABLESIDE_ANNOUNCE`` (0 or 1: the test suite sets 0, so no test
    announces beyond loopback), else on unless the table listens on loopback only."""
    if setting is not None:
        return setting
    env = os.environ.get("TABLESIDE_ANNOUNCE", "").strip()
    if env in ("0", "1"):
        return env == "1"
    return listen not in LOOPBACK


class Announcement:
    """The ``_http._tcp`` service of a table serving on ``port``; ``start()`` announces, ``stop()`` says goodbye."""

    def __init__(
        self,
        port: int,
        listen: str = "0.0.0.0",
        say: Callable[[str], None] = print,
        find: Callable[[], list[str]] = lan_addresses,
        retry: float = 5.0,
    ) -> None:
        self.port, self.listen, self.say, self.find, self.retry = port, listen, say, find, retry
        self.name = service_name()
        self.announced: str | None = None  # the full service name once registered (a clash adds " (2)")
        self._zeroconf = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="announce", daemon=True)

    def start(self) -> Announcement:
        self._thread.start()
        return self

    def _addresses(self) -> list[str]:
        if self.listen in ("", "0.0.0.0", "::"):
            return self.find()
        if self.listen in LOOPBACK:
            return ["127.0.0.1"]
        return [self.listen] if usable(self.listen) and ":" not in self.listen else []

    def _run(self) -> None:
        addresses = self._addresses()
        while not addresses:  # no Wi-Fi yet: the join screen waits too (network.AddressWatch)
            if self._stop.wait(self.retry):
                return
            addresses = self._addresses()
        try:
            self._register(addresses)
        except Exception as exc:  # the table plays on; phones use the printed address
            log.warning("mDNS announcement failed", exc_info=True)
            self.say(f"Phones: not announced on the network ({type(exc).__name__}: {exc}); open the address above")

    def _register(self, addresses: list[str]) -> None:
        from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

        specific = self.listen not in ("", "0.0.0.0", "::")
        host = socket.gethostname().split(".")[0] or "table"
        info = ServiceInfo(
            SERVICE,
            f"{self.name}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in addresses],
            port=self.port,
            properties={"path": "/"},
            server=f"{host}.local.",
        )
        with self._lock:
            if self._stop.is_set():
                return
            self._zeroconf = Zeroconf(
                interfaces=addresses if specific else InterfaceChoice.All, ip_version=IPVersion.V4Only
            )
            self._zeroconf.register_service(info, allow_name_change=True)
            self.announced = info.name
        shown = info.name.removesuffix(f".{SERVICE}")
        self.say(f"Phones: announced on the network as '{shown}' (mDNS, {SERVICE.removesuffix('.local.')})")

    def stop(self) -> None:
        """Say goodbye (phones drop the entry at once) and close; waits for a registration under way."""
        self._stop.set()
        with self._lock:
            if self._zeroconf is not None:
                try:
                    self._zeroconf.unregister_all_services()
                finally:
                    self._zeroconf.close()
                    self._zeroconf = None
                    self.announced = None


def start(setting: bool | None, listen: str, port: int, say: Callable[[str], None]) -> Announcement | None:
    """The table's announcement, started, or None when ``[server] announce`` (or loopback) says not to."""
    return Announcement(port, listen, say).start() if wanted(setting, listen) else None
