"""Seat tokens are kept only as their SHA-256 (#33): a copy of the data file (a backup, a file another local
user can read) holds no token a phone could use to sit at a seat.

A token is a long random secret (``secrets.token_urlsafe(18)``, 144 bits), so a plain hash is enough: no
salt or key stretching is needed against guessing, and a hash is looked up by its index like the token was.
"""

from __future__ import annotations

import hashlib
import hmac


def token_hash(token: str) -> str:
    """What the data file keeps of ``token``: its SHA-256, hex (64 characters)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(token: str, kept: str) -> bool:
    """Whether ``token`` is the one ``kept`` (a ``token_hash``) was made from, compared in constant time."""
    return hmac.compare_digest(token_hash(token), kept)
