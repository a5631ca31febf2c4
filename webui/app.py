"""The phone panel and JSON API (contract section 4), as a Flask app factory.

Services (the table, the buttons, the display frame) are built in ``main()``
and passed in; nothing is built at import. Every error is JSON naming what was
wrong, with 400/401/404/409/422; an unexpected bug is logged and answered as
JSON too, never as a traceback.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, jsonify, request
from tableside.core.errors import TablesideError
from tableside.core.table import Table
from tableside.webui.stream import Broker
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

COOKIE = "tableside_join"


@dataclass
class Services:
    """Everything the web layer talks to, built once at start-up."""

    table: Table
    join_code: str
    frame_png: Callable[[], bytes]
    press: Callable[[str, bool], dict]
    broker: Broker = field(default_factory=Broker)
    hardware: dict[str, Any] = field(default_factory=dict)


def create_app(services: Services, test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=256 * 1024)
    if test_config:
        app.config.update(test_config)
    app.extensions["tableside"] = services

    from tableside.webui import api, pages

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)

    @app.before_request
    def require_join_code():
        if request.endpoint in pages.PUBLIC or request.endpoint is None:
            return None
        if authorised(services.join_code):
            return None
        if request.path.startswith("/api/") or request.path == "/display.png":
            return jsonify(error="join code needed: open /join?code=CODE or send 'Authorization: Bearer CODE'"), 401
        return pages.join_page(error=None), 401

    @app.errorhandler(TablesideError)
    def tableside_error(exc: TablesideError):
        extra = {"needs_dice": exc.needs_dice} if getattr(exc, "needs_dice", None) else {}
        return jsonify(error=exc.message, **extra), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        messages = {404: f"no such page or route: {request.path}", 405: f"{request.method} is not allowed here"}
        return jsonify(error=messages.get(exc.code or 500, exc.description)), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return jsonify(error=f"Tableside hit an unexpected problem ({type(exc).__name__}); nothing was lost"), 500

    return app


def codes_match(given: str, code: str) -> bool:
    """Constant-time, case-blind: the code is read off an e-paper and typed on a phone."""
    return bool(given) and hmac.compare_digest(given.strip().upper().encode(), code.upper().encode())


def authorised(code: str) -> bool:
    given = request.cookies.get(COOKIE, "")
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        given = header[len("Bearer ") :]
    return codes_match(given, code)
