"""The game-system plug-in interface (v2).

A game system is plain data plus pure functions. It declares its setup options
and action types (typed fields whose choices come from the state, a label, a
group, when the action is available), its participants (seats) and what is
private to each, what the table is waiting for (pending prompts), the numbers a
correction may set and the conservation laws every state must keep, a
``derive`` hook for values computed from the rest, the button map and a screen
model. The session core owns the log, the dice and the clock: a handler gets
``(state, action, ctx)`` and rolls through ``ctx.dice``, which records every
face, so every game replays exactly without the RNG.

See docs/architecture.md for a worked example of each concept.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import marshal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableside.core.corrections import CORRECT, check_range, correct_spec, set_path
from tableside.core.errors import BadRequest, RuleError
from tableside.core.fields import Choice, Field, check_fields
from tableside.core.recorder import TABLE, Context, Dice, typed_faces
from tableside.core.roll import TableRoll, scope_key
from tableside.core.rulebook_refs import SYSTEMS as SYSTEMS_PACKAGE
from tableside.core.rulebook_refs import action_key
from tableside.core.screen import Screen, mark_next
from tableside.core.soft_clock import CLOCK, CLOCK_SPEC
from tableside.core.specs import (
    UNDO_REDO,
    Action,
    ActionSpec,
    Availability,
    Binding,
    Prompt,
    Result,
    Seat,
    State,
    Tracked,
    takes_action,
)
from tableside.core.text import N_

__all__ = [
    "Action",
    "ActionSpec",
    "Binding",
    "Choice",
    "Context",
    "Field",
    "GameSystem",
    "Prompt",
    "Result",
    "Seat",
    "State",
    "TableRoll",
    "Tracked",
    "UNDO_REDO",
    "check_fields",
    "in_phase",
]

FREE_ROLL = "roll"


class GameSystem:
    """Base class for a game system plug-in. Subclasses fill the class attributes and the hooks that are
    their own; the hooks that have a role module (setup, state, laws, prompts, screen) read it by name.

    ``actions`` maps action type to ActionSpec. Every system also accepts the
    core's free ``roll`` (``POST /api/rolls``) and ``correct`` actions.
    ``rules_version`` goes up when a rules change would replay an old log
    differently; ``legacy_rules`` can hand back the old rules for such a log.
    """

    id: str = ""
    name: str = ""
    description: str = ""
    rules_version: int = 1
    options: tuple[Field, ...] = ()
    actions: Mapping[str, ActionSpec] = {}
    bindings: tuple[Binding, ...] = ()
    cooperative: bool = False  # the players win or lose together, against the game: team wins on the Stats page
    ends: bool = True  # its rules end a game with a result (Venus 2140's scenes go on: its games are only played)

    # -- the role modules beside the system's own system.py ------------------------------
    def role(self, name: str, function: str) -> Callable[..., Any] | None:
        """``function`` of the system's role module ``name`` (``setup``, ``state``, ``laws``, ``prompts``,
        ``screen``: docs/adding-a-system.md), the folder's module beside its ``system.py``; None where the
        folder has no such module or the module no such function, so the hook's default holds."""
        roles = self.__dict__.setdefault("_roles", {})
        if name not in roles:
            package = type(self).__module__.rpartition(".")[0]
            try:
                roles[name] = importlib.import_module(f"{package}.{name}") if package else None
            except ModuleNotFoundError as exc:  # no such module; a module that fails to import is said
                if exc.name != f"{package}.{name}":
                    raise
                roles[name] = None
        return getattr(roles[name], function, None)

    def _call(self, name: str, function: str, default: Any, *args: Any) -> Any:
        found = self.role(name, function)
        return default if found is None else found(*args)

    # -- setup ---------------------------------------------------------------
    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in, then ``setup.check_options`` (checks across fields), if any."""
        if raw is not None and not isinstance(raw, Mapping):
            raise BadRequest(N_("options must be an object"))
        options = check_fields(self.options, raw or {}, "options")
        self._call("setup", "check_options", None, options)
        return options

    def initial_state(self, options: Mapping[str, Any]) -> State:
        """The starting state: ``setup.initial_state(options)``."""
        made = self.role("setup", "initial_state")
        if made is None:
            raise NotImplementedError(f"{self.id}: no setup.initial_state(options)")
        return made(options)

    def start(self, options: Mapping[str, Any]) -> State:
        """The first state of a game, as the core makes it: ``initial_state``, then ``derive``, then the laws
        (a starting state that breaks one is refused, as a move that would is)."""
        state = self.derive(self.initial_state(options))
        broken = self.laws(state)
        if broken:
            raise RuleError(
                N_(
                    "these options would start {system} breaking a rule: {broken}",
                    system=self.name,
                    broken="; ".join(broken),
                )
            )
        return state

    def legacy_rules(self, version: int) -> GameSystem | None:
        """The rules a session of an older ``rules_version`` was played with, if still shipped."""
        return None

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "rules_version": self.rules_version,
            "options": [o.describe() for o in self.options],
            "actions": [a.describe() for a in self.all_actions().values()],
            "buttons": [b.describe() for b in self.bindings],
        }

    # -- participants, prompts, corrections, laws: override per system ---------
    def seats(self, state: State) -> list[Seat]:
        """Who can act. Default: no seats (everyone acts for the table)."""
        return []

    def faction(self, state: State, seat: str) -> str | None:
        """The faction or world ``seat`` plays (a player's favourite on the Stats page): ``state.faction``;
        None where the game has none. A seat named only for it is no person named at setup."""
        return self._call("state", "faction", None, state, seat)

    def pending(self, state: State) -> list[Prompt]:
        """What the table is waiting for, in order: ``prompts.pending(state)``, or nothing."""
        return self._call("prompts", "pending", [], state)

    def up_next(self, state: State) -> str | None:
        """The seat whose turn follows the current one, where the rules give an order (its phone says "You're
        next", the e-paper's header names it): ``prompts.up_next(state)``, else None."""
        return self._call("prompts", "up_next", None, state)

    def round_name(self, state: State) -> str | None:
        """The round being played, in the rulebook's word ("Round 2", "Turn 3", "Conflict 1"), so a round's end
        is a moment with a summary of what changed (``core.round_summary``): ``state.round_name(state)``; None
        between rounds, once the game is over, or where the system has no rounds to tell."""
        return self._call("state", "round_name", None, state)

    def round_numbers(self, state: State) -> dict[str, dict[str, int]]:
        """Each player's public numbers a round summary compares, by the name the board uses (e.g. ``{"Ann":
        {"VP": 4}}``); called on the public view only: ``state.round_numbers(state)``, or nothing."""
        return self._call("state", "round_numbers", {}, state)

    def round_events(self, state: State) -> dict[str, tuple[int, dict[int, Any]]]:
        """What ``state`` (a public view) records one at a time of the rounds it names, for a round's summary
        to gather over the round's states (Vegas: who won each trick): ``{round name: (how many it recorded,
        {number from 1: event} of those it still shows)}``: ``state.round_events(state)``, or nothing."""
        return self._call("state", "round_events", {}, state)

    def round_outcome(self, events: list[Any], names: list[str]) -> tuple[dict[str, list[str]], str | None]:
        """A round's events in words, for the summary's lines (``names``, as ``round_numbers`` names them):
        (per name, a few words for its line; a sentence for the table or None): ``state.round_outcome(events,
        names)``, or nothing to add."""
        return self._call("state", "round_outcome", ({}, None), events, names)

    def redact(self, state: State, seat: str | None) -> State:
        """``state`` as ``seat`` may see it (None: the public table view, as on the e-paper)."""
        return state

    def private_owner(self, state: State, action: Mapping[str, Any], seat: str | None) -> str | None:
        """The seat whose private dice ``action`` (as sent by ``seat``) would use, or None. The core lets only
        that seat's phone act on them (a refusal such as "needs 5 more 6s" would reveal them)."""
        return None

    def chart_series(self, state: State) -> dict[str, float]:
        """The numbers the history chart draws for this state (a public view: ``redact(state, None)``),
        named for a person. Default: the tracked numbers, so every system has a chart."""
        out: dict[str, float] = {}
        for t in self.tracked(state)[:8]:
            if isinstance(t.value, int | float) and not isinstance(t.value, bool):
                out[t.label] = float(t.value)
        return out

    def chart_title(self) -> str:
        """What the chart shows, in words."""
        return "Tracked numbers"

    def chart_colours(self, state: State) -> dict[str, int]:
        """Each chart series' player colour (the screen model's index, ``core.screen.PLAYER_INKS``), so a
        player has one colour on the chart, the board and the e-paper. Default: a series named for a seat
        ("Ann", "Ann: Leaders captured", "Ann's score") in that seat's ``seat_colours``; others none."""
        colours = self.seat_colours(state)
        out = {}
        for name in self.chart_series(state):
            seat = series_seat(name, colours)
            if seat is not None:
                out[name] = colours[seat]
        return out

    def start_player(self, state: State) -> str | None:
        """The seat that took the game's first turn, where the rules name one (VNM's first player, VENOM's
        Commander): ``state.start_player(state)``, else None (a play exported says no one started it)."""
        return self._call("state", "start_player", None, state)

    def seat_colours(self, state: State) -> dict[str, int]:
        """Each seat's colour (``core.screen.PLAYER_INKS`` index) as its rows are drawn, for what names a
        seat outside the board (the chart, the luck report). Default: the seats' order, seat i in colour i."""
        return {s.name: i for i, s in enumerate(self.seats(state))}

    def scores(self, state: State) -> dict[str, str]:
        """Each player's score as the e-paper writes it, by the name it writes there: what even a pHAT keeps
        beside the name. Default: the screen's bars drawn in a player's colour (name: value)."""
        bars = (b for e in self.screen(state).elements for b in getattr(e, "bars", ()))
        return {b.label: str(b.value) for b in bars if b.colour is not None}

    def derive(self, state: State) -> State:
        """Values computed from the rest (odds, thresholds), refreshed after every action and on the
        starting state: ``state.derive(state)``, or the state as it is."""
        found = self.role("state", "derive")
        return state if found is None else found(state)

    def laws(self, state: State) -> list[str]:
        """Conservation laws this state breaks, in words; empty when all hold: ``laws.broken(state)``."""
        return self._call("laws", "broken", [], state)

    def tracked(self, state: State) -> list[Tracked]:
        """The numbers a ``correct`` action may set: ``laws.tracked(state)``."""
        return self._call("laws", "tracked", [], state)

    def correct(self, state: State, key: str, value: int, balance: str | None = None) -> State:
        """Set one tracked number: ``laws.correct(state, key, value[, balance])``, else the dotted path.

        ``balance`` (only for a number whose ``Tracked.balance`` names piles, and already checked to
        be one of them): the pile the difference comes from (or goes to)."""
        found = self.role("laws", "correct")
        if found is not None:
            return found(state, key, value) if balance is None else found(state, key, value, balance)
        set_path(state, key, value)
        return state

    def button_labels(self, state: State) -> Mapping[tuple[str, bool], str]:
        """Labels for now by (button, hold), where a binding's own label says too little ("Attack
        Venus"); the meaning of a button never changes."""
        return {}

    def buttons(self, state: State) -> tuple[Binding, ...]:
        """The button map now, labelled for now, and the binding that answers the pending prompt
        first (the one whose action is the prompt's type): done here, once, for every system."""
        labels = self.button_labels(state)
        now = [Binding(b.button, b.hold, labels.get((b.button, b.hold), b.label), b.action) for b in self.bindings]
        waiting = self.pending(state)
        wanted = waiting[0].type if waiting else None
        if wanted is None:
            return tuple(now)

        def answers(b: Binding) -> bool:
            if not callable(b.action):
                return b.action == wanted
            try:
                action = b.action(state)
            except Exception:  # a broken binding is reported when its button is pressed, naming it
                return False
            return isinstance(action, Mapping) and action.get("type") == wanted

        return tuple(sorted(now, key=lambda b: not answers(b)))

    def logged_changes(self, before: State, after: State) -> Result:
        """What the log should say an action changed beside its own result, for every action of the
        system (Vegas: the VP gains and losses from its ledger). Default: nothing."""
        return {}

    def roll_belongs_to(self, state: State) -> Any:
        """What a roll made now belongs to (the turn, the trick, the exchange), as JSON: the table
        shows the roll while this stays the same. Default: None, so a roll stays until the next."""
        return None

    def screen(self, state: State, roll: TableRoll | None = None) -> Screen:
        """What the e-paper and the phone show: a ``tableside.core.screen.Screen``.

        ``roll`` is the roll on the table while it is current and public (the core decides);
        ``roll.group()`` draws it as the log recorded it. The system's ``screen.screen(state, roll)`` draws
        the rest; the core fills its prompt line with the first pending prompt where it left it empty.
        """
        draw = self.role("screen", "screen")
        if draw is None:
            raise NotImplementedError(f"{self.id}: no screen.screen(state, roll)")
        made = draw(state, roll)
        after = self.up_next(state) if made.result is None else None
        if after:  # where the rules give an order, whose turn follows is marked (core.screen.mark_next)
            label = next((s.label or s.name for s in self.seats(state) if s.name == after), after)
            made = mark_next(made, after, label)
        if made.prompt is None:
            waiting = self.pending(state)
            if waiting:
                made = dataclasses.replace(made, prompt=waiting[0].text)
        return made

    # -- actions -------------------------------------------------------------
    def all_actions(self) -> dict[str, ActionSpec]:
        return {**self.actions, CORRECT: self.correct_spec(), FREE_ROLL: _FREE_ROLL, CLOCK: CLOCK_SPEC}

    def correct_spec(self) -> ActionSpec:
        """The ``correct`` action of this system, assembled here only: its number is one of
        ``tracked(state)``, and it is available when there is a number to correct."""
        spec = self.__dict__.get("_correct_spec")
        if spec is None:
            spec = self.__dict__["_correct_spec"] = correct_spec(self)
        return spec

    def spec(self, action_type: Any) -> ActionSpec:
        if not isinstance(action_type, str) or not action_type:
            raise BadRequest(N_("action needs a 'type'"))
        specs = self.all_actions()
        if action_type not in specs:
            known = ", ".join(sorted(self.actions))
            raise RuleError(
                N_(
                    "unknown action '{given}' for {system}; known: {known}",
                    given=action_type[:40],
                    system=self.name,
                    known=known,
                )
            )
        return specs[action_type]

    def validate_action(self, raw: Mapping[str, Any], state: State | None = None) -> Action:
        """Check the action's fields against the state (not yet its rules); ``faces`` is the core's."""
        if not isinstance(raw, Mapping):
            raise BadRequest(N_("an action must be a JSON object"))
        spec = self.spec(raw.get("type"))
        body = {k: v for k, v in raw.items() if k not in ("type", "faces")}
        seats = [s.name for s in self.seats(state)] if state is not None else []
        if spec.type == CORRECT:
            checked = check_fields(spec.fields, body, spec.label, state, seats)
            if state is not None:
                check_range(self, state, checked)
            return {"type": spec.type, **checked}
        return {"type": spec.type, **check_fields(spec.fields, body, spec.label, state, seats)}

    def apply(self, state: State, action: Action, ctx: Context, in_place: bool = False) -> tuple[State, Result]:
        """Apply one validated action to a copy of ``state`` (or, for a replay's own working copy, to
        ``state`` itself), then ``derive``. Pure unless ``in_place``."""
        spec = self.spec(action["type"])
        new_state, result = spec.handler(state if in_place else plain_copy(state), action, ctx)
        return self.derive(new_state), result

    # -- buttons -------------------------------------------------------------
    def binding(self, button: str, hold: bool, state: State | None = None) -> Binding | None:
        for b in self.buttons(state) if state is not None else self.bindings:
            if b.button == button and b.hold == hold:
                return b
        return None


def series_seat(series: str, seats: Mapping[str, Any]) -> str | None:
    """The seat a chart series is named for ("Ann", "Ann: Leaders captured", "Ann's score"), or None."""
    for seat in seats:
        if series == seat or series.startswith((f"{seat}: ", f"{seat}'s ")):
            return seat
    return None


def plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, tuples of scalars), several times faster than
    ``copy.deepcopy`` (which dominated replay): ``marshal`` does it in C. Format 2 shares no references,
    so two equal lists in the state stay two lists in the copy. Anything marshal cannot write (a
    dataclass, an IntEnum) takes the slow path, ``copy.deepcopy`` for that value only."""
    try:
        return marshal.loads(marshal.dumps(value, 2))
    except ValueError:
        return _copy_slowly(value)


def _copy_slowly(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _copy_slowly(v) for k, v in value.items()}
    if kind is list:
        return [_copy_slowly(v) for v in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    if kind is tuple:
        return tuple(_copy_slowly(v) for v in value)
    return copy.deepcopy(value)


# --- one action, the way the core runs it -------------------------------------------


@dataclass
class Step:
    """What one action did: the new state, its result, every recorded roll, and its privacy."""

    state: State
    result: Result
    rolls: list[dict]
    private: dict[str, Any] | None = None
    action: Action = field(default_factory=dict)
    action_type: str = ""


def run_action(
    system: GameSystem,
    state: State,
    raw: Mapping[str, Any],
    *,
    faces: Any = None,
    seat: str | None = None,
    rng: Any = None,
    options: Mapping[str, Any] | None = None,
    replay: Sequence[dict] | None = None,
    in_place: bool = False,
) -> Step:
    """Check availability, validate, roll (RNG, typed ``faces`` or a ``replay``), apply, derive, check laws.

    Pure apart from the RNG: the session core calls this for every action, and
    tests and the Hypothesis walks call it directly. Raises a TablesideError
    (nothing changed) when the action is refused. ``in_place`` is for a replay,
    which hands in its own working copy: that copy is changed, even on refusal; the handlers
    read it as ``ctx.replaying`` (the entry was accepted when it was recorded).
    """
    faces = typed_faces(faces)
    if not isinstance(raw, Mapping):
        raise BadRequest(N_("an action must be a JSON object"))
    spec = system.spec(raw.get("type"))
    # Availability first: "the Combat Dice have not been rolled yet" says more than "die 1 is not one
    # of none right now", which is what the fields (whose choices come from the state) would say.
    reason = spec.reason(state, seat)
    if reason:
        raise RuleError(N_("{label}: {reason}", label=spec.label, reason=reason), rule=action_key(system.id, spec.type))
    try:
        action = system.validate_action(raw, state)
    except RuleError as refused:  # a field's choices or range (core/fields.py): the rule of the action's fields
        if refused.rule is None and not refused.raised_in.startswith(SYSTEMS_PACKAGE):
            refused.rule = action_key(system.id, spec.type, fields=True)
        raise
    if faces is not None and not spec.rolls:
        raise BadRequest(N_("{label} rolls no dice, so 'faces' does not apply", label=spec.label))
    if seat is not None and (spec.seat_field or spec.acts_for):
        action = spec.seated(action, seat, [s.name for s in system.seats(state)])
        owner = spec.owner(state, action)
        if owner is not None and owner != seat:
            raise RuleError(N_("{label}: {seat} cannot act for {owner}", label=spec.label, seat=seat, owner=owner))
    if spec.available is not None and takes_action(spec.available):  # who acts, now that the action is known
        reason = spec.reason(state, seat, action)
        if reason:
            raise RuleError(
                N_("{label}: {reason}", label=spec.label, reason=reason), rule=action_key(system.id, spec.type)
            )
    dice = Dice(rng=rng, typed=faces, replay=replay)
    ctx = Context(dice=dice, seat=seat, options=dict(options or {}), system=system, replaying=in_place)
    before = None if in_place else state  # a replay changes its working copy in place and needs no result
    new_state, result = system.apply(state, action, ctx, in_place)
    if before is not None:
        extra = system.logged_changes(before, new_state)
        if extra:
            result = {**result, **extra}
    broken = system.laws(new_state)
    if broken:
        raise RuleError(
            N_(
                "{label} would break a rule of {system}: {broken}",
                label=system.spec(action["type"]).label,
                system=system.name,
                broken="; ".join(broken),
            )
        )
    recorded = dice.finish()
    if recorded:
        belongs_to = scope_key(system.roll_belongs_to(new_state))
        for record in recorded:
            record["belongs_to"] = belongs_to
    private = {"seat": ctx.private_to, "summary": ctx.public_summary} if ctx.private_to else None
    return Step(new_state, result, recorded, private, action, action["type"])


# --- the actions every system has ------------------------------------------------


def in_phase(*phases: str, key: str = "phase", words: str = "{phases}; now: {now}") -> Availability:
    """The availability "only in these phases", shared by the systems: None while ``state[key]`` is
    one of ``phases``, else "only in " and ``words`` filled with the phases and the phase now."""

    def available(state: State, seat: str | None = None) -> str | None:
        now = state[key]
        if now in phases:
            return None
        return "only in " + words.format(phases=" or ".join(phases), now=now)

    return available


def _free_roll(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """The core's free roll: logged like every other roll (with the seat that rolled it) and shown
    as the roll on the table; the game's state is left as it was."""
    roll = ctx.dice.roll("Free roll", action["expr"], by=ctx.seat or TABLE).to_dict()  # the phone's, else the table's
    ctx.dice.mark()  # read as its faces: no marks, no verdict
    return state, {"summary": f"{roll['expr']}: {roll['rolls']}", **roll}


_FREE_ROLL = ActionSpec(
    FREE_ROLL,
    "Free roll",
    "A free roll of any dice expression (POST /api/rolls).",
    _free_roll,
    (Field("expr", "text", label="Dice", max_length=100, help="e.g. 2d10cs>=8"),),
    group="Dice",
    example={"expr": "2d10cs>=8"},
    rolls=True,
)
