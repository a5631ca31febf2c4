"""The table's owner PIN: what opens the phone's Settings page (issue #32), separate from the join code.

Guests read the join code off the e-paper; the owner PIN is never drawn there. It is made at the first
start (``tableside serve`` prints it once) or by ``tableside owner-pin`` (a new one each time, printed on
the Pi's own terminal), and only a salted PBKDF2 hash of it is kept, in ``DATA/owner_pin`` (0600), so a
copy of the data folder does not show it. A phone proves it once, under a throttle of its own
(``webui.auth.JoinGuard``), and gets an owner cookie signed with the install's secret and that hash: a new
PIN revokes every owner cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from pathlib import Path

FILE = "owner_pin"
PIN_LENGTH = 8  # digits: 10^8 PINs, each wrong one throttled like a join code (hours per device after a few)
MAX_PIN = 64  # what a phone may send: longer is refused before anything is hashed
ITERATIONS = 200_000  # PBKDF2-SHA256: a stolen file is slow to test, a right PIN a fraction of a second on a Pi
TOKEN_VERSION = "o1"


def _hash(pin: str, salt: bytes, iterations: int = ITERATIONS) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations).hex()


_keeping: dict[Path, threading.Thread] = {}  # first PINs whose hash is still being made, by folder
_keeping_lock = threading.Lock()


def new_pin(folder: Path) -> str:
    """Make a new PIN, keep only its hash (whole or not at all, 0600), and return the PIN to be shown once."""
    pin = _digits()
    _keep(folder, pin)
    return pin


def _digits() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_LENGTH))


def _keep(folder: Path, pin: str) -> None:
    salt = secrets.token_bytes(16)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(f"pbkdf2-sha256${ITERATIONS}${salt.hex()}${_hash(pin, salt)}\n")
    tmp.chmod(0o600)
    os.replace(tmp, path)


def first_pin(folder: Path, after: threading.Event | None = None, within: float = 1.0) -> str | None:
    """The PIN made now when there is none yet (the first start prints it), else None: it is not kept.

    Its hash (PBKDF2, about 60 ms here and half a second on a Pi Zero 2 W) is made on a thread of its own,
    once the server has answered its first request (``after``, or ``within`` seconds), as the display and
    buttons are: a new table answers its phones first, and whatever reads the PIN (``stored``) waits for it.
    A start cut short before it is kept prints a new PIN the next time."""
    if (folder / FILE).exists():
        return None
    pin = _digits()
    with _keeping_lock:
        keeping = _keeping[folder] = threading.Thread(
            target=_keep_first, args=(folder, pin, after, within), name="owner-pin"
        )
        keeping.start()
    return pin


def _keep_first(folder: Path, pin: str, after: threading.Event | None, within: float) -> None:
    if after is not None:
        after.wait(within)
    try:
        _keep(folder, pin)
    except OSError as exc:  # the PIN printed does not open Settings; the next start makes and prints another
        logging.getLogger("tableside").error("the owner PIN could not be kept in %s: %s", folder, exc)


def stored(folder: Path) -> str | None:
    """The kept hash line, or None when there is no PIN (or the file is not one of ours)."""
    with _keeping_lock:
        keeping = _keeping.get(folder)
    if keeping is not None:
        keeping.join()
        with _keeping_lock:
            if _keeping.get(folder) is keeping:
                del _keeping[folder]
    try:
        text = (folder / FILE).read_text()[:400].strip()
    except OSError:
        return None
    parts = text.split("$")
    if len(parts) != 4 or parts[0] != "pbkdf2-sha256" or not parts[1].isdigit():
        return None
    return text


def pin_right(folder: Path, given: str) -> bool:
    """Is ``given`` the owner PIN? Constant-time against the kept hash; spaces around it are ignored."""
    line = stored(folder)
    given = given.strip()
    if line is None or not given or len(given) > MAX_PIN:
        return False
    _, iterations, salt, digest = line.split("$")
    try:
        made = _hash(given, bytes.fromhex(salt), min(int(iterations), 10_000_000))
    except ValueError:
        return False
    return hmac.compare_digest(made, digest)


def make_token(secret: bytes, line: str) -> str:
    """The owner cookie's value: proof that this browser once gave the PIN whose hash is ``line``."""
    nonce = secrets.token_hex(8)
    return f"{TOKEN_VERSION}.{nonce}.{_mac(secret, line, nonce)}"


def token_valid(token: str, secret: bytes, line: str | None) -> bool:
    parts = token.split(".")
    if line is None or len(token) > 200 or len(parts) != 3 or parts[0] != TOKEN_VERSION:
        return False
    return hmac.compare_digest(parts[2].encode(), _mac(secret, line, parts[1]).encode())


def _mac(secret: bytes, line: str, nonce: str) -> str:
    key = hmac.new(secret, b"tableside-owner\0" + line.encode(), hashlib.sha256).digest()
    return hmac.new(key, f"{TOKEN_VERSION}.{nonce}".encode(), hashlib.sha256).hexdigest()
