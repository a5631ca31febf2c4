"""Inn's class: its actions, buttons, seats and what only it says (the guide's shape: the rest is in the
role modules beside this file, which the core reads)."""

from __future__ import annotations

from tableside.core.system import ActionSpec, Binding, Field, GameSystem, Seat, in_phase


def _order(state, action, ctx):
    """The seat orders a drink: echoes what the context said, so a test reads it back."""
    state["orders"].append(action["seat"])
    told = {"ctx_seat": ctx.seat, "ctx_options": dict(ctx.options), "ctx_replaying": ctx.replaying}
    return state, {"summary": f"{action['seat']} orders", **told}


def _tip(state, action, ctx):
    state["tips"].append(action["seat"])
    return state, {"summary": f"{action['seat']} tips"}


def _close(state, action, ctx):
    state["phase"] = "Closed"
    return state, {"summary": "closed"}


def _open(state, action, ctx):
    state["phase"] = "Open"
    return state, {"summary": "opened"}


def _dice(state, action, ctx):
    faces = ctx.dice.faces("Bones", action["n"], by=action["seat"])
    ctx.dice.mark(["kept"] * len(faces), f"{sum(faces)} pips")
    state["pips"] += sum(faces)
    if action["hide"]:
        ctx.private(action["seat"], f"{action['seat']} rolled the bones")
    return state, {"summary": f"bones {faces}"}


def _spill(state, action, ctx):
    state["purse"] -= 1  # a coin lost: breaks the law unless nothing is in the purse to lose
    return state, {"summary": "spilled"}


def _owner(state, action):
    """The seat ordering; read from the state's seats, so a hook handed no state would fail."""
    return action["seat"] if action.get("seat") in state["coins"] else None


class Inn(GameSystem):
    id = "inn"
    name = "Inn"
    description = "A test system."
    rules_version = 3
    options = (
        Field("tables", "count", required=False, default=2, minimum=1, maximum=9),
        Field("purse", "count", required=False, default=5, minimum=0, maximum=20),
    )
    actions = {
        "order": ActionSpec(
            "order",
            "Order a drink",
            "A seat orders.",
            _order,
            (Field("seat", "seat", required=False, default=""),),
            group="Open",
            available=in_phase("Open"),
            acts_for=_owner,
            seat_field="seat",
        ),
        "close": ActionSpec("close", "Close the inn", "Close.", _close, available=in_phase("Open", "Late")),
        "open": ActionSpec(
            "open", "Open the inn", "Open.", _open, available=in_phase("Closed", words="{phases} hours ({now})")
        ),
        "bones": ActionSpec(
            "bones",
            "Roll the bones",
            "Roll n d6.",
            _dice,
            (
                Field("seat", "seat"),
                Field("n", "count", minimum=1, maximum=5),
                Field("hide", "flag", required=False, default=False),
            ),
            rolls=True,
        ),
        "spill": ActionSpec("spill", "Spill a coin", "Lose a coin.", _spill),
        "tip": ActionSpec(  # a seat field alone, no owner: a seated phone's own seat is filled in
            "tip", "Tip", "A seat tips.", _tip, (Field("seat", "seat", required=False, default=""),), seat_field="seat"
        ),
    }
    bindings = (
        Binding("A", False, "Order", lambda state: {"type": "order"} if state["phase"] else None),
        Binding("B", False, "Open", lambda state: {"type": "open"} if state["phase"] else None),
        Binding("C", False, "Close", lambda state: {"type": "close"} if state["phase"] else None),
        Binding("C", True, "Broken", lambda state: state["no such key"]),
        Binding("D", False, "Undo", "undo"),
        Binding("D", True, "Redo", "redo"),
    )

    def __init__(self) -> None:
        self.asked: list[int] = []  # the turns logged_changes was asked about

    def seats(self, state):
        return [Seat(name) for name in state["coins"]]

    def button_labels(self, state):
        return {("A", False): f"Order ({state['phase']})"}

    def logged_changes(self, before, after):
        self.asked.append(after["turn"])
        gained = after["pips"] - before["pips"]
        return {"pips_gained": gained} if gained else {}

    def roll_belongs_to(self, state):
        return ("turn", state["turn"])
