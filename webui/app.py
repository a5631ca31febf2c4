"""The phone panel and JSON API (contract section 4), as a Flask app factory.

Services (the table, the buttons, the display frame) are built in ``main()``
and passed in; nothing is built at import. Every error is JSON naming what was
wrong, with 400/401/403/404/409/413/415/422/429/503; an unexpected bug is
logged and answered as JSON too, never as a traceback. Who may ask is decided
in ``webui.auth``.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, jsonify, request
from tableside.core import rulebook_refs
from tableside.core.errors import RuleError, SeatGone, TablesideError
from tableside.core.table import Table
from tableside.webui import i18n, wrong_host
from tableside.webui.auth import (
    COOKIE,
    JoinGuard,
    authorised,
    check_credentials,
    codes_match,
    cross_site,
    host_allowed,
    json_body_refusal,
)
from tableside.webui.games import NewGames, new_games_for
from tableside.webui.seats import Seats, seats_for
from tableside.webui.server import TRUST_KEY
from tableside.webui.stream import Broker
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

__all__ = ["COOKIE", "Services", "authorised", "codes_match", "create_app"]

MAX_BODY = 64 * 1024


@dataclass
class Services:
    """Everything the web layer talks to, built once at start-up."""

    table: Table
    join_code: str
    frame_png: Callable[[], bytes]
    press: Callable[[str, bool], dict]
    broker: Broker = field(default_factory=Broker)
    hardware: dict[str, Any] = field(default_factory=dict)
    # Signs the join cookie; kept in the data folder so cookies survive a restart.
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    guard: JoinGuard = field(default_factory=JoinGuard)
    names: tuple[str, ...] = ()  # extra Host names besides IPs, localhost and *.local
    # tableside.settings.TableSettings: the config file, the owner PIN and the restart (the Settings page, #32)
    settings: Any = None
    # A phone's Confirm of the open shutdown question (``Hardware.confirm``); None: no buttons, no question
    confirm: Callable[[Any], dict] | None = None
    dice: Any = None  # tableside.smartdice.SmartDice (DiceStarting while they open), or None: no smart dice
    seats: Seats = field(init=False)  # the phones seated at the table: one per table, whichever app asks
    new_games: NewGames = field(init=False)  # how many games and how fast: one per table too

    def __post_init__(self) -> None:
        self.seats = seats_for(self.table)
        self.new_games = new_games_for(self.table)


def create_app(services: Services, test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY)
    app.json.sort_keys = False  # (Flask 3 ignores JSON_SORT_KEYS) the table's dicts are built in a stable order
    if test_config:
        app.config.update(test_config)
    app.extensions["tableside"] = services
    i18n.init_app(app)

    from tableside.webui import api, clock, dice, history, pages, panel, plays, recap, rounds, rules, settings, stats

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(panel.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(dice.bp)
    app.register_blueprint(recap.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(clock.bp)
    app.register_blueprint(plays.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(settings.bp)

    @app.before_request
    def guard_request():
        # Runs before every request: it reads the WSGI environ directly (each request.headers lookup
        # costs more than the check it feeds) and remembers the verdict on each Host it has seen.
        environ = request.environ
        host = request.host
        if not _host_allowed(host, tuple(services.names)):
            return wrong_host.refusal(host)  # a page for a browser, JSON for an API client
        endpoint = request.endpoint
        if endpoint is None or endpoint in pages.PUBLIC:
            return None
        method = environ["REQUEST_METHOD"]
        refusal = cross_site(method, environ.get("HTTP_ORIGIN"), environ.get("HTTP_SEC_FETCH_SITE"), host)
        if refusal:
            return jsonify(error=refusal), 403
        # A cross-site page can send a form or text body with the cookie, never a JSON one. A request
        # carrying the code in its Authorization header cannot be forged by another site, so scripts
        # may keep using curl -d (docs/systems/*.md).
        if not environ.get("HTTP_AUTHORIZATION", "").startswith("Bearer "):
            refusal = json_body_refusal(request.method, request.content_type, request.content_length)
            if refusal:
                return jsonify(error=refusal), 415
        denied = check_credentials(services)
        if denied is None:
            trust = environ.get(TRUST_KEY)  # Tableside's server keeps this connection for a phone
            if trust is not None:
                trust()
            return None
        if request.path.startswith("/api/") or request.path == "/display.png":
            return denied
        return pages.join_page(error=None), 401

    @app.errorhandler(TablesideError)
    def tableside_error(exc: TablesideError):
        extra: dict = {"needs_dice": exc.needs_dice} if getattr(exc, "needs_dice", None) else {}
        if isinstance(exc, SeatGone):  # the phone drops its seat by itself and says which it was (webui/static)
            extra.update(seat_gone=True, **({"seat": exc.seat} if exc.seat else {}))
        rule = rulebook_refs.reference(exc) if isinstance(exc, RuleError) else None
        if rule:  # the passage of the book the refusal rests on, a tap away on the phone (#35)
            extra["rule"] = rule
        return jsonify(error=i18n.say(exc.message), **extra), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        gettext = i18n.gettext
        if exc.code == 404:
            words = gettext("no such page or route: {path}", path=request.path)
        elif exc.code == 405:
            words = gettext("{method} is not allowed here", method=request.method)
        elif exc.code == 413:
            words = gettext("the request body is too large (at most {size} KiB)", size=MAX_BODY // 1024)
        else:
            words = exc.description
        return jsonify(error=words), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        words = i18n.gettext("Tableside hit an unexpected problem ({kind}); nothing was lost", kind=type(exc).__name__)
        return jsonify(error=words), 500

    return app


@functools.lru_cache(maxsize=256)
def _host_allowed(host: str, names: tuple[str, ...]) -> bool:
    """``host_allowed``, remembered: a table sees a handful of Host values, each on every request."""
    return host_allowed(host, names)
