"""Which phone holds which seat: seat tokens, presence, takeover and seats carried into the next game.

Phones are this layer's: the core keeps the claims in the store (its privacy rules ask who holds a
seat) and knows nothing of tokens or of who is here. A table has one ``Seats`` (``seats_for``), so
every app built over it sees the same phones. Every store call is made while the table is held
(``Table.held``): the store is used by one thread at a time.
"""

from __future__ import annotations

import logging
import math
import secrets
from datetime import UTC, datetime
from typing import Any

from tableside.core.errors import BadRequest, Conflict, RuleError, SeatGone, TablesideError
from tableside.core.table import Table
from tableside.core.tokens import same_token, token_hash
from tableside.webui.consent import Consent, checked_pin
from tableside.webui.i18n import gettext

log = logging.getLogger(__name__)

# A held seat may be taken over without its phone's agreement once that phone has sent no request and held
# no stream for this long (docs/api.md, "Seats").
SEAT_GONE_AFTER = 120.0
MAX_TOKEN = 100  # longer than any token this table gives out: not one of them
KNOWN_PHONES = 4096  # phones remembered as heard from before the oldest are forgotten


def seats_for(table: Table) -> Seats:
    """The one ``Seats`` of ``table``, made the first time it is asked for."""
    return table.kept("seats", Seats)


