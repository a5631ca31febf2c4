"""The game so far, for people: a chart per system drawn as inline SVG, and a luck report.

The chart is drawn here, on the Pi, so the phone needs no chart library: a few
polylines and labels, a couple of kB gzipped. Each system says what it charts
(``GameSystem.chart_series``, read from the public view: VNM population per
player, VENOM the Event Track and captured Leaders, Venusian Vegas VP, Venus 2140
books; by default the tracked numbers). The chart and the luck report are folded
forward from the last look (a History tab open on a phone refetches on every
change), on a read-only connection of their own: they never hold the table.

The luck report reads every logged die: each face is compared with a fair die
of the same size (a z-score over all of a player's dice), so a table can settle
whose dice are cursed with numbers instead of memories.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from tableside.core import privacy, recap
from tableside.core.errors import NotFound
from tableside.core.replay import DamagedEntry, Replay
from tableside.core.round_summary import RoundFold
from tableside.core.soft_clock import waiting_seat
from tableside.core.store import Store
from tableside.core.words import plural
from tableside.webui.i18n import gettext

bp = Blueprint("history", __name__)
log = logging.getLogger(__name__)

Series = dict[str, float]
# core.screen.PLAYER_INKS order, the phone board's own colours (style.css --p0 to --p6, which the chart uses
# inside the page, so a player is one colour in light and dark mode too); the last one is no player's
PALETTE = ("#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#f9c80e", "#212121", "#7b1fa2", "#00909e")
MAX_POINTS = 120  # points kept per chart when it is drawn by action (halved, stride doubled, past this)
MAX_ROUNDS = 1000  # past this many rounds the chart is drawn by action


def _services():
    return current_app.extensions["tableside"]


def _round(state: dict) -> int | None:
    for key in ("round", "turn"):
        value = state.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


class ChartBook:
    """One game's chart, folded forward as the game goes: only the entries since the last look are
    re-applied (``core.replay``), on a read-only connection of its own, never holding the table.
    Memory is bounded: the last point of each round, or at most ``MAX_POINTS`` sampled points."""

    def __init__(self, session_id: str, system: Any, row: dict) -> None:
        self.session = session_id
        self.system = system
        self.row = row
        self.version = 0
        self.state: dict = row["initial_state"]
        self.rounds: dict[int, Series] = {}
        self.by_round = True  # while every state has a round number
        self.samples: list[tuple[int, Series]] = []
        self.stride = 1
        self.last: tuple[int, Series] = (0, {})
        self.damaged: str | None = None
        self.svg: tuple[int, str] | None = None
        self.round_fold = RoundFold(system, self.state)  # the last round's summary (webui.rounds), same walk
        self.waiting: dict[int, str | None] = {}  # version -> the seat waited for then (the soft clock's)
        self._add(0, self.state)

    def _add(self, version: int, state: dict) -> None:
        self.waiting[version] = waiting_seat(self.system, state)
        if version:
            self.round_fold.add(version, state)
        values = self.system.chart_series(privacy.state(self.system, state, None))
        values = {str(k)[:60]: float(v) for k, v in list(values.items())[:8] if isinstance(v, int | float)}
        self.last = (version, values)
        if version % self.stride == 0:
            self.samples.append((version, values))
            if len(self.samples) > MAX_POINTS:
                self.samples = self.samples[::2]
                self.stride *= 2
        r = _round(state) if self.by_round else None
        if r is None or (r not in self.rounds and len(self.rounds) >= MAX_ROUNDS):
            self.by_round, self.rounds = False, {}
        else:
            self.rounds[r] = values

    def catch_up(self, reader: Store, version: int) -> None:
        """Fold the entries after the last look up to ``version`` (a damaged row ends the chart there)."""
        if version <= self.version or self.damaged:
            return
        replay = Replay(reader, self.system, self.row)
        last = None
        try:
            for seq, state in replay.steps(self.state, self.version, version):
                self._add(seq, state)
                self.version, last = seq, state
        except DamagedEntry as exc:
            self.damaged = exc.message
            log.warning("chart of %s stops at version %d: %s", self.session, self.version, exc.message)
        if last is not None:
            self.state = last  # the replay's working copy: no longer changed once the walk ended

    def colours(self) -> dict[str, int]:
        """The system's player colour per series (one colour per player on every screen)."""
        try:
            return dict(self.system.chart_colours(privacy.state(self.system, self.state, None)))
        except Exception:  # a chart is never worth a failed page: the chart's own order then
            log.exception("chart colours of %s", self.session)
            return {}

    def points(self) -> tuple[str, str, list[str], list[dict]]:
        """(title, x label, series names, points) as ``chart_svg`` draws them."""
        by_round = self.by_round and len(self.rounds) > 1
        if by_round:
            picked = sorted(self.rounds.items())
        else:
            picked = list(self.samples)
            if picked[-1][0] != self.last[0]:
                picked.append(self.last)
        names: list[str] = []
        for _, values in picked:
            names += [n for n in values if n not in names]
        title = self.system.chart_title()
        points = [{"x": x, "values": values} for x, values in picked]
        return title, ("Round" if by_round else "Action"), names[:8], points


