"""What the phone panel needs beyond the plain JSON API: small, compressed, incremental.

- the web-app manifest and icons (drawn here with Pillow, so no binary sits in the repo);
- gzip for every answer a phone reads (the Pi's Wi-Fi is shared by the whole table);
- the saved games with what tells them apart (players, round, last change);
- export of a game's log as JSON or CSV, as the CLI's ``tableside export`` writes it;
- history for people: a chart per system as inline SVG and a luck report from the logged faces
  (see ``tableside.webui.history``).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import logging
import re
import threading
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request
from tableside.core.errors import NotFound, TablesideError
from tableside.webui.i18n import gettext

bp = Blueprint("panel", __name__)
log = logging.getLogger(__name__)

# Reachable without the join code: a browser fetches the manifest and icons without cookies.
PUBLIC = {"panel.manifest", "panel.icon"}

ICON_SIZES = (192, 512)
MIN_GZIP = 300  # below this gzip's header costs more than it saves
_icons: dict[int, bytes] = {}
_icons_lock = threading.Lock()
_static_gz: dict[tuple[str, str], bytes] = {}


def _services():
    return current_app.extensions["tableside"]


@bp.get("/manifest.webmanifest")
def manifest():
    """So a phone can add the panel to its home screen and open it full screen."""
    body = {
        "name": "Tableside",
        "short_name": "Tableside",
        "description": "The board-game table assistant: state, dice and corrections",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#111111",
        "theme_color": "#111111",
        "icons": [
            {"src": f"/icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any maskable"}
            for n in ICON_SIZES
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.get("/icons/icon-<int:size>.png")
def icon(size: int):
    if size not in ICON_SIZES:
        raise NotFound(
            gettext("no icon of size {size}: there are {sizes}", size=size, sizes=", ".join(map(str, ICON_SIZES)))
        )
    response = Response(draw_icon(size), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=604800"
    return response


def draw_icon(size: int) -> bytes:
    """A die showing five on a dark tile: readable at 48 px on a home screen."""
    with _icons_lock:
        if size not in _icons:
            from PIL import Image, ImageDraw

            img = Image.new("RGB", (size, size), (17, 17, 17))
            d = ImageDraw.Draw(img)
            m, r = size * 0.2, size * 0.09
            d.rounded_rectangle((m, m, size - m, size - m), radius=size * 0.1, fill=(250, 250, 250))
            c = size / 2
            off = size * 0.17
            for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
                x, y = c + dx * off, c + dy * off
                d.ellipse((x - r / 1.6, y - r / 1.6, x + r / 1.6, y + r / 1.6), fill=(200, 16, 16))
            out = io.BytesIO()
            img.save(out, "PNG", optimize=True)
            _icons[size] = out.getvalue()
        return _icons[size]


def ready(*args, **kwargs) -> Response:
    """An answer made once and sent as it is to every phone asking the same (``Prepared``): already
    tagged and compressed, so ``compress`` leaves it alone (it reads the mark in ``flask.g``)."""
    g.prepared_answer = True
    return Response(*args, **kwargs)


class Prepared:
    """A JSON answer as ``compress`` would send it, made once for many phones: the body (gzipped when
    the phone accepts gzip and it is worth it), its ETag (the same as ``compress`` gives) and extra
    headers. Ten phones read the same moment after each change; each then costs a dictionary look-up,
    not a hash, a gzip and a JSON encoding."""

    __slots__ = ("body", "etag", "gzipped", "head", "headers")

    def __init__(self, data: bytes, gz: bool, headers: dict[str, str] | None = None) -> None:
        self.etag = hashlib.blake2b(data, digest_size=10).hexdigest() + ("-gz" if gz else "")
        self.gzipped = gz and len(data) >= MIN_GZIP
        self.body = gzip.compress(data, compresslevel=6, mtime=0) if self.gzipped else data
        # a 304's headers (as make_conditional leaves them), then a 200's
        self.head = [("Vary", "Accept-Encoding"), ("Cache-Control", "no-cache"), ("ETag", f'"{self.etag}"')]
        self.headers = [*self.head, *(headers or {}).items()]
        if self.gzipped:
            self.headers.append(("Content-Encoding", "gzip"))

    def response(self) -> Response:
        """The answer for this request: a 304 when the phone holds it already (``If-None-Match``).
        Werkzeug's ``make_conditional`` (a twentieth of a millisecond, ten times a change) decides only
        what a phone's ``fetch`` never sends: ranges and the other conditions."""
        environ = request.environ
        if _RARE.intersection(environ):
            return ready(self.body, headers=self.headers, mimetype="application/json").make_conditional(request)
        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and environ["REQUEST_METHOD"] in ("GET", "HEAD") and (f'"{self.etag}"' in held or held.strip() == "*"):
            return ready(status=304, headers=self.head)
        return ready(self.body, headers=self.headers, mimetype="application/json")


_RARE = frozenset(("HTTP_RANGE", "HTTP_IF_RANGE", "HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE"))


def accepts_gzip() -> bool:
    """Whether this phone takes gzip (what ``compress`` asks)."""
    return "gzip" in request.environ.get("HTTP_ACCEPT_ENCODING", "").lower()


