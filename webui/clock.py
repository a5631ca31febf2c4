"""The soft clock per seat on the phones (#34): ``GET /api/sessions/active/clock``, each seat's time so far.

Told from the log (``core.soft_clock``): the seats waited for come from the chart's walk (``webui.history``), the
entries' times and the clock's switches are folded forward from the last look on a read-only connection, so the
table is never held. A phone asks once per change while the clock is on and runs the seat's time itself between
changes (no polling). ``POST /api/sessions`` with ``"clock": true`` starts the game with the clock on (its first
entry). The clock never refuses anything.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app, jsonify
from tableside.core.errors import BadRequest
from tableside.core.soft_clock import CLOCK, ClockFold
from tableside.webui.history import active_book
from tableside.webui.i18n import gettext

bp = Blueprint("clock", __name__)


def start_clock(table: Any, clock: Any) -> None:
    """The new game's soft clock: on when ``clock`` is true (a log entry), else left off."""
    if clock is None or clock is False:
        return
    if clock is not True:
        raise BadRequest(gettext("'clock' must be true or false (the soft clock per seat, off by default)"))
    table.act({"type": CLOCK, "do": "on"}, source="api")


@bp.get("/api/sessions/active/clock")
def seat_clock():
    """{"id", "version", "on", "paused", "seconds": {seat: s}, "running", "since", "now"}."""
    table = current_app.extensions["tableside"].table
    with active_book(table) as (books, book):
        fold = books.clock
        if fold is None or fold[0] != book.session or fold[1].version > book.version:
            fold = books.clock = (book.session, ClockFold())
        timer = fold[1]
        for e in books.read(table).entries(book.session, after=timer.version, upto=book.version, damaged=[]):
            timer.add(e, book.waiting.get(int(e["seq"])))
        told = timer.told()
    now = datetime.fromtimestamp(table.clock(), UTC).isoformat(timespec="seconds")
    return jsonify({"id": book.session, "version": timer.version, **told, "now": now})
