"""The table: the game on it, and the single path every change takes.

Buttons, the phone panel and the CLI all end up in ``Table.act``/``undo``/
``redo``: validate, roll the dice the action needs (or take typed-in faces),
apply the system's pure rules, append one entry to the log (a checkpoint of
the state every so often), then tell listeners (display, SSE). Anything refused raises a
``TablesideError`` and changes nothing.

Undo and redo are log entries too: undo restores the state from just before
the action it undoes, redo re-applies that same action with the same recorded
rolls. History is never destroyed. Every entry records the seat that acted
beside its source; data private to a seat is redacted for everyone else.

Its other rooms: reading saved games (``core.saved``, which ``Table`` inherits), the game in memory and
opening it (``core.live``), what each seat is shown (``core.views``) and what can be done now
(``core.offers``). Phones' seats and the limits on new games are the web layer's (``webui.seats``,
``webui.games``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from tableside.core import dice, privacy
from tableside.core.errors import (
    BadRequest,
    BindingError,
    Conflict,
    NotFound,
    RuleError,
    TablesideError,
)
from tableside.core.live import Live, entry_of, newest_roll, open_live, stored_state
from tableside.core.offers import offers
from tableside.core.recorder import NeedsDice, typed_faces
from tableside.core.roll import TableRoll
from tableside.core.saved import SavedGames
from tableside.core.store import Store
from tableside.core.system import GameSystem, Step, run_action
from tableside.core.systems import all_systems, get_system
from tableside.core.text import N_
from tableside.core.views import Views

log = logging.getLogger(__name__)

SOURCES = ("button", "phone", "cli", "api", "dice")  # dice: faces read from smart dice
MAX_NAME = 60  # a game's name, in characters (docs/api.md, "Limits"; how many and how fast: ``webui.games``)
Listener = Callable[[dict], None]


class Table(SavedGames):
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
        self._live: Live | None = None
        self._views = Views(store)  # the parts of the view every seat shares, built once per version
        self._claims = 0  # bumped when a seat changes hands: the view's "claimed" flags depend on it
        self._kept: dict[str, Any] = {}  # what the layers above keep for this table (``kept``)
        self.unconsented: Callable[[str], Collection[str]] = lambda session_id: ()  # set by webui.seats (#33)
        active = store.get_meta("active_session")
        if active and store.get_session(active):
            self._live = open_live(self.store, self._get_system, active)

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

    def create_session(
        self, system_id: Any, options: Any = None, name: Any = "", admit: Callable[[], None] | None = None
    ) -> dict:
        """Start a new game and put it on the table; ``name`` is text of at most ``MAX_NAME`` characters.
        ``admit()`` runs once the request is known good, with the table held, just before the game is stored:
        it raises to refuse (the phones' limits on new games, ``webui.games``) and nothing is stored."""
        if not isinstance(system_id, str):
            raise BadRequest(N_("'system' must be a system id such as 'venom'"))
        if name is None:
            name = ""
        if not isinstance(name, str):
            raise BadRequest(
                N_(
                    "'name' must be text of at most {maximum} characters, not {kind}",
                    maximum=MAX_NAME,
                    kind=type(name).__name__,
                )
            )
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise BadRequest(
                N_("'name' must be at most {maximum} characters (it has {length})", maximum=MAX_NAME, length=len(name))
            )
        system = self._get_system(system_id)
        checked = system.validate_options(options)
        state = system.start(checked)  # derived, and refused if it breaks a law
        with self._lock:
            if admit is not None:
                admit()
            row = self.store.create_session(
                system.id,
                checked,
                state,
                name or system.name,
                self._now(),
                system.rules_version,
                [s.name for s in system.seats(state) if s.name != system.faction(state, s.name)],
            )
            self._put_away()
            self.store.set_meta("active_session", row["id"])
            self._live = Live(row["id"], system, 0, state, row["options"] or {})
        self._notify({"kind": "session", "session": row["id"], "version": 0})
        return self.view()

    def delete_session(self, session_id: Any) -> dict:
        """Forget a saved game that is not on the table (archive it first: ``webui.api``, ``tableside``)."""
        if not isinstance(session_id, str):
            raise BadRequest(N_("'id' must be a session id"))
        with self._lock:
            if self._live is not None and self._live.id == session_id:
                raise Conflict(N_("this game is on the table: start or open another one before deleting it"))
            self._saved_row(session_id)
            self.store.delete_session(session_id)
        return {"deleted": session_id}

    def activate(self, session_id: Any) -> dict:
        if not isinstance(session_id, str):
            raise BadRequest(N_("'id' must be a session id"))
        with self._lock:
            if not self.store.get_session(session_id):
                raise NotFound(N_("no saved session with id {given}", given=repr(session_id)))
            self._put_away()
            self._live = open_live(self.store, self._get_system, session_id)
            self.store.set_meta("active_session", session_id)
            version = self._live.version
        self._notify({"kind": "session", "session": session_id, "version": version})
        return self.view()

    def _put_away(self) -> None:
        """The game being left: its newest state stored as its head, so listing or reopening it is one read.
        Only a cache: when it cannot be written (a full card) that is logged, and nothing else is held up."""
        live = self._live
        if live is None or live.readonly:
            return
        try:
            self.store.save_head(live.id, live.version, live.state)
        except TablesideError as exc:
            log.warning("the head of %s was not stored (%s); it reopens from its last checkpoint", live.id, exc.message)

    def check_journal(self) -> str | None:
        """When the database's journal file was deleted under it, copy what it holds into the database
        and start a new one (nothing acknowledged is lost); returns what happened, in words, or None."""
        with self._lock:
            if self.store.journal_lost():
                self.store.rescue_journal()
            if self.store.rescued is None:
                return None
            self.store.rescued = None
        why = (
            f"the journal file of {self.store.path} was deleted while the table was running: its entries "
            "were copied into the database and a new journal started (nothing was lost); check what deletes files"
        )
        log.error(why)
        return why

    def close(self) -> None:
        """Stop: the game on the table is put away (its head stored), then the file is closed."""
        with self._lock:
            try:
                self._put_away()
            finally:
                self.store.close()

    def current_state(self) -> dict | None:
        """The game in play's state as it is (None with no game): for background readers that only look
        (backups read its round). Cheaper than ``view``, which redacts and builds the screen."""
        with self._lock:
            return self._live.state if self._live else None

    def view(self, seat: str | None = None, *, with_state: bool = True) -> dict:
        """The active session as ``seat`` may see it (None: the public table view). ``with_state=False``
        leaves out the state: a phone's panel draws the screen model (``?brief=1``, the moment), and the
        seat's copy of the state is the dearest part to make."""
        with self._lock:
            return self._views.view(self._require_live(), seat, self._claims, with_state=with_state)

    def screen(self) -> Any:
        """What the e-paper shows for the active session: the public view only."""
        with self._lock:
            return self._views.screen(self._require_live())

    def actions(self, seat: str | None = None) -> dict:
        """What can be done now: every action with its fields and choices, and what the table waits for."""
        with self._lock:
            live = self._require_live()
            held = self._held(live.id) if seat is None and not live.readonly else {}
            return {"version": live.version, **offers(live.system, live.state, seat, held, live.readonly, live.options)}

    def position(self) -> tuple[str, int] | None:
        """(active session id, version), or None: enough to tell whether anything changed."""
        with self._lock:
            return (self._live.id, self._live.version) if self._live else None

    def mark(self) -> tuple | None:
        """What every seat's view, actions and newest log entries follow from, or None with no game:
        the game on the table (this load of it), its version, the seat claims and its read-only reason.

        Read without the lock, so a phone re-reading an answer made for this mark does not wait behind
        a change being written to disk. Build what the mark names under the lock only: a change moves
        the version before it has finished, so a mark read meanwhile names nothing built yet; version
        and claims only grow, so a mark read across two changes names no moment there was."""
        live = self._live
        return None if live is None else (live.id, id(live), live.version, self._claims, live.readonly)

    def held(self) -> threading.RLock:
        """The table held still, as ``with table.held():``: reads inside see one version, and the store is
        used by one thread at a time (a layer above writing seat claims holds it too). Re-entrant."""
        return self._lock

    def kept(self, name: str, make: Callable[[Table], Any]) -> Any:
        """What a layer above keeps for this table under ``name`` (the phones' seats), made by ``make(table)``
        the first time it is asked for: one per table, whichever of its apps asks. Once made it is read without
        the lock: a phone asking for the Stats page never waits for, nor holds up, a change being written."""
        kept = self._kept.get(name)
        if kept is not None:
            return kept
        with self._lock:
            if name not in self._kept:
                self._kept[name] = make(self)
            return self._kept[name]

    def seats_changed(self) -> None:
        """The seat claims in the store changed (``webui.seats``): views and marks name them anew."""
        with self._lock:
            self._claims += 1

    def seats_now(self) -> tuple[str, list]:
        """(the id of the game on the table, its seats as its rules name them now); NotFound with no game."""
        with self._lock:
            live = self._require_live()
            return live.id, live.system.seats(live.state)

    def has_active(self) -> bool:
        return self._live is not None

    def binds(self, button: str, hold: bool = False) -> bool:
        """Whether the active game maps this button (or its hold) to anything; False with no game."""
        with self._lock:
            live = self._live
            return live is not None and live.system.binding(button, hold, live.state) is not None

    def _require_live(self) -> Live:
        if self._live is None:
            raise NotFound(N_("no active session: start a new game first"))
        return self._live

    # -- changes -----------------------------------------------------------------
    def act(
        self,
        raw: Mapping[str, Any],
        source: str = "api",
        expected_version: Any = None,
        seat: str | None = None,
        die_names: Sequence[str] | None = None,
        button: str | None = None,
    ) -> dict:
        """Validate, roll, apply and log one action; returns version, state and result.

        ``die_names``: for faces read from smart dice, the name of the die that showed each face (in
        the order of ``raw["faces"]``); each roll's log record keeps them beside its faces.
        ``button`` ("B", "hold D"): the press that asked for it, kept in the result so every
        phone can say "Button B: ..." rather than an anonymous change.
        """
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            self._check_playable(live)
            if not isinstance(raw, Mapping):
                raise BadRequest(N_("an action must be a JSON object"))
            self._check_private(live, raw, seat, source)
            step = self._run(live, raw, faces=raw.get("faces"), seat=seat)
            if die_names is not None:
                _name_dice(step.rolls, list(die_names))
            if button:
                step.result = {**step.result, "button": button}
            seq = self._append(
                live,
                "action",
                step.action_type,
                step.action,
                None,
                source,
                step.result,
                step.state,
                seat=seat,
                rolls=step.rolls,
                private=step.private,
            )
            live.applied.append((seq, seq))
            live.undone.clear()
            live.roll = TableRoll.of_entry(seq, step.rolls, seat, step.private) or live.roll
            return {
                **self._changed(live, step.result, seat, step.private),
                "rolls": privacy.rolls(step.rolls, step.private, seat),
            }

    def dice_needed(self, raw: Mapping[str, Any], faces: Sequence[Any], seat: str | None = None) -> dict | None:
        """The roll ``raw`` still needs after ``faces`` (``{"label", "expr", "private_to"}``), or None when
        they are enough; ``private_to`` names the seat whose private dice these are (others see no faces).

        Pure: the rules run on a copy and nothing is logged, so asking never plays the action.
        Any other refusal (the action is not available, a field is wrong) raises as ``act`` would.
        """
        with self._lock:
            live = self._require_live()
            self._check_playable(live)
            if not isinstance(raw, Mapping):
                raise BadRequest(N_("an action must be a JSON object"))
            if not live.system.spec(raw.get("type")).rolls:
                return None
            self._check_private(live, raw, seat, "dice")
            try:
                self._run(live, {**raw, "faces": list(faces)}, faces=list(faces), seat=seat)
            except NeedsDice as exc:
                try:
                    owner = live.system.private_owner(live.state, raw, seat)
                except Exception:  # a bug in the hook: keep the faces to the seat that rolls
                    owner = seat
                return {**exc.needs_dice[0], "private_to": owner, "by": exc.by}
            return None

    def undo(
        self, source: str = "api", expected_version: Any = None, seat: str | None = None, button: str | None = None
    ) -> dict:
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            self._check_playable(live)
            if not live.applied:
                raise RuleError(N_("nothing to undo"))
            target, applied_at = live.applied[-1]
            state = self._state_at(live, applied_at - 1)
            undone = entry_of(self.store, live.id, target)
            result = {"summary": f"Undid: {undone['result'].get('summary', undone['type'])}", "undid": target}
            if button:
                result["button"] = button
            private = _marked(undone.get("private"), "Undid")
            self._append(live, "undo", "undo", None, target, source, result, state, seat=seat, private=private)
            live.applied.pop()
            live.undone.append(target)
            live.roll = newest_roll(self.store, live)
            return self._changed(live, result, seat, private)

    def redo(
        self, source: str = "api", expected_version: Any = None, seat: str | None = None, button: str | None = None
    ) -> dict:
        with self._lock:
            live = self._require_live()
            self._check_version(live, expected_version)
            self._check_playable(live)
            if not live.undone:
                raise RuleError(N_("nothing to redo"))
            target = live.undone[-1]
            entry = entry_of(self.store, live.id, target)
            step = self._run(live, entry["action"], replay=entry["rolls"], seat=entry.get("seat"))
            state, result = step.state, step.result
            result = {**result, "summary": f"Redid: {result.get('summary', entry['type'])}", "redid": target}
            if button:
                result["button"] = button
            private = _marked(entry.get("private"), "Redid")
            seq = self._append(live, "redo", "redo", None, target, source, result, state, seat=seat, private=private)
            live.undone.pop()
            live.applied.append((target, seq))
            live.roll = TableRoll.of_entry(target, entry["rolls"], entry.get("seat"), entry.get("private")) or live.roll
            return self._changed(live, result, seat, private)

    def roll(
        self,
        expr: Any,
        faces: Any = None,
        source: str = "api",
        die_names: Sequence[str] | None = None,
        seat: str | None = None,
    ) -> dict:
        """A free roll; logged in the active session when there is one (``die_names``: as for ``act``),
        with the seat that rolled it (the luck report counts it for that player). It changes nothing
        in the game's state."""
        if not isinstance(expr, str):
            raise BadRequest(N_("'expr' must be a dice expression such as '2d10cs>=8'"))
        with self._lock:
            if self._live is None:
                return dice.roll(expr, faces=typed_faces(faces), rng=self.rng).to_dict()
            action = {"type": "roll", "expr": expr}
            if faces is not None:
                action["faces"] = faces
            return self.act(action, source, seat=seat, die_names=die_names)["result"]

    def bound_action(self, button: str, hold: bool = False) -> dict | None:
        """The action a press of ``button`` would play now, without playing it (None: undo, redo or nothing).

        For the smart dice, which finish a roll the buttons started (docs/smart-dice.md).
        """
        with self._lock:
            live = self._require_live()
            try:
                binding = live.system.binding(button, hold, live.state)
                raw = binding.action(live.state) if binding is not None and callable(binding.action) else None
            except Exception:  # a broken binding: press() names it; here the dice just do not take over
                log.exception("%s's button map failed for %s", live.system.name, button)
                return None
            return dict(raw) if raw is not None else None

    def press(
        self, button: str, hold: bool = False, source: str = "button", seat: str | None = None, faces: Any = None
    ) -> dict:
        """A button press, from GPIO or the panel: the system's button map (now) decides.

        ``faces``: physical dice typed in with the buttons, used when the bound action rolls
        (``[]`` asks which dice it needs: a NeedsDice refusal names them); ignored otherwise.
        A binding that raises is a bug in the game system: ``BindingError`` names the button.
        """
        with self._lock:
            live = self._require_live()
            name = f"{'hold ' if hold else ''}{button}"
            try:
                binding = live.system.binding(button, hold, live.state)
            except Exception as exc:
                raise BindingError(f"{live.system.name}'s button map failed for {name}: {exc!r}") from exc
            if binding is None:
                raise RuleError(N_("button {name} does nothing in {system}", name=name, system=live.system.name))
            if binding.action == "undo":
                return self.undo(source, seat=seat, button=name)
            if binding.action == "redo":
                return self.redo(source, seat=seat, button=name)
            assert callable(binding.action)
            try:
                raw = binding.action(live.state)
            except Exception as exc:
                raise BindingError(f"button {name} ({binding.label}) in {live.system.name} failed: {exc!r}") from exc
            if raw is None:
                raise RuleError(
                    N_("button {name} ({label}) has nothing to do right now", name=name, label=binding.label)
                )
            if faces is not None and live.system.spec(raw.get("type")).rolls:
                raw = {**raw, "faces": faces}
            return self.act(raw, source, seat=seat, button=name)

    # -- internals ---------------------------------------------------------------
    def _check_version(self, live: Live, expected: Any) -> None:
        if expected is None:
            return
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise BadRequest(N_("'expected_version' must be a whole number"))
        if expected != live.version:
            raise Conflict(
                N_(
                    "the session is at version {version}, not {expected}: someone else changed it first; "
                    "reload and try again",
                    version=live.version,
                    expected=expected,
                )
            )

    def _check_playable(self, live: Live) -> None:
        if live.readonly:
            raise RuleError(live.readonly)

    def _run(
        self, live: Live, raw: Mapping[str, Any], *, faces: Any = None, replay: Any = None, seat: str | None = None
    ) -> Step:
        """One action through the system's rules and laws; a rules bug becomes a refusal, never a 500."""
        system = live.system
        try:
            step = run_action(
                system, live.state, raw, faces=faces, seat=seat, rng=self.rng, options=live.options, replay=replay
            )
        except TablesideError:
            raise
        except Exception as exc:  # a rules bug must not become a 500 or lose the game
            log.exception("rules error in %s applying %s", system.id, raw)
            raise RuleError(
                f"{system.name} could not apply '{str(raw.get('type'))[:40]}' ({type(exc).__name__}: {exc}); "
                "nothing was changed"
            ) from exc
        return step

    def _append(
        self, live, kind, type_, action, target, source, result, state, *, seat=None, rolls=None, private=None
    ) -> int:
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
            "seat": seat,
            "rolls": rolls or [],
            "private": private,
        }
        seq = live.version + 1
        self.store.append(live.id, seq, entry, state, checkpoint=kind == "undo")  # undo: a checkpoint
        live.version = seq
        live.state = state
        return seq

    def _check_private(self, live: Live, raw: Mapping[str, Any], seat: str | None, source: str) -> None:
        """Only a seat's own phone acts on its private dice: any other answer (even "needs 5 more 6s")
        would tell the asker what they hold. A phone with no seat acts for a seat no phone holds (the
        table plays it); a button's action comes from the state, never from the asker, so it goes on."""
        if source == "button":
            return
        try:
            owner = live.system.private_owner(live.state, raw, seat)
        except Exception:  # a bug in the hook: the handler's own checks still run
            log.exception("%s: private_owner failed on %s", live.system.id, str(raw)[:200])
            return
        if owner is None or owner == seat:
            return
        if seat is None and owner not in self._held(live.id):
            return
        log.warning("refused %s from %s: %s's dice are private", str(raw.get("type"))[:40], seat or "no seat", owner)
        raise RuleError(
            f"{seat or 'a phone with no seat'} cannot act for {owner}: {owner}'s dice are private to {owner}'s phone"
        )

    def _held(self, session_id: str) -> dict[str, str]:
        """The seats a phone holds with the seat's consent: a phone seated without its PIN reads and plays
        it as the table does (its moves on private dice in the table's words, as for a seat no phone holds)."""
        public = self.unconsented(session_id)
        return {k: v for k, v in self.store.seat_claims(session_id).items() if k not in public}

    def _changed(self, live: Live, result: dict, seat: str | None = None, private: dict | None = None) -> dict:
        self._notify({"kind": "change", "session": live.id, "version": live.version})
        return {
            "version": live.version,
            "state": privacy.state(live.system, live.state, seat),
            "result": privacy.result(result, private, seat),
        }

    def _state_at(self, live: Live, version: int) -> dict:
        """The state at ``version``: the newest stored state before it, then at most a checkpoint's worth of
        entries re-applied from their recordings (``core.replay``)."""
        row = self.store.get_session(live.id)
        assert row is not None
        return stored_state(self.store, row, live.system, version)

    def _now(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")


def _marked(private: dict | None, verb: str) -> dict | None:
    """The privacy of an undo or redo of a private entry: the same seat, its public summary prefixed."""
    if not private:
        return None
    return {"seat": private.get("seat"), "summary": f"{verb}: {private.get('summary') or 'a private move'}"}


def _name_dice(rolls: list[dict], names: list[str]) -> None:
    """Put beside each roll's faces the name of the die that showed each (smart dice, in order)."""
    at = 0
    for record in rolls:
        n = len(record.get("rolls") or [])
        record["dice"] = [str(name)[:40] for name in names[at : at + n]]
        at += n
