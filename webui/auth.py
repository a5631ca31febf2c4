"""Who may talk to the table: the join code, its cookie, and the checks a browser needs.

Every guest on the table's Wi-Fi can reach the server, so:

- **The code is rate-limited per device.** After a few typos each wrong code
  doubles the wait before the next one is even looked at (up to an hour), and
  each is logged. A 6-character code from 32 symbols then takes far longer
  than a lifetime to guess. A table-wide ceiling holds a guest on many
  addresses, and never refuses a device that has not been guessing
  (``JoinGuard``).
- **The cookie holds a signed token, not the code.** It is an HMAC under a key
  made from the install's secret and the join code, so changing the code
  revokes every cookie, and a stolen cookie gives nothing to guess offline.
- **Browsers are kept honest.** A state-changing request from another site's
  page is refused (its ``Origin``/``Sec-Fetch-Site`` say so), a body must be
  sent as JSON (a cross-site form can only send form or text bodies), and the
  ``Host`` must be an IP address, ``localhost``, a ``.local`` name or a
  configured name, so a DNS-rebinding page cannot talk to the table.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import ipaddress
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import jsonify, request
from tableside.webui.i18n import gettext

log = logging.getLogger(__name__)

COOKIE = "tableside_join"
TOKEN_VERSION = "t1"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


# -- the code and the token -------------------------------------------------------------
def codes_match(given: str, code: str) -> bool:
    """Constant-time, case-blind: the code is read off an e-paper and typed on a phone."""
    return bool(given) and hmac.compare_digest(given.strip().upper().encode(), code.upper().encode())


@functools.lru_cache(maxsize=8)
def _key(secret: bytes, code: str) -> bytes:
    """The signing key for one secret and code (one HMAC, remembered: every request checks a token)."""
    return hmac.new(secret, b"tableside-join\0" + code.upper().encode(), hashlib.sha256).digest()


def make_token(secret: bytes, code: str) -> str:
    """The cookie value: proof that this browser once typed the current code."""
    nonce = secrets.token_hex(8)
    mac = hmac.new(_key(secret, code), f"{TOKEN_VERSION}.{nonce}".encode(), hashlib.sha256).hexdigest()
    return f"{TOKEN_VERSION}.{nonce}.{mac}"


def token_valid(token: str, secret: bytes, code: str) -> bool:
    """True for a token made under this secret and this code (a new code revokes it)."""
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != TOKEN_VERSION or len(token) > 200:
        return False
    expected = hmac.new(_key(secret, code), f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(parts[2].encode(), expected.encode())


def join_key(secret: bytes, code: str) -> str:
    """The key the e-paper's QR code carries beside the code (``/join?code=..&key=..``): 80 bits signed
    with the table's secret, so a phone that scans the table gets in even while a guest is guessing codes
    (#33): a guess needs the code, which the throttle guards, and nobody guesses 2**80 keys."""
    mac = hmac.new(_key(secret, code), b"qr", hashlib.sha256).digest()[:10]  # 14 letters: the QR stays 33 modules
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def key_valid(given: str, secret: bytes, code: str) -> bool:
    return 0 < len(given) <= 64 and hmac.compare_digest(given.encode(), join_key(secret, code).encode())


# -- guessing --------------------------------------------------------------------------------
@dataclass
class _Record:
    """One source's wrong codes so far, until when it must wait, and when it last sent a wrong one."""

    failures: int = 0
    wait_until: float = 0.0
    last: float = 0.0


class JoinGuard:
    """Wrong codes counted per source (the client's address), and a table-wide ceiling (#33).

    - **Per source.** A source's first ``free`` wrong codes cost it nothing; each one after doubles its
      wait (up to ``ceiling`` s). A right code forgets its record.
    - **The table-wide ceiling** is a budget of ``per_second`` wrong codes a second (a burst of as many),
      spent by every wrong code. While it is spent, a source *past its free typos* is refused, whatever
      its own wait: a guest rotating through the addresses of the table's Wi-Fi gets no more than that.
    - **What the ceiling never refuses: a source within its free typos** (the friend who arrives late and
      types the code, even after a typo or two). Refusing those too was how a guest guessing from many
      addresses at once locked every newcomer out (56 of 57 right codes got 429). Each address then costs
      the guesser at most ``free`` guesses before the ceiling binds it: a /24 Wi-Fi (254 addresses) gives
      about 1,270 guesses once, against 32**6 codes. The server listens on IPv4 (an IPv6 /64 would
      give addresses without end), and a guest can only answer from addresses on its own network.
    - **Bounded memory.** Up to ``max_devices`` sources are remembered (16,384: far more than a table's
      Wi-Fi holds), each for ``forget`` s after its last wrong code. When that many are remembered, more
      addresses are guessing than any table network has, so a new source is held to the ceiling too: the
      only case a right code may wait, and it is told to scan the QR code, which always gets in.
    """

    def __init__(
        self,
        free: int = 5,
        base: float = 1.0,
        ceiling: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
        max_devices: int = 16_384,
        per_second: float = 10.0,
        what: str = "join code",
        forget: float = 86_400.0,
    ) -> None:
        self.what = what  # in the log: "wrong join code", or "wrong owner PIN" (the Settings page, #32)
        self.free = free
        self.base = base
        self.ceiling = ceiling
        self.clock = clock
        self.max_devices = max_devices
        self.per_second = per_second
        self.forget = forget
        self._budget = per_second  # wrong codes the table may still check now (a token bucket)
        self._filled = clock()
        self._records: OrderedDict[str, _Record] = OrderedDict()  # oldest last wrong code first
        self._lock = threading.Lock()

    def _refill(self, now: float) -> None:
        self._budget = min(self.per_second, self._budget + (now - self._filled) * self.per_second)
        self._filled = now
        while self._records:  # forget sources quiet for ``forget`` s (the oldest is first)
            oldest = next(iter(self._records.values()))
            if now - oldest.last < self.forget:
                break
            self._records.popitem(last=False)

    def wait(self, client: str) -> float:
        """Seconds before a code from this source is checked (0: go ahead): its own wait, or the table's
        while the table-wide budget is spent, unless the source is still within its free typos."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            record = self._records.get(client)
            own = max(0.0, record.wait_until - now) if record else 0.0
            failures = record.failures if record else 0
            full = record is None and len(self._records) >= self.max_devices
            if failures < self.free and not full:
                return own
            table = 0.0 if self._budget >= 1 else (1 - self._budget) / self.per_second
            return max(own, table)

    def failed(self, client: str) -> float:
        """Count a wrong code; returns the wait now imposed, and logs it."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._budget = max(0.0, self._budget - 1)  # a free typo past the budget does not owe the table
            record = self._records.pop(client, None) or _Record()
            record.failures += 1
            over = record.failures - self.free
            delay = 0.0 if over <= 0 else min(self.ceiling, self.base * 2 ** min(over - 1, 40))
            record.wait_until = now + delay
            record.last = now
            self._records[client] = record
            while len(self._records) > self.max_devices:  # bounded memory: forget the oldest source
                self._records.popitem(last=False)
            failures = record.failures
        log.warning("wrong %s from %s (%d in a row); next try allowed in %.0f s", self.what, client, failures, delay)
        return delay

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._records.pop(client, None)


# -- browsers ----------------------------------------------------------------------------------
def host_allowed(host: str | None, names: Iterable[str] = ()) -> bool:
    """An IP address, ``localhost``, ``*.local`` or a configured name (port ignored)."""
    if not host or len(host) > 255:
        return False
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        end = host.find("]")
        if end < 0:
            return False
        literal, rest = host[1:end], host[end + 1 :]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return False
        try:
            ipaddress.IPv6Address(literal)
        except ValueError:
            return False
        return True
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return False
    name = name.rstrip(".")
    try:
        ipaddress.IPv4Address(name)
        return True
    except ValueError:
        pass
    if name == "localhost" or name in names:
        return True
    return name.endswith(".local") and len(name) > len(".local") and all(c.isalnum() or c in "-." for c in name)


def cross_site(method: str, origin: str | None, fetch_site: str | None, host: str | None) -> str | None:
    """Why a state-changing request looks like it came from another site's page, or None."""
    if method not in STATE_CHANGING:
        return None
    if fetch_site and fetch_site.lower() not in ("same-origin", "none"):
        return gettext("a request from another site ({site}) may not change the table", site=fetch_site)
    if origin is None:  # curl, scripts, the CLI: no browser, no ambient cookie abuse
        return None
    scheme, _, rest = origin.partition("://")
    if origin == "null" or scheme not in ("http", "https") or not host or rest.lower() != host.lower():
        return gettext(
            "a page from {origin} may not change the table; use the panel at http://{host}/",
            origin=repr(origin[:80]),
            host=host,
        )
    return None


def json_body_refusal(method: str, content_type: str | None, content_length: int | None) -> str | None:
    """A body on a state-changing request must be JSON (a cross-site form cannot send that)."""
    if method not in STATE_CHANGING or not content_length:
        return None
    mimetype = (content_type or "").split(";")[0].strip().lower()
    if mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json")):
        return None
    return gettext(
        "send the body as JSON with 'Content-Type: application/json', not {given} (curl: --json '{{...}}')",
        given=repr(mimetype or "no type"),
    )


# -- the checks every request goes through (app.guard_request, the join page) -----------------
def client_id() -> str:
    return request.remote_addr or "unknown"


def too_many(wait: float):
    seconds = max(1, int(wait + 0.999))
    response = jsonify(
        error=gettext(
            "too many wrong join codes: try again in {seconds} s, or scan the QR code on the table's display, "
            "which gets in at once",
            seconds=seconds,
        )
    )
    response.status_code = 429
    response.headers["Retry-After"] = str(seconds)
    return response


def check_code(services: Any, given: str):
    """Check a typed code under the rate limit: None when right, else the response to send."""
    client = client_id()
    wait = services.guard.wait(client)
    if wait > 0:
        return too_many(wait)
    if codes_match(given, services.join_code):
        services.guard.succeeded(client)
        return None
    services.guard.failed(client)
    response = jsonify(error=gettext("that join code is not right: it is shown on the e-paper and at start-up"))
    response.status_code = 401
    return response


def check_credentials(services: Any):
    """None when the request carries the code (Bearer) or a valid signed cookie; else a response."""
    header = request.environ.get("HTTP_AUTHORIZATION", "")
    if header.startswith("Bearer "):
        given = header[len("Bearer ") :].strip()
        if token_valid(given, services.secret, services.join_code):
            return None
        return check_code(services, given)
    if token_valid(request.cookies.get(COOKIE, ""), services.secret, services.join_code):
        return None
    return jsonify(error=gettext("join code needed: open /join?code=CODE or send 'Authorization: Bearer CODE'")), 401


def authorised(services: Any) -> bool:
    """True when the request may use the API (no rate-limit bookkeeping; for pages)."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        given = header[len("Bearer ") :].strip()
        return codes_match(given, services.join_code) or token_valid(given, services.secret, services.join_code)
    return token_valid(request.cookies.get(COOKIE, ""), services.secret, services.join_code)
