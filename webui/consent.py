"""A seat's consent to a take-over (#33): a seat PIN chosen when the seat was claimed, and the take-overs made
without it, which read the game as a phone with no seat does.

A phone asleep for ``SEAT_GONE_AFTER`` must not hand its pool, hand or private log to whoever takes its seat
over: only its PIN does. A take-over without it still seats the taker (the table goes on), but its token is
"public" until the seat's owner claims it back with the PIN or another game comes on. Both are kept in the
store's meta (one small JSON value, no migration), so a restart keeps them; the PIN only as a salted,
stretched hash, so a copy of the data file does not hand it out.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import re
import secrets
from typing import Any

from tableside.core.errors import BadRequest, TablesideError, TooMany
from tableside.core.text import N_

log = logging.getLogger(__name__)

META_KEY = "seat_consent"
PIN = re.compile(r"[0-9]{4,8}")
PIN_ROUNDS = 20_000  # a few ms on a Pi per check, and each guess from a copied file costs as much
TRIES = 5  # wrong PINs for one seat before a wait
WAIT = 60.0  # seconds to wait after TRIES wrong PINs (doubling while they go on)
KEPT = 512  # seats remembered (oldest forgotten first): games long gone need no PIN


class WrongPin(TablesideError):
    """A take-over with a PIN that is not the seat's (HTTP 403)."""

    status = 403


def checked_pin(pin: Any) -> str | None:
    """The PIN a claim sent (None: none), or a refusal in words for one that is not 4 to 8 digits."""
    if pin is None or pin == "":
        return None
    if not isinstance(pin, str) or not PIN.fullmatch(pin):
        raise BadRequest(N_("'pin' must be 4 to 8 digits (0-9), or left out for a seat without a PIN"))
    return pin


def _key(session_id: str, seat: str) -> str:
    return f"{session_id}\t{seat}"


def _pin_hash(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), PIN_ROUNDS).hex()


class Consent:
    """The seat PINs and the public take-overs of one table (its ``Seats`` holds the table when calling)."""

    def __init__(self, store: Any, clock: Any) -> None:
        self.store = store
        self.clock = clock
        self._pins: dict[str, str] = {}  # "session\tseat" -> "salt$hash"
        self._public: dict[str, str] = {}  # "session\tseat" -> the token hash of the phone seated without it
        self._wrong: dict[str, tuple[int, float]] = {}  # wrong tries of a seat's PIN, and when they may go on
        kept = store.get_meta(META_KEY)
        try:
            data = json.loads(kept) if kept else {}
            pins, public = data.get("pins", {}), data.get("public", {})
            if isinstance(pins, dict) and isinstance(public, dict):
                self._pins = {str(k): str(v) for k, v in pins.items()}
                self._public = {str(k): str(v) for k, v in public.items()}
        except (ValueError, AttributeError):  # a damaged value: every seat is without a PIN, said in the log
            log.warning("the seat PINs kept in the data file do not read: seats have no PIN until claimed again")

    def _save(self) -> None:
        for kept in (self._pins, self._public):
            while len(kept) > KEPT:
                kept.pop(next(iter(kept)))
        self.store.set_meta(META_KEY, json.dumps({"pins": self._pins, "public": self._public}, sort_keys=True))

    def has_pin(self, session_id: str, seat: str) -> bool:
        return _key(session_id, seat) in self._pins

    def needs_consent(self, session_id: str, seat: str) -> bool:
        """Whether a claim of ``seat`` reads its private data only with its PIN: it has one, or a phone sat at
        it without one (a free seat a public holder released is no one's to hand out)."""
        key = _key(session_id, seat)
        return key in self._pins or key in self._public

    def public_seats(self, session_id: str) -> list[str]:
        """The seats of ``session_id`` held by a phone seated without the seat's PIN."""
        head = f"{session_id}\t"
        return [key[len(head) :] for key in self._public if key.startswith(head)]

    def is_public(self, session_id: str, seat: str, kept: str) -> bool:
        """Whether the phone whose token hashes to ``kept`` sits at ``seat`` without its consent."""
        public = self._public.get(_key(session_id, seat))
        return public is not None and hmac.compare_digest(public, kept)

    def check(self, session_id: str, seat: str, pin: str) -> None:
        """The right PIN for ``seat`` passes; a wrong one is refused in words, and after ``TRIES`` of them the
        seat's PIN is not checked again for a while (said in seconds)."""
        key = _key(session_id, seat)
        now = self.clock()
        tries, until = self._wrong.get(key, (0, 0.0))
        if until > now:
            raise TooMany(
                N_(
                    "too many wrong PINs for {seat}'s seat: try again in {seconds} s "
                    "(or ask that phone to release the seat)",
                    seat=seat,
                    seconds=math.ceil(until - now),
                )
            )
        salt, _, kept = self._pins.get(key, "").partition("$")
        if salt and hmac.compare_digest(_pin_hash(pin, salt), kept):
            self._wrong.pop(key, None)
            return
        tries += 1
        if len(self._wrong) > 4 * KEPT:
            self._wrong.clear()
        wait = WAIT * 2 ** (tries // TRIES - 1) if tries % TRIES == 0 else 0.0
        self._wrong[key] = (tries, now + min(wait, 3600.0))
        left = TRIES - tries % TRIES
        if wait:
            raise WrongPin(
                N_(
                    "that is not the PIN of {seat}'s seat: nothing changed (wait {seconds} s before the next try)",
                    seat=seat,
                    seconds=int(wait),
                )
            )
        raise WrongPin(
            N_(
                "that is not the PIN of {seat}'s seat: nothing changed ({left} more tries before a wait)",
                seat=seat,
                left=left,
            )
        )

    def seated(self, session_id: str, seat: str, kept: str, pin: str | None, public: bool) -> None:
        """A phone (its token hash ``kept``) now holds ``seat``: with the seat's consent (``public`` false), a
        PIN it chose is kept (none: the seat keeps none); without it, the phone reads the public view."""
        key = _key(session_id, seat)
        if public:
            self._public[key] = kept
        else:
            self._public.pop(key, None)
            if pin is not None:
                salt = secrets.token_hex(16)
                self._pins[key] = f"{salt}${_pin_hash(pin, salt)}"
            else:
                self._pins.pop(key, None)
        self._save()

    def released(self, session_id: str, seat: str, kept: str) -> None:
        """The phone holding ``seat`` released it: its owner's PIN goes with it; a public holder's release
        leaves the PIN (the next phone still needs it to read the seat's private data)."""
        key = _key(session_id, seat)
        if self.is_public(session_id, seat, kept):
            return
        if self._pins.pop(key, None) is not None or self._public.pop(key, None) is not None:
            self._save()
