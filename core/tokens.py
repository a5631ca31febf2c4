"""Seat tokens are kept only as their SHA-256 (#33): a copy of the data file (a backup, a file another local
user can read) holds no token a phone could use to sit at a seat.

A token is a long random secret (``secrets.token_urlsafe(18)``, 144 bits), so a plain hash is enough: no
salt or key stretching is needed against guessing, and a hash is looked up by its index like the token was.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any, Protocol

_HASH = re.compile(r"[0-9a-f]{64}")  # a token_urlsafe(18) is 24 characters: never one of these


class _Executes(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


def token_hash(token: str) -> str:
    """What the data file keeps of ``token``: its SHA-256, hex (64 characters)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(token: str, kept: str) -> bool:
    """Whether ``token`` is the one ``kept`` (a ``token_hash``) was made from, compared in constant time."""
    return hmac.compare_digest(token_hash(token), kept)


def hash_clear_tokens(db: _Executes) -> int:
    """Rewrite in place every seat token ``db`` (an sqlite3 connection or an sqlite-utils database, in a
    transaction) still keeps in clear; a kept hash is left as it is, so this may run again on a file it
    already rewrote (an older backup rewritten, then restored and upgraded). ``secure_delete`` zeroes the
    clear text freed in the file's pages. Returns how many it rewrote."""
    db.execute("PRAGMA secure_delete = ON")
    rows = db.execute("SELECT rowid, token FROM seat_claims WHERE token IS NOT NULL").fetchall()
    clear = [(rowid, token) for rowid, token in rows if not (isinstance(token, str) and _HASH.fullmatch(token))]
    for rowid, token in clear:
        db.execute("UPDATE seat_claims SET token = ? WHERE rowid = ?", [token_hash(str(token)), rowid])
    return len(clear)
