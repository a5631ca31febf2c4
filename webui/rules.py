"""The rulebooks on the phone (#35): ``GET /api/rules/search?q=...`` finds the passages of the four books.

The search itself is ``core.rulebook_search`` (FTS5 over the books, built on the first search). With a game
on the table its book comes first, and in it the passages under the heading of the game's phase ("Combat
Phase" in VENOM's Combat); ``?system=`` asks for another book first. ``GET /api/rules/ref/<key>`` gives one
reference, by the key a prompt carries (the moment sends the key alone, the passage is fetched when opened).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from tableside.core import rulebook_refs
from tableside.core.errors import BadRequest, NotFound
from tableside.webui.api import seat_of_request
from tableside.webui.i18n import gettext

bp = Blueprint("rules", __name__)


def _on_the_table() -> tuple[str | None, str | None]:
    """The system and phase of the game on the table, as this phone's seat may see it (none without a game)."""
    table = current_app.extensions["tableside"].table
    with table.held():
        if not table.has_active():
            return None, None
        view = table.view(seat_of_request(), with_state=True)
    phase = (view.get("state") or {}).get("phase")
    return view.get("system"), phase if isinstance(phase, str) else None


def _limit() -> int:
    raw = request.args.get("limit", "10")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 3:
        raise BadRequest(
            gettext("'limit' must be a number of passages, such as ?limit=5, not {got}", got=repr(raw[:20]))
        )
    return int(raw)


@bp.get("/api/rules/search")
def search():
    """``{"query", "system", "phase", "results"}``: the passages best first, each with its book, heading,
    line and the text in parts (``mark``: a word searched for), so the page never parses HTML."""
    query = request.args.get("q", "")
    system, phase = _on_the_table()
    asked = request.args.get("system")
    if asked:
        system, phase = asked, (phase if asked == system else None)
    from tableside.core import rulebook_search  # the books' index loads with the first search, not at start (#37)

    results = rulebook_search.search(query, system=system, phase=phase, limit=_limit())
    return jsonify(query=query, system=system, phase=phase, results=results)


@bp.get("/api/rules/ref/<key>")
def reference(key: str):
    """The reference ``"<book>:<key>"`` as a refusal's 422 carries it (``rule``): book, title, heading,
    quote, line and the paragraph in parts, or the table's own choice. 404 for a key no book holds."""
    system, _, name = key.partition(":")
    from tableside.core.rulebook_search import BOOKS

    found = rulebook_refs.describe(system, name) if system in BOOKS else None
    if found is None:
        raise NotFound(gettext("no rule {key}: a rule is named as book:key, such as vnm:declare", key=repr(key[:60])))
    return jsonify(found)
