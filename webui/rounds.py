"""A round's end on the phones (#34): ``GET /api/sessions/active/round``, what changed in the last round that ended.

Told from the log (``core.round_summary``) in the same walk as the chart (``webui.history.ChartBook``: folded
forward from the last look on a read-only connection of its own, so the table is never held and a long game is
read once). The phones ask when the view's ``round`` (the round being played, ``GameSystem.round_name``)
changes; the summary is public: every seat reads the same lines, built from the public view of each state.
The moment's view carries it too (``webui.api``), and so does the e-paper (``told_by``, fed to
``tableside.frames.FrameSource``), from the same book.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify
from tableside.core.errors import NotFound
from tableside.webui.history import active_book
from tableside.webui.i18n import spoken

bp = Blueprint("rounds", __name__)

Ended = tuple[str, dict[str, Any] | None]  # (the game on the table, the last round that ended in it or None)


@bp.get("/api/sessions/active/round")
def last_round():
    """{"id", "version", "round": the round being played, "summary": the last round that ended (or null)}."""
    with active_book(current_app.extensions["tableside"].table) as (_books, book):
        fold = book.round_fold
        summary = spoken(fold.summary())
        return jsonify({"id": book.session, "version": book.version, "round": spoken(fold.name), "summary": summary})


def round_end(table: Any) -> Ended | None:
    """The last round that ended (as ``GET /api/sessions/active/round`` tells it), with its game; None with no
    game. Read before the table is held: the chart's books are never waited for under the table's lock."""
    try:
        with active_book(table) as (_books, book):
            return book.session, book.round_fold.summary()
    except NotFound:
        return None


def told_by(app: Flask, table: Any) -> Callable[[], Ended | None]:
    """``round_end`` for the e-paper's frames, read on the render thread, which has no request: in ``app``'s
    context, from the same history book the phones read, so the panel and the phones tell one summary."""

    def told() -> Ended | None:
        with app.app_context():
            return round_end(table)

    return told
