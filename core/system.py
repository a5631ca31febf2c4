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
import marshal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableside.core.errors import BadRequest, RuleError
from tableside.core.fields import Choice, Field, check_fields
from tableside.core.recorder import TABLE, Context, Dice, typed_faces
from tableside.core.roll import TableRoll, scope_key
from tableside.core.screen import Screen

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
    "check_fields",
    "in_phase",
]

State = dict[str, Any]
Action = dict[str, Any]
Result = dict[str, Any]
Handler = Callable[[State, Action, Context], tuple[State, Result]]
Availability = Callable[[State, "str | None"], "str | None"]

CORRECT = "correct"
FREE_ROLL = "roll"


@dataclass(frozen=True)
class ActionSpec:
    """An action type: its label and fields, its pure handler, and when it is available.

    ``available(state, seat)`` returns None when the action may be taken now, or
    the reason in words ("only in the Combat Phase"); the core refuses the action
    with that reason before the handler runs (so a handler never checks it again),
    and the phone shows it. ``group`` is where the phone lists it (usually the
    phase it belongs to).

    Who may take it: ``acts_for(state, action)`` names the seat whose action it is
    (a Venus 2140 participant acting with its own scene pool, the GM for the GM's
    actions); the core refuses a seated phone acting for another seat, while the
    table (no seat: the buttons, a phone without a seat) acts for anyone.
    ``seat_field`` is the field naming that seat: a seated phone that leaves it
    out means its own seat, and the core fills it in before the handler runs.
    ``taps`` names pick fields a phone asks as buttons, one tap each, and sends
    once every one of them is answered (a VENOM Leader card, then its Zone).
    ``for_role``: the seat role whose action it is (Venus 2140's GM actions: ``"gm"``); a phone
    seated at another role does not offer it (the core would refuse it there anyway), the table's does.
    ``applies(state)`` False: the action is no part of this game at all (an Enhanced-only action in a
    Basic game), so the list of actions for this game (``GET .../actions``, the phone) leaves it out
    rather than greying it out "Not now" for the whole game, as a field's ``applies`` leaves the field
    out. It changes no server check: posted anyway, ``available`` refuses it in its own words.
    """

    type: str
    label: str
    doc: str
    handler: Handler
    fields: tuple[Field, ...] = ()
    group: str = ""
    available: Availability | None = None
    example: Mapping[str, Any] = field(default_factory=dict)
    rolls: bool = False
    acts_for: Callable[[State, Action], str | None] | None = None
    seat_field: str = ""
    taps: tuple[str, ...] = ()
    for_role: str = ""
    applies: Callable[[State], bool] | None = None

    def applies_in(self, state: State | None) -> bool:
        """Whether this action is part of the game in ``state`` (None: any game, as ``describe()`` lists)."""
        return state is None or self.applies is None or bool(self.applies(state))

    def reason(self, state: State, seat: str | None) -> str | None:
        return self.available(state, seat) if self.available else None

    def seated(self, action: Action, seat: str | None, seats: Sequence[str]) -> Action:
        """``action`` with ``seat_field`` filled in with ``seat`` when a seated phone left it out."""
        if self.seat_field and seat in seats and action.get(self.seat_field) in (None, ""):
            return {**action, self.seat_field: seat}
        return action

    def owner(self, state: State, action: Action) -> str | None:
        """The seat whose action this is (None: anyone's)."""
        return self.acts_for(state, action) if self.acts_for else None

    def describe(self, state: State | None = None, seats: Sequence[str] = (), seat: str | None = None) -> dict:
        out: dict[str, Any] = {
            "type": self.type,
            "label": self.label,
            "doc": self.doc,
            "group": self.group,
            "rolls_dice": self.rolls,
            "fields": [f.describe(state, seats) for f in self.fields if f.applies_in(state)],
            "example": {"type": self.type, **dict(self.example)},
        }
        if self.seat_field:  # the field a seated phone leaves to its seat (a pick named "player" may name anyone)
            out["seat_field"] = self.seat_field
        if self.for_role:
            out["for_role"] = self.for_role
        drawn = {f["name"] for f in out["fields"]}
        if self.taps and drawn.issuperset(self.taps):  # only where every one of them applies now
            out["taps"] = list(self.taps)
        if state is not None:
            reason = self.reason(state, seat)
            out["available"] = reason is None
            if reason:
                out["reason"] = reason
        return out


