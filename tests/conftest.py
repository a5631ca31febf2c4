"""Suite-wide checks.

Every session any test leaves behind is replayed from its log alone, with the
RNG disabled, and must give the state the table holds: the log is the truth.
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from tableside.core.table import Table


class NoRNG(random.Random):
    """An RNG that refuses to be used: replay must feed the recorded faces back."""

    def random(self):  # every other method of random.Random goes through here or getrandbits
        raise AssertionError("replay called the RNG")

    def getrandbits(self, k):
        raise AssertionError("replay called the RNG")


_tables: list[Table] = []


@pytest.fixture(autouse=True)
def _replay_every_session(monkeypatch):
    created: list[Table] = []
    original = Table.__init__

    def recording_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        created.append(self)

    monkeypatch.setattr(Table, "__init__", recording_init)
    yield
    for table in created:
        check_replays(table)


def check_replays(table: Table) -> None:
    """Each session of ``table`` replays from its log (no snapshots, no RNG) to its latest snapshot."""
    try:
        sessions = table.store.list_sessions()
    except (sqlite3.ProgrammingError, sqlite3.OperationalError):
        return  # the test closed the store on purpose
    saved_rng, table.rng = table.rng, NoRNG()
    try:
        for s in sessions:
            snapshot = table.store.snapshot(s["id"], s["version"])
            if snapshot is None or table._rules_for(s)[0] is None:
                continue
            replayed = table.replay(s["id"])
            assert json.dumps(replayed, sort_keys=True) == json.dumps(snapshot, sort_keys=True), (
                f"session {s['id']} ({s['system']}) does not replay from its log"
            )
    finally:
        table.rng = saved_rng
