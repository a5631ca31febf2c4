"""The game-system plug-in interface.

A game system is plain data plus pure functions: it declares its id, setup
options, action types (each with typed fields and a handler), a button map and
what the e-paper shows. The session core owns the log, the dice and the clock;
a system only ever sees ``(state, action) -> (state, result)``, with any dice
faces already inside the action, so every game replays exactly.

See docs/architecture.md for the data flow.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tableside.core.errors import BadRequest, RuleError

State = dict[str, Any]
Action = dict[str, Any]
Result = dict[str, Any]
Handler = Callable[[State, Action], tuple[State, Result]]
DiceFor = Callable[[State, Action], "str | None"]

_KINDS = ("int", "float", "str", "bool", "list[int]", "list[str]", "list", "dict")


@dataclass(frozen=True)
class Field:
    """One typed field of an action or one setup option.

    A missing required field or a wrong type is malformed (400); a value out of
    ``minimum``/``maximum``/``choices`` is against the rules (422).
    """

    name: str
    kind: str = "int"
    required: bool = True
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | None = None
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")

    def describe(self) -> dict[str, Any]:
        """JSON description for ``GET /api/systems`` and the docs."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "required": self.required}
        for key in ("default", "minimum", "maximum", "help"):
            value = getattr(self, key)
            if value not in (None, ""):
                out[key] = value
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out

    def check(self, raw: Mapping[str, Any], where: str) -> Any:
        """Return the validated value of this field from ``raw``."""
        if self.name not in raw or raw[self.name] is None:
            if self.required:
                raise BadRequest(f"{where}: '{self.name}' is required")
            return copy.deepcopy(self.default)
        value = raw[self.name]
        value = _coerce(value, self.kind, f"{where}: '{self.name}'")
        label = f"{where}: {self.name}"
        if self.kind in ("int", "float"):
            if self.minimum is not None and value < self.minimum:
                raise RuleError(f"{label} must be at least {_num(self.minimum)}, got {_num(value)}")
            if self.maximum is not None and value > self.maximum:
                raise RuleError(f"{label} must be at most {_num(self.maximum)}, got {_num(value)}")
        if self.kind.startswith("list") and isinstance(value, list):
            if self.minimum is not None and len(value) < self.minimum:
                raise RuleError(f"{label} needs at least {_num(self.minimum)} entries, got {len(value)}")
            if self.maximum is not None and len(value) > self.maximum:
                raise RuleError(f"{label} takes at most {_num(self.maximum)} entries, got {len(value)}")
        if self.choices is not None:
            items = value if isinstance(value, list) else [value]
            for item in items:
                if item not in self.choices:
                    allowed = ", ".join(str(c) for c in self.choices)
                    raise RuleError(f"{label}: {item!r} is not one of {allowed}")
        return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _coerce(value: Any, kind: str, label: str) -> Any:
    """Type-check a JSON value; ints may arrive as "3" from a form, so accept that."""
    if kind == "int":
        if isinstance(value, bool):
            raise BadRequest(f"{label} must be a whole number")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value.strip())
        raise BadRequest(f"{label} must be a whole number, got {value!r}")
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadRequest(f"{label} must be a number, got {value!r}")
        return float(value)
    if kind == "str":
        if not isinstance(value, str):
            raise BadRequest(f"{label} must be text, got {value!r}")
        return value.strip()
    if kind == "bool":
        if not isinstance(value, bool):
            raise BadRequest(f"{label} must be true or false, got {value!r}")
        return value
    if kind == "dict":
        if not isinstance(value, dict):
            raise BadRequest(f"{label} must be an object")
        return value
    if not isinstance(value, list):
        raise BadRequest(f"{label} must be a list")
    if kind == "list[int]":
        return [_coerce(v, "int", label) for v in value]
    if kind == "list[str]":
        return [_coerce(v, "str", label) for v in value]
    return value


