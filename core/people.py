"""People across games and systems (#34): a player is a person, named at setup, whoever's seat they take.

A game's seats are stored as people when it is created (``Store.create_session``): each name the person of that
name, in any case, made the first time the table sees it, so the New game form can offer the names already seen.
A person can be renamed, or merged into another (their old name still finds them at setup); a game can be left
out of the stats. Each game's stats summary is kept beside it (``game_stats``), remade only when its version
changes, by ``webui.stats`` on a connection of its own. The SQL of these tables, as ``Store``'s methods.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from tableside.core.errors import Conflict, NotFound
from tableside.core.text import N_

PEOPLE_SCHEMA = (
    "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, merged_into INTEGER)",
    "CREATE TABLE players (session_id TEXT NOT NULL, seat TEXT NOT NULL, person INTEGER NOT NULL, "
    "PRIMARY KEY (session_id, seat))",
    "CREATE TABLE left_out (session_id TEXT PRIMARY KEY, at TEXT)",
    "CREATE TABLE game_stats (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, summary TEXT NOT NULL)",
)


def person(conn: sqlite3.Connection, name: str) -> int:
    """The person called ``name`` (any case; a name merged into another person is that person), made the
    first time the table sees the name. Inside the caller's transaction."""
    row = conn.execute("SELECT id, merged_into FROM people WHERE name = ?", [name]).fetchone()
    if row is None:
        return int(conn.execute("INSERT INTO people (name) VALUES (?)", [name]).lastrowid)
    return int(row[1] if row[1] is not None else row[0])


def seat_people(conn: sqlite3.Connection, session_id: str, seats: Iterable[str]) -> None:
    """Each seat of a game as the person of its name (kept where a seat already has one)."""
    for seat in seats:
        conn.execute(
            "INSERT OR IGNORE INTO players (session_id, seat, person) VALUES (?, ?, ?)",
            [session_id, seat, person(conn, seat)],
        )