class Books:
    """The chart and luck of the game on the table, kept between requests (one game at a time)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # one fold at a time; the table is never held
        self.reader: Store | None = None
        self.chart: ChartBook | None = None
        self.clock: tuple[str, Any] | None = None  # (session, its soft clock's fold: webui.clock)
        self.luck: LuckBook | None = None

    def read(self, table: Any) -> Store:
        if self.reader is None:
            self.reader = Store.reader(table.store.path)
        return self.reader


def app_books() -> Books:
    app = current_app
    books = app.extensions.get("tableside.history")
    if books is None:
        with _books_lock:
            books = app.extensions.setdefault("tableside.history", Books())
    return books


_books_lock = threading.Lock()


def chart_svg(
    title: str, xlabel: str, names: list[str], points: list[dict], colours: dict[str, int] | None = None
) -> str:
    """A line chart, one line per series, sized for a phone; plain SVG, no script."""
    w, h, left, right, top, bottom = 360, 220, 34, 8, 26, 28
    per_row = 2 if all(len(n) <= 16 for n in names) else 1
    legend_h = 18 * ((len(names) + per_row - 1) // per_row)
    total_h = h + legend_h
    values = [p["values"].get(n) for p in points for n in names if p["values"].get(n) is not None]
    if not points or not values:
        return ""
    lo, hi = min(0.0, min(values)), max(values)
    if hi == lo:
        hi = lo + 1
    xs = [p["x"] for p in points]
    x0, x1 = min(xs), max(xs)
    span = (x1 - x0) or 1

    def px(x: float) -> float:
        return left + (x - x0) / span * (w - left - right)

    def py(v: float) -> float:
        return top + (1 - (v - lo) / (hi - lo)) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {total_h}" role="img" '
        f'aria-label="{escape(title)} by {xlabel.lower()}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
        f'<g stroke="#8888" stroke-width="1"><line x1="{left}" y1="{py(lo):.1f}" x2="{w - right}" y2="{py(lo):.1f}"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{py(lo):.1f}"/></g>',
        f'<g font-size="11"><text x="{left - 4}" y="{py(hi) + 4:.1f}" text-anchor="end">{_num(hi)}</text>'
        f'<text x="{left - 4}" y="{py(lo) + 4:.1f}" text-anchor="end">{_num(lo)}</text>'
        f'<text x="{left}" y="{h - 8}">{xlabel} {_num(x0)}</text>'
        f'<text x="{w - right}" y="{h - 8}" text-anchor="end">{xlabel} {_num(x1)}</text></g>',
    ]
    for i, name in enumerate(names):
        index = (colours or {}).get(name, i) % len(PALETTE)
        colour = PALETTE[index]
        paint = f"var(--p{index}, {colour})" if index < len(PALETTE) - 1 else colour  # the board's colour in the page
        pts = [(px(p["x"]), py(p["values"][name])) for p in points if p["values"].get(name) is not None]
        if not pts:
            continue
        dash = ' stroke-dasharray="5 3"' if i >= len(PALETTE) // 2 and len(names) > 4 else ""
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(
            f'<polyline fill="none" stroke="{colour}" style="stroke:{paint}" stroke-width="2.5"{dash} points="{line}"/>'
        )
        lx, ly = (8 if i % per_row == 0 else w // 2 + 4), h + 4 + 18 * (i // per_row)
        last = pts[-1]
        out.append(f'<circle cx="{last[0]:.1f}" cy="{last[1]:.1f}" r="3" fill="{colour}" style="fill:{paint}"/>')
        final = points[-1]["values"].get(name)
        short = name if len(name) <= 40 else name[:39] + "…"
        shown = f"{escape(short)}: {_num(final)}" if final is not None else escape(short)
        out.append(
            f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}" style="fill:{paint}"/>'
            f'<text x="{lx + 16}" y="{ly + 11}" font-size="12">{shown}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _num(v: float | None) -> str:
    if v is None:
        return ""
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def chart_book(table: Any, books: Books, session_id: str, version: int) -> ChartBook:
    """The game's chart book (its chart and its last round's summary), folded forward to ``version``; called
    with ``books.lock`` held."""
    book = books.chart
    if book is None or book.session != session_id or book.version > version:
        row = table.store_row(session_id)
        system, why = table.rules_for(row)
        if system is None:  # older rules: the stored state is all there is to draw
            system = table.system_of(row)
            book = ChartBook(session_id, system, {**row, "initial_state": table.state_of(session_id)})
            book.damaged = why
        else:
            book = ChartBook(session_id, system, row)
        books.chart = book
    book.catch_up(books.read(table), version)
    return book


@contextmanager
def active_book(table: Any) -> Iterator[tuple[Books, ChartBook]]:
    """The game on the table's chart book, folded to its newest version, with ``Books.lock`` held (the round's
    summary and the soft clock read it: ``webui.rounds``, ``webui.clock``); 404 with no game."""
    position = table.position()
    if position is None:
        raise NotFound(gettext("no game on the table: start one (POST /api/sessions)"))
    books = app_books()
    with books.lock:
        yield books, chart_book(table, books, *position)


@bp.get("/api/panel/chart.svg")
def chart():
    """The active game's chart: folded forward from the last look, drawn once per version."""
    table = _services().table
    position = table.position()
    if position is None:
        return Response("", mimetype="image/svg+xml", status=404)
    session_id, version = position
    books = app_books()
    with books.lock:
        book = chart_book(table, books, session_id, version)
        if book.svg is None or book.svg[0] != book.version:
            book.svg = (book.version, chart_svg(*book.points(), colours=book.colours()))
        svg = book.svg[1]
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


