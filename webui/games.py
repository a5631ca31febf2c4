"""How many saved games the table keeps and how fast new ones may be started (docs/api.md, "Limits").

Guests with the join code start games from their phones: these bounds keep them from filling the
card. They are this layer's: the core starts any game it is asked to and only says when (``admit``).
One ``NewGames`` per table (``new_games_for``), so every app built over it counts the same starts.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from tableside.core.errors import TooMany
from tableside.core.table import Table
from tableside.webui.i18n import gettext

MAX_SESSIONS = 500  # saved games the table keeps: delete old ones (archived to a file first) for more
NEW_GAMES_PER_MINUTE = 6  # table-wide; ``[server] new_games_per_minute``


def new_games_for(table: Table) -> NewGames:
    """The one ``NewGames`` of ``table``, made the first time it is asked for."""
    return table.kept("new_games", NewGames)


class NewGames:
    """Starts new games on one table within its limits: at most ``per_minute`` a minute, ``MAX_SESSIONS`` kept."""

    def __init__(self, table: Table, per_minute: int = NEW_GAMES_PER_MINUTE) -> None:
        self.table = table
        self.per_minute = per_minute
        self._started: list[float] = []  # when the last new games were started
        self._lock = threading.Lock()

    def start(self, system_id: Any, options: Any = None, name: Any = "") -> dict:
        """``Table.create_session`` within the limits: past them a 429 saying which, and nothing stored."""
        mine: list[float] = []

        def admit() -> None:  # with the table held: checked and counted in one step
            now = time.monotonic()  # not the table's clock: a wall clock a test (or a Pi without network) moves
            with self._lock:
                self._started = [t for t in self._started if now - 60 < t <= now]
                if len(self._started) >= self.per_minute:
                    raise TooMany(
                        gettext(
                            "at most {count} new games a minute: wait a moment and try again", count=self.per_minute
                        )
                    )
                if self.table.store.count_sessions() >= MAX_SESSIONS:
                    raise TooMany(
                        gettext(
                            "the table keeps at most {count} saved games: delete old ones first "
                            "(each is archived to a file in the data folder before it goes)",
                            count=MAX_SESSIONS,
                        )
                    )
                self._started.append(now)
                mine.append(now)

        try:
            return self.table.create_session(system_id, options, name, admit=admit)
        except Exception:
            with self._lock:  # admitted, then not stored (a full card): it was no start
                for t in mine:
                    if t in self._started:
                        self._started.remove(t)
            raise
