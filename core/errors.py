"""Errors that reach a user: each carries the HTTP status the contract gives it.

The message is the whole user-facing text, so it must name what was wrong in
words a player understands ("Health must be 1-8, got 0"), never a traceback.
"""

from __future__ import annotations

import sys


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
    """Well-formed but against the game's rules (HTTP 422). Changes nothing.

    ``rule`` names the rulebook passage it rests on (#35): a key of the system's ``rulerefs.RULES``, or
    ``"<system>:<key>"`` from outside a system. Without one, the system's ``rulerefs.DEFAULTS`` gives it
    from where the refusal was made (``raised_in``: the module and function that built it), so most
    refusals need no key of their own.
    """

    status = 422

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.raised_in = _raised_in(self)


def _raised_in(error: RuleError) -> str:
    """``module:function`` of the code that built ``error``: past a subclass's own ``__init__`` and past
    comprehensions and lambdas (``<genexpr>``), so it is the function a reader sees the call in."""
    frame = sys._getframe(2)
    while frame.f_back is not None and (frame.f_locals.get("self") is error or frame.f_code.co_name.startswith("<")):
        frame = frame.f_back
    return f"{frame.f_globals.get('__name__', '')}:{frame.f_code.co_name}"


class BindingError(RuntimeError):
    """A game system's button binding raised: a bug in the system, not a player's mistake.

    Not a TablesideError: it is reported as a hardware/binding fault (log, GET /api/hardware,
    ``tableside doctor``), never shown as a refusal of the rules.
    """

    component = "binding"


class TooMany(TablesideError):
    """A limit that keeps the table's card from filling: too many saved games, or new ones too fast (HTTP 429)."""

    status = 429