# -- luck -------------------------------------------------------------------------------------------
THE_TABLE = recap.THE_TABLE  # dice that are no player's (a random pick), or of a log that does not say whose


class LuckBook:
    """Per player: dice and their summed luck (``core.recap.die_lucks``), added up as the log grows (every roll
    stays counted when undone: it was rolled). Read as the shared view: another seat's private dice
    are never counted (their luck would tell something of their faces)."""

    def __init__(self, session_id: str = "") -> None:
        self.session = session_id
        self.version = 0
        self.acc: dict[str, list[float]] = {}  # seat (or THE_TABLE) -> as ``add`` counts them
        self.damaged: list[dict] = []
        self.system: Any = None  # the game's rules, for its seats' names and colours
        self.private_dice = 0  # dice rolled in private (another seat's scene pool), said as not counted

    def add(self, entry: dict) -> None:
        """Each die as the recap and the Stats page read it (``core.recap.die_lucks``): a die the rules count by
        its hit against its chance, any other (and every die of a log from before rolls said a chance) by its
        face against a fair die, so the three give one verdict."""
        for r, sides, faces, owners in recap.dice_of(entry):
            p = recap.hit_chance(r, len(faces))
            marks = list(r["marks"]) if p is not None else [None] * len(faces)
            lucks = recap.die_lucks(r, sides, faces)
            for f, mark, lucky, who in zip(faces, marks, lucks, owners, strict=True):
                if lucky is None:  # a die that had no chance either way tells nothing
                    continue
                a = self.acc.setdefault(who, [0.0] * 6)  # dice, luck sum, fair dice, face/mean sum, hits, expected
                a[0] += 1
                a[1] += lucky
                if p is None:
                    a[2] += 1
                    a[3] += f / ((sides + 1) / 2)
                else:
                    a[4] += mark == "hit"
                    a[5] += float(p)

    def catch_up(self, reader: Store, version: int) -> None:
        if version <= self.version:
            return
        for e in reader.entries(self.session, after=self.version, upto=version, damaged=self.damaged):
            shown = privacy.entry(e, None)
            if shown.get("private"):  # how many dice is public ("Shred rolled 5 dice"); their faces are not
                self.private_dice += sum(len(recap.faces_of(r)) for r in recap.entry_rolls(e))
            self.add(shown)
        self.version = version
        del self.damaged[20:]

    def report(self, labels: dict[str, str] | None = None, colours: dict[str, int] | None = None) -> dict:
        """The report, each player named as the board names them (``labels``: seat -> "Ann (Venus)") with
        the board's colour (``colours``: seat -> ``core.screen.PLAYER_INKS`` index, or null)."""
        labels, colours = labels or {}, colours or {}
        players = []
        ranked = sorted(self.acc.items(), key=lambda kv: -kv[1][1] / math.sqrt(kv[1][0]))
        for who, (n, zsum, fair, ratio, hits, expected) in ranked:
            z = zsum / math.sqrt(n)
            average = []
            if fair:
                average.append(f"{(ratio / fair - 1) * 100:+.0f}% against a fair die")
            if expected:
                average.append(f"{plural(int(hits), 'hit')} against {expected:.1f} expected")
            players.append(
                {
                    "name": labels.get(who, who),
                    "seat": who if who != THE_TABLE else None,
                    "colour": colours.get(who),
                    "dice": int(n),
                    "average": "; ".join(average),
                    "expected": "0%",
                    "z": round(z, 2),
                    "verdict": _verdict(z, int(n)),
                }
            )
        note = (
            "A die the rules count by its hits is its hit against its chance, any other its face against a fair die"
            " of its size, as the recap counts them; a verdict needs about 20 dice before it means much."
            if players
            else ""
        )
        if self.private_dice:  # said, so "no dice" is never said of a table that rolled in private
            dice = plural(self.private_dice, "die")
            hidden = f"Not counted: {dice} rolled in private (a seat's private dice are its own)."
            note = f"{note} {hidden}" if note else hidden
        if self.damaged:
            seqs = ", ".join(str(d["seq"]) for d in self.damaged[:10])
            note = (note + " " if note else "") + f"Damaged log entries {seqs} could not be read and are not counted."
        return {"players": players, "note": note, "private_dice": self.private_dice}


