"""The declarations a game system is made of: action types, buttons, seats, prompts, tracked numbers.

Plain frozen dataclasses, read by the core (``core.system``) and drawn by every surface: a phone's
forms from an ``ActionSpec``'s fields, the buttons from ``Binding``s, corrections from ``Tracked``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableside.core.fields import Field
from tableside.core.recorder import Context

State = dict[str, Any]
Action = dict[str, Any]
Result = dict[str, Any]
Handler = Callable[[State, Action, Context], tuple[State, Result]]
Availability = Callable[..., "str | None"]


@functools.cache
def takes_action(available: Callable[..., Any]) -> bool:
    """Whether an availability takes the action as its third argument: ``available(state, seat, action)``."""
    try:
        return len(inspect.signature(available).parameters) >= 3
    except (TypeError, ValueError):  # a builtin or a callable without a signature: (state, seat)
        return False


@dataclass(frozen=True)
class ActionSpec:
    """An action type: its label and fields, its pure handler, and when it is available.

    ``available(state, seat)`` (or ``available(state, seat, action)``, which the core calls again with the
    checked action, its seat filled in) returns None when the action may be taken now, or
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
    ``every_seat``: the action changes every seat's state at once (Venus 2140's follow-up conflict halves every
    pool), described so; a seated phone asks first, naming who is affected.
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
    every_seat: bool = False

    def applies_in(self, state: State | None) -> bool:
        """Whether this action is part of the game in ``state`` (None: any game, as ``describe()`` lists)."""
        return state is None or self.applies is None or bool(self.applies(state))

    def reason(self, state: State, seat: str | None, action: Action | None = None) -> str | None:
        """Why the action is not available now, or None. An ``available`` that takes a third argument gets
        the action too (None while only its type is asked about: the phone's list), so a check of who acts
        ("Sven is stopped") is declared here, not made inside the handler."""
        if self.available is None:
            return None
        if takes_action(self.available):
            return self.available(state, seat, action)
        return self.available(state, seat)

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
        if self.every_seat:
            out["every_seat"] = True
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
