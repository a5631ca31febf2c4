"""A tiny game system used only by the core's tests: a score, d6 rolls, seats and a private hand.

It exercises every hook of the interface: recorded rolls (including rolls whose
count depends on an earlier roll), seats with private data, pending prompts,
corrections and a conservation law (the chips held by the players plus the
pot always equal ``CHIPS``).
"""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.recorder import TABLE
from tableside.core.screen import KeyFigure, Screen
from tableside.core.system import ActionSpec, Binding, Field, GameSystem, Prompt, Seat, Tracked
from tableside.core.text import N_

CHIPS = 20


def _add(state, action, ctx):
    if state["score"] + action["points"] > state["limit"]:
        raise RuleError(f"score may not pass {state['limit']}")
    state["score"] += action["points"]
    return state, {"summary": f"+{action['points']} -> {state['score']}"}


def _roll(state, action, ctx):
    faces = ctx.dice.faces("Toy roll", action["n"], by=ctx.seat or TABLE)
    ctx.dice.mark()
    state["score"] += sum(faces)
    state["rolls"].append(faces)
    return state, {"summary": f"rolled {faces}", "faces": faces}


def _chain(state, action, ctx):
    """One d6, then as many more d6 as it showed: a count that depends on an earlier roll."""
    first = ctx.dice.roll("How many", "1d6", by=ctx.seat or TABLE).rolls[0]
    ctx.dice.mark()
    more = ctx.dice.faces("Then", first, by=ctx.seat or TABLE)
    if more:
        ctx.dice.mark()
    state["score"] += first + sum(more)
    state["rolls"].append([first, *more])
    return state, {"summary": f"{first} then {more}"}


def _hide(state, action, ctx):
    """A seat rolls dice into its private hand; the others only learn how many."""
    seat = action["seat"]
    faces = ctx.dice.faces(f"{seat}'s hand", action["n"], by=seat)
    if faces:
        ctx.dice.mark()
    state["hands"][seat] += faces
    ctx.private(seat, f"{seat} rolled {len(faces)} dice into the hand")
    return state, {"summary": f"{seat} holds {sorted(state['hands'][seat], reverse=True)}"}


def _pay(state, action, ctx):
    seat = action["seat"]
    if state["chips"][seat] < action["chips"]:
        raise RuleError(f"{seat} holds only {state['chips'][seat]} chips")
    state["chips"][seat] -= action["chips"]
    state["pot"] += action["chips"]
    return state, {"summary": f"{seat} pays {action['chips']}"}


def _boom(state, action, ctx):
    raise ZeroDivisionError("a bug in the rules")


def _seats(state):
    return list(state["hands"])


class Toy(GameSystem):
    id = "toy"
    name = "Toy"
    options = (Field("limit", "count", required=False, default=1000, minimum=1),)
    actions = {
        "add": ActionSpec(  # marked (core/text.py), so tests/test_webui_words.py can give it in German
            "add", N_("Add points"), N_("Add points."), _add, (Field("points", "count", minimum=1, maximum=50),)
        ),
        "roll_d6": ActionSpec(
            "roll_d6",
            "Roll d6",
            "Roll N d6 and add them.",
            _roll,
            (Field("n", "count", minimum=1, maximum=10),),
            rolls=True,
        ),
        "chain": ActionSpec("chain", "Chain roll", "1d6, then that many d6.", _chain, rolls=True),
        "hide": ActionSpec(
            "hide",
            "Roll into the hand",
            "Private dice.",
            _hide,
            (Field("seat", "pick", choices=_seats), Field("n", "count", minimum=1, maximum=10)),
            rolls=True,
        ),
        "pay": ActionSpec(
            "pay",
            "Pay chips",
            "Chips to the pot.",
            _pay,
            (Field("seat", "pick", choices=_seats), Field("chips", "count", minimum=1, maximum=20)),
            available=lambda s, seat: None if s["score"] < 900 else "the game is over",
        ),
        "boom": ActionSpec("boom", "Boom", "Always fails with a bug.", _boom),
    }
    bindings = (
        Binding("A", False, "Roll 2d6", lambda s: {"type": "roll_d6", "n": 2}),
        Binding("B", False, "Add 1", lambda s: {"type": "add", "points": 1}),
        Binding("C", False, "Nothing", lambda s: None),
        Binding("D", False, "Undo", "undo"),
        Binding("D", True, "Redo", "redo"),
    )

    def initial_state(self, options):
        return {
            "score": 0,
            "limit": options["limit"],
            "rolls": [],
            "hands": {"Ann": [], "Bob": []},
            "chips": {"Ann": CHIPS // 2, "Bob": CHIPS // 2},
            "pot": 0,
        }

    def seats(self, state):
        return [Seat("Ann"), Seat("Bob")]

    def redact(self, state, seat):
        hidden = {name: (faces if name == seat else len(faces)) for name, faces in state["hands"].items()}
        return {**state, "hands": hidden}

    def private_owner(self, state, action, seat):
        """Rolling into a hand uses that seat's private dice."""
        return action.get("seat") if action.get("type") == "hide" and action.get("seat") in state["hands"] else None

    def chart_series(self, state):
        return {"Score": float(state["score"]), "Pot": float(state["pot"])}

    def chart_title(self):
        return "Score and pot"

    def pending(self, state):
        return [Prompt("Ann", "Ann: roll the dice", "roll_d6")] if state["score"] == 0 else []

    def laws(self, state):
        held = sum(state["chips"].values()) + state["pot"]
        return [] if held == CHIPS else [f"chips: {held} on the table, the game has {CHIPS}"]

    def tracked(self, state):
        return [
            Tracked("score", "Score", state["score"], 0, state["limit"]),
            Tracked("chips.Ann", "Ann's chips", state["chips"]["Ann"], 0, CHIPS),
            Tracked("pot", "Pot", state["pot"], 0, CHIPS),
        ]

    def screen(self, state, roll=None):
        """The score; the roll on the table below it (the core says which roll, and while it lasts)."""
        elements = (KeyFigure("Score", str(state["score"])),)
        if roll is not None:
            elements += (roll.group(),)
        return Screen(title="Toy", status=f"score {state['score']}", elements=elements)


SYSTEM = Toy()


def get(system_id: str) -> GameSystem:
    if system_id == "toy":
        return SYSTEM
    from tableside.core.systems import get_system

    return get_system(system_id)
