"""A Venus 2140 conflict's summary (#34) says what each participant got out of it as the rulebook words it:
the rulebook names no winner of a conflict ("A goal represents something that your actions have accomplished
during the conflict"; it ends when the players agree "they have gotten what they want ... or ... it is
impossible"), so the summary names the goals bought in it, gathered from the log's states (an undone
purchase is not told), and says when none was."""

from __future__ import annotations

from tests.golden_states import SCENARIOS
from tests.test_round_summary import _told

_, ACTIONS = SCENARIOS["v2140"]  # Shred against Alamo Jack (the GM), Shred's second exchange put forward
RESOLVED = [{"type": "answer", "dice": [4]}, {"type": "resolve"}]  # Shred takes two more books
SCAR = {"type": "buy_goal", "participant": "Shred", "goal": "Scar", "price": 1, "target": "GM"}
FOLLOW_UP = {"type": "follow_up"}


def _line(told, name: str) -> dict:
    return next(line for line in told["lines"] if line["name"] == name)


def test_a_conflict_s_summary_names_the_goals_bought_in_it():
    told, state = _told("v2140", [*ACTIONS, *RESOLVED, SCAR, FOLLOW_UP])
    assert state["conflict"] == 2 and told["round"] == "Conflict 1"
    assert _line(told, "Shred")["told"] == ["bought Scar on GM"]
    assert _line(told, "Shred")["text"].endswith("; bought Scar on GM")
    assert _line(told, "GM")["told"] == []
    assert told["outcome"] == "What each accomplished (the goals bought): Shred bought Scar on GM"


def test_an_undone_goal_is_not_told_and_a_conflict_without_goals_says_so():
    told, _state = _told("v2140", [*ACTIONS, *RESOLVED, SCAR, "undo", FOLLOW_UP])
    assert told["round"] == "Conflict 1" and _line(told, "Shred")["told"] == []
    assert told["outcome"].startswith("No goal was bought in this conflict")


def test_the_next_conflict_tells_only_its_own_goals():
    second = {"type": "buy_goal", "participant": "Shred", "goal": "Tell me something useful", "price": 1}
    told, state = _told("v2140", [*ACTIONS, *RESOLVED, SCAR, FOLLOW_UP, second, FOLLOW_UP])
    assert state["conflict"] == 3 and told["round"] == "Conflict 2"
    assert _line(told, "Shred")["told"] == ["bought Tell me something useful"]
