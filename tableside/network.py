"""The table's address as a phone on the same Wi-Fi must type it.

Raspberry Pi OS maps the hostname to 127.0.1.1 in /etc/hosts, so resolving
``gethostname()`` gives no LAN address. The address comes from the
network interfaces instead (and, as a second opinion, from the local end of a
UDP socket "connected" towards a documentation address: no packet is sent).
Avahi runs on Pi OS, so ``http://HOSTNAME.local:PORT/`` works too and survives
a new DHCP lease. The unit does not wait for the network: ``AddressWatch``
notices when an address appears (or changes) and tells the display.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import struct
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def _interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) for every interface that has one (Linux; [] elsewhere)."""
    try:
        import fcntl
    except ImportError:  # not Linux/Unix
        return []
    found = []
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in names:
            try:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface (yet)
                continue
            found.append((name, socket.inet_ntoa(packed[20:24])))
    return found


def _route_address() -> str | None:
    """The source address the kernel would use for the default route, or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP sends nothing
            return sock.getsockname()[0]
    except OSError:
        return None


def usable(address: str) -> bool:
    """An address a phone could reach: not loopback (127.0.1.1!), not unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def lan_addresses(
    interfaces: Callable[[], Iterable[tuple[str, str]]] = _interface_addresses,
    route: Callable[[], str | None] = _route_address,
) -> list[str]:
    """Reachable IPv4 addresses, best first: the default route's, then the others, link-local last."""
    ordered: list[str] = []
    preferred = route()
    if preferred and usable(preferred):
        ordered.append(preferred)
    for _name, address in interfaces():
        if usable(address) and address not in ordered:
            ordered.append(address)
    return sorted(ordered, key=lambda a: (ipaddress.ip_address(a).is_link_local, ordered.index(a)))


def _in_url(address: str) -> str:
    """An IPv6 address goes in brackets in a URL (``http://[::1]:8080/``), an IPv4 one as it is."""
    return f"[{address}]" if ":" in address else address


@dataclass(frozen=True)
class Addresses:
    """What the table prints and shows: URLs a phone can open."""

    hostname: str
    port: int
    addresses: tuple[str, ...]
    listen: str = "0.0.0.0"

    @property
    def urls(self) -> list[str]:
        if self.listen in ("127.0.0.1", "localhost", "::1"):  # only this machine can reach it: say so honestly
            return [f"http://{_in_url(self.listen if self.listen == '::1' else '127.0.0.1')}:{self.port}/"]
        urls = [f"http://{_in_url(a)}:{self.port}/" for a in self.addresses]
        if self.hostname and self.hostname != "localhost":
            urls.append(f"http://{self.hostname}.local:{self.port}/")
        return urls

    @property
    def url(self) -> str:
        """The one URL for the join screen: the LAN address, else HOSTNAME.local (waiting for Wi-Fi)."""
        return self.urls[0] if self.urls else f"http://localhost:{self.port}/"

    @property
    def online(self) -> bool:
        return bool(self.addresses) or self.listen in ("127.0.0.1", "localhost", "::1")

    def to_dict(self) -> dict:
        return {
            "hostname": self.hostname,
            "port": self.port,
            "addresses": list(self.addresses),
            "urls": self.urls,
            "url": self.url,
            "online": self.online,
        }


def current(port: int, listen: str = "0.0.0.0", find: Callable[[], list[str]] = lan_addresses) -> Addresses:
    wildcard = listen in ("0.0.0.0", "", "::")
    addresses = tuple(find()) if wildcard else ((listen,) if usable(listen) else ())
    return Addresses(socket.gethostname().split(".")[0], port, addresses, listen or "0.0.0.0")


class AddressWatch:
    """Re-reads the addresses every ``interval`` seconds and calls ``on_change`` when they differ.

    The service starts before Wi-Fi is up (it does not wait for network-online),
    so the first answer is often "no address yet"; the join screen follows.
    """

    def __init__(
        self,
        port: int,
        listen: str,
        on_change: Callable[[Addresses], None],
        interval: float = 5.0,
        find: Callable[[], list[str]] = lan_addresses,
    ) -> None:
        self.port, self.listen, self.on_change, self.interval, self.find = port, listen, on_change, interval, find
        self.now = current(port, listen, find)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="address-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def check(self) -> bool:
        """Look once; True (and ``on_change``) when the addresses changed."""
        seen = current(self.port, self.listen, self.find)
        if seen == self.now:
            return False
        self.now = seen
        log.info("network address now %s", ", ".join(seen.urls) or "none")
        try:
            self.on_change(seen)
        except Exception:  # a listener bug must not stop the watch
            log.exception("address change listener failed")
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.check()
