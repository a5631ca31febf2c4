"""A small game system for the core's own decisions (tests/test_system_*.py): two seats, two phases,
a prompt the buttons answer, a seat's own action, a private roll, a conservation law and corrections
with a balance pile. Built only from what a system's author has (``tableside.core.system``)."""

from __future__ import annotations

from tableside.core.system import ActionSpec, Binding, Field, GameSystem, Prompt, Seat, Tracked, in_phase

SEATS = ("Ann", "Bob")
COINS = 10  # the coins held by the seats plus the purse: a conservation law


def _order(state, action, ctx):
    """The seat orders a drink: echoes who acted and with which options, so a test reads them back."""
    state["orders"].append(action["seat"])
    return state, {"summary": f"{action['seat']} orders", "ctx_seat": ctx.seat, "ctx_options": dict(ctx.options)}


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
    return action.get("seat") or None


class Inn(GameSystem):
    id = "inn"
    name = "Inn"
    description = "A test system."
    rules_version = 3
    options = (Field("tables", "count", required=False, default=2, minimum=1, maximum=9),)
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
    }
    bindings = (
        Binding("A", False, "Order", lambda state: {"type": "order"}),
        Binding("B", False, "Open", lambda state: {"type": "open"}),
        Binding("C", False, "Close", lambda state: {"type": "close"}),
        Binding("C", True, "Broken", lambda state: state["no such key"]),
        Binding("D", False, "Undo", "undo"),
        Binding("D", True, "Redo", "redo"),
    )

    def initial_state(self, options):
        return {
            "phase": "Open",
            "orders": [],
            "pips": 0,
            "coins": {"Ann": 3, "Bob": 2},
            "purse": COINS - 5,
            "turn": 1,
            "waiting": "open",
        }

    def seats(self, state):
        return [Seat(name) for name in SEATS]

    def pending(self, state):
        wanted = state.get("waiting")
        return [Prompt(None, f"waiting for {wanted}", wanted)] if wanted else []

    def button_labels(self, state):
        return {("A", False): f"Order ({state['phase']})"}

    def laws(self, state):
        held = sum(state["coins"].values()) + state["purse"]
        broken = [f"coins held and in the purse make {held}, not {COINS}"] if held != COINS else []
        if state["purse"] < 0:
            broken.append("the purse is below 0")
        return broken

    def tracked(self, state):
        return [
            Tracked("coins.Ann", "Ann's coins", state["coins"]["Ann"], 0, 9, balance="coins", pile="Ann's pocket"),
            Tracked("coins.Bob", "Bob's coins", state["coins"]["Bob"], 0, 9, balance="coins"),
            Tracked("purse", "Purse", state["purse"], 0, None, balance="coins", pile="the purse"),
            Tracked("pips", "Pips", state["pips"], None, 30),
        ]

    def correct(self, state, key, value, balance=None):
        """The default sets the number; a balance pile gives or takes the difference."""
        before = _read(state, key)
        state = super().correct(state, key, value)
        if balance:
            _write(state, balance, _read(state, balance) - (value - before))
        return state

    def derive(self, state):
        state["derived_orders"] = len(state["orders"])
        return state

    def logged_changes(self, before, after):
        gained = after["pips"] - before["pips"]
        return {"pips_gained": gained} if gained else {}

    def roll_belongs_to(self, state):
        return ("turn", state["turn"])


def _read(state, key):
    return state["coins"][key.split(".")[1]] if key.startswith("coins.") else state[key]


def _write(state, key, value):
    if key.startswith("coins."):
        state["coins"][key.split(".")[1]] = value
    else:
        state[key] = value