@bp.after_app_request
def compress(response: Response) -> Response:
    """gzip JSON, HTML, JS, CSS and SVG when the phone accepts it (never the event stream)."""
    if g.get("prepared_answer"):
        return response
    mimetype = response.mimetype or ""
    if mimetype == "text/event-stream" or response.headers.get("Content-Encoding") or response.status_code == 304:
        return response
    if response.is_streamed and not response.direct_passthrough:
        return response
    if not (mimetype.startswith("text/") or mimetype.endswith(("json", "javascript", "svg+xml"))):
        return response
    vary = response.headers.get("Vary")
    if vary is None:  # the common case, set directly (the Vary header object parses and re-joins)
        response.headers["Vary"] = "Accept-Encoding"
    else:
        response.vary.add("Accept-Encoding")
    gz = accepts_gzip()
    if _revalidate(response, gz):
        return response
    key = None
    if response.direct_passthrough:  # a static file: read it once, sent without its comments, its gzip kept by ETag
        key = (request.path, response.get_etag()[0] or "")
        wrapper = response.response
        cached = _static_gz.get(key) if key[1] and gz else None
        data = b"" if cached is not None else b"".join(wrapper)
        if hasattr(wrapper, "close"):
            wrapper.close()
        response.direct_passthrough = False
        if cached is not None:
            _finish(response, cached)
            return response
        response.set_data(shipped(request.path, data))
    if not gz:
        return response
    data = response.get_data()
    if len(data) < MIN_GZIP:
        return response
    body = gzip.compress(data, compresslevel=6, mtime=0)
    if key and key[1]:
        _static_gz[key] = body
    _finish(response, body)
    return response


def shipped(path: str, data: bytes) -> bytes:
    """A stylesheet or script as a phone needs it: without the comments that explain it to us (a third of the
    first load gzipped, 56.8 of 70 kB: the Pi's Wi-Fi is the table's). CSS loses its block comments; a script
    its whole-line ``//`` comments only (one after code may sit in a string: "http://"), so no code changes."""
    if path.endswith(".css"):
        return re.sub(rb"/\*.*?\*/[ \t]*\n?", b"", data, flags=re.S)
    if path.endswith(".js"):
        return b"".join(line for line in data.splitlines(keepends=True) if not line.lstrip().startswith(b"//"))
    return data


def _revalidate(response: Response, gz: bool) -> bool:
    """A phone re-reading an unchanged JSON answer gets a 304 and no body (True when answered so)."""
    if request.method != "GET" or response.status_code != 200 or not request.path.startswith("/api/"):
        return False
    if response.direct_passthrough or not response.is_json:
        return False
    data = response.get_data()
    weak = request.path == "/api/sessions/active/actions"
    if weak:  # the same actions at a newer version are the same forms: a weak validator says so
        try:
            body = json.loads(data)
            body.pop("version", None)
            data = json.dumps(body, sort_keys=True).encode()
        except ValueError:
            weak = False
    digest = hashlib.blake2b(data, digest_size=10).hexdigest()
    response.set_etag(digest + ("-gz" if gz else ""), weak=weak)
    response.headers["Cache-Control"] = "no-cache"
    response.make_conditional(request)
    return response.status_code == 304


def _finish(response: Response, body: bytes) -> None:
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(body))


@bp.delete("/api/panel/seat")
def leave_seat():
    """This phone becomes a table phone: forget the seat cookie (httponly, so the page cannot).

    ``?gone=1``: forget it only when it holds no seat in the game on the table (a seat of a game gone
    by). A page dropping a stale seat sends this, so a seat it claimed meanwhile (its answer setting
    the new cookie first) is kept: answered ``{"seat": NAME}``, cookie untouched."""
    table, seats = _services().table, _services().seats
    cookie = request.cookies.get("tableside_seat")
    if request.args.get("gone") == "1":
        held = None
        if table.has_active():
            with contextlib.suppress(TablesideError):  # not a token at all: nothing to free
                seats.drop_stale(request.headers.get("X-Tableside-Seat"))  # the token the page dropped
            with contextlib.suppress(TablesideError):
                held = seats.drop_stale(cookie)
        if held is not None:
            return jsonify(seat=held)
    else:
        token = request.headers.get("X-Tableside-Seat") or cookie
        if token and table.has_active():
            with contextlib.suppress(TablesideError):  # already taken over or gone: nothing to give up
                seats.release_seat(token)  # so another phone may take the seat at once
    response = jsonify(seat=None)
    response.delete_cookie("tableside_seat", samesite="Strict", httponly=True)
    return response


# -- saved games -----------------------------------------------------------------------------
@bp.get("/api/panel/sessions")
def sessions():
    """Saved games with who plays, which round and when they last changed, newest first."""
    table = _services().table
    store = table.store
    names = {s["id"]: s["name"] for s in table.systems()}
    out = []
    for s in table.sessions():
        try:
            state = table.state_of(s["id"])
        except TablesideError as exc:  # a game that no longer replays is still listed, with what can be said
            log.warning("saved games: no state for %s: %s", s["id"], exc)
            state = {}
        last = s["created_at"]
        if s["version"]:
            for e in store.entries(s["id"], after=s["version"] - 1):
                last = e["at"] or last
        out.append(
            {
                **s,
                "system_name": names.get(s["system"], s["system"]),
                "players": players_of(state),
                "round": round_of(state),
                "last_change": last,
            }
        )
    return jsonify(out)


def players_of(state: Any) -> list[str]:
    """Player names from a state, whatever the system calls its list."""
    if not isinstance(state, dict):
        return []
    for key in ("players", "participants", "factions", "sides"):
        value = state.get(key)
        if isinstance(value, dict):
            return [str(k) for k in value][:8]
        if isinstance(value, list):
            names = []
            for p in value[:8]:
                if isinstance(p, dict):
                    names.append(str(p.get("name", "")))
                elif isinstance(p, str):
                    names.append(p)
            return [n for n in names if n]
    return []


def round_of(state: Any) -> str:
    """'Round 3', 'Turn 2' or '' from a state."""
    if not isinstance(state, dict):
        return ""
    for key in ("round", "turn", "game_turn"):
        value = state.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{key.replace('_', ' ').capitalize()} {value}"
    return ""
