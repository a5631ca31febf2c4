"""A tiny game system used only by the core's tests: a score and a d6 roll."""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.system import ActionSpec, Binding, Field, GameSystem, Row, Screen, Section


def _add(state, action):
    if state["score"] + action["points"] > state["limit"]:
        raise RuleError(f"score may not pass {state['limit']}")
    state["score"] += action["points"]
    return state, {"summary": f"+{action['points']} -> {state['score']}"}


def _roll(state, action):
    faces = action["faces"]
    state["score"] += sum(faces)
    state["rolls"].append(faces)
    return state, {"summary": f"rolled {faces}", "faces": faces}


def _boom(state, action):
    raise ZeroDivisionError("a bug in the rules")


class Toy(GameSystem):
    id = "toy"
    name = "Toy"
    options = (Field("limit", "int", required=False, default=1000, minimum=1),)
    actions = {
        "add": ActionSpec("add", "Add points.", _add, (Field("points", "int", minimum=1, maximum=50),)),
        "roll_d6": ActionSpec(
            "roll_d6", "Roll N d6 and add them.", _roll, (Field("n", "int", minimum=1, maximum=10),),
            dice=lambda s, a: f"{a['n']}d6",
        ),
        "boom": ActionSpec("boom", "Always fails with a bug.", _boom),
    }
    bindings = (
        Binding("A", False, "Roll 2d6", lambda s: {"type": "roll_d6", "n": 2}),
        Binding("B", False, "Add 1", lambda s: {"type": "add", "points": 1}),
        Binding("C", False, "Nothing", lambda s: None),
        Binding("D", False, "Undo", "undo"),
        Binding("D", True, "Redo", "redo"),
    )

    def initial_state(self, options):
        return {"score": 0, "limit": options["limit"], "rolls": []}

    def screen(self, state):
        return Screen(title="Toy", status=f"score {state['score']}",
                      sections=(Section("Score", (Row("score", str(state["score"]), (state["score"], 100)),)),))


SYSTEM = Toy()


def get(system_id: str) -> GameSystem:
    if system_id == "toy":
        return SYSTEM
    from tableside.core.systems import get_system

    return get_system(system_id)
