"""JSON routes of contract section 4: one short view per route."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from tableside.core.errors import BadRequest, NotFound

bp = Blueprint("api", __name__)


def _services():
    return current_app.extensions["tableside"]


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
    return jsonify(_services().table.view())


@bp.post("/api/sessions/active/activate")
def activate():
    return jsonify(_services().table.activate(_body().get("id")))


@bp.post("/api/sessions/active/actions")
def act():
    """Apply one game action; ``expected_version`` guards against a stale phone."""
    body = _body()
    expected = body.pop("expected_version", None)
    return jsonify(_services().table.act(body, source="phone", expected_version=expected))


@bp.post("/api/sessions/active/undo")
def undo():
    return jsonify(_services().table.undo(source="phone", expected_version=_body().get("expected_version")))


@bp.post("/api/sessions/active/redo")
def redo():
    return jsonify(_services().table.redo(source="phone", expected_version=_body().get("expected_version")))


@bp.get("/api/sessions/active/log")
def session_log():
    return jsonify(_services().table.log())


@bp.get("/api/sessions/<session_id>/log")
def saved_log(session_id: str):
    return jsonify(_services().table.log(session_id))


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
    """What the server is driving (display, pin factory and why, LED, address) and the last failures."""
    hardware = _services().hardware
    return jsonify(hardware() if callable(hardware) else hardware)


@bp.get("/display.png")
def display_png():
    png = _services().frame_png()  # the last rendered frame: never rendered under a request
    if not png:
        return jsonify({"error": "the first frame is still being drawn; try again in a moment"}), 503
    return Response(png, mimetype="image/png", headers={"Cache-Control": "no-store"})
