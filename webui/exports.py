"""A game's log written out as JSON or CSV, a piece at a time: the export route and ``tableside export``.

Read on a connection of its own (``Store.reader``), so a long game's export neither holds
the table nor the Pi's memory. What a phone may read is decided by ``core.privacy``; the
command on the table's own machine writes everything. A row that no longer reads is left
out and named at the end (``"damaged"`` in JSON, a ``damaged`` row in CSV).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import os
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from tableside.core import privacy
from tableside.core.store import Store

CSV_COLUMNS = ("seq", "kind", "type", "source", "seat", "at", "target", "action", "result")
log = logging.getLogger(__name__)
EVERYTHING = object()  # the seat of ``tableside export``: the owner at the table's own machine


CHUNK = 500  # entries per cached block of an export


class ExportCache:
    """Finished blocks of exports. The log only grows, so the export of entries 1-500, once the game is
    past 500, never changes: each such block is kept compressed (about 15 kB), for the last few
    (session, seat, format) asked, and a phone exporting a long game again pays only for the new end."""

    def __init__(self, keep: int = 4) -> None:
        self.keep = keep
        self.lock = threading.Lock()
        self._books: OrderedDict[tuple, list[tuple[bytes, int, list[dict]]]] = OrderedDict()

    def blocks(self, key: tuple) -> list[tuple[bytes, int, list[dict]]]:
        with self.lock:
            found = self._books.get(key)
            if found is None:
                return []
            self._books.move_to_end(key)
            return list(found)

    def add(self, key: tuple, index: int, block: tuple[bytes, int, list[dict]]) -> None:
        with self.lock:
            book = self._books.setdefault(key, [])
            if len(book) == index:
                book.append(block)
            self._books.move_to_end(key)
            while len(self._books) > self.keep:
                self._books.popitem(last=False)


def export_lines(
    reader: Store,
    session_id: str,
    seat: object,
    fmt: str,
    damaged: list[dict] | None = None,
    cache: ExportCache | None = None,
) -> Iterator[str]:
    """The export of ``session_id`` as ``seat`` may read it (``EVERYTHING``: unredacted); closes ``reader``
    at the end. Damaged rows are appended to ``damaged`` (and named in the output). With a ``cache``,
    finished blocks of ``CHUNK`` entries come from it and new ones go into it."""
    damaged = [] if damaged is None else damaged
    key = (session_id, "everything" if seat is EVERYTHING else seat, fmt)
    try:
        yield ('{"session": ' + json.dumps(session_id) + ', "log": [') if fmt == "json" else _csv_row(CSV_COLUMNS)
        written = 0
        blocks = cache.blocks(key) if cache is not None else []
        for packed, count, bad in blocks:
            if count:
                yield ("\n" if written == 0 else ",\n") if fmt == "json" else ""
                yield zlib.decompress(packed).decode()
            written += count
            damaged.extend(bad)
        version = reader.version(session_id)
        start = len(blocks) * CHUNK
        pieces: list[str] = []
        block_bad: list[dict] = []
        block = start // CHUNK
        for e in reader.entries(session_id, after=start, damaged=block_bad):
            while e["seq"] > (block + 1) * CHUNK:  # a block ended (its last rows may have been damaged)
                end = (block + 1) * CHUNK
                mine = [d for d in block_bad if d["seq"] <= end]
                _finish(cache, key, block, pieces, mine, version)
                damaged.extend(mine)
                block_bad[:] = [d for d in block_bad if d["seq"] > end]  # the list the reader appends to
                pieces, block = [], block + 1
            entry = e if seat is EVERYTHING else privacy.entry(e, seat)  # type: ignore[arg-type]
            if fmt == "json":
                piece = json.dumps(entry)
                yield ("\n" if written == 0 else ",\n") + piece
            else:
                piece = _csv_row(
                    [json.dumps(entry.get(c)) if c in ("action", "result") else entry.get(c, "") for c in CSV_COLUMNS]
                )
                yield piece
            pieces.append(piece)
            written += 1
        _finish(cache, key, block, pieces, [d for d in block_bad if d["seq"] <= (block + 1) * CHUNK], version)
        damaged.extend(block_bad)
        if fmt == "json":
            yield '\n], "damaged": ' + json.dumps(damaged) + "}\n"
            return
        for d in damaged:
            yield _csv_row([d["seq"], "damaged", "", "", "", "", "", "", d["problem"]])
    finally:
        reader.close()


LOG_PAGE = 1000  # entries of a log answered as one list (with the damaged rows in a header); more are streamed


class Streamed:
    """An answer made as the phone reads it, on a reader connection of its own, closed when the answer
    ends, the phone leaves, or (a HEAD) it is never made at all."""

    def __init__(self, pieces: Iterator[str], reader: Store) -> None:
        self.pieces = pieces
        self.reader = reader

    def __iter__(self) -> Iterator[str]:
        return self.pieces

    def close(self) -> None:
        close = getattr(self.pieces, "close", None)
        if close is not None:
            close()
        self.reader.close()


def log_page(
    reader: Store, session_id: str, seat: str | None, since: int, limit: int | None, damaged: list[dict]
) -> str | Streamed:
    """A game's log after ``since`` (at most ``limit`` entries) as ``seat`` may read it, as a JSON list:
    whole when it holds at most ``LOG_PAGE`` entries (``reader`` closed; damaged rows in ``damaged``), else
    streamed a piece at a time (memory flat however long the game; damaged rows past the first page are
    left out and logged). Entries are kept encoded: a page of text, not of objects."""
    reader.execute("PRAGMA cache_size=-256")  # 256 kB of pages: eight phones reading at once stay small
    entries = reader.entries(session_id, after=since, damaged=damaged)
    if limit is not None:
        entries = itertools.islice(entries, limit)
    first = [json.dumps(privacy.entry(e, seat)) for e in itertools.islice(entries, LOG_PAGE)]
    more = next(entries, None)
    if more is None:
        reader.close()
        return "[" + ", ".join(first) + "]\n"
    return Streamed(_log_pieces(first, itertools.chain([more], entries), seat, damaged, session_id), reader)


def _log_pieces(first: list[str], rest: Iterator[dict], seat: str | None, damaged: list[dict], sid: str):
    yield "["
    for i, piece in enumerate(first):
        yield (", " if i else "") + piece
    first.clear()
    for e in rest:
        yield ", " + json.dumps(privacy.entry(e, seat))
    yield "]\n"
    if damaged:
        log.warning("session %s: damaged log entries left out of a streamed log: %s", sid, damaged[:5])


def _finish(cache, key, block, pieces, bad, version) -> None:
    """Keep block ``block`` when the game is past its end (it will never change)."""
    if cache is None or version < (block + 1) * CHUNK:
        return
    text = (",\n" if key[2] == "json" else "").join(pieces)
    cache.add(key, block, (zlib.compress(text.encode(), 6), len(pieces), list(bad)))


def _csv_row(values) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(values)
    return out.getvalue()


def archive_session(db_path: Path, session: dict) -> Path:
    """Write a saved game's whole log (unredacted: it stays on the table's card) to
    ``archive/tableside-<system>-<id>.json`` beside the database, whole or not at all, before it is
    deleted. Raises OSError when it cannot (then nothing is deleted)."""
    folder = Path(db_path).parent / "archive"
    folder.mkdir(exist_ok=True)
    final = folder / f"tableside-{session['system']}-{session['id']}.json"
    tmp = folder / f".{final.name}.tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write('{"name": ' + json.dumps(session.get("name")) + ', "created_at": ')
        out.write(json.dumps(session.get("created_at")) + ', "options": ' + json.dumps(session.get("options")))
        out.write(', "export": ')
        for piece in export_lines(Store.reader(db_path), session["id"], EVERYTHING, "json"):
            out.write(piece)
        out.write("}\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, final)
    return final
