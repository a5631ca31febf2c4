"""Errors that reach a user: each carries the HTTP status the contract gives it.

The message is the whole user-facing text, so it must name what was wrong in
words a player understands ("Health must be 1-8, got 0"), never a traceback.
"""

from __future__ import annotations


class TablesideError(Exception):
    """Base for every error a user may see. ``status`` is the HTTP code."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(TablesideError):
    """Malformed input: missing field, wrong type, not JSON (HTTP 400)."""

    status = 400


class NotFound(TablesideError):
    """No such session, system, route or button (HTTP 404)."""

    status = 404


class Conflict(TablesideError):
    """A stale ``expected_version``: someone else acted first (HTTP 409)."""

    status = 409


class SeatGone(Conflict):
    """A seat token that holds no seat in the game on the table (taken over, or the game changed): HTTP 409
    with ``seat_gone`` and the seat it held, so a phone drops it and shows the table view by itself."""

    def __init__(self, message: str, seat: str | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class RuleError(TablesideError):
    """Well-formed but against the game's rules (HTTP 422). Changes nothing."""

    status = 422


class BindingError(RuntimeError):
    """A game system's button binding raised: a bug in the system, not a player's mistake.

    Not a TablesideError: it is reported as a hardware/binding fault (log, GET /api/hardware,
    ``tableside doctor``), never shown as a refusal of the rules.
    """

    component = "binding"


class TooMany(TablesideError):
    """A limit that keeps the table's card from filling: too many saved games, or new ones too fast (HTTP 429)."""

    status = 429
