"""JSON routes of contract section 4: one short view per route."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import secrets
import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from tableside.core.errors import BadRequest, Conflict, NotFound, SeatGone
from tableside.core.patch import diff
from tableside.core.store import Store
from tableside.webui.clock import start_clock
from tableside.webui.exports import ExportCache, Streamed, archive_session, export_lines, log_page
from tableside.webui.i18n import gettext, language, spoken
from tableside.webui.panel import Prepared, accepts_gzip
from tableside.webui.rounds import round_end
from tableside.webui.seats import SEAT_GONE_AFTER
from tableside.webui.server import DETACH_KEY
from tableside.webui.stream import format_event

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__)
SESSIONS_PER_PAGE = 50  # saved games per page of ``GET /api/sessions?page=N``


def _services():
    return current_app.extensions["tableside"]


SEAT_HEADER = "X-Tableside-Seat"
SEAT_COOKIE = "tableside_seat"


def seat_token() -> str | None:
    """The seat token this phone sent (header or cookie), or None."""
    environ = request.environ  # read directly: most requests carry neither, and parsing cookies is not free
    return environ.get("HTTP_X_TABLESIDE_SEAT") or (
        request.cookies.get(SEAT_COOKIE) if "HTTP_COOKIE" in environ else None
    )


def seat_of_request() -> str | None:
    """The seat this phone holds, or None for the shared table view: what ``core.privacy`` is asked about."""
    token = seat_token()
    return _services().seats.reads_as(token) if token else None


_seat = seat_of_request


def _source() -> str:
    """Who made a change, for the log: "api" for a script holding the code as a Bearer token, else "phone"."""
    return "api" if request.environ.get("HTTP_AUTHORIZATION", "").startswith("Bearer ") else "phone"


def _since() -> int:
    """``?since=N`` (or ``?after=N``): only entries after version N, for a phone catching up."""
    name = "after" if "after" in request.args else "since"
    raw = request.args.get(name, "0")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise BadRequest(
            gettext("'{name}' must be a version number, such as ?{name}=12, not {got}", name=name, got=repr(raw[:20]))
        )
    return int(raw)


MAX_DEPTH = 16


def _body() -> dict[str, Any]:
    """The JSON object sent, or a 400 naming the problem; an empty body is {}.

    The content type was checked before (``webui.auth``); nesting is limited so
    that ``[[[[...`` cannot exhaust the parser's or the store's recursion.
    """
    raw = request.get_data()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except RecursionError:
        raise BadRequest(_too_deep()) from None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict):
        raise BadRequest(gettext("the request body must be a JSON object"))
    if _depth(data) > MAX_DEPTH:
        raise BadRequest(_too_deep())
    return data


def _too_deep() -> str:
    return gettext("the request body is nested too deeply (at most {levels} levels)", levels=MAX_DEPTH)


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
    """Every game system with its options, actions and buttons; ``?brief=1`` leaves out the actions (the
    phone panel draws the new game form from the options, and the actions of the game on the table from
    its own answer, so its first load does not carry every system's actions)."""
    described = _services().table.systems()
    if request.args.get("brief") == "1":
        described = [{k: v for k, v in s.items() if k != "actions"} for s in described]
    return jsonify(spoken(described))


@bp.post("/api/sessions")
def new_session():
    body = _body()
    clock = body.get("clock")
    if clock not in (None, True, False):
        raise BadRequest(gettext("'clock' must be true or false (the soft clock per seat, off by default)"))
    view = _services().new_games.start(body.get("system"), body.get("options"), body.get("name") or "")
    if clock:  # the soft clock's first switch is the game's first entry (webui.clock)
        start_clock(_services().table, True)
        view = _services().table.view()
    return jsonify(_briefly(view)), 201


def _briefly(view: dict) -> dict:
    """The session view without its state with ``?brief=1`` (the phone page draws the moment it asks next)."""
    return {k: v for k, v in view.items() if k != "state"} if request.args.get("brief") == "1" else view


@bp.get("/api/sessions")
def sessions():
    """Saved sessions, newest first: all, or ``?page=N`` (from 1) of ``SESSIONS_PER_PAGE``; the header
    ``X-Tableside-Next-Page`` names the next page when there is one."""
    raw = request.args.get("page")
    if raw is None:
        return jsonify(_services().table.sessions())
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6 or int(raw) < 1:
        raise BadRequest(gettext("'page' must be a page number from 1, such as ?page=2, not {got}", got=repr(raw[:20])))
    page = int(raw)
    listed = _services().table.sessions(limit=SESSIONS_PER_PAGE + 1, offset=(page - 1) * SESSIONS_PER_PAGE)
    response = jsonify(listed[:SESSIONS_PER_PAGE])
    if len(listed) > SESSIONS_PER_PAGE:
        response.headers["X-Tableside-Next-Page"] = str(page + 1)
    return response


@bp.delete("/api/sessions/<session_id>")
def delete_session(session_id: str):
    """Delete a saved game that is not on the table: its whole log is archived to a file in the data
    folder first (``archive/``), then it is removed. Answers ``{"deleted", "archive"}``."""
    table = _services().table
    session, _ = table.export_source(session_id)
    if table.position() is not None and table.position()[0] == session["id"]:
        raise Conflict(gettext("this game is on the table: start or open another one before deleting it"))
    try:
        archive = archive_session(table.store.path, session)
    except OSError as exc:
        why = exc.strerror or exc
        raise Conflict(gettext("the game could not be archived ({why}): nothing was deleted", why=why)) from None
    table.delete_session(session["id"])
    return jsonify(deleted=session["id"], archive=archive.name)


@bp.get("/api/sessions/active")
def active():
    """The game on the table, as this phone's seat may see it; ``?brief=1`` leaves out the state
    (the phone panel draws the screen model and the forms, never the raw state: a change costs less)."""
    view = _services().table.view(_seat(), with_state=request.args.get("brief") != "1")
    return jsonify(spoken(_services().seats.shown(view, seat_token())))


@bp.get("/api/sessions/active/actions")
def available_actions():
    """What can be done now: actions with fields and choices from the state, and what the table waits for."""
    answer = _services().table.actions(_seat())
    if request.args.get("brief") == "1":  # the phone panel draws forms, it has no use for the API examples
        for action in answer["actions"]:
            action.pop("example", None)
    return jsonify(spoken(answer))


MOMENT_LOG = 40  # log entries a phone reads with a moment at most: its timeline pages older ones on request
MOMENTS_KEPT = 64  # moments a patch can start from (a few versions for each seat and the table view)
# The moment of a table with no game: nothing to draw, nothing to do but start one.
NO_GAME: dict[str, Any] = {
    "view": None,
    "actions": None,
    "log": [],
    "tag": None,
    "message": "no game on the table yet: start one (POST /api/sessions)",
}


@bp.get("/api/sessions/active/moment")
def moment():
    """All a phone redraws after a change, in one answer, as this seat may see it: the view (without the
    raw state, as ``?brief=1``), the
    available actions (without API examples), the log entries after ``?after=N`` (at most the newest
    ``MOMENT_LOG``: a phone opening a long game never reads the whole log) and ``tag``, naming this
    view and these actions. A phone that sends the tag it holds (``?base=TAG``) gets ``patch`` (what
    changed, ``core.patch``) instead of ``view`` and ``actions``: after one action that is a few
    hundred bytes instead of several kB. An unchanged answer is a 304 (``webui.panel``).

    With no game on the table the moment is that: ``NO_GAME``, a 200 the page draws as its "start a
    game" screen (a phone polling for its moment is never answered with an error it must tell apart)."""
    ready = _moment_ready(_since(), request.args.get("base", ""))
    return jsonify(NO_GAME) if ready is None else ready.answer.response()


def _moment_ready(after: int, base: str) -> _Ready | None:
    """The moment answer for this phone (None: no game on the table)."""
    table = _services().table
    gz = accepts_gzip()
    token = seat_token()
    lang = language()  # a German phone never gets an English answer made for another phone, nor the reverse
    kept = current_app.extensions.setdefault("tableside.moments", _Moments())
    # Ten phones ask the same after each change: the answer is made once for what it follows from
    # (``Table.mark``), and read again without waiting for the table (nor behind a change being written).
    mark = table.mark()
    ready = kept.answers.get((mark, token, base, after, gz, lang)) if mark is not None else None
    if ready is not None:
        if token:
            _services().seats.heard_from(token)
        kept.moments.put(ready.tag, ready.moment)  # a phone holding it may send it back as its base
        return ready
    ended = round_end(table)  # read before the table is held: the chart's books are never waited for under it
    with table.held():  # one version for all three parts (re-entrant)
        try:
            seat = _seat()
        except NotFound:  # no active session (a seat token means nothing without one)
            return None
        mark = table.mark()
        if mark is None:
            return None
        key = (mark, token, base, after, gz, lang)
        ready = kept.answers.get(key)  # the phones that asked at once wait for the first one's answer
        if ready is None:
            kept.answers.put(key, ready := _made(table, seat, (mark, lang), kept, base, after, gz, ended))
    kept.moments.put(ready.tag, ready.moment)
    return ready


def _moment_asked() -> tuple[int, str] | None:
    """``?moment=1`` on a change (the phone page's): ``after`` and ``base`` of the moment its answer carries
    in place of the state, read before the change so that a bad one changes nothing."""
    if request.args.get("moment") != "1":
        return None
    return _since(), request.args.get("base", "")


def _changed(done: Any, asked: tuple[int, str] | None) -> Response:
    """A change's answer: as the contract says, or (``?moment=1``) the same without ``state`` and with
    ``moment``, what ``GET /api/sessions/active/moment?after=N&base=TAG`` would answer now: the acting
    phone redraws from it and asks nothing more."""
    if asked is None:
        return jsonify(spoken(done))
    ready = _moment_ready(*asked)
    lean = {k: v for k, v in done.items() if k != "state"} if isinstance(done, dict) else {"result": done}
    return jsonify({**spoken(lean), "moment": NO_GAME if ready is None else ready.body})


def _made(
    table: Any, seat: str | None, mark: tuple, kept: _Moments, base: str, after: int, gz: bool, ended: Any
) -> _Ready:
    """The moment for ``seat`` at ``mark`` (table and language; lock held); ``ended``: (game, last round's summary)."""
    view = spoken(_services().seats.shown(table.view(seat, with_state=False), seat_token()))  # as ?brief=1
    if ended is not None and ended[0] == view["id"] and ended[1] and ended[1]["seq"] <= view["version"]:
        view["round_end"] = spoken(ended[1])
    since = max(after, view["version"] - MOMENT_LOG)
    made = kept.actions.get((mark, seat))  # the same for every base and ``after``
    if made is None:
        actions = table.actions(seat)
        for action in actions["actions"]:
            action.pop("example", None)
        actions = spoken(actions)
        # The tag names what was built for this mark and seat: new for each (not a hash of it, which cost as
        # much as building it), random so that a tag held across a restart names nothing there.
        kept.actions.put((mark, seat), made := (actions, secrets.token_hex(12)))
    actions, tag = made
    damaged: list[dict] = []
    entries = spoken(table.log(seat=seat, since=since, damaged=damaged))
    now = {"view": view, "actions": actions}
    old = kept.moments.get(base) if base else None
    body: dict[str, Any] = {"tag": tag, "log": entries}
    body.update(now if old is None else {"base": base, "patch": diff(old, now)})
    response = _with_damage(jsonify(body), damaged)  # as every other route says it
    damage = {k: v for k, v in response.headers.items() if k == "X-Tableside-Damaged"}
    return _Ready(Prepared(response.get_data(), gz, damage), tag, now, body)


class _Ready:
    """A moment answer made for one mark, phone seat token, base, ``after`` and gzip: sent as it is (or its
    ``body`` inside a change's answer)."""

    __slots__ = ("answer", "body", "moment", "tag")

    def __init__(self, answer: Prepared, tag: str, moment: dict, body: dict) -> None:
        self.answer, self.tag, self.moment, self.body = answer, tag, moment, body


class _Kept:
    """The last few values by key, oldest dropped first (thread-safe)."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        self._size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        with self._lock:
            return self._items.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class _Moments:
    """What the moment route keeps: the moments sent by tag (what a phone's ``base`` names, so only the
    change is sent), the actions and tag of a view a seat was shown, and the answers made."""

    def __init__(self) -> None:
        self.moments = _Kept(MOMENTS_KEPT)
        self.actions = _Kept(MOMENTS_KEPT)
        self.answers = _Kept(MOMENTS_KEPT)


@bp.get("/api/sessions/active/seats")
def seat_holders():
    """The seats and who holds them: a held seat frees when its phone releases it or has been away
    ``SEAT_GONE_AFTER`` seconds (``frees_in``; none while that phone is here)."""
    return jsonify({"seats": _services().seats.seat_holders(), "gone_after": int(SEAT_GONE_AFTER)})


@bp.post("/api/sessions/active/seats")
def claim_seat():
    """A phone takes a seat; ``takeover`` takes it from a phone that is gone. The seat this phone held
    (its token, sent as with any request) is given up: a phone holds one seat."""
    body = _body()
    claimed = _services().seats.claim_seat(body.get("seat"), body.get("takeover", False), seat_token(), body.get("pin"))
    response = jsonify(claimed)
    response.set_cookie(SEAT_COOKIE, claimed["token"], httponly=True, samesite="Strict", max_age=30 * 24 * 3600)
    return response


@bp.post("/api/sessions/active/seats/release")
def release_seat():
    """The phone holding a seat gives it up, so another phone may take it at once."""
    _body()
    response = jsonify(_services().seats.release_seat(seat_token()))
    response.delete_cookie(SEAT_COOKIE)
    return response


@bp.post("/api/sessions/active/activate")
def activate():
    return jsonify(_briefly(_services().table.activate(_body().get("id"))))


@bp.post("/api/sessions/active/actions")
def act():
    """Apply one game action; ``expected_version`` guards against a stale phone."""
    body, asked = _body(), _moment_asked()
    expected = body.pop("expected_version", None)
    return _changed(_services().table.act(body, source=_source(), expected_version=expected, seat=_seat()), asked)


@bp.post("/api/sessions/active/undo")
def undo():
    table, body, asked = _services().table, _body(), _moment_asked()
    return _changed(table.undo(source=_source(), expected_version=body.get("expected_version"), seat=_seat()), asked)


@bp.post("/api/sessions/active/redo")
def redo():
    table, body, asked = _services().table, _body(), _moment_asked()
    return _changed(table.redo(source=_source(), expected_version=body.get("expected_version"), seat=_seat()), asked)


@bp.get("/api/sessions/active/log")
def session_log():
    """The log after ``?since=N`` (default: all), private entries of other seats redacted; ``?limit=M``
    at most M entries (a phone paging back through a long game)."""
    raw = request.args.get("limit", "")
    if raw and not (raw.isascii() and raw.isdigit() and 0 < len(raw) <= 6):
        raise BadRequest(
            gettext("'limit' must be a number of entries, such as ?limit=40, not {got}", got=repr(raw[:20]))
        )
    return _log_answer(None, _seat(), int(raw) if raw else None)


@bp.get("/api/sessions/<session_id>/log")
def saved_log(session_id: str):
    return _log_answer(session_id, _seat(), None)


def _log_answer(session_id: str | None, seat: str | None, limit: int | None) -> Response:
    """A log read on a connection of its own, never holding the table: up to ``LOG_PAGE`` entries as one
    list, a longer one streamed as the phone reads it (memory flat in the length of the game)."""
    since = _since()
    table = _services().table
    session, seat = table.export_source(session_id, seat)  # the seat counts only for the game on the table
    damaged: list[dict] = []
    page = log_page(Store.reader(table.store.path), session["id"], seat, since, limit, damaged)
    return _with_damage(Response(page, mimetype="application/json"), damaged)


def _with_damage(response: Response, damaged: list[dict]) -> Response:
    """Rows of the log that no longer read were left out: the header names them (seq numbers)."""
    if damaged:
        response.headers["X-Tableside-Damaged"] = ",".join(str(d["seq"]) for d in damaged[:100])
    return response


@bp.get("/api/sessions/<session_id>/export")
def export(session_id: str):
    """The whole log as a download: ``?format=json`` (default) or ``csv``, as this phone's seat may read it
    (another seat's private entries keep only their public summary). Written as it is read, on a
    connection of its own: a long game never holds the table or the Pi's memory. A row that no longer
    reads is left out and named at the end (``"damaged"`` in JSON, a ``damaged`` row in CSV)."""
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        raise BadRequest(gettext("format {got} is not json or csv", got=repr(fmt[:20])))
    table = _services().table
    session, seat = table.export_source(None if session_id == "active" else session_id, seat_of_request())
    stem = f"tableside-{session['system']}-{session['id'][:8]}"
    cache = current_app.extensions.setdefault("tableside.exports", ExportCache())
    reader = Store.reader(table.store.path)
    reader.execute("PRAGMA cache_size=-256")  # 256 kB of pages: phones exporting at once stay small
    body = Streamed(export_lines(reader, session["id"], seat, fmt, cache=cache), reader)
    response = Response(body, mimetype="application/json" if fmt == "json" else "text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}.{fmt}"'
    return response


@bp.post("/api/rolls")
def roll():
    """A free roll (logged in the active session if there is one, with the phone's seat)."""
    body = _body()
    table = _services().table
    seat = _seat() if table.has_active() else None
    return jsonify(table.roll(body.get("expr"), body.get("faces"), source=_source(), seat=seat))


@bp.post("/api/buttons/<label>")
def button(label: str):
    """A virtual button press, through the same code path as the GPIO buttons."""
    label = label.upper()
    if label not in ("A", "B", "C", "D"):
        raise NotFound(gettext("no button {label}: the buttons are A, B, C and D", label=repr(label)))
    hold, asked = _body().get("hold", False), _moment_asked()
    if not isinstance(hold, bool):
        raise BadRequest(gettext("'hold' must be true or false"))
    return _changed(_services().press(label, hold), asked)


@bp.post("/api/prompt/confirm")
def confirm_prompt():
    """Confirm the open shutdown question (its ``id``) from any joined phone: decided at once, no e-paper wait."""
    confirm = _services().confirm
    if confirm is None:
        raise Conflict(gettext("no shutdown question is open: this table has no buttons to ask one"))
    return jsonify(confirm(_body().get("id")))


def _open_prompt(services: Any) -> dict | None:
    """The buttons' open question (the shutdown chord's), as the "prompt" event carries it, or None."""
    hardware = services.hardware
    if not callable(hardware):
        return None
    try:
        prompt = hardware().get("prompt")
    except Exception:  # a status that cannot be read now: the question still comes with its next event
        log.exception("reading the hardware status for a new stream failed")
        return None
    return prompt if isinstance(prompt, dict) else None


@bp.get("/api/stream")
def stream():
    """Server-Sent Events, one per change; the first says where the table is now.

    Counted against ``max_streams``: past it, 503 with a hint to poll instead. A table stopping says so
    (503 without that hint): the phone names each refusal as what it is.
    """
    services = _services()
    broker = services.broker
    if not broker.reserve():
        if broker.closed.is_set():
            return jsonify(error=gettext("the table is stopping")), 503
        response = jsonify(
            error=gettext("too many open streams ({n}): poll GET /api/sessions/active instead", n=broker.max_streams),
            poll="/api/sessions/active",
            retry_after=30,
        )
        response.status_code = 503
        response.headers["Retry-After"] = "30"
        return response
    table = services.table
    try:
        hello = {"kind": "hello", "version": table.view()["version"] if table.has_active() else None}
        asked = _open_prompt(services)
        if asked:  # a phone that connects during the shutdown question sees it at once, not at the next change
            hello["prompt"] = asked
        token = seat_token() if table.has_active() else None
        try:
            if token and _services().seats.seat_of(token) is None:
                token = None
        except SeatGone:  # the stream is the public one: a stale seat is the page's to drop, not a refusal
            token = None
    except Exception:
        broker.release()
        raise
    # A seated phone with its stream open is present: its seat cannot be taken over while it is.
    if token:
        services.seats.stream_opened(token)
    gone = functools.partial(services.seats.stream_closed, token) if token else None

    def release() -> None:
        broker.release()
        if gone is not None:
            gone()

    detach = request.environ.get(DETACH_KEY)
    if detach is not None:  # Tableside's server: the hub takes the connection after the first event
        detach(functools.partial(_attach, broker, gone), release)
        body: Any = [format_event(hello)]
    else:
        body = stream_with_context(_ending(broker.stream(hello), gone))
    response = Response(body, mimetype="text/event-stream")
    # A list body would get a Content-Length, and a browser would end the stream after the first event.
    response.automatically_set_content_length = False
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _attach(broker, gone, sink) -> None:
    broker.attach(sink, gone)


def _ending(events, gone):
    """The fallback stream, telling ``gone()`` when it ends."""
    try:
        yield from events
    finally:
        if gone is not None:
            gone()


@bp.get("/api/hardware")
def hardware():
    """What the server is driving (display, pin factory and why, LED, address) and the last failures."""
    hardware = _services().hardware
    return jsonify(hardware() if callable(hardware) else hardware)


@bp.get("/display.png")
def display_png():
    """The last rendered frame (never rendered under a request), with an ETag: an unchanged one is a 304."""
    png = _services().frame_png()
    if not png:
        return jsonify({"error": "the first frame is still being drawn; try again in a moment"}), 503
    response = Response(png, mimetype="image/png", headers={"Cache-Control": "no-cache"})
    response.set_etag(hashlib.blake2b(png, digest_size=12).hexdigest())
    return response.make_conditional(request)
