"""The saved games as the table keeps them: the list, and any game's row, rules, log, states and replay.

The reading half of ``core.table.Table`` (which inherits it): what is read of a game whether or not it is
the one on the table, each read with the table held, so it sees one version. A game that is not on the
table is read from the store (its head, or a checkpoint and the entries after it, ``core.replay``).
"""

from __future__ import annotations

import copy
import itertools
import logging
import threading
from collections.abc import Callable

from tableside.core import privacy
from tableside.core.errors import NotFound, RuleError
from tableside.core.live import Live, rules_for, stored_state
from tableside.core.replay import Replay
from tableside.core.store import Store
from tableside.core.system import GameSystem
from tableside.core.text import N_

log = logging.getLogger("tableside.core.table")  # the table's log, as before these reads had a module


class SavedGames:
    """Reads of the saved games; ``Table`` provides the store, its lock and the game on the table."""

    store: Store
    _lock: threading.RLock
    _live: Live | None
    _get_system: Callable[[str], GameSystem]
    _require_live: Callable[[], Live]  # the game on the table, or NotFound

    def sessions(self, limit: int | None = None, offset: int = 0) -> list[dict]:
        """Saved games, newest first: all of them, or ``limit`` of them after the first ``offset``."""
        with self._lock:
            active = self._live.id if self._live else None
            return [
                {
                    "id": s["id"],
                    "system": s["system"],
                    "name": s["name"],
                    "version": s["version"],
                    "created_at": s["created_at"],
                    "active": s["id"] == active,
                }
                for s in self.store.list_sessions(limit, offset)
            ]

    def state_of(self, session_id: str) -> dict:
        """A saved session's newest state: the game in play from memory, others from their stored
        head, or the newest checkpoint and at most a checkpoint's worth of entries re-applied."""
        with self._lock:
            live = self._live
            if live is not None and live.id == session_id:
                return live.state
            row = self._saved_row(session_id)
            system, _ = rules_for(row, self._get_system)
            return stored_state(
                self.store, row, system or self._get_system(row["system"]), self.store.version(session_id)
            )

    def log(
        self,
        session_id: str | None = None,
        seat: str | None = None,
        since: int = 0,
        damaged: list[dict] | None = None,
        limit: int | None = None,
    ) -> list[dict]:
        """Entries after ``since`` of a session (default: the active one), oldest first; at most
        ``limit`` of them (a phone paging back through a long game reads one page, not the rest).

        An entry private to another seat (a Venus 2140 pool roll) shows only its
        public summary: no faces, no action details. A row that no longer reads is
        skipped and named in ``damaged`` (``{"seq", "problem"}``).
        """
        damaged = [] if damaged is None else damaged
        with self._lock:
            if session_id is None:
                session_id = self._require_live().id
            else:
                self._saved_row(session_id)
            entries = self.store.entries(session_id, after=since, damaged=damaged)
            out = [privacy.entry(e, seat) for e in itertools.islice(entries, limit)]
        if damaged:
            log.warning("session %s: damaged log entries skipped: %s", session_id, damaged[:5])
        return out

    def export_source(self, session_id: str | None, seat: str | None = None) -> tuple[dict, str | None]:
        """(the session's row, the seat its export is read as): an export reads the log itself, on a
        connection of its own (``Store.reader``), without holding the table. ``seat`` counts only for
        the game on the table; a saved game is exported as the shared view sees it."""
        with self._lock:
            if session_id is None or (self._live is not None and session_id == self._live.id):
                session_id = self._require_live().id
            else:
                seat = None
            return self._saved_row(session_id), seat

    def states(self, session_id: str) -> list[dict]:
        """The state after every version, 0 to the newest, re-applied from the log's recordings. Linear in
        the log, and it keeps every state: for tests and short games (the chart folds step by step,
        ``webui.history``); a session whose rules cannot replay raises RuleError."""
        with self._lock:
            row, system = self._replayable(session_id)
            out = [row["initial_state"]]
            replay = Replay(self.store, system, row)
            out += [copy.deepcopy(state) for _, state in replay.steps(out[0], 0, self.store.version(session_id))]
            return out

    def replay(self, session_id: str) -> dict:
        """The state at the end of the log, derived from the log alone (no stored states, never the RNG)."""
        with self._lock:
            row, system = self._replayable(session_id)
            return Replay(self.store, system, row, use_stored=False).from_log()

    def store_row(self, session_id: str) -> dict:
        """A saved session's row (system, options, initial state): what a reader of its log needs."""
        with self._lock:
            return self._saved_row(session_id)

    def _saved_row(self, session_id: str) -> dict:
        """The saved session's row, or NotFound naming the id (its first 40 characters)."""
        row = self.store.get_session(session_id)
        if row is None:
            raise NotFound(N_("no saved session with id {given}", given=repr(str(session_id)[:40])))
        return row

    def _replayable(self, session_id: str) -> tuple[dict, GameSystem]:
        """The saved session's row and the rules that replay it; RuleError saying why they cannot."""
        row = self._saved_row(session_id)
        system, why = rules_for(row, self._get_system)
        if system is None:
            raise RuleError(N_("cannot replay: {why}", why=why))
        return row, system

    def system_of(self, row: dict) -> GameSystem:
        """The system a saved session belongs to (its current rules)."""
        return self._get_system(row["system"])

    def rules_for(self, row: dict) -> tuple[GameSystem | None, str | None]:
        """The rules a saved session was played with, or None and why it cannot be played on."""
        return rules_for(row, self._get_system)
