"""Finished games as plays, for the apps where players keep theirs (#34): BG Stats' import format, and CSV.

``GET /api/sessions/<id>/bgstats`` answers one finished game as BG Stats' play (``core.plays``; the phone's
"Add to BG Stats" opens it in the app); ``GET /api/plays.csv`` every finished game, a row per player. Both read
on a connection of their own (``Store.reader``), so the table is never held while the saved games are read.
A game the rules have not ended is no play: 404 for one, left out of the CSV.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from tableside.core import plays, privacy
from tableside.core.errors import NotFound, TablesideError
from tableside.core.replay import Replay
from tableside.core.store import Store
from tableside.webui.history import _identities
from tableside.webui.i18n import gettext

bp = Blueprint("plays", __name__)


def _table():
    return current_app.extensions["tableside"].table


def finished_play(reader: Store, table: Any, row: dict) -> dict | None:
    """The saved game ``row`` as BG Stats' play, or None when its rules have not ended it (or cannot read it)."""
    system, _why = table.rules_for(row)
    version = reader.version(row["id"])
    if system is None or version == 0:
        return None
    try:
        state = privacy.state(system, Replay(reader, system, row).at(version), None)  # the public view
    except TablesideError:  # a damaged game is named by its own export, never a failed list of plays
        return None
    result = system.screen(state).to_dict()["result"]
    last = reader.entry(row["id"], version)
    if result is None or last is None:
        return None
    return plays.play(
        session_id=row["id"],
        system_id=row["system"],
        game_name=system.name,
        result=result,
        labels=_identities(system, state)[0],
        started_at=row["created_at"],
        ended_at=last["at"],
        start_player=system.start_player(state),
    )


@bp.get("/api/sessions/<session_id>/bgstats")
def bgstats(session_id: str):
    table = _table()
    row, _seat = table.export_source(None if session_id == "active" else session_id)
    reader = Store.reader(table.store.path)
    try:
        found = finished_play(reader, table, row)
    finally:
        reader.close()
    if found is None:
        raise NotFound(gettext("this game has not ended yet: a play is exported once the rules end the game"))
    response = jsonify(found)
    stem = f"tableside-{row['system']}-{row['id'][:8]}"
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}.bgstats.json"'
    return response


@bp.get("/api/plays.csv")
def plays_csv():
    table = _table()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(plays.CSV_COLUMNS)
    reader = Store.reader(table.store.path)
    try:
        for row in reversed(reader.list_sessions()):  # oldest first, as a diary of plays reads
            found = finished_play(reader, table, row)
            if found is not None:
                writer.writerows(plays.csv_rows(found))
    finally:
        reader.close()
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="tableside-plays.csv"'
    return response
