"""The table: saved sessions, the active one, and the single path every change takes.

Buttons, the phone panel and the CLI all end up in ``Table.act``/``undo``/
``redo``: validate, roll the dice the action needs (or take typed-in faces),
apply the system's pure rules, append to the log and snapshot in one
transaction, then tell listeners (display, SSE). Anything refused raises a
``TablesideError`` and changes nothing.

Undo and redo are log entries too: undo restores the snapshot from just before
the action it undoes, redo re-applies that same action with the same dice
faces. History is never destroyed.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tableside.core import dice
from tableside.core.errors import BadRequest, Conflict, NotFound, RuleError, TablesideError
from tableside.core.store import Store
from tableside.core.system import GameSystem, Screen
from tableside.core.systems import all_systems, get_system

log = logging.getLogger(__name__)

SOURCES = ("button", "phone", "cli", "api")
Listener = Callable[[dict], None]


@dataclass
class _Live:
    """The active session in memory: its state and its undo/redo stacks."""

    id: str
    system: GameSystem
    version: int
    state: dict
    # (seq of the original action, version at which it was (re)applied)
    applied: list[tuple[int, int]] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


class Table:
    """Every session on this table and the one being played."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        systems: Callable[[str], GameSystem] = get_system,
        catalogue: Callable[[], list[GameSystem]] = all_systems,
    ) -> None:
        self.store = store
        self.rng = rng
        self.clock = clock
        self._get_system = systems
        self._catalogue = catalogue
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._live: _Live | None = None
        active = store.get_meta("active_session")
        if active and store.get_session(active):
            self._live = self._load(active)

    # -- listeners -----------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """``listener(event)`` runs after each committed change; it must not block."""
        self._listeners.append(listener)

    def _notify(self, event: dict) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken display must never lose an action
                log.exception("listener failed on %s", event)

    # -- sessions --------------------------------------------------------------
    def systems(self) -> list[dict]:
        return [s.describe() for s in self._catalogue()]

    def create_session(self, system_id: Any, options: Any = None, name: str = "") -> dict:
        if not isinstance(system_id, str):
            raise BadRequest("'system' must be a system id such as 'venom'")
        system = self._get_system(system_id)
        checked = system.validate_options(options)
        state = system.initial_state(checked)
        with self._lock:
            row = self.store.create_session(system.id, checked, state, name or system.name, self._now())
            self.store.set_meta("active_session", row["id"])
            self._live = _Live(row["id"], system, 0, state)
        self._notify({"kind": "session", "session": row["id"], "version": 0})
        return self.view()

    def sessions(self) -> list[dict]:
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
                for s in self.store.list_sessions()
            ]

    def activate(self, session_id: Any) -> dict:
        if not isinstance(session_id, str):
            raise BadRequest("'id' must be a session id")
        with self._lock:
            if not self.store.get_session(session_id):
                raise NotFound(f"no saved session with id {session_id!r}")
            self._live = self._load(session_id)
            self.store.set_meta("active_session", session_id)
            version = self._live.version
        self._notify({"kind": "session", "session": session_id, "version": version})
        return self.view()

    def view(self) -> dict:
        """``{"id", "system", "version", "state", "screen"}`` of the active session."""
        with self._lock:
            live = self._require_live()
            return {
                "id": live.id,
                "system": live.system.id,
                "version": live.version,
                "state": live.state,
                "screen": live.system.screen(live.state).to_dict(),
                "can_undo": bool(live.applied),
                "can_redo": bool(live.undone),
            }

    def screen(self) -> Screen:
        """What the e-paper shows for the active session."""
        with self._lock:
            live = self._require_live()
            return live.system.screen(live.state)

    def position(self) -> tuple[str, int] | None:
        """(active session id, version), or None: enough to tell whether anything changed."""
        with self._lock:
            return (self._live.id, self._live.version) if self._live else None

    def has_active(self) -> bool:
        return self._live is not None

    def binds(self, button: str, hold: bool = False) -> bool:
        """Whether the active game maps this button (or its hold) to anything; False with no game."""
        with self._lock:
            live = self._live
            return live is not None and live.system.binding(button, hold) is not None

    def _require_live(self) -> _Live:
        if self._live is None:
            raise NotFound("no active session: start a new game first")
        return self._live

    # -- changes -----------------------------------------------------------------
    def act(self, raw: Mapping[str, Any], source: str = "api", expected_version: Any = None) -> dict:
        """Validate, roll, apply and log one action; returns version, state and result."""
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            action = live.system.validate_action(raw)
            self._roll_into(live, action)
            state, result = self._apply(live.system, live.state, action)
            seq = self._append(live, "action", action["type"], action, None, source, result, state)
            live.applied.append((seq, seq))
            live.undone.clear()
            return self._changed(live, result)

    def undo(self, source: str = "api", expected_version: Any = None) -> dict:
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            if not live.applied:
                raise RuleError("nothing to undo")
            target, applied_at = live.applied[-1]
            state = self._state_at(live, applied_at - 1)
            undone = self._entry(live.id, target)
            result = {"summary": f"Undid: {undone['result'].get('summary', undone['type'])}", "undid": target}
            self._append(live, "undo", "undo", None, target, source, result, state)
            live.applied.pop()
            live.undone.append(target)
            return self._changed(live, result)

    def redo(self, source: str = "api", expected_version: Any = None) -> dict:
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            if not live.undone:
                raise RuleError("nothing to redo")
            target = live.undone[-1]
            action = self._entry(live.id, target)["action"]
            state, result = self._apply(live.system, live.state, action)
            result = {**result, "summary": f"Redid: {result.get('summary', action['type'])}", "redid": target}
            seq = self._append(live, "redo", "redo", None, target, source, result, state)
            live.undone.pop()
            live.applied.append((target, seq))
            return self._changed(live, result)

    def roll(self, expr: Any, faces: Any = None, source: str = "api") -> dict:
        """A free roll; logged in the active session when there is one."""
        if not isinstance(expr, str):
            raise BadRequest("'expr' must be a dice expression such as '2d10cs>=8'")
        with self._lock:
            if self._live is None:
                return dice.roll(expr, faces=faces, rng=self.rng).to_dict()
            action = {"type": "roll", "expr": expr}
            if faces is not None:
                action["faces"] = faces
            return self.act(action, source)["result"]

    def press(self, button: str, hold: bool = False, source: str = "button") -> dict:
        """A button press, from GPIO or the panel: the system's button map decides."""
        with self._lock:
            live = self._require_live()
            binding = live.system.binding(button, hold)
            name = f"{'hold ' if hold else ''}{button}"
            if binding is None:
                raise RuleError(f"button {name} does nothing in {live.system.name}")
            if binding.action == "undo":
                return self.undo(source)
            if binding.action == "redo":
                return self.redo(source)
            assert callable(binding.action)
            raw = binding.action(live.state)
            if raw is None:
                raise RuleError(f"button {name} ({binding.label}) has nothing to do right now")
            return self.act(raw, source)

    # -- reading -----------------------------------------------------------------
    def log(self, session_id: str | None = None) -> list[dict]:
        """Every entry of a session (default: the active one), oldest first."""
        with self._lock:
            if session_id is None:
                session_id = self._require_live().id
            elif not self.store.get_session(session_id):
                raise NotFound(f"no saved session with id {session_id!r}")
            return [
                {
                    "seq": e["seq"],
                    "kind": e["kind"],
                    "type": e["type"],
                    "action": e["action"],
                    "target": e["target"],
                    "source": e["source"],
                    "at": e["at"],
                    "result": e["result"],
                }
                for e in self.store.entries(session_id)
            ]

    def replay(self, session_id: str) -> dict:
        """The state at the end of the log, derived from the log alone (no snapshots)."""
        with self._lock:
            return self._replay(session_id)[0][-1]

    # -- internals ---------------------------------------------------------------
    def _check_version(self, live: _Live, expected: Any) -> None:
        if expected is None:
            return
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise BadRequest("'expected_version' must be a whole number")
        if expected != live.version:
            raise Conflict(
                f"the session is at version {live.version}, not {expected}: "
                "someone else changed it first; reload and try again"
            )

    def _roll_into(self, live: _Live, action: dict) -> None:
        expr = live.system.dice_for(live.state, action)
        if expr is None:
            return
        result = dice.roll(expr, faces=action.get("faces"), rng=self.rng)
        action["faces"] = result.rolls
        action["roll"] = result.to_dict()

    def _apply(self, system: GameSystem, state: dict, action: dict) -> tuple[dict, dict]:
        try:
            return system.apply(state, action)
        except TablesideError:
            raise
        except Exception as exc:  # a rules bug must not become a 500 or lose the game
            log.exception("rules error in %s applying %s", system.id, action)
            raise RuleError(
                f"{system.name} could not apply '{action.get('type')}' ({type(exc).__name__}: {exc}); "
                "nothing was changed"
            ) from exc

    def _append(self, live, kind, type_, action, target, source, result, state) -> int:
        if source not in SOURCES:
            raise BadRequest(f"unknown source {source!r}")
        entry = {
            "kind": kind,
            "type": type_,
            "action": action,
            "target": target,
            "source": source,
            "at": self._now(),
            "result": result,
        }
        seq = self.store.append(live.id, entry, state)
        live.version = seq
        live.state = state
        return seq

    def _changed(self, live: _Live, result: dict) -> dict:
        self._notify({"kind": "change", "session": live.id, "version": live.version})
        return {"version": live.version, "state": live.state, "result": result}

    def _entry(self, session_id: str, seq: int) -> dict:
        return next(self.store.entries(session_id, after=seq - 1))

    def _state_at(self, live: _Live, version: int) -> dict:
        state = self.store.snapshot(live.id, version)
        if state is None:
            state = self._replay(live.id)[0][version]
        return state

    def _load(self, session_id: str) -> _Live:
        row = self.store.get_session(session_id)
        assert row is not None
        system = self._get_system(row["system"])
        version = self.store.version(session_id)
        state = self.store.snapshot(session_id, version)
        states, applied, undone = self._replay(session_id, states_needed=state is None)
        if state is None:
            state = states[-1]
        return _Live(session_id, system, version, state, applied, undone)

    def _replay(self, session_id: str, states_needed: bool = True):
        """Fold the log: the state after every version, and the undo/redo stacks."""
        row = self.store.get_session(session_id)
        assert row is not None
        system = self._get_system(row["system"])
        states: list[dict] = [row["initial_state"]]
        applied: list[tuple[int, int]] = []
        undone: list[int] = []
        actions: dict[int, dict] = {}
        for e in self.store.entries(session_id):
            seq = e["seq"]
            if e["kind"] == "action":
                actions[seq] = e["action"]
                applied.append((seq, seq))
                undone.clear()
                if states_needed:
                    states.append(system.apply(states[-1], e["action"])[0])
            elif e["kind"] == "undo":
                _, applied_at = applied.pop()
                undone.append(e["target"])
                if states_needed:
                    states.append(states[applied_at - 1])
            else:
                undone.pop()
                applied.append((e["target"], seq))
                if states_needed:
                    states.append(system.apply(states[-1], actions[e["target"]])[0])
        return states, applied, undone

    def _now(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")
