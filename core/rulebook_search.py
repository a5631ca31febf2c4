"""Search the four rulebooks (#35): when a table argues, the phone finds the passage, offline.

The books are the transcriptions in ``docs/rulebooks/`` (installed as ``tableside.rulebooks``). Each
book is cut into passages, one paragraph each with the heading it stands under and its line, so an
answer says where in the book it is. They are indexed once, on the first search, in an in-memory
SQLite FTS5 table (Python's own sqlite3 has FTS5): bm25 ranks them, ``highlight()`` marks the words
found. A user's words never reach FTS5's query syntax: each word, or each quoted phrase, is quoted.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from tableside.core.errors import BadRequest
from tableside.core.text import N_

# system id: the book's title, as the rulebook names its game
BOOKS = {
    "vnm": "Venus Needs Men",
    "venom": "VENOM Assault",
    "vegas": "Venusian Vegas",
    "v2140": "Venus 2140",
}
MAX_QUERY = 100  # characters: a question at the table, not a document
MAX_LIMIT = 50
HEADING_MAX = 60  # the books' headings are short lines of their own
_OPEN, _CLOSE = "\x02", "\x03"  # highlight() marks: never in the books' text
_WORD = re.compile(r"\w+")
_PHRASE = re.compile(r'"([^"]*)"')
_SKIPPED = {"Table of Contents"}  # a list of headings, not a rule


@dataclass(frozen=True)
class Passage:
    """One paragraph of a book and its place: the heading it stands under and its first line (from 1)."""

    book: str
    heading: str
    text: str
    line: int


def _is_heading(lines: list[str]) -> bool:
    """A heading is a short line alone, starting with a capital, that is not a sentence, a list item or a table row."""
    if len(lines) != 1:
        return False
    line = lines[0].strip()
    return (
        0 < len(line) <= HEADING_MAX
        and line[0].isupper()
        and "\t" not in lines[0]
        and not line.endswith((".", ":", ";", ",", "?", "!", "”", '"'))
        and not any(mark in line for mark in (": ", ". ", "“"))
    )


def _paragraphs(text: str) -> list[tuple[int, list[str]]]:
    """The blank-line separated blocks of a text, each with its first line's number (from 1)."""
    out: list[tuple[int, list[str]]] = []
    block: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not block:
                start = number
            block.append(line.rstrip())
        elif block:
            out.append((start, block))
            block = []
    if block:
        out.append((start, block))
    return out


def passages(book: str, text: str) -> list[Passage]:
    """A book's passages: every paragraph that is not a heading, under the last heading before it (the
    book's title before the first one); the table of contents is left out."""
    heading = BOOKS.get(book, book)
    out = []
    for line, block in _paragraphs(text):
        if _is_heading(block):
            heading = block[0].strip()
        elif heading not in _SKIPPED:
            out.append(Passage(book, heading, "\n".join(block), line))
    return out


def shelf() -> Traversable:
    """Where the rulebooks are: ``tableside/rulebooks`` in an installed wheel; in an editable install
    (setuptools' finder maps no folder without ``__init__.py`` inside a package) the repository's own."""
    try:
        return resources.files("tableside.rulebooks")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[1] / "docs" / "rulebooks"


def book_text(book: str) -> str:
    """A rulebook's text (``docs/rulebooks/<book>.txt`` in the repository)."""
    return shelf().joinpath(f"{book}.txt").read_text(encoding="utf-8")


def match_expression(query: str, any_word: bool = False) -> str:
    """The user's words as an FTS5 query that cannot be read as FTS5 syntax: a quoted phrase stays a
    phrase, every other word is quoted alone; all must match (or, with ``any_word``, any one)."""
    if not isinstance(query, str) or not query.strip():
        raise BadRequest(N_("say what to look up in the rulebooks (q is empty)"))
    if len(query) > MAX_QUERY:
        raise BadRequest(
            N_("a rules search is at most {maximum} characters, got {got}", maximum=MAX_QUERY, got=len(query))
        )
    terms = []
    for phrase in _PHRASE.findall(query):
        words = _WORD.findall(phrase)
        if words:
            terms.append('"' + " ".join(words) + '"')
    terms += [f'"{word}"' for word in _WORD.findall(_PHRASE.sub(" ", query))]
    if not terms:
        raise BadRequest(
            N_("no word to look up in the rulebooks in {query}: search with letters or numbers", query=repr(query))
        )
    return (" OR " if any_word else " ").join(terms)


