"""The game on the table in memory, opened from the store: its state, its undo/redo stacks, the roll shown.

Opening reads the stored head, or the newest checkpoint and at most a checkpoint's worth of entries
re-applied (``core.replay``); a log that no longer replays opens read-only, saying why. ``core.table``
holds the one ``Live`` being played and changes it only through its log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from tableside.core.errors import TablesideError
from tableside.core.replay import Replay, stacks
from tableside.core.roll import TableRoll
from tableside.core.store import DamagedEntry, Store
from tableside.core.system import GameSystem

log = logging.getLogger(__name__)


@dataclass
class Live:
    """The active session in memory: its state and its undo/redo stacks."""

    id: str
    system: GameSystem
    version: int
    state: dict
    options: dict = field(default_factory=dict)  # the session's setup, fixed for its life
    # (seq of the original action, version at which it was (re)applied)
    applied: list[tuple[int, int]] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    readonly: str | None = None  # why this session cannot be played on (an older rules version)
    roll: TableRoll | None = None  # the newest roll of the applied history (shown while current)


def stored_state(store: Store, row: dict, system: GameSystem, version: int) -> dict:
    """A saved session's state at ``version``: the newest stored state before it, then what follows re-applied."""
    return Replay(store, system, row).at(version)


def entry_of(store: Store, session_id: str, seq: int) -> dict:
    """Entry ``seq`` of a session's log; DamagedEntry when it is missing (a log has no gaps)."""
    entry = store.entry(session_id, seq)
    if entry is None:
        raise DamagedEntry(seq, "it is missing from the log")
    return entry


def open_live(store: Store, systems: Callable[[str], GameSystem], session_id: str) -> Live:
    """Open a session: its stored head, or the newest checkpoint and at most a checkpoint's worth of
    entries re-applied, and its undo/redo stacks (three columns per entry)."""
    row = store.get_session(session_id)
    assert row is not None
    system, readonly = rules_for(row, systems)
    readonly = store.newer or readonly  # a newer Tableside's file: shown, never written
    system = system if system is not None else systems(row["system"])
    version = store.version(session_id)
    if "options" in row.get("damaged", ()):  # the rules cannot replay or play without the game's setup
        version, state = _last_good(store, row, system, version)
        why = (
            f"this game's setup (its options) is damaged on the card: it is shown as last stored, at version "
            f"{version}, and cannot be played on; {RESTORE_HINT}"
        )
        return _opened(store, row, system, version, state, why if readonly is None else f"{readonly}; {why}")
    try:
        damaged = store.first_damaged(session_id, version)  # the log is the truth: found before it is needed
        if damaged is not None:
            raise DamagedEntry(*damaged)
        state = stored_state(store, row, system, version)
    except DamagedEntry as exc:  # a damaged row: open read-only at the last good entry before it
        log.error("session %s: %s", session_id, exc.message)
        version, state = _last_good(
            store, row, system, exc.seq - 1 if "options" not in row.get("damaged", ()) else version
        )
        why = (
            f"{exc.message}: the game is shown as it was at version {version}, its last good entry, and cannot "
            f"be played on; {RESTORE_HINT}"
        )
        readonly = why if readonly is None else f"{readonly}; {why}"
    except Exception as exc:  # older rules, or a bug in them: open what is stored rather than not start
        log.exception("session %s: entries after the newest stored state do not replay", session_id)
        version, state = store.latest_snapshot(session_id, version)
        detail = exc.message if isinstance(exc, TablesideError) else f"{type(exc).__name__}: {exc}"
        why = (
            f"entries after version {version} no longer replay ({detail[:160]}): the game is shown as it was "
            f"at version {version} and cannot be played on; 'tableside export' keeps its whole log"
        )
        readonly = why if readonly is None else f"{readonly}; {why}"
    return _opened(store, row, system, version, state, readonly)


RESTORE_HINT = "'tableside restore' puts the newest good backup in place ('tableside doctor' names it)"


def _opened(store: Store, row: dict, system: GameSystem, version: int, state: dict, readonly: str | None) -> Live:
    applied, undone = stacks(store.stack_rows(row["id"], upto=version))
    live = Live(row["id"], system, version, state, row["options"] or {}, applied, undone, readonly)
    live.roll = newest_roll(store, live)
    return live


def newest_roll(store: Store, live: Live) -> TableRoll | None:
    """The roll of the newest applied entry that rolled (after an undo, or on opening a game)."""
    entry = store.newest_rolled(live.id, {seq for seq, _ in live.applied})
    return TableRoll.of_entry(entry["seq"], entry["rolls"], entry["seat"], entry["private"]) if entry else None


def _last_good(store: Store, row: dict, system: GameSystem, version: int) -> tuple[int, dict]:
    """(version, state) just before a damaged row, from the stored states or the log; with a damaged
    setup, only a stored state (the rules cannot replay without it); at worst the first state."""
    if "options" in row.get("damaged", ()):
        try:
            return store.latest_snapshot(row["id"], version)
        except LookupError:
            return 0, row["initial_state"] if isinstance(row.get("initial_state"), dict) else {}
    while True:
        try:
            return version, Replay(store, system, row).at(version)
        except DamagedEntry as exc:  # an earlier damaged row too
            if exc.seq > version or exc.seq <= 1:
                try:
                    return store.latest_snapshot(row["id"], version)
                except LookupError:
                    return 0, row["initial_state"] if isinstance(row.get("initial_state"), dict) else {}
            version = exc.seq - 1


def rules_for(row: dict, systems: Callable[[str], GameSystem]) -> tuple[GameSystem | None, str | None]:
    """The rules a session was played with, or None and why it cannot be played on."""
    system = systems(row["system"])
    played = row.get("rules_version") or 1
    if played == system.rules_version:
        return system, None
    legacy = system.legacy_rules(played)
    if legacy is not None:
        return legacy, None
    return None, (
        f"this game was played with {system.name} rules v{played}, and this Tableside has v"
        f"{system.rules_version}: it can be viewed and exported, not played on"
    )
