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
    """The Stats page of one table: each game's summary made once, the answer kept until something changes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._lock = threading.Lock()  # one fold at a time; the table's own lock is never taken
        self._store: Store | None = None
        self._key: Any = None
        self._answers: dict[bool, Prepared] = {}
        self._made: dict[str, dict] | None = None  # each game's summary, by session id
        self._kept: tuple[str, GameSystem, stats.Tally, dict] | None = None
        self._changes = 0  # how often a summary changed: the answer is kept until it does
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
            if seen == self._seen and self._answers:
                return self._answers[gz]
            versions = store.game_versions()
            if self._made is None:  # read once; then kept in step with what is summed up here
                self._made = {sid: json.loads(summary) for sid, summary in store.game_summaries()}
            stale = [(sid, version) for sid, _system, version, made in versions if made != version]
            if stale:
                self._summarise(store, stale)
            rows = tuple(store.players_of_games())
            left_out = store.left_out_games()
            key = (self._changes, tuple(sid for sid, *_rest in versions), rows, frozenset(left_out))
            if key != self._key:
                people: dict[str, dict[str, tuple[int, str]]] = {}
                for sid, seat, pid, name in rows:
                    people.setdefault(sid, {})[seat] = (pid, name)
                games = [(sid, self._made[sid]) for sid, *_rest in versions if sid in self._made]
                folded = stats.fold(games, people, left_out, self._names)
                data = json.dumps(folded, separators=(",", ":")).encode()
                self._key, self._answers = key, {flag: Prepared(data, flag) for flag in (False, True)}
            self._seen = seen
            return self._answers[gz]

    def _summarise(self, store: Store, stale: list[tuple[str, int]]) -> None:
        """Each stale game summed up from its own log, and the people of a game saved before people were kept."""
        seated = store.seated_games([sid for sid, _version in stale])
        made, seats = [], []
        for sid, version in stale:
            summary, names = self._one(store, sid, version)
            made.append((sid, version, summary))
            before = self._made.get(sid)
            if before != summary:
                self._made[sid] = summary
                # A game that counts neither before nor now (one being played) is not in the fold: its new
                # dice and minutes change no figure, so the kept answer stays (a roll costs no refold).
                if (before or {}).get("counts") or summary.get("counts"):
                    self._changes += 1
            if sid not in seated and names:
                seats.append((sid, names))
        if not self.table.store.newer:  # a newer Tableside's file: nothing is written, the fold is made anyway
            store.save_summaries(made, seats)

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
