"""The Stats page's routes (#34): the table's game nights, and the people who played them.

``GET /api/stats`` folds every game's summary (``core.stats``) on a connection of its own, never holding the table:
a game is summed up once (its state replayed, its dice counted) and kept beside it in ``game_stats``, remade only
when its version changes, so a request with 500 finished games reads 500 small rows; the answer itself is kept
until a game, a person or a left-out game changes. ``GET /api/people`` lists the names the table has seen (the
New game form offers them); a person is renamed or merged into another, and a game left out of the stats or
counted again, with the table held for that one write (``core.people``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app, jsonify
from tableside.core import stats
from tableside.core.errors import BadRequest, NotFound
from tableside.core.live import stored_state
from tableside.core.replay import Replay
from tableside.core.store import Store
from tableside.core.system import GameSystem
from tableside.core.table import Table
from tableside.webui.api import _body
from tableside.webui.i18n import gettext
from tableside.webui.panel import Prepared, accepts_gzip

bp = Blueprint("stats", __name__)
log = logging.getLogger(__name__)
MAX_NAME = 30  # a player's name, as the New game form takes it


def _table() -> Table:
    return current_app.extensions["tableside"].table


def book_for(table: Table) -> StatsBook:
    """The one ``StatsBook`` of ``table``."""
    return table.kept("stats", StatsBook)


class StatsBook:
    """The Stats page of one table: each game's summary made once, the answer kept until something changes.

    Every game but the one on the table is folded once (``core.stats.Folding``) and that fold kept; the game on
    the table, whose every action moves its version, is added to a copy of it (``with_game``): a roll sums up
    that one game's new entries and, when its figures move (a Venus 2140 game counts from its first action),
    adds that one game, never folding the others again. Its summary stays in memory while it is on the table
    (no write beside each of the table's writes), and is saved once another game takes its place."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._lock = threading.Lock()  # one fold at a time; the table's own lock is never taken
        self._store: Store | None = None
        self._data: bytes | None = None  # the answer, as JSON
        self._answers: dict[bool, Prepared] = {}  # ... as sent, with and without gzip: made when first asked
        self._made: dict[str, dict] | None = None  # each game's summary, by session id
        self._at: dict[str, int] = {}  # the version each summary was made at
        self._unsaved: set[str] = set()  # summaries newer than the file's cache
        self._kept: tuple[str, GameSystem, stats.Tally, dict] | None = None
        self._changes = 0  # how often a summary of a game not on the table changed: its fold is kept until then
        self._live_changes = 0  # ... and of the game on the table: the answer is kept until then
        self._base: stats.Folding | None = None  # every game but the one on the table, folded
        self._base_key: Any = None
        self._people: dict[str, dict[str, tuple[int, str]]] = {}  # the person at each seat of each game
        self._left_out: set[str] = set()
        self._live: str | None = None  # the game on the table, as folded
        self._live_index = -1  # ... and its place among the games
        self._marks: Any = None  # what the answer follows from (``Store.stats_marks``), when it was made
        self._page_key: Any = None
        self._seen: int | None = None  # the file's data_version when the answer was made
        self._names = {s["id"]: s["name"] for s in table.systems()}

    def _open(self) -> Store:
        """A connection of the stats' own: it reads while the table writes (WAL), and writes only the cache."""
        if self._store is None:
            self._store = Store(self.table.store.path)
            self._store.execute("PRAGMA synchronous=NORMAL")  # a cache: a power cut loses at most its newest rows
        return self._store

    def answer(self, gz: bool) -> Prepared:
        with self._lock:
            store = self._open()
            seen = store.execute("PRAGMA data_version").fetchone()[0]  # moves when another connection commits
            if seen != self._seen or self._data is None:
                self._refresh(store)
                self._seen = seen
            if gz not in self._answers:
                self._answers[gz] = Prepared(self._data, gz)
            return self._answers[gz]

    def _refresh(self, store: Store) -> None:
        """The answer made again if anything it follows from changed. A change of the game on the table alone
        (the marks of every other game, of the seats and of the games left out as they were) reads that one
        game's new entries and nothing else."""
        mark = self.table.mark()  # read without the table's lock
        live = mark[0] if mark else None
        others, seats, version = store.stats_marks(live)
        left_out = store.left_out_games()
        marks = (live, others, seats, frozenset(left_out))
        if marks == self._marks and version is not None and not self._unsaved - {live}:
            if self._at.get(live) != version:
                self._summarise(store, [(live, version)], live)
            self._page()
            return
        versions = store.game_versions()
        if self._made is None:  # read once; then kept in step with what is summed up here
            self._made = {sid: json.loads(summary) for sid, summary in store.game_summaries()}
            self._at = {sid: made for sid, _system, _version, made in versions if made is not None}
        stale = [(sid, version) for sid, _system, version, _made in versions if self._at.get(sid) != version]
        if stale or self._unsaved - {live}:
            self._summarise(store, stale, live)
        rows = tuple(store.players_of_games())
        order = [sid for sid, *_rest in versions]
        live = live if live in self._made else None
        key = (self._changes, tuple(order), rows, frozenset(left_out), live)
        if key != self._base_key:
            people: dict[str, dict[str, tuple[int, str]]] = {}
            for sid, seat, pid, name in rows:
                people.setdefault(sid, {})[seat] = (pid, name)
            self._people, self._live, self._live_index = people, live, order.index(live) if live else -1
            self._base = stats.Folding(self._names)
            for index, sid in enumerate(order):
                if sid != live and sid in self._made:
                    self._base.add(index, sid, self._made[sid], people.get(sid, {}), sid in left_out)
            self._base_key, self._left_out = key, left_out
        self._marks = marks
        self._page()

    def _page(self) -> None:
        """The answer: the kept fold of every other game with the game on the table added, made again only when
        one of them changed."""
        key, live = (self._base_key, self._live_changes), self._live
        if key == self._page_key or self._base is None:
            return
        if live:
            at, out = self._people.get(live, {}), live in self._left_out
            folded = self._base.with_game(self._live_index, live, self._made[live], at, out).page()
        else:
            folded = self._base.page()
        self._data = json.dumps(folded, separators=(",", ":")).encode()
        self._page_key, self._answers = key, {}

    def _summarise(self, store: Store, stale: list[tuple[str, int]], live: str | None) -> None:
        """Each stale game summed up from its own log, and the people of a game saved before people were kept;
        saved in the file's cache but for the game on the table (saved once another game takes its place)."""
        seated = store.seated_games([sid for sid, _version in stale])
        seats = []
        for sid, version in stale:
            summary, names = self._one(store, sid, version)
            before = self._made.get(sid)
            self._at[sid] = version
            self._unsaved.add(sid)
            if before != summary:
                self._made[sid] = summary
                # A game that counts neither before nor now (one being played) is not in the fold: its new
                # dice and minutes change no figure, so the kept answer stays (a roll costs no refold).
                if (before or {}).get("counts") or summary.get("counts"):
                    if sid == live:
                        self._live_changes += 1
                    else:
                        self._changes += 1
            if sid not in seated and names:
                seats.append((sid, names))
        if self.table.store.newer:  # a newer Tableside's file: nothing is written, the fold is made anyway
            self._unsaved.clear()
            return
        saved = [sid for sid in self._unsaved if sid != live]
        if saved or seats:
            store.save_summaries([(sid, self._at[sid], self._made[sid]) for sid in saved], seats)
        self._unsaved.difference_update(saved)

    def _one(self, store: Store, sid: str, version: int) -> tuple[dict, list[str]]:
        row = store.get_session(sid)
        system, why = self.table.rules_for(row) if row else (None, "it was deleted")
        if row is None or system is None:
            return {"counts": False, "why": why}, []
        try:
            tally, state = self._read(store, row, system, version)
            summary = stats.summarise(system, row["created_at"], state, tally)
        except Exception as exc:  # a game that no longer reads is left out of the stats, never a failed page
            log.warning("stats: game %s left out: %s", sid, exc)
            return {"counts": False, "why": str(exc)[:200]}, []
        names = [s.name for s in system.seats(state) if s.name != system.faction(state, s.name)]
        return summary, names

    def _read(self, store: Store, row: dict, system: GameSystem, version: int) -> tuple[stats.Tally, dict]:
        """The game's log read up to ``version`` and its state there: from where the last read of the same game
        stopped (the game on the table: one new entry a change), else from its start."""
        sid, kept = row["id"], self._kept
        kept = kept if kept and kept[0] == sid and kept[1] is system else None
        self._kept = None  # until this read is through: a read that fails starts again from the game's start
        if kept is not None and kept[2].version < version:
            tally, state = kept[2], Replay(store, system, row).forward(kept[3], kept[2].version, version)
        else:
            tally, state = stats.Tally(), stored_state(store, row, system, version)
        tally.add(store.entries(sid, after=tally.version, upto=version, damaged=[]))
        tally.version = version
        self._kept = (sid, system, tally, state)  # the newest game read: as a rule the one on the table
        return tally, state

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


@bp.get("/api/stats")
def stats_page():
    """Games, wins and win rates per system, favourites, rivals and nemeses, luck by night, the longest and
    shortest games, and the game nights: ``core.stats.fold``."""
    return book_for(_table()).answer(accepts_gzip()).response()


@bp.get("/api/people")
def people():
    """The people the table has seen, the most recent first: ``[{"id", "name", "games"}]``."""
    table = _table()
    with table.held():
        return jsonify(table.store.people())


def _name(raw: Any) -> str:
    if not isinstance(raw, str) or not " ".join(raw.split()):
        raise BadRequest(gettext("'name' must be a player's name of 1-{maximum} characters", maximum=MAX_NAME))
    name = " ".join(raw.split())
    if len(name) > MAX_NAME:
        raise BadRequest(
            gettext("'name' must be at most {maximum} characters (it has {length})", maximum=MAX_NAME, length=len(name))
        )
    return name


def _person(raw: Any, what: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise BadRequest(gettext("'{what}' must be a player's id from GET /api/people", what=what))
    return raw


def _id(raw: str) -> int:
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise NotFound(gettext("no player with id {got}: the ids are in GET /api/people", got=repr(raw[:20])))
    return int(raw)


@bp.post("/api/people/<person>/rename")
def rename(person: str):
    """``{"name": "Ann"}``: the person's name everywhere (their old name still finds them at setup)."""
    pid, name = _id(person), _name(_body().get("name"))
    return _people_after(lambda store: store.rename_person(pid, name))


@bp.post("/api/people/<person>/merge")
def merge(person: str):
    """``{"into": 3}``: this person is that one under another name; their games become that person's."""
    pid, into = _id(person), _person(_body().get("into"), "into")
    return _people_after(lambda store: store.merge_people(pid, into))


def _people_after(change: Callable[[Store], None]):
    """One change to the people, with the table held for that write; the people as they are then."""
    table = _table()
    with table.held():
        change(table.store)
        return jsonify(table.store.people())


@bp.post("/api/stats/games/<session_id>")
def leave_out(session_id: str):
    """``{"left_out": true}``: the game is left out of the stats (``false``: counted again)."""
    out = _body().get("left_out")
    if not isinstance(out, bool):
        raise BadRequest(gettext("say true to leave the game out of the stats, or false to count it again"))
    table = _table()
    with table.held():
        table.store_row(session_id)  # NotFound naming it
        table.store.leave_out(session_id, out, datetime.now(UTC).isoformat(timespec="seconds"))
    return jsonify({"id": session_id, "left_out": out})
