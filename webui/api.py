"""JSON routes of contract section 4: one short view per route."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from tableside.core.errors import BadRequest, NotFound
from tableside.webui.server import DETACH_KEY
from tableside.webui.stream import format_event

bp = Blueprint("api", __name__)


def _services():
    return current_app.extensions["tableside"]


MAX_DEPTH = 16


def _body() -> dict[str, Any]:
    """The JSON object sent, or a 400 naming the problem; an empty body is {}.

    The content type was checked before (``webui.auth``); nesting is limited so
    that ``[[[[...`` cannot exhaust the parser's or the store's recursion.
    """
    if not request.get_data():
        return {}
    try:
        data = request.get_json(force=True, silent=True)
    except RecursionError:
        raise BadRequest(f"the request body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    if _depth(data) > MAX_DEPTH:
        raise BadRequest(f"the request body is nested too deeply (at most {MAX_DEPTH} levels)")
    return data


def _depth(value: Any) -> int:
    """How deeply lists and objects nest (iterative: a deep value cannot overflow the stack)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            children = item.values() if isinstance(item, dict) else item
            todo.extend((child, level + 1) for child in children)
    return deepest


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
    """Server-Sent Events, one per change; the first says where the table is now.

    Counted against ``max_streams``: past it, 503 with a hint to poll instead.
    """
    services = _services()
    broker = services.broker
    if not broker.reserve():
        response = jsonify(
            error=f"too many open streams ({broker.max_streams}): poll GET /api/sessions/active instead",
            poll="/api/sessions/active",
            retry_after=30,
        )
        response.status_code = 503
        response.headers["Retry-After"] = "30"
        return response
    try:
        table = services.table
        hello = {"kind": "hello", "version": table.view()["version"] if table.has_active() else None}
    except Exception:
        broker.release()
        raise
    detach = request.environ.get(DETACH_KEY)
    if detach is not None:  # Tableside's server: the hub takes the connection after the first event
        detach(broker.attach, broker.release)
        body: Any = [format_event(hello)]
    else:
        body = stream_with_context(broker.stream(hello))
    response = Response(body, mimetype="text/event-stream")
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
