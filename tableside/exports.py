"""A game's log written out as JSON or CSV, a piece at a time: the export route and ``tableside export``.

Read on a connection of its own (``Store.reader``), so a long game's export neither holds
the table nor the Pi's memory. What a phone may read is decided by ``core.privacy``; the
command on the table's own machine writes everything. A row that no longer reads is left
out and named at the end (``"damaged"`` in JSON, a ``damaged`` row in CSV).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from tableside.core import privacy
from tableside.core.store import Store

CSV_COLUMNS = ("seq", "kind", "type", "source", "seat", "at", "target", "action", "result")
EVERYTHING = object()  # the seat of ``tableside export``: the owner at the table's own machine


def export_lines(
    reader: Store,
    session_id: str,
    seat: object,
    fmt: str,
    damaged: list[dict] | None = None,
    on_end: Callable[[], None] | None = None,
) -> Iterator[str]:
    """The export of ``session_id`` as ``seat`` may read it (``EVERYTHING``: unredacted); closes ``reader``
    at the end. Damaged rows are appended to ``damaged`` (and named in the output)."""
    damaged = [] if damaged is None else damaged
    try:
        rows = reader.entries(session_id, damaged=damaged)
        entries = rows if seat is EVERYTHING else (privacy.entry(e, seat) for e in rows)  # type: ignore[arg-type]
        if fmt == "json":
            yield '{"session": ' + json.dumps(session_id) + ', "log": ['
            for i, e in enumerate(entries):
                yield ("\n" if i == 0 else ",\n") + json.dumps(e)
            yield '\n], "damaged": ' + json.dumps(damaged) + "}\n"
            return
        yield _csv_row(CSV_COLUMNS)
        for e in entries:
            yield _csv_row([json.dumps(e.get(c)) if c in ("action", "result") else e.get(c, "") for c in CSV_COLUMNS])
        for d in damaged:
            yield _csv_row([d["seq"], "damaged", "", "", "", "", "", "", d["problem"]])
    finally:
        reader.close()
        if on_end is not None:
            on_end()


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
