"""Typed fields of actions and setup options, in kinds a phone can draw.

A field knows its label, its limits and where its choices come from (often the
current state: the real player names, land areas, Leaders in play), so the
phone panel, the docs and the buttons are generated from one description and
nobody ever types JSON. A malformed value (wrong type) is a 400; a value the
rules do not allow (out of range, not a choice, too long) is a 422 naming the
field. Every value has a size limit.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tableside.core import dice
from tableside.core.errors import BadRequest, RuleError
from tableside.core.text import N_

KINDS = ("count", "pick", "picks", "seat", "text", "texts", "flag", "faces", "rows")
MAX_LIST = 100  # entries in any list field: a cap on typing mistakes and oversized requests
MAX_DIGITS = 9  # a whole number typed as text: "9" * 5000 is refused, not converted
MAX_FACES = 100

State = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """A value with the words a player reads for it (``"venom_strikes"`` -> "VENOM Strikes!")."""

    value: Any
    label: str

    def describe(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label}


ChoicesFrom = Callable[[State], Sequence[Any]]


def _as_choice(item: Any) -> Choice:
    return item if isinstance(item, Choice) else Choice(item, str(item))


@dataclass(frozen=True)
class Field:
    """One field of an action or one setup option.

    ``choices`` is a tuple, or a function of the state giving the allowed values
    now. ``fields`` are the sub-fields of each row of a ``rows`` field (a player:
    name and home world). ``sides`` is the die of a ``faces`` field.
    ``shown_when`` names sibling fields and the values for which this one
    matters (``{"version": ("Enhanced",)}``: Technology values only in an
    Enhanced game): a form draws it only while every named sibling holds one of
    its values and leaves it out otherwise, so the default applies. It changes
    no server check: a value sent anyway is checked like any other.
    ``shown_now(state)`` is the same as of this state, added to ``shown_when`` (VNM: a target's
    Defense asked in the attack form only for the fleets whose Defense is not entered yet); an
    empty list of values draws the field for none of them.
    ``prefill(state)`` is what a form starts from in this state (the declared
    target, the current value), described as the field's ``default``; it changes
    no server check either. ``applies(state)`` False leaves the field out of the
    form in this state (an Enhanced-only value in a Basic game): the default applies.
    ``offer(state)`` for a ``faces`` field: the dice a phone offers to tap, read from the
    state as this seat sees it (its own scene pool); None leaves a pad of faces. Such a field is
    described ``own_dice``: its dice are the acting seat's own, private to that seat's phone, so a
    phone with no seat leaves the action to that seat's phone while a phone holds the seat.
    ``differs_from`` names a sibling pick whose value this one never takes (a target is not
    the actor): a form leaves that value out of the choices while the sibling holds it (a
    seated phone's actor is its seat). The rules still refuse it; this only keeps it off the form.
    ``upto(state)`` for a ``count``: the most the rules allow in this state (what the action has
    left), described as its ``maximum`` so a form neither offers nor accepts more; None, or less
    than the minimum, leaves ``maximum``. The rules still check the value, in their own words.
    ``for_role`` is the seat role the field is for (Venus 2140's racks: ``"gm"``): a form leaves it
    out while the action's actor is a seat of another role (a player's phone never shows the GM's
    racks), so its default applies; the table's phone and that role's phone show it.
    ``choices_by`` names a sibling field (a player) whose value narrows this pick's choices, and
    ``choices_of(state)`` gives, per value of that sibling, the choices it has now (Vegas: the
    tokens each player holds): a form offers only those, and leaves the field out when there are none.
    ``help_now(state)`` is the help in this state, replacing ``help`` ("default: the declared
    target" only while a target is declared); empty leaves the field without help.
    The last three, like ``shown_when``, change no server check: the rules refuse in their own words.
    ``required_now(state)`` True makes an optional field required in this state, described as ``required`` (VENOM: a
    Leader card's values while no card on the board or in the deck can give them), so a form asks it and never folds
    it away; it changes no server check: the rules refuse a missing value in their own words.
    ``sends`` (an optional pick) draws the field as the form's send buttons: the plain send leaves it
    unchosen, and one button per choice offered now sends with that choice (Vegas: "Play a card",
    "Play a card + Bot"), so the choice costs no tap of its own. An optional pick with a few choices shown_when
    exactly one of its values (a Game token's trump) is that value's question: its choices become that value's
    send buttons ("Play a card + Game, trump to:" Bot), in place of the plain one while it is shown. Inside a
    ``rows`` field it is an ordinary pick. It changes no server check either.
    ``of_seats(state)`` for a pick that names whom the action is for (VNM's "Played for": a home world): each
    seat's own choice, described as ``of_seats`` ({"Ann": "Venus"}), so a seated phone starts it at its own seat's
    and asks first when it is sent for another's. It changes no server check either.
    """

    name: str
    kind: str = "count"
    label: str = ""
    help: str = ""
    required: bool = True
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | ChoicesFrom | None = None
    max_length: int = 60
    fields: tuple[Field, ...] = ()
    sides: int = 6
    shown_when: Mapping[str, tuple[Any, ...]] | None = None
    shown_now: Callable[[State], Mapping[str, Sequence[Any]]] | None = None
    prefill: Callable[[State], Any] | None = None
    applies: Callable[[State], bool] | None = None
    offer: Callable[[State], list[int] | None] | None = None
    upto: Callable[[State], int | None] | None = None
    differs_from: str = ""
    for_role: str = ""
    choices_by: str = ""
    choices_of: Callable[[State], Mapping[Any, Sequence[Any]]] | None = None
    help_now: Callable[[State], str] | None = None
    sends: bool = False
    required_now: Callable[[State], bool] | None = None
    of_seats: Callable[[State], Mapping[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}; kinds: {', '.join(KINDS)}")
        if self.kind in ("pick", "picks") and self.choices is None:
            raise ValueError(f"field {self.name!r} of kind {self.kind} needs choices")
        if self.kind == "rows" and not self.fields:
            raise ValueError(f"field {self.name!r} of kind rows needs sub-fields")
        if self.differs_from == self.name:
            raise ValueError(f"field {self.name!r}: differs_from names another field")
        if bool(self.choices_by) != (self.choices_of is not None) or self.choices_by == self.name:
            raise ValueError(f"field {self.name!r}: choices_by names another field, and choices_of goes with it")
        if self.choices_by and self.kind != "pick":
            raise ValueError(f"field {self.name!r}: choices_by narrows a pick's choices")
        if self.sends and (self.kind != "pick" or self.required):
            raise ValueError(f"field {self.name!r}: sends is for an optional pick (the plain send leaves it unchosen)")
        for other, values in (self.shown_when or {}).items():
            if other == self.name or not isinstance(values, tuple) or not values:
                raise ValueError(f"field {self.name!r}: shown_when needs another field's name and a tuple of values")

    def applies_in(self, state: State | None) -> bool:
        """Whether a form for ``state`` shows this field at all (None: no state, every field)."""
        return state is None or self.applies is None or bool(self.applies(state))

    def shown(self, values: Mapping[str, Any]) -> bool:
        """Whether a form shows this field, given its siblings' values (``shown_when``)."""
        return all(values.get(other) in allowed for other, allowed in (self.shown_when or {}).items())

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    # -- describing ----------------------------------------------------------
    def options_now(self, state: State | None, seats: Sequence[str] = ()) -> list[Choice] | None:
        """The allowed values in this state (None: any value of the kind)."""
        if self.kind == "seat" and self.choices is None:
            return [Choice(s, s) for s in seats]
        if self.choices is None:
            return None
        items = self.choices(state or {}) if callable(self.choices) else self.choices
        return [_as_choice(c) for c in items]

    def describe(self, state: State | None = None, seats: Sequence[str] = ()) -> dict[str, Any]:
        """JSON description for ``GET /api/sessions/active/actions``, ``/api/systems`` and the docs."""
        required = self.required or (self.required_now is not None and state is not None and self.required_now(state))
        out: dict[str, Any] = {"name": self.name, "label": self.title, "kind": self.kind, "required": bool(required)}
        for key in ("default", "minimum", "maximum", "help"):
            value = getattr(self, key)
            if value not in (None, ""):
                out[key] = value
        if self.upto is not None and state is not None:
            most = self.upto(state)
            if most is not None and (self.minimum is None or most >= self.minimum):
                out["maximum"] = most if self.maximum is None else min(most, self.maximum)
        if self.offer is not None:
            out["own_dice"] = True
        if self.offer is not None and state is not None:
            dice = self.offer(state)
            if dice is not None:
                out["offer"] = list(dice)
        if self.prefill is not None and state is not None:
            start = self.prefill(state)
            if start is not None:
                out["default"] = start
        if self.help_now is not None and state is not None:
            words = self.help_now(state)
            if words:
                out["help"] = words
            else:
                out.pop("help", None)
        if self.kind in ("text", "texts"):
            out["max_length"] = self.max_length
        if self.kind == "faces":
            out["sides"] = self.sides
        if self.kind == "rows":
            out["fields"] = [f.describe(state, seats) for f in self.fields if f.applies_in(state)]
        if self.kind in ("pick", "picks", "seat") and (state is not None or not callable(self.choices)):
            choices = self.options_now(state, seats)
            if choices is not None:
                out["choices"] = [c.describe() for c in choices]
        when = {other: list(values) for other, values in (self.shown_when or {}).items()}
        if self.shown_now is not None and state is not None:
            when.update({other: list(values) for other, values in self.shown_now(state).items()})
        if when:
            out["shown_when"] = when
        if self.differs_from:
            out["differs_from"] = self.differs_from
        if self.for_role:
            out["for_role"] = self.for_role
        if self.sends:
            out["sends"] = True
        if self.of_seats is not None and state is not None:
            out["of_seats"] = dict(self.of_seats(state))
        if self.choices_of is not None and state is not None:
            per = self.choices_of(state)
            out["choices_by"] = {"field": self.choices_by, "values": {str(k): list(v) for k, v in per.items()}}
        return out

    # -- checking -------------------------------------------------------------
    def check(self, raw: Mapping[str, Any], where: str, state: State | None = None, seats: Sequence[str] = ()) -> Any:
        """The validated value of this field from ``raw``."""
        if self.name not in raw or raw[self.name] is None or (raw[self.name] == "" and not self.required):
            if self.required:
                raise BadRequest(N_("{where}: '{title}' is required", where=where, title=self.title))
            return copy.deepcopy(self.default)
        label = N_("{where}: {title}", where=where, title=self.title)
        value = _COERCE[self.kind](self, raw[self.name], label, state, seats)
        allowed = self.options_now(state, seats) if (state is not None or not callable(self.choices)) else None
        if allowed is not None:
            values = [c.value for c in allowed]
            for item in value if isinstance(value, list) else [value]:
                if item not in values:
                    shown = ", ".join(c.label for c in allowed[:12]) or "none right now"
                    more = ", ..." if len(allowed) > 12 else ""
                    raise RuleError(f"{label}: {str(item)[:40]!r} is not one of {shown}{more}")
        return value


def _count(f: Field, value: Any, label: str, *_: Any) -> int:
    """Whole numbers; a form may send "3". Only ASCII digits, and not too many of them."""
    if isinstance(value, bool):
        raise BadRequest(N_("{label} must be a whole number", label=label))
    if isinstance(value, float) and value.is_integer() and abs(value) < 10**MAX_DIGITS:
        value = int(value)
    elif isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] == "-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
            raise BadRequest(N_("{label} must be a whole number, got {got}", label=label, got=repr(text[:20])))
        value = int(text)
    if not isinstance(value, int):
        raise BadRequest(N_("{label} must be a whole number, got {got}", label=label, got=repr(str(value)[:20])))
    if f.minimum is not None and value < f.minimum:
        raise RuleError(
            N_("{label} must be at least {minimum}, got {got}", label=label, minimum=_num(f.minimum), got=_short(value))
        )
    if f.maximum is not None and value > f.maximum:
        raise RuleError(
            N_("{label} must be at most {maximum}, got {got}", label=label, maximum=_num(f.maximum), got=_short(value))
        )
    return value


def _text(f: Field, value: Any, label: str, *_: Any) -> str:
    if not isinstance(value, str):
        raise BadRequest(N_("{label} must be text, got {got}", label=label, got=repr(str(value)[:20])))
    value = " ".join(value.split())
    if len(value) > f.max_length:
        raise RuleError(
            N_(
                "{label} is too long ({length} characters, at most {maximum})",
                label=label,
                length=len(value),
                maximum=f.max_length,
            )
        )
    return value


def _pick(f: Field, value: Any, label: str, *_: Any) -> Any:
    if isinstance(value, str):
        return value.strip()[:200]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadRequest(N_("{label} must be one of the choices, got {got}", label=label, got=repr(str(value)[:20])))
    return value


def _list(f: Field, value: Any, label: str) -> list:
    if not isinstance(value, list):
        raise BadRequest(N_("{label} must be a list", label=label))
    cap = int(f.maximum) if f.maximum is not None else MAX_LIST
    if len(value) > min(cap, MAX_LIST):
        raise RuleError(
            N_(
                "{label} takes at most {maximum} entries, got {got}",
                label=label,
                maximum=min(cap, MAX_LIST),
                got=len(value),
            )
        )
    if f.minimum is not None and len(value) < f.minimum:
        raise RuleError(
            N_(
                "{label} needs at least {minimum} entries, got {got}",
                label=label,
                minimum=_num(f.minimum),
                got=len(value),
            )
        )
    return value


def _picks(f: Field, value: Any, label: str, *_: Any) -> list:
    items = [_pick(f, v, label) for v in _list(f, value, label)]
    for i, item in enumerate(items):
        if item in items[:i]:
            raise RuleError(N_("{label}: {item} is picked twice", label=label, item=repr(str(item)[:40])))
    return items


def _texts(f: Field, value: Any, label: str, *_: Any) -> list[str]:
    return [_text(f, v, label) for v in _list(f, value, label)]


def _flag(f: Field, value: Any, label: str, *_: Any) -> bool:
    if not isinstance(value, bool):
        raise BadRequest(N_("{label} must be true or false, got {got}", label=label, got=repr(str(value)[:20])))
    return value


def _faces(f: Field, value: Any, label: str, *_: Any) -> list[int]:
    return read_faces(value, f.sides, label)


def _rows(f: Field, value: Any, label: str, state: State | None, seats: Sequence[str]) -> list[dict]:
    rows = _list(f, value, label)
    out = []
    for n, row in enumerate(rows, 1):
        if not isinstance(row, Mapping):
            raise BadRequest(f"{label}: row {n} must be an object")
        out.append(check_fields(f.fields, row, f"{label} row {n}", state, seats))
    return out


_COERCE: dict[str, Callable[..., Any]] = {
    "count": _count,
    "pick": _pick,
    "picks": _picks,
    "seat": _text,
    "text": _text,
    "texts": _texts,
    "flag": _flag,
    "faces": _faces,
    "rows": _rows,
}


def read_faces(value: Any, sides: int, label: str = "faces") -> list[int]:
    """Dice faces typed in: a list in the order rolled, or a count per face.

    ``{"6": 4, "5": 3}`` is how a person reads twenty dice on the table ("four
    6s, three 5s"); it becomes ``[6, 6, 6, 6, 5, 5, 5]`` (high to low).
    """
    if isinstance(value, Mapping):
        return [dice.read_face(face, sides) for face in dice.faces_from_counts(value, MAX_FACES, label)]
    if isinstance(value, str) or not isinstance(value, list):
        raise BadRequest(f"{label} must be a list of faces or a count per face")
    if len(value) > MAX_FACES:
        raise RuleError(f"{label}: at most {MAX_FACES} dice at a time, got {len(value)}")
    return [dice.read_face(v, sides) for v in value]


def check_fields(
    fields: Sequence[Field], raw: Mapping[str, Any], where: str, state: State | None = None, seats: Sequence[str] = ()
) -> dict[str, Any]:
    """Validate ``raw`` against ``fields``; unknown keys are an error, not ignored."""
    known = {f.name for f in fields}
    extra = sorted(str(k)[:30] for k in set(raw) - known)
    if extra:
        raise BadRequest(f"{where}: unknown {'field' if len(extra) == 1 else 'fields'} {', '.join(extra[:5])}")
    return {f.name: f.check(raw, where, state, seats) for f in fields}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _short(x: int) -> str:
    text = str(x)
    return text if len(text) <= 12 else text[:12] + "..."