class Seats:
    """The phones seated at one table: who holds each seat, and when each phone was last heard from."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.store = table.store
        # Presence of the phones holding seats, by the hash of their token (what the store's claims name, so
        # a held seat's phone is found from its claim): when each was last heard from, and its open streams.
        self._seen: dict[str, float] = {}
        self._streams: dict[str, int] = {}
        with table.held():
            self.consent = Consent(self.store, table.clock)  # seat PINs, and take-overs made without one
            table.unconsented = self._unconsented  # the core plays such a seat as one no phone holds
            self._left = self.store.get_meta("left_session")  # the game before this one (seats carry over)
            position = table.position()
            self._on_table = position[0] if position else None
        table.subscribe(self._changed)

    # -- the game on the table -----------------------------------------------------------------
    def _changed(self, event: dict) -> None:
        if event.get("kind") == "session":
            with self.table.held():
                self._follow()

    def _follow(self) -> None:
        """Remember the game the table left when another came on (the table held): a phone seated in it keeps
        its seat in the next game where that game has a seat of the same name (``_carry``)."""
        position = self.table.position()
        now = position[0] if position else None
        if now == self._on_table:
            return
        if self._on_table is not None:
            self._left = self._on_table
            try:
                self.store.set_meta("left_session", self._left)
            except TablesideError as exc:  # a full card: phones pick their seats again after a restart, no more
                log.warning("the game left was not remembered: %s", exc.message)
        self._on_table = now

    def _game(self) -> tuple[str, list]:
        """(the id of the game on the table, its seats), noting a game that came on since it was last read."""
        self._follow()
        return self.table.seats_now()

    def _carry(self, session_id: str, names: list[str], seat: str) -> tuple[str, str] | None:
        """A phone seated at ``seat`` in the game the table just left asks with that seat's token: it keeps
        the seat of the same name in the game on the table when no phone holds it there (the table expects
        Ann's phone to stay Ann's). Only that phone, on its next request (open across the new game, or back
        from sleep), and only from the game just left: docs/api.md, "Seats". None when it cannot."""
        if seat not in names:
            return None
        try:
            moved = self.store.carry_seats(self._left or "", session_id, [seat])
        except TablesideError as exc:  # a full card: the phone picks its seat again
            log.warning("seat %s was not carried over: %s", seat, exc.message)
            return None
        if not moved:  # another phone holds it in this game by now
            return None
        self.table.seats_changed()
        log.info("seat %s carried over to the game on the table by its phone", seat)
        return (session_id, seat)

    # -- seats -----------------------------------------------------------------------------------
    def claim_seat(self, seat: Any, takeover: Any = False, held: Any = None, pin: Any = None) -> dict:
        """A phone takes a seat. A held seat is taken over only when asked and when its phone is gone: no
        request and no open stream for ``SEAT_GONE_AFTER`` seconds (else that phone releases it first).

        ``held`` is the seat token the phone sent, if any: a phone holds one seat, so the seat it held
        (in this game or one before) is given up with the claim, never left to a holder no phone is; and
        a phone asking again for the seat it holds keeps it (the same token).

        ``pin`` (4-8 digits) is the seat's consent (#33): chosen with a claim, it is what a take-over must
        send to read the seat's private data. Without it a take-over of a seat with private data (or a PIN)
        still seats the phone, "public": it reads that seat as a phone with no seat does."""
        if not isinstance(seat, str) or not seat.strip():
            raise BadRequest(gettext("'seat' must be the name of a seat"))
        if not isinstance(takeover, bool):
            raise BadRequest(gettext("'takeover' must be true or false"))
        pin = checked_pin(pin)
        if held is not None and (not isinstance(held, str) or not held or len(held) > MAX_TOKEN):
            held = None  # not a token this table gave out: nothing to give up
        with self.table.held():
            session_id, seats = self._game()
            names = [s.name for s in seats]
            if seat not in names:
                shown = ", ".join(names) or gettext("none: this game has no seats")
                raise RuleError(
                    gettext("no seat {seat} in this game; seats: {seats}", seat=repr(seat[:40]), seats=shown)
                )
            holder = self.store.seat_claims(session_id).get(seat)
            if holder is not None and held is not None and same_token(held, holder):  # its own seat, asked again
                self._seen[holder] = self.table.clock()
                public = self.consent.is_public(session_id, seat, holder)
                if pin is not None and not public:  # a PIN chosen for the seat it holds
                    self.consent.seated(session_id, seat, holder, pin, public=False)
                return self._claimed(session_id, seat, held, public)
            if holder is not None and not takeover:
                raise Conflict(
                    gettext(
                        "{seat}'s seat is held by another phone; take it over only if that phone is gone", seat=seat
                    )
                )
            consented = pin is not None and self.consent.has_pin(session_id, seat)
            if consented:
                self.consent.check(session_id, seat, pin)  # a wrong PIN is refused: nothing changes
            if holder is not None and not (consented and self.consent.is_public(session_id, seat, holder)):
                away = self._away(holder)  # the owner's PIN takes the seat back from a phone seated without it
                if away < SEAT_GONE_AFTER:
                    raise Conflict(
                        gettext(
                            "{seat}'s phone is still here (heard from {away} s ago): ask it to release the seat, "
                            "or take it over once that phone has been gone for {after} s",
                            seat=seat,
                            away=int(away),
                            after=int(SEAT_GONE_AFTER),
                        )
                    )
                log.warning("seat %s taken over from a phone gone for %.0f s", seat, away)
            public = not consented and (
                self.consent.needs_consent(session_id, seat)
                or (holder is not None and self._has_private(session_id, seat))
            )
            token = secrets.token_urlsafe(18)
            if held is not None:
                before = self.store.seat_of_token(held)  # a seat given up for another, as if released
                if before is not None:
                    self.consent.released(before[0], before[1], token_hash(held))
                self.store.forget_token(held)
                self._seen.pop(token_hash(held), None)
            at = datetime.fromtimestamp(self.table.clock(), UTC).isoformat(timespec="seconds")
            self.store.claim_seat(session_id, seat, token, at)
            self.consent.seated(session_id, seat, token_hash(token), None if public else pin, public=public)
            self.table.seats_changed()
            self._seen[token_hash(token)] = self.table.clock()
            return self._claimed(session_id, seat, token, public)

    def _unconsented(self, session_id: str) -> list[str]:
        """Seats held by a phone seated without the PIN (still held by it, not by a phone gone since)."""
        claims = self.store.seat_claims(session_id)
        return [
            s
            for s in self.consent.public_seats(session_id)
            if s in claims and self.consent.is_public(session_id, s, claims[s])
        ]

    def _claimed(self, session_id: str, seat: str, token: str, public: bool) -> dict:
        out = {"seat": seat, "token": token, "session": session_id}
        if self.consent.has_pin(session_id, seat):
            out["pin"] = True
        if public:
            out["public"] = True  # seated without the seat's PIN: this phone reads the table's view of it
        return out

    def _has_private(self, session_id: str, seat: str) -> bool:
        """Whether ``seat`` has data only its own phone reads: its state seen by it is not the table's (a pool's
        faces, a hand), or the log holds an entry private to it (the table held)."""
        try:
            if self.table.view(seat)["state"] != self.table.view(None)["state"]:
                return True
            entries = self.store.entries(session_id, damaged=[])  # one at a time: memory flat in the game's length
            return any(isinstance(e.get("private"), dict) and e["private"].get("seat") == seat for e in entries)
        except TablesideError:  # a game that no longer reads: no phone gets more than the table's view
            return True

    def seat_holders(self) -> list[dict]:
        """Every seat of the game on the table, and for a held one when another phone may take it over:
        ``here`` while its phone holds a stream (it frees only when released), else ``frees_in`` seconds
        (0: gone long enough, take it over now). The seat dialog says so before anyone tries."""
        with self.table.held():
            session_id, seats = self._game()
            claims = self.store.seat_claims(session_id)
            out = []
            for s in seats:
                row = {**s.describe(), "claimed": s.name in claims}
                kept = claims.get(s.name)
                if kept is not None:
                    here = bool(self._streams.get(kept))
                    away = 0.0 if here else self._away(kept)
                    row["here"] = here
                    row["frees_in"] = None if here else max(0, math.ceil(SEAT_GONE_AFTER - away))
                    if self.consent.is_public(session_id, s.name, kept):
                        row["public"] = True  # seated without the PIN: the owner's PIN takes it back at once
                if self.consent.has_pin(session_id, s.name):
                    row["pin"] = True  # a take-over sends the PIN to read this seat's private data
                out.append(row)
            return out

    def release_seat(self, token: Any) -> dict:
        """The phone holding a seat gives it up (so another phone may take it at once)."""
        seat = self.seat_of(token)
        if seat is None:
            raise BadRequest(gettext("only the phone holding a seat can release it: send its seat token"))
        with self.table.held():
            session_id, _ = self._game()
            self.consent.released(session_id, seat, token_hash(token))
            self.store.release_seat(session_id, seat)
            self.table.seats_changed()
            self._seen.pop(token_hash(token), None)
            return {"seat": seat, "released": True}

    def drop_stale(self, token: Any) -> str | None:
        """A page drops a seat token it was told is gone: a token that holds a seat in the game on the table
        keeps it (the seat is returned: a claim that won a race); else its claim in a game gone by is freed,
        so that game, reopened, offers the seat to anyone instead of to a phone that forgot it."""
        try:
            return self.seat_of(token)
        except SeatGone:
            with self.table.held():
                self.store.forget_token(token)
                self.table.seats_changed()
                self._seen.pop(token_hash(token), None)
            return None

    def reads_as(self, token: Any) -> str | None:
        """The seat whose private data a phone's token reads: its seat, or None (the table's view) for a
        phone seated without the seat's PIN (#33), until the owner takes it back or another game comes on."""
        seat = self.seat_of(token)
        return None if seat is None or self.public_seat(token) else seat

    def public_seat(self, token: Any) -> str | None:
        """The seat a phone holds without its PIN (it reads the table's view of it), or None."""
        seat = self.seat_of(token)
        if seat is None:
            return None
        with self.table.held():
            session_id, _ = self._game()
            return seat if self.consent.is_public(session_id, seat, token_hash(token)) else None

    def shown(self, view: dict, token: str | None) -> dict:
        """``view`` (the table's) for a phone seated without its seat's PIN: it names the seat the phone holds
        and says it reads what the table reads of it (``seat_public``); any other view as it is."""
        held = self.public_seat(token) if token and view.get("seat") is None else None
        return {**view, "seat": held, "seat_public": True} if held else view

    def seat_of(self, token: Any) -> str | None:
        """The seat a phone's token holds in the active session (None for no token)."""
        if token in (None, ""):
            return None
        if not isinstance(token, str) or len(token) > MAX_TOKEN:
            raise BadRequest(gettext("the seat token is not valid"))
        with self.table.held():
            session_id, seats = self._game()
            held = self.store.seat_of_token(token)
            if held is not None and held[0] != session_id and held[0] == self._left:
                held = self._carry(session_id, [s.name for s in seats], held[1]) or held
            if held is None or held[0] != session_id:
                raise SeatGone(
                    gettext(
                        "this phone no longer holds a seat in the game on the table "
                        "(it was taken over, or the game changed): pick a seat again"
                    ),
                    seat=held[1] if held else None,
                )
            if len(self._seen) > KNOWN_PHONES:  # bounded: forget phones of finished games
                self._seen.clear()
            self._seen[token_hash(token)] = self.table.clock()
            return held[1]

    # -- presence --------------------------------------------------------------------------------
    def _away(self, kept: str) -> float:
        """Seconds since the phone whose token hashes to ``kept`` was last heard from (0 while it holds a
        stream)."""
        if self._streams.get(kept):
            return 0.0
        now = self.table.clock()
        return now - self._seen.setdefault(kept, now)  # unheard of since the server started: counts from now

    def stream_opened(self, token: str) -> None:
        """A seated phone opened the event stream: it is present until ``stream_closed``."""
        kept = token_hash(token)
        with self.table.held():
            self._streams[kept] = self._streams.get(kept, 0) + 1

    def stream_closed(self, token: str) -> None:
        kept = token_hash(token)
        with self.table.held():
            left = self._streams.get(kept, 0) - 1
            if left > 0:
                self._streams[kept] = left
            else:
                self._streams.pop(kept, None)
                self._seen[kept] = self.table.clock()

    def heard_from(self, token: str) -> None:
        """A seated phone asked again (answered from what ``seat_of`` resolved for it at this mark):
        it is present, as ``seat_of`` would have noted."""
        self._seen[token_hash(token)] = self.table.clock()
