"""The Settings page's routes (#32): open only to the table's owner, a phone that gave the owner PIN once.

A phone has joined (the join code, ``webui.auth``) before it reaches these. ``POST /api/settings/owner``
checks the PIN under a throttle of its own (a ``JoinGuard``: wrong PINs wait longer and longer, and the
table-wide budget holds for a guest rotating addresses) and sets the owner cookie, signed with the
install's secret and the PIN's kept hash. ``GET``/``POST /api/settings`` read and change the config file
through ``services.settings`` (``tableside.settings.TableSettings``): a refusal is the config file's own
message, and nothing is written. ``POST /api/settings/restart`` asks systemd's ``Restart=`` to bring the
service back, when it runs under systemd.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, make_response, request
from tableside.webui.api import _body
from tableside.webui.auth import client_id
from tableside.webui.i18n import gettext

bp = Blueprint("settings", __name__)
OWNER_COOKIE = "tableside_owner"


class Refused(ValueError):
    """A change refused in words (the config file's own message), with its HTTP status; nothing was written."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _services():
    return current_app.extensions["tableside"]


def _owner(services) -> bool:
    from tableside.webui.owner import token_valid

    place = services.settings
    return place is not None and token_valid(request.cookies.get(OWNER_COOKIE, ""), services.secret, place.pin_line())


def _refused():
    words = gettext(
        "only the table's owner may see and change its settings: enter the owner PIN (printed by 'tableside serve' "
        "at its first start, and a new one by 'tableside owner-pin' on the Pi)"
    )
    return jsonify(error=words, owner=False), 403


@bp.post("/api/settings/owner")
def prove_owner():
    """The owner PIN, once: the owner cookie follows. Throttled like join codes; no PIN is ever shown."""
    from tableside.webui.owner import MAX_PIN, make_token

    services = _services()
    if services.settings is None or services.settings.pin_line() is None:
        words = gettext("this table has no owner PIN yet: run 'tableside owner-pin' on the Pi to make one")
        return jsonify(error=words), 409
    body = _body()
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str) or not pin.strip() or len(pin) > MAX_PIN:
        words = gettext("send the owner PIN as {{'pin': '12345678'}} (at most {maximum} characters)", maximum=MAX_PIN)
        return jsonify(error=words), 400
    guard, client = services.settings.guard, client_id()
    wait = guard.wait(client)
    if wait > 0:
        seconds = max(1, int(wait + 0.999))
        response = jsonify(error=gettext("too many wrong owner PINs: try again in {seconds} s", seconds=seconds))
        response.headers["Retry-After"] = str(seconds)
        return response, 429
    if not services.settings.pin_right(pin):
        guard.failed(client)
        return jsonify(
            error=gettext("that owner PIN is not right: 'tableside owner-pin' on the Pi makes a new one")
        ), 403  # not 401: that means "join code needed" to the page (core.js)
    guard.succeeded(client)
    response = make_response(jsonify(owner=True))
    token = make_token(services.secret, services.settings.pin_line())
    response.set_cookie(OWNER_COOKIE, token, max_age=400 * 24 * 3600, httponly=True, samesite="Strict")
    return response


@bp.get("/api/settings")
def read_settings():
    services = _services()
    if not _owner(services):
        return _refused()
    return jsonify(owner=True, **services.settings.values())


@bp.post("/api/settings")
def change_settings():
    """``{"changes": {"buttons.pins": {"A": 5}, ...}}``: all checked as the config file is, then written."""
    services = _services()
    if not _owner(services):
        return _refused()
    body = _body()
    changes = body.get("changes") if isinstance(body, dict) else None
    try:
        written = services.settings.apply(changes)
    except Refused as exc:
        return jsonify(error=exc.message), exc.status
    restart = services.settings.restart is not None
    return jsonify(
        written=written,
        restart_needed=bool(written),
        can_restart=restart,
        said=(
            gettext("Saved. The changes take effect when Tableside restarts: Restart now does it.")
            if restart
            else gettext(
                "Saved. The changes take effect when Tableside restarts: stop 'tableside serve' and start it again."
            )
        )
        if written
        else gettext("Nothing to change: the file already says so."),
    )


@bp.post("/api/settings/restart")
def restart():
    services = _services()
    if not _owner(services):
        return _refused()
    if services.settings.restart is None:
        words = gettext("this table is not run by systemd: stop 'tableside serve' and start it again")
        return jsonify(error=words), 409
    services.settings.restart()
    return jsonify(restarting=True, said=gettext("Restarting: the panel comes back in a few seconds.")), 202
