"""JSON routes of contract section 4: one short view per route."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from tableside.core.errors import BadRequest, NotFound

bp = Blueprint("api", __name__)


def _services():
    return current_app.extensions["tableside"]


SEAT_HEADER = "X-Tableside-Seat"
SEAT_COOKIE = "tableside_seat"


def _seat() -> str | None:
    """The seat this phone holds (header or cookie), or None for the shared table view."""
    token = request.headers.get(SEAT_HEADER) or request.cookies.get(SEAT_COOKIE)
    return _services().table.seat_of(token) if token else None


def _since() -> int:
    raw = request.args.get("since", "0")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise BadRequest("'since' must be a version number, such as ?since=12")
    return int(raw)


def _body() -> dict[str, Any]:
    """The JSON object sent, or a 400 naming the problem; an empty body is {}."""
    if not request.get_data():
        return {}
    data = request.get_json(force=True, silent=True)  # curl -d sends no JSON content type
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


@bp.get("/healthz")
def healthz():
    return jsonify(ok=True)


@bp.get("/api/systems")
def systems():
    """Every game system with its options, actions and buttons."""
    return jsonify(_services().table.systems())


@bp.post("/api/sessions")
def new_session():
    body = _body()
    view = _services().table.create_session(body.get("system"), body.get("options"), body.get("name") or "")
    return jsonify(view), 201


@bp.get("/api/sessions")
def sessions():
    """Saved sessions, newest first."""
    return jsonify(_services().table.sessions())


@bp.get("/api/sessions/active")
def active():
    """The game on the table, as this phone's seat may see it."""
    return jsonify(_services().table.view(_seat()))


@bp.get("/api/sessions/active/actions")
def available_actions():
    """What can be done now: actions with fields and choices from the state, and what the table waits for."""
    return jsonify(_services().table.actions(_seat()))


@bp.post("/api/sessions/active/seats")
def claim_seat():
    """A phone takes a seat; ``takeover`` takes it from a phone that is gone."""
    body = _body()
    claimed = _services().table.claim_seat(body.get("seat"), body.get("takeover", False))
    response = jsonify(claimed)
    response.set_cookie(SEAT_COOKIE, claimed["token"], httponly=True, samesite="Strict", max_age=30 * 24 * 3600)
    return response


@bp.post("/api/sessions/active/activate")
def activate():
    return jsonify(_services().table.activate(_body().get("id")))


@bp.post("/api/sessions/active/actions")
def act():
    """Apply one game action; ``expected_version`` guards against a stale phone."""
    body = _body()
    expected = body.pop("expected_version", None)
    return jsonify(_services().table.act(body, source="phone", expected_version=expected, seat=_seat()))


@bp.post("/api/sessions/active/undo")
def undo():
    table = _services().table
    return jsonify(table.undo(source="phone", expected_version=_body().get("expected_version"), seat=_seat()))


@bp.post("/api/sessions/active/redo")
def redo():
    table = _services().table
    return jsonify(table.redo(source="phone", expected_version=_body().get("expected_version"), seat=_seat()))


@bp.get("/api/sessions/active/log")
def session_log():
    """The log after ``?since=N`` (default: all), private entries of other seats redacted."""
    return jsonify(_services().table.log(seat=_seat(), since=_since()))


@bp.get("/api/sessions/<session_id>/log")
def saved_log(session_id: str):
    table = _services().table
    seat = _seat() if table.has_active() and table.view()["id"] == session_id else None
    return jsonify(table.log(session_id, seat=seat, since=_since()))


@bp.post("/api/rolls")
def roll():
    """A free roll (logged in the active session if there is one)."""
    body = _body()
    return jsonify(_services().table.roll(body.get("expr"), body.get("faces"), source="phone"))


@bp.post("/api/buttons/<label>")
def button(label: str):
    """A virtual button press, through the same code path as the GPIO buttons."""
    label = label.upper()
    if label not in ("A", "B", "C", "D"):
        raise NotFound(f"no button {label!r}: the buttons are A, B, C and D")
    hold = _body().get("hold", False)
    if not isinstance(hold, bool):
        raise BadRequest("'hold' must be true or false")
    return jsonify(_services().press(label, hold))


@bp.get("/api/stream")
def stream():
    """Server-Sent Events, one per change; the first says where the table is now."""
    services = _services()
    table = services.table
    hello = {"kind": "hello", "version": table.view()["version"] if table.has_active() else None}
    response = Response(stream_with_context(services.broker.stream(hello)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/api/hardware")
def hardware():
    """What the server is driving: real or simulated display and buttons."""
    return jsonify(_services().hardware)


@bp.get("/display.png")
def display_png():
    return Response(_services().frame_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})
