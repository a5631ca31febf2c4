"""Suite-wide checks.

Every session any test leaves behind is replayed from its log alone, with the
RNG disabled, and must give the state the table holds: the log is the truth.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, settings
from tableside.core.live import stored_state
from tableside.core.table import Table

# No Hypothesis test is timed: speed is measured in benchmarks/, and a loaded 2-core CI machine
# must not turn a slow example into a failure (the deadline and the too-slow health check).
settings.register_profile("tableside", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tableside")


class NoRNG(random.Random):
    """An RNG that refuses to be used: replay must feed the recorded faces back."""

    def random(self):  # every other method of random.Random goes through here or getrandbits
        raise AssertionError("replay called the RNG")

    def getrandbits(self, k):
        raise AssertionError("replay called the RNG")


# No test announces the table over mDNS beyond loopback (tableside.announce): only to this machine, never
# multicast on the machine's network. Children inherit it; tests/test_announce.py asks for loopback itself.
os.environ.setdefault("TABLESIDE_ANNOUNCE", "0")

_tables: list[Table] = []


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, one per test module (tests/browser_support.py: a skip without it, a failure under CI=true)."""
    from tests.browser_support import chromium  # Playwright only for the tests that ask for a browser

    yield from chromium()


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
    """Each session of ``table`` replays from its log (no stored states, no RNG) to the state the table
    holds: the game in play as it is in memory, the others as stored (head, or checkpoint + entries)."""
    try:
        sessions = table.store.list_sessions()
    except (sqlite3.ProgrammingError, sqlite3.OperationalError):
        return  # the test closed the store on purpose
    saved_rng, table.rng = table.rng, NoRNG()
    try:
        for s in sessions:
            system = table.rules_for(s)[0]
            if system is None:
                continue
            live = table._live
            if live is not None and live.id == s["id"] and live.version == s["version"]:
                snapshot = live.state
            else:  # the log was changed under the table by the test: check what is stored
                snapshot = stored_state(table.store, s, system, s["version"])
            replayed = table.replay(s["id"])
            assert json.dumps(replayed, sort_keys=True) == json.dumps(snapshot, sort_keys=True), (
                f"session {s['id']} ({s['system']}) does not replay from its log"
            )
    finally:
        table.rng = saved_rng