def _parts(marked: str) -> list[dict]:
    """highlight()'s text as parts ``{"text", "mark"}``, so the page builds the marks as nodes, never as HTML."""
    out = []
    for i, piece in enumerate(re.split(f"[{_OPEN}{_CLOSE}]", marked)):
        if piece:
            out.append({"text": piece, "mark": i % 2 == 1})
    return out


class RulebookIndex:
    """The passages of the books in an FTS5 table, built on first use (once, under a lock: the web
    server answers from several threads) and queried under the same lock on one connection."""

    def __init__(self, books: dict[str, str] | None = None) -> None:
        self._books = books  # system id -> text; None: the installed rulebooks
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            books = self._books if self._books is not None else {book: book_text(book) for book in BOOKS}
            db = sqlite3.connect(":memory:", check_same_thread=False)
            db.execute(
                "CREATE VIRTUAL TABLE passages USING fts5("
                "heading, text, book UNINDEXED, line UNINDEXED, tokenize='porter unicode61 remove_diacritics 2')"
            )
            db.executemany(
                "INSERT INTO passages (heading, text, book, line) VALUES (?, ?, ?, ?)",
                [(p.heading, p.text, p.book, p.line) for book, text in books.items() for p in passages(book, text)],
            )
            self._db = db
        return self._db

    def count(self) -> int:
        """How many passages are indexed (the benchmark's plain query)."""
        with self._lock:
            return self._open().execute("SELECT count(*) FROM passages").fetchone()[0]

    def _matches(self, db: sqlite3.Connection, expression: str) -> list[tuple]:
        return db.execute(
            "SELECT book, line, highlight(passages, 0, ?, ?), highlight(passages, 1, ?, ?), "
            "bm25(passages, 2.0, 1.0) FROM passages WHERE passages MATCH ? ORDER BY rank",
            (_OPEN, _CLOSE, _OPEN, _CLOSE, expression),
        ).fetchall()

    def search(self, query: str, system: str | None = None, phase: str | None = None, limit: int = 10) -> list[dict]:
        """The passages that hold all the words (any of them, when none holds all), best first by bm25;
        the book of ``system`` first, and in it the passages under a heading naming ``phase``."""
        if system is not None and system not in BOOKS:
            raise BadRequest(
                N_("no rulebook for system {system}: one of {books}", system=repr(system), books=", ".join(BOOKS))
            )
        if not 1 <= limit <= MAX_LIMIT:
            raise BadRequest(N_("limit must be 1-{maximum}, got {got}", maximum=MAX_LIMIT, got=limit))
        every = match_expression(query)
        with self._lock:
            db = self._open()
            rows = self._matches(db, every) or self._matches(db, match_expression(query, any_word=True))
        wanted = (phase or "").strip().lower()

        def first(row: tuple) -> tuple:
            ours = row[0] == system
            return (not ours, not (ours and wanted and wanted in _plain(row[2]).lower()))

        rows.sort(key=first)  # stable: bm25's order within each group
        return [
            {
                "book": book,
                "title": BOOKS[book],
                "heading": _plain(heading),
                "line": line,
                "heading_parts": _parts(heading),
                "parts": _parts(text),
                "score": round(-score, 3),
            }
            for book, line, heading, text, score in rows[:limit]
        ]


def _plain(marked: str) -> str:
    return marked.replace(_OPEN, "").replace(_CLOSE, "")


_INDEX = RulebookIndex()


def search(query: str, system: str | None = None, phase: str | None = None, limit: int = 10) -> list[dict]:
    """Search the installed rulebooks (see ``RulebookIndex.search``)."""
    return _INDEX.search(query, system=system, phase=phase, limit=limit)