@dataclass(frozen=True)
class Binding:
    """What a physical button does: an action builder, or ``"undo"``/``"redo"``."""

    button: str
    hold: bool
    label: str
    action: Callable[[State], Action | None] | str

    def describe(self) -> dict[str, Any]:
        return {"button": self.button, "hold": self.hold, "label": self.label}


# D undoes and a held D redoes in every game: the same two buttons, whatever is on the table.
UNDO_REDO = (Binding("D", False, "Undo", "undo"), Binding("D", True, "Redo", "redo"))


@dataclass(frozen=True)
class Seat:
    """A participant who can act: a player, or the GM in Venus 2140. ``name`` is the seat's key (what a
    phone claims, what ``seat`` fields and the log hold); ``label`` is how every screen names the player
    where that says more ("Ann (Venus)" in VNM), so a phone names a seat as the board does."""

    name: str
    role: str = "player"
    label: str = ""

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role, "label": self.label or self.name}


@dataclass(frozen=True)
class Prompt:
    """What the table is waiting for: "Ann: draw the Event card".

    ``also``: other actions that answer it ("build, move, attack or collect"), which a
    phone puts beside ``type`` at the top of the screen. ``label``: the words of the phone's
    button for ``type`` now, where the action's own label would not match the prompt ("Start
    round 2 (button C)" is answered by "Start round 2", not by "Next round"). ``then``: the seats
    that answer the same prompt after ``seat``, in order (the rest of a trick played seat by seat), so
    a phone at one of them can say whom it plays after.
    """

    seat: str | None
    text: str
    type: str | None = None
    also: tuple[str, ...] = ()
    label: str = ""
    then: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "text": self.text, "type": self.type}
        if self.also:
            out["also"] = list(self.also)
        if self.label:
            out["label"] = self.label
        if self.then:
            out["then"] = list(self.then)
        return out


@dataclass(frozen=True)
class Tracked:
    """A number a correction may set: ``key`` is a dotted path into the state.

    ``balance``: for a conserved number, the name of its group (VNM: "population", the chips on
    the land areas, home worlds and the destroyed pile): a correction may name another number of
    the group (``correct``'s ``balance``) that gives or takes the difference, so one correction
    moves it ("Ann (Venus): population 0 -> 1, 1 from China"). ``pile`` is this number as such a
    source is named ("China"). Empty: the number stands alone (or the system balances it itself)."""

    key: str
    label: str
    value: int
    minimum: int | None = None
    maximum: int | None = None
    balance: str = ""
    pile: str = ""

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "minimum": self.minimum,
            "maximum": self.maximum,
        }
        if self.balance:
            out["balance"] = self.balance
            out["pile"] = self.pile or self.label
        return out