class PeopleRecords:
    """``Store``'s methods for people, games left out and stats summaries (``Store`` gives the connection)."""

    conn: sqlite3.Connection
    _write: Any  # Store._write: a context naming what was not saved
    atomic: Any
    _rows: Any

    def people(self) -> list[dict]:
        """Every person (not merged into another), the most recently seen first, with their games."""
        sql = (
            "SELECT p.id, p.name, COUNT(s.id) AS games FROM people p LEFT JOIN players pl ON pl.person = p.id "
            "LEFT JOIN sessions s ON s.id = pl.session_id WHERE p.merged_into IS NULL "
            "GROUP BY p.id ORDER BY COALESCE(MAX(s.ordinal), 0) DESC, p.name"
        )
        return list(self._rows(sql, []))

    def players_of_games(self) -> Iterator[tuple[str, str, int, str]]:
        """(session id, seat, person id, the person's name now) of every seat of every game."""
        yield from self.conn.execute(
            "SELECT pl.session_id, pl.seat, p.id, p.name FROM players pl JOIN people p ON p.id = pl.person"
        )

    def seated_games(self, session_ids: list[str]) -> set[str]:
        """Which of ``session_ids`` have their people kept: read for the games being summed up, not all."""
        seated: set[str] = set()
        for start in range(0, len(session_ids), 500):  # SQLite's bound on ? parameters is 999 on old builds
            chunk = session_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT DISTINCT session_id FROM players WHERE session_id IN ({marks})"
            seated.update(row[0] for row in self.conn.execute(sql, chunk))
        return seated

    def _named(self, person: Any) -> str:
        row = self.conn.execute("SELECT name FROM people WHERE id = ? AND merged_into IS NULL", [person]).fetchone()
        if row is None:
            raise NotFound(N_("no player with id {got}", got=repr(str(person)[:20])))
        return str(row[0])

    def rename_person(self, person: int, name: str) -> None:
        """A person's new name, in every game they played; a name another person has is refused: merge them.
        The old name still finds them at setup."""
        with self._write("the name was not changed"), self.atomic():
            old = self._named(person)
            other = self.conn.execute("SELECT id, merged_into FROM people WHERE name = ?", [name]).fetchone()
            if other is not None and person not in (other[0], other[1]):
                raise Conflict(N_("{name} is another player: merge the two instead of renaming", name=name))
            if other is not None and other[0] != person:  # an old name of this person's: free it
                self.conn.execute("DELETE FROM people WHERE id = ?", [other[0]])
            self.conn.execute("UPDATE people SET name = ? WHERE id = ?", [name, person])
            if old.casefold() != name.casefold():
                self.conn.execute("INSERT INTO people (name, merged_into) VALUES (?, ?)", [old, person])

    def merge_people(self, person: int, into: int) -> None:
        """``person`` is ``into`` under another name: their games become ``into``'s, and the old name
        still finds ``into`` at setup. Refused for two people who sat at the same game."""
        with self._write("the players were not merged"), self.atomic():
            names = self._named(person), self._named(into)
            if person == into:
                raise Conflict(N_("{name} is already that player", name=names[0]))
            together = self.conn.execute(
                "SELECT COUNT(*) FROM players a JOIN players b ON a.session_id = b.session_id "
                "WHERE a.person = ? AND b.person = ?",
                [person, into],
            ).fetchone()[0]
            if together:
                raise Conflict(
                    N_(
                        "{one} and {other} played in the same game ({together}): two people",
                        one=names[0],
                        other=names[1],
                        together=together,
                    )
                )
            self.conn.execute("UPDATE players SET person = ? WHERE person = ?", [into, person])
            self.conn.execute(
                "UPDATE people SET merged_into = ? WHERE id = ? OR merged_into = ?", [into, person, person]
            )

    def leave_out(self, session_id: str, out: bool, at: str) -> None:
        """Leave a game out of the stats (``out``), or count it again."""
        with self._write("the game's place in the stats was not changed"), self.atomic():
            if out:
                self.conn.execute("INSERT OR IGNORE INTO left_out (session_id, at) VALUES (?, ?)", [session_id, at])
            else:
                self.conn.execute("DELETE FROM left_out WHERE session_id = ?", [session_id])

    def left_out_games(self) -> set[str]:
        return {row[0] for row in self.conn.execute("SELECT session_id FROM left_out")}

    def game_versions(self) -> list[tuple[str, str, int, int | None]]:
        """(id, system, version, the version its stats summary was made at or None) of every game."""
        return self.conn.execute(
            "SELECT s.id, s.system, (SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = s.id), g.version "
            "FROM sessions s LEFT JOIN game_stats g ON g.session_id = s.id ORDER BY s.ordinal"
        ).fetchall()

    def stats_marks(self, live: str | None) -> tuple[str | None, tuple, int | None]:
        """What the Stats page follows from, told cheaply: the id and version of every game but ``live`` as one
        string, the people (each id, name and merge) with the count and sum of the persons at the seats, and
        ``live``'s version (None: no such game). Each is made by SQLite in one step, off Python's interpreter
        lock: a change of the game on the table compares them, where reading every game's version and every
        seat is ~2 ms of Python. The seats are only ever added or deleted with their game, or moved to another
        person by a merge, which the people's mark shows."""
        others = self.conn.execute(
            "SELECT group_concat(id || ' ' || version, ',') FROM (SELECT s.id AS id, "
            "(SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = s.id) AS version "
            "FROM sessions s WHERE s.id IS NOT ? ORDER BY s.ordinal)",
            [live],
        ).fetchone()[0]
        seats = self.conn.execute(  # people change by name or merge; a game's seats are added or deleted with it
            "SELECT (SELECT group_concat(id || ' ' || name || ' ' || COALESCE(merged_into, ''), char(10)) "
            "FROM people), (SELECT COUNT(*) || ' ' || TOTAL(person) FROM players)"
        ).fetchone()
        version = self.conn.execute(
            "SELECT (SELECT COALESCE(MAX(seq), 0) FROM log WHERE session_id = s.id) FROM sessions s WHERE s.id = ?",
            [live],
        ).fetchone()
        return others, tuple(seats), version[0] if version else None

    def game_summaries(self) -> Iterator[tuple[str, str]]:
        """(session id, summary JSON) of every game whose stats summary is made."""
        yield from self.conn.execute("SELECT session_id, summary FROM game_stats")

    def save_summaries(self, made: Iterable[tuple[str, int, dict]], seats: Iterable[tuple[str, list[str]]]) -> None:
        """Stats summaries (session id, version, summary) and the people of games saved before people were
        kept, in one transaction: a cache, written on a stats connection, never the table's."""
        with self._write("the stats were not cached"), self.atomic():
            for session_id, names in seats:
                seat_people(self.conn, session_id, names)
            self.conn.executemany(
                "INSERT OR REPLACE INTO game_stats (session_id, version, summary) VALUES (?, ?, ?)",
                [(sid, version, json.dumps(summary, separators=(",", ":"))) for sid, version, summary in made],
            )
