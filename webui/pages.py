"""The phone page and the join step. The page itself is static; it talks JSON."""

from __future__ import annotations

from flask import Blueprint, current_app, make_response, redirect, render_template, request
from tableside.webui import i18n
from tableside.webui.auth import COOKIE, check_code, codes_match, key_valid, make_token

bp = Blueprint("pages", __name__)

# Endpoints anyone on the Wi-Fi may reach without the join code.
PUBLIC = {"api.healthz", "pages.join", "static", "panel.manifest", "panel.icon", "pages.lang"}


def join_page(error: str | None):
    return render_template("join.html", error=error)


@bp.get("/join")
def join():
    """Check the code; on success set the cookie and go to the panel."""
    code = request.args.get("code", "").strip()
    if not code:
        return join_page(error=None)
    services = current_app.extensions["tableside"]
    # The e-paper's QR code carries a key beside the code: a phone that scans the table is let in even while
    # a guest guessing codes has spent the table's budget (#33); a code typed by hand goes through the throttle.
    scanned = key_valid(request.args.get("key", ""), services.secret, services.join_code)
    refused = None if scanned and codes_match(code, services.join_code) else check_code(services, code)
    if refused is not None:
        error = refused.get_json()["error"]
        return (
            join_page(error=error[0].upper() + error[1:] + "."),
            refused.status_code,
            {k: v for k, v in refused.headers.items() if k == "Retry-After"},
        )
    response = make_response(redirect("/"))
    # A signed token, not the code: changing the code revokes it.
    token = make_token(services.secret, services.join_code)
    response.set_cookie(COOKIE, token, max_age=400 * 24 * 3600, httponly=True, samesite="Lax")
    return response


@bp.get("/lang/<lang>")
def lang(lang: str):
    """This phone's language, chosen on the panel or the join page (a link, so it works before any script)."""
    return i18n.choose(lang)


@bp.get("/")
def index():
    """The phone panel: state, buttons, undo/redo, log, new game."""
    # Only this phone's catalog (empty for English), for the scripts' t() (webui/static/js/i18n.js).
    return render_template("index.html", words=i18n.script_catalog(i18n.language()))