class GameSystem:
    """Base class for a game system plug-in. Subclasses fill the class attributes and hooks.

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

    # -- setup ---------------------------------------------------------------
    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in; override to add cross-field checks."""
        if raw is not None and not isinstance(raw, Mapping):
            raise BadRequest("options must be an object")
        return check_fields(self.options, raw or {}, "options")

    def initial_state(self, options: Mapping[str, Any]) -> State:
        raise NotImplementedError

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

    def pending(self, state: State) -> list[Prompt]:
        """What the table is waiting for, in order."""
        return []

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
        player has one colour on the chart, the board and the e-paper. Default: none (the chart's order)."""
        return {}

    def seat_colours(self, state: State) -> dict[str, int]:
        """Each seat's colour (``core.screen.PLAYER_INKS`` index) as its rows are drawn, for what names a
        seat outside the board (the luck report). Default: none."""
        return {}

    def derive(self, state: State) -> State:
        """Values computed from the rest (odds, thresholds), refreshed after every action."""
        return state

    def laws(self, state: State) -> list[str]:
        """Conservation laws this state breaks, in words; empty when all hold."""
        return []

    def tracked(self, state: State) -> list[Tracked]:
        """The numbers a ``correct`` action may set."""
        return []

    def correct(self, state: State, key: str, value: int, balance: str | None = None) -> State:
        """Set one tracked number; the default follows the dotted path into the state.

        ``balance`` (only for a number whose ``Tracked.balance`` names piles, and already checked to
        be one of them): the pile the difference comes from (or goes to)."""
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
        ``roll.group()`` draws it as the log recorded it.
        """
        raise NotImplementedError

    # -- actions -------------------------------------------------------------
    def all_actions(self) -> dict[str, ActionSpec]:
        return {**self.actions, CORRECT: self.correct_spec(), FREE_ROLL: _FREE_ROLL}

    def correct_spec(self) -> ActionSpec:
        """The ``correct`` action of this system, assembled here only: its number is one of
        ``tracked(state)``, and it is available when there is a number to correct."""
        spec = self.__dict__.get("_correct_spec")
        if spec is None:
            spec = self.__dict__["_correct_spec"] = _correct_spec(self)
        return spec

    def spec(self, action_type: Any) -> ActionSpec:
        if not isinstance(action_type, str) or not action_type:
            raise BadRequest("action needs a 'type'")
        specs = self.all_actions()
        if action_type not in specs:
            known = ", ".join(sorted(self.actions))
            raise RuleError(f"unknown action '{action_type[:40]}' for {self.name}; known: {known}")
        return specs[action_type]

    def validate_action(self, raw: Mapping[str, Any], state: State | None = None) -> Action:
        """Check the action's fields against the state (not yet its rules); ``faces`` is the core's."""
        if not isinstance(raw, Mapping):
            raise BadRequest("an action must be a JSON object")
        spec = self.spec(raw.get("type"))
        body = {k: v for k, v in raw.items() if k not in ("type", "faces")}
        seats = [s.name for s in self.seats(state)] if state is not None else []
        if spec.type == CORRECT:
            checked = check_fields(spec.fields, body, spec.label, state, seats)
            if state is not None:
                _check_range(self, state, checked)
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
        raise BadRequest("an action must be a JSON object")
    spec = system.spec(raw.get("type"))
    # Availability first: "the Combat Dice have not been rolled yet" says more than "die 1 is not one
    # of none right now", which is what the fields (whose choices come from the state) would say.
    reason = spec.reason(state, seat)
    if reason:
        raise RuleError(f"{spec.label}: {reason}")
    action = system.validate_action(raw, state)
    if faces is not None and not spec.rolls:
        raise BadRequest(f"{spec.label} rolls no dice, so 'faces' does not apply")
    if seat is not None and (spec.seat_field or spec.acts_for):
        action = spec.seated(action, seat, [s.name for s in system.seats(state)])
        owner = spec.owner(state, action)
        if owner is not None and owner != seat:
            raise RuleError(f"{spec.label}: {seat} cannot act for {owner}")
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
        raise RuleError(f"{system.spec(action['type']).label} would break a rule of {system.name}: {'; '.join(broken)}")
    recorded = dice.finish()
    if recorded:
        belongs_to = scope_key(system.roll_belongs_to(new_state))
        for record in recorded:
            record["belongs_to"] = belongs_to
    private = {"seat": ctx.private_to, "summary": ctx.public_summary} if ctx.private_to else None
    return Step(new_state, result, recorded, private, action, action["type"])


# --- the actions every system has ------------------------------------------------


def get_path(state: Any, key: str) -> Any:
    """``"players.0.population"`` -> state["players"][0]["population"]."""
    node = state
    for part in key.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def set_path(state: Any, key: str, value: Any) -> None:
    *parents, last = key.split(".")
    node = get_path(state, ".".join(parents)) if parents else state
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _check_range(system: GameSystem, state: State, checked: Mapping[str, Any]) -> None:
    """A correction within the tracked number's range, and a change."""
    numbers = {t.key: t for t in system.tracked(state)}
    t = numbers[checked["key"]]
    if t.minimum is not None and checked["value"] < t.minimum:
        raise RuleError(f"{t.label} must be at least {t.minimum}, got {checked['value']}")
    if t.maximum is not None and checked["value"] > t.maximum:
        raise RuleError(f"{t.label} must be at most {t.maximum}, got {checked['value']}")
    if checked["value"] == t.value:
        raise RuleError(f"{t.label} is already {t.value}")
    if checked.get("balance"):
        pile = _pile(numbers, t, checked["balance"])
        if pile is None:
            raise RuleError(f"{t.label} cannot take its difference from {checked['balance'][:40]!r}")
        more = checked["value"] - t.value
        if more > pile.value:
            raise RuleError(
                f"{t.label}: {more} more cannot come from {pile.pile or pile.label}, which holds {pile.value}"
            )


def _pile(numbers: Mapping[str, Tracked], t: Tracked, key: Any) -> Tracked | None:
    """The number of ``t``'s balance group named ``key`` (not ``t`` itself), or None."""
    pile = numbers.get(key) if isinstance(key, str) else None
    return pile if pile is not None and t.balance and pile.balance == t.balance and pile.key != t.key else None


def _correct(state: State, action: Action, ctx: Context) -> tuple[State, Result]:
    """Set one tracked number. The system's laws are checked by the core afterwards."""
    system = ctx.system
    tracked = {t.key: t for t in system.tracked(state)}
    t = tracked.get(action["key"])
    if t is None:
        raise RuleError(f"{str(action['key'])[:40]!r} is not a number that can be set now")
    pile = _pile(tracked, t, action.get("balance"))
    if pile is None:
        state = system.correct(state, t.key, action["value"])
    else:
        state = system.correct(state, t.key, action["value"], balance=pile.key)
    why = f" ({action['reason']})" if action["reason"] else ""
    correction = {"key": t.key, "label": t.label, "from": t.value, "to": action["value"], "reason": action["reason"]}
    moved = ""
    if pile is not None:
        delta = action["value"] - t.value
        moved = f", {abs(delta)} {'from' if delta > 0 else 'to'} {pile.pile or pile.label}"
        correction["balance"] = {
            "key": pile.key,
            "label": pile.pile or pile.label,
            "from": pile.value,
            "to": pile.value - delta,
        }
    return state, {
        "summary": f"Corrected {t.label}: {t.value} -> {action['value']}{moved}{why}",
        "correction": correction,
    }


def _correct_spec(system: GameSystem) -> ActionSpec:
    def numbers(state: State) -> list[Choice]:
        return [Choice(t.key, t.label) for t in system.tracked(state)] if state else []

    def piles(state: State) -> list[Choice]:
        return [Choice(t.key, t.pile or t.label) for t in system.tracked(state) if t.balance] if state else []

    def available(state: State, seat: str | None) -> str | None:
        return None if system.tracked(state) else "nothing to correct yet"

    return ActionSpec(
        CORRECT,
        "Correct a number",
        "Set one tracked number to a new value; logged as a correction (from, to, why).",
        _correct,
        (
            Field("key", "pick", label="Number", choices=numbers),
            Field("value", "count", label="New value"),
            Field("reason", "text", label="Why", required=False, default="", max_length=120),
            Field(
                "balance",
                "pick",
                label="From or to",
                required=False,
                default="",
                choices=piles,
                help="a conserved number (population): where the difference comes from or goes to",
            ),
        ),
        group="Corrections",
        available=available,
        example={"key": "score", "value": 3, "reason": "miscounted"},
    )


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