def luck_report(entries: list[dict], system: Any = None, state: dict | None = None) -> dict:
    """Per player: dice rolled, average face against a fair die's, and a verdict from the z-score
    (named and coloured as ``system`` draws ``state``'s seats, when given)."""
    book = LuckBook()
    for e in entries:
        book.add(e)
    return book.report(*_identities(system, state))


def _identities(system: Any, state: dict | None) -> tuple[dict[str, str], dict[str, int]]:
    """(seat -> label, seat -> colour) of the public view of ``state``: the board's names and colours."""
    if system is None or state is None:
        return {}, {}
    try:
        public = privacy.state(system, state, None)
        labels = {s.name: s.label or s.name for s in system.seats(public)}
        return labels, dict(system.seat_colours(public))
    except Exception:  # a report is never worth a failed page: the seats' own names then
        log.exception("seat labels for the luck report")
        return {}, {}


def _verdict(z: float, n: int) -> str:
    if n < 10:
        return "Too few dice to tell"
    if z >= 2:
        return "Hot dice (rarely this lucky)"
    if z >= 1:
        return "Lucky"
    if z <= -2:
        return "Cursed (rarely this unlucky)"
    if z <= -1:
        return "Unlucky"
    return "Fair"


@bp.get("/api/panel/luck")
def luck():
    """The luck report of the game on the table, counted from the last look on."""
    table = _services().table
    position = table.position()
    if position is None:
        raise NotFound(gettext("no active session: start a new game first"))
    session_id, version = position
    books = app_books()
    with books.lock:
        if books.luck is None or books.luck.session != session_id or books.luck.version > version:
            books.luck = LuckBook(session_id)
            books.luck.system = table.system_of(table.store_row(session_id))
        books.luck.catch_up(books.read(table), version)
        state = table.current_state()  # from memory: the seats' names and colours as the board draws them now
        return jsonify(books.luck.report(*_identities(books.luck.system, state)))
