"""The end of a game on the phones (#34): "New game with the same players" in one tap, and the recap.

``POST /api/sessions/active/again`` starts a new game of the same system with the options the game on the
table was set up with (the same players, seats and choices), within the phones' limits on new games
(``webui.games``); the seats carry over as for any new game with the same seat names (``webui.seats``).
``GET /api/sessions/active/recap`` (JSON), ``recap.txt`` and ``recap.png`` tell the game from its log
(``core.recap``) as the asking seat may read it, on a read-only connection of their own; the picture is drawn by
the e-paper's renderer (``display``) at a phone's size.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from tableside.core import recap as recap_core
from tableside.core.errors import NotFound
from tableside.core.store import Store
from tableside.webui.api import seat_of_request
from tableside.webui.history import ChartBook, _identities, _round
from tableside.webui.i18n import gettext

bp = Blueprint("recap", __name__)
PHONE = (780, 1688)  # the recap picture: a 390 x 844 phone's screen at twice its pixels


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
        raise NotFound(gettext("no game on the table to play again: start one (POST /api/sessions)"))
    started = services.new_games.start(row["system"], row["options"], row["name"])
    return jsonify({k: v for k, v in started.items() if k != "state"}), 201


# -- the recap -------------------------------------------------------------------------------------
class _Timed(ChartBook):
    """The chart's fold, also noting each version's round (to time the rounds from the log's clock)."""

    def __init__(self, session_id: str, system: Any, row: dict) -> None:
        self.round_of: dict[int, Any] = {}
        super().__init__(session_id, system, row)

    def _add(self, version: int, state: dict) -> None:
        self.round_of[version] = _round(state)
        super()._add(version, state)


def _round_times(entries: list[dict], round_of: dict[int, Any]) -> list[dict]:
    spent: dict[Any, float] = {}
    before = None
    for e in entries:
        at = recap_core.entry_time(e)
        r = round_of.get(e.get("seq"))
        if at and before and r is not None:
            spent[r] = spent.get(r, 0.0) + max((at - before).total_seconds(), 0.0)
        before = at or before
    return [{"round": r, "time": recap_core.clock(t)} for r, t in sorted(spent.items())]


def _recap() -> tuple[dict, str]:
    """The recap of the game on the table as this phone's seat may read it, and the game's title."""
    table = _services().table
    position = table.position()
    if position is None:
        raise NotFound(gettext("no game on the table: start one (POST /api/sessions)"))
    session_id, version = position
    seat = seat_of_request()
    with table.held():
        screen = table.screen()
        state = table.current_state()
    row = table.store_row(session_id)
    system = table.system_of(row)
    reader = Store.reader(table.store.path)  # its own read-only connection: the table is never held
    try:
        book = _Timed(session_id, system, row)
        book.catch_up(reader, version)
        entries = list(reader.entries(session_id, after=0, upto=version, damaged=[]))
    finally:
        reader.close()
    _title, x_label, _names, points = book.points()
    labels = _identities(system, state)[0]
    result = screen.to_dict()["result"] if screen is not None else None
    # The lead is the players' (VENOM charts the Event Track too): the names the final scores or the seats use.
    players = {n for n, _s in result["scores"]} if result else set(labels.values())
    series = [(p["x"], {n: v for n, v in p["values"].items() if n in players}) for p in points]
    told = recap_core.recap(entries, seat, result, series, labels, waiting=book.waiting, x_label=x_label)
    told["time_per_round"] = _round_times(entries, book.round_of)
    return told, (screen.title if screen is not None else "Tableside")


@bp.get("/api/sessions/active/recap")
def recap_json():
    told, title = _recap()
    return jsonify({"title": title, **told, "text": recap_core.recap_text(told, title)})


@bp.get("/api/sessions/active/recap.txt")
def recap_text():
    told, title = _recap()
    return Response(recap_core.recap_text(told, title), mimetype="text/plain; charset=utf-8")


@bp.get("/api/sessions/active/recap.png")
def recap_png():
    told, title = _recap()
    # the renderer and the panels' table load with the first picture asked for, not at the server's start (#37)
    from tableside.core.recap_screen import recap_screen
    from tableside.display.panels import get_panel
    from tableside.display.quantize import to_panel_image
    from tableside.display.render import render

    panel = replace(get_panel("spectra-7.3"), id="phone", name="Phone recap", width=PHONE[0], height=PHONE[1])
    image = to_panel_image(render(recap_screen(told, title), panel), panel)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    response = Response(out.getvalue(), mimetype="image/png")
    response.headers["Content-Disposition"] = 'inline; filename="tableside-recap.png"'
    return response