def check_fields(fields: tuple[Field, ...], raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Validate ``raw`` against ``fields``; unknown keys are an error, not ignored."""
    known = {f.name for f in fields}
    extra = sorted(set(raw) - known)
    if extra:
        raise BadRequest(f"{where}: unknown field(s) {', '.join(extra)}")
    return {f.name: f.check(raw, where) for f in fields}


@dataclass(frozen=True)
class ActionSpec:
    """An action type: its fields, its pure handler and, if it rolls, its dice.

    ``dice`` returns the dice expression to roll for this action in this state
    (for example ``"5d6"``), or None. The session core rolls it (or takes the
    faces a player typed in) and puts the faces into ``action["faces"]`` before
    the handler runs, so the handler never rolls anything itself.
    """

    type: str
    doc: str
    handler: Handler
    fields: tuple[Field, ...] = ()
    dice: DiceFor | None = None
    example: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "doc": self.doc,
            "fields": [f.describe() for f in self.fields],
            "rolls_dice": self.dice is not None,
            "example": {"type": self.type, **dict(self.example)},
        }


@dataclass(frozen=True)
class Binding:
    """What a physical button does: an action builder, or ``"undo"``/``"redo"``."""

    button: str
    hold: bool
    label: str
    action: Callable[[State], Action | None] | str

    def describe(self) -> dict[str, Any]:
        return {"button": self.button, "hold": self.hold, "label": self.label}


# --- what the e-paper (and the phone panel's summary) shows ---------------------


@dataclass(frozen=True)
class Row:
    """One labelled line; ``bar`` is (value, maximum) for a track or a threshold."""

    label: str
    value: str
    bar: tuple[int, int] | None = None
    accent: bool = False


@dataclass(frozen=True)
class Section:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class RollView:
    """The last roll: faces in order, which ones succeeded, and the verdict."""

    label: str
    faces: tuple[int, ...]
    hits: tuple[bool, ...] = ()
    verdict: str = ""


@dataclass(frozen=True)
class Screen:
    """A system's view of its state, independent of panel size or medium."""

    title: str
    status: str = ""
    sections: tuple[Section, ...] = ()
    roll: RollView | None = None
    alert: str | None = None

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


def roll_view(last_roll: Mapping[str, Any] | None) -> RollView | None:
    """RollView for the core's free ``roll`` action, for systems that show it."""
    if not last_roll:
        return None
    verdict = (
        f"{last_roll['successes']} successes"
        if last_roll.get("successes") is not None
        else f"total {last_roll['total']}"
    )
    return RollView(label=last_roll["expr"], faces=tuple(last_roll["rolls"]), verdict=verdict)


class GameSystem:
    """Base class for a game system plug-in. Subclasses fill the class attributes.

    ``actions`` maps action type to ActionSpec. Every system also accepts the
    core's free ``roll`` action (``POST /api/rolls``), which only records the
    roll in ``state["last_roll"]``.
    """

    id: str = ""
    name: str = ""
    description: str = ""
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

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "options": [o.describe() for o in self.options],
            "actions": [a.describe() for a in self.actions.values()],
            "buttons": [b.describe() for b in self.bindings],
        }

    # -- actions -------------------------------------------------------------
    def spec(self, action_type: Any) -> ActionSpec:
        if not isinstance(action_type, str) or not action_type:
            raise BadRequest("action needs a 'type'")
        if action_type == "roll":
            return _FREE_ROLL
        try:
            return self.actions[action_type]
        except KeyError:
            known = ", ".join(sorted(self.actions))
            raise RuleError(f"unknown action '{action_type}' for {self.name}; known: {known}") from None

    def validate_action(self, raw: Mapping[str, Any]) -> Action:
        """Check the action's fields (not yet its rules); keeps ``faces`` if given."""
        if not isinstance(raw, Mapping):
            raise BadRequest("an action must be a JSON object")
        spec = self.spec(raw.get("type"))
        body = {k: v for k, v in raw.items() if k not in ("type", "faces")}
        action = {"type": spec.type, **check_fields(spec.fields, body, spec.type)}
        if "faces" in raw and raw["faces"] is not None:
            if spec.dice is None:
                raise BadRequest(f"{spec.type} rolls no dice, so 'faces' does not apply")
            action["faces"] = raw["faces"]
        return action

    def dice_for(self, state: State, action: Action) -> str | None:
        spec = self.spec(action["type"])
        return spec.dice(state, action) if spec.dice else None

    def apply(self, state: State, action: Action) -> tuple[State, Result]:
        """Apply one validated action to a copy of ``state``. Pure."""
        spec = self.spec(action["type"])
        new_state, result = spec.handler(copy.deepcopy(state), action)
        return new_state, result

    # -- buttons and display -------------------------------------------------
    def binding(self, button: str, hold: bool) -> Binding | None:
        for b in self.bindings:
            if b.button == button and b.hold == hold:
                return b
        return None

    def screen(self, state: State) -> Screen:
        raise NotImplementedError


def _free_roll(state: State, action: Action) -> tuple[State, Result]:
    """The core's free roll: the roll itself is already in ``action['roll']``."""
    roll = action["roll"]
    state["last_roll"] = roll
    return state, {"summary": f"{roll['expr']}: {roll['rolls']}", **roll}


_FREE_ROLL = ActionSpec(
    type="roll",
    doc="A free roll of any dice expression (POST /api/rolls).",
    handler=_free_roll,
    fields=(Field("expr", "str"),),
    dice=lambda state, action: action["expr"],
    example={"expr": "2d10cs>=8"},
)
