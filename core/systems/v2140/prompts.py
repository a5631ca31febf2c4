"""What the table is waiting for, in words a player reads: the answer, the resolve, whose move."""

from __future__ import annotations

from tableside.core.system import Prompt
from tableside.core.systems.v2140.state import State, current


def pending(state: State) -> list[Prompt]:
    """The pending exchange first (the answer, then B), else whose move it is and what they can do."""
    ex = state["exchange"]
    if ex:
        if ex["answer"] is None and ex["answer_count"]:
            return [
                Prompt(
                    ex["target"],
                    f"{ex['target']}: answer {ex['actor']}'s {len(ex['forward'])} dice with {ex['answer_count']}",
                    "answer",
                )
            ]
        return [Prompt(None, f"B: resolve {ex['actor']} against {ex['target']}", "resolve")]
    now = current(state)
    p = state["participants"][now]
    if p["prepared"]:
        return [Prompt(now, f"{now}: roll the scene pool (A)", "roll_pool")]
    if not p["dice"]:  # the count: pending() also runs on the public (redacted) view
        return [Prompt(now, f"{now}: no dice; C moves on", "next_participant")]
    return [Prompt(now, f"{now}: put dice forward", "put_forward")]
