"""The end of a game on the phones: "New game with the same players" in one tap (#34).

``POST /api/sessions/active/again`` starts a new game of the same system with the options the game on the
table was set up with (the same players, seats and choices), within the phones' limits on new games
(``webui.games``); the seats carry over as for any new game with the same seat names (``webui.seats``).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from tableside.core.errors import NotFound

bp = Blueprint("recap", __name__)


def _services():
    return current_app.extensions["tableside"]


@bp.post("/api/sessions/active/again")
def again():
    services = _services()
    table = services.table
    with table.held():
        view = table.view(with_state=False) if table.has_active() else None
        row = table.store.get_session(view["id"]) if view else None
    if row is None:
        raise NotFound("no game on the table to play again: start one (POST /api/sessions)")
    started = services.new_games.start(row["system"], row["options"], row["name"])
    return jsonify({k: v for k, v in started.items() if k != "state"}), 201
