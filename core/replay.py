"""Rebuilding a game's states from its log: the log is the truth, stored states are a cache.

Every entry is re-applied from its recording (the rolls it made, never the RNG). An undo
returns to the state just before the entry it undoes; that state is found, in order, in
this replay's own memory, among the stored states (a checkpoint every ``CHECKPOINT_EVERY``
entries and at every undo, and the head), or by re-applying from the newest state before
it. The replay remembers a state every ``CHECKPOINT_EVERY`` entries and at every undo when
the file has none there, so an undo never re-applies more than a checkpoint's worth of
entries, and rebuilding a game is linear in its length whatever its undo/redo history
(it used to double with each undo/redo pair once the stored states were gone).

Raw SQL stays in ``core.store``; this module only reads through ``Store``'s methods.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tableside.core.errors import TablesideError
from tableside.core.recorder import ReplayMismatch
from tableside.core.store import CHECKPOINT_EVERY, DamagedEntry, Store
from tableside.core.system import GameSystem, plain_copy, run_action


class Replay:
    """Re-applies one session's log with the rules it was played with (``system``)."""

    def __init__(self, store: Store, system: GameSystem, row: dict, *, use_stored: bool = True) -> None:
        self.store = store
        self.system = system
        self.row = row
        self.session = row["id"]
        self.use_stored = use_stored  # False: from the log alone (tests prove the cache is only a cache)
        first = row["initial_state"] if isinstance(row.get("initial_state"), dict) else store.snapshot(self.session, 0)
        self.memory: dict[int, dict] = {0: first} if first is not None else {}  # both damaged: from a checkpoint

    # -- the walks ------------------------------------------------------------------------
    def steps(self, state: dict, start: int, version: int) -> Iterator[tuple[int, dict]]:
        """From ``state`` at ``start`` to ``version``: (seq, the state after it) for every entry between.
        The state yielded is the replay's working copy, changed by the next step: read it, do not keep it.
        ``state`` itself is never changed. A row that no longer reads or replays raises ``DamagedEntry``."""
        state = plain_copy(state)
        needed = self._needed(start, version) if version - start > CHECKPOINT_EVERY else set()
        if start in needed:
            self._remember(start, state)
        for e in self.store.recordings(self.session, after=start, upto=version):
            seq, kind = e["seq"], e["kind"]
            if kind == "action":
                state = self._reapply(state, e, e)
            elif kind == "redo":
                state = self._reapply(state, self._original(e["target"], seq), e)
            else:
                state = plain_copy(self._restore(e))
            if kind == "undo" or seq % CHECKPOINT_EVERY == 0 or seq in needed:
                self._remember(seq, state)
            yield seq, state

    def _needed(self, start: int, version: int) -> set[int]:
        """The versions a long walk should remember because an undo in it returns there (just before the
        entry it undoes was applied): an undo then costs no re-application at all."""
        applied: list[int] = []
        needed: set[int] = set()
        if not self.store.has_undo(self.session, start, version):
            return needed
        for seq, kind, target in self.store.iter_stack_rows(self.session, upto=version):
            if kind == "action" or (kind == "redo" and isinstance(target, int)):
                applied.append(seq)
            elif kind == "undo" and applied:
                at = applied.pop()
                stored = self.use_stored and seq > start and self.store.checkpoint_at(self.session, seq)
                if seq > start and at - 1 >= start and not stored:
                    needed.add(at - 1)
        return needed

    def forward(self, state: dict, start: int, version: int) -> dict:
        """The state at ``version`` from ``state`` at ``start`` (left unchanged)."""
        last: dict | None = None
        for _, last in self.steps(state, start, version):  # noqa: B007  (the last one is the answer)
            pass
        return last if last is not None else plain_copy(state)

    def from_log(self) -> dict:
        """The final state from the initial state and every entry, using no stored state."""
        self.use_stored = False
        if 0 not in self.memory:
            raise DamagedEntry(1, "the game's first state (its initial state) is damaged")
        return self.forward(self.memory[0], 0, self.store.version(self.session))

    def at(self, version: int) -> dict:
        """The state at ``version`` from the nearest state before it (remembered or stored)."""
        start = max((v for v in self.memory if v <= version), default=-1)
        state = self.memory.get(start)
        if self.use_stored:
            stored = self.store.snapshot(self.session, version)
            if stored is not None:
                return stored
            try:
                checkpoint, saved = self.store.latest_snapshot(self.session, version)
            except LookupError:
                checkpoint, saved = -1, None
            if checkpoint > start:
                start, state = checkpoint, saved
        if state is None:  # the first state is damaged and no stored state reads before ``version``
            raise DamagedEntry(max(1, version), "the game's first state (its initial state) is damaged")
        return self.forward(state, start, version)

    # -- internals --------------------------------------------------------------------------
    def _remember(self, seq: int, state: dict) -> None:
        if self.use_stored and self.store.checkpoint_at(self.session, seq):
            return  # the file has it: memory stays flat however long the game
        self.memory[seq] = plain_copy(state)

    def _restore(self, undo: dict) -> dict:
        """The state an undo returns to: just before the entry it undoes was (re)applied."""
        seq = undo["seq"]
        if seq in self.memory:
            return self.memory[seq]
        if self.use_stored:
            stored = self.store.snapshot(self.session, seq)
            if stored is not None:
                return stored
        return self.at(self.store.applied_at(self.session, undo["target"], seq) - 1)

    def _original(self, target: Any, seq: int) -> dict:
        entry = self.store.entry(self.session, target) if isinstance(target, int) else None
        if entry is None or entry["kind"] != "action":
            raise DamagedEntry(seq, f"it redoes entry {target}, which is not an action in the log")
        return entry

    def _reapply(self, state: dict, original: dict, entry: dict) -> dict:
        """An action again from its recording; ``state`` is the working copy, changed in place."""
        try:
            return run_action(
                self.system,
                state,
                original["action"],
                replay=original.get("rolls") or [],
                seat=original.get("seat"),
                options=self.row["options"],
                in_place=True,
            ).state
        except TablesideError as exc:
            raise DamagedEntry(entry["seq"], f"it no longer replays: {exc.message}") from exc
        except Exception as exc:  # a damaged action that reaches the rules: never a 500
            raise DamagedEntry(entry["seq"], f"it no longer replays: {type(exc).__name__}: {exc}") from exc


def stacks(rows: list[tuple[int, str, int | None]]) -> tuple[list[tuple[int, int]], list[int]]:
    """The undo/redo stacks from (seq, kind, target) rows: what undo and redo would act on next.
    Rows that do not fit (a damaged log) are left out rather than stop the game from opening."""
    applied: list[tuple[int, int]] = []
    undone: list[int] = []
    for seq, kind, target in rows:
        if kind == "action":
            applied.append((seq, seq))
            undone.clear()
        elif kind == "undo" and applied and isinstance(target, int):
            applied.pop()
            undone.append(target)
        elif kind == "redo" and undone and isinstance(target, int):
            undone.pop()
            applied.append((target, seq))
    return applied, undone


__all__ = ["DamagedEntry", "Replay", "ReplayMismatch", "stacks"]
