"""The phone page and the join step. The page itself is static; it talks JSON."""

from __future__ import annotations

from flask import Blueprint, current_app, make_response, redirect, render_template, request
from tableside.webui.app import COOKIE, codes_match

bp = Blueprint("pages", __name__)

# Endpoints anyone on the Wi-Fi may reach without the join code.
PUBLIC = {"api.healthz", "pages.join", "static", "panel.manifest", "panel.icon"}


def join_page(error: str | None):
    return render_template("join.html", error=error)


@bp.get("/join")
def join():
    """Check the code; on success set the cookie and go to the panel."""
    code = request.args.get("code", "").strip()
    if not code:
        return join_page(error=None)
    expected = current_app.extensions["tableside"].join_code
    if not codes_match(code, expected):
        return join_page(error="That join code is not right: it is shown on the e-paper and at start-up."), 401
    response = make_response(redirect("/"))
    response.set_cookie(COOKIE, expected, max_age=400 * 24 * 3600, httponly=True, samesite="Lax")
    return response


@bp.get("/")
def index():
    """The phone panel: state, buttons, undo/redo, log, new game."""
    return render_template("index.html")
