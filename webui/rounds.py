"""A round's end on the phones (#34): ``GET /api/sessions/active/round``, what changed in the last round that ended.

Told from the log (``core.round_summary``) in the same walk as the chart (``webui.history.ChartBook``: folded
forward from the last look on a read-only connection of its own, so the table is never held and a long game is
read once). The phones ask when the view's ``round`` (the round being played, ``GameSystem.round_name``)
changes; the summary is public: every seat reads the same lines, built from the public view of each state.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from tableside.webui.history import active_book
from tableside.webui.i18n import spoken

bp = Blueprint("rounds", __name__)


@bp.get("/api/sessions/active/round")
def last_round():
    """{"id", "version", "round": the round being played, "summary": the last round that ended (or null)}."""
    with active_book(current_app.extensions["tableside"].table) as (_books, book):
        fold = book.round_fold
        summary = spoken(fold.summary())
        return jsonify({"id": book.session, "version": book.version, "round": spoken(fold.name), "summary": summary})
