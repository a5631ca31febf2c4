"""A Vegas round's summary says each player's tricks won (#34), gathered from the states the log replays to:
the stored state counts only ``tricks_played`` and keeps no ledger of winners (#37), so an undone trick drops
out and a trick entered again with another winner counts for that one."""

from __future__ import annotations

from tests.golden_states import ENDINGS, SCENARIOS
from tests.test_round_summary import _told

OPTIONS, ACTIONS = SCENARIOS["vegas"]  # trick 1: Ann's Bot 2 wins under Bot trump (the referee's); trick 2: Bob
PLAYED_OUT = ENDINGS["vegas"][:7]  # Bob's bonus declined, VP counted again, every hand played out: round 1 ends


def _lines(told) -> dict[str, dict]:
    return {line["name"]: line for line in told["lines"]}


def test_a_vegas_round_summary_says_each_player_s_tricks_won():
    told, state = _told("vegas", [*ACTIONS, *PLAYED_OUT])
    assert state["phase"] == "Round over" and state["tricks_played"] == 2
    lines = _lines(told)
    assert lines["Ann"]["told"] == ["won 1 trick"] and lines["Bob"]["told"] == ["won 1 trick"]
    assert lines["Cy"]["told"] == ["won no tricks"]
    assert lines["Ann"]["text"] == "Ann: VP +9 (now 9), tokens \u22121 (now 0); won 1 trick"
    assert lines["Cy"]["text"].endswith("; won no tricks")
    assert not any("winner" in key for key in state)  # the stored state keeps no second ledger (#37)


def test_an_undone_trick_is_not_counted_and_entered_again_counts_for_its_new_winner():
    *before, bobs = ACTIONS  # the last action: Bob entered as trick 2's winner
    cy = {"type": "trick_winner", "winner": "Cy"}
    told, state = _told("vegas", [*before, bobs, "undo", cy, {"type": "next_trick"}, *PLAYED_OUT[1:]])
    assert state["phase"] == "Round over" and state["tricks_played"] == 2
    lines = _lines(told)
    assert lines["Cy"]["told"] == ["won 1 trick"] and lines["Bob"]["told"] == ["won no tricks"]
    assert lines["Ann"]["told"] == ["won 1 trick"]


def test_a_round_ended_with_its_last_trick_undone_counts_one_trick_fewer():
    *before, bobs = ACTIONS
    # trick 2 undone, then the hands are counted again and played out: round 1 ends after one trick
    told, state = _told("vegas", [*before, bobs, "undo", *PLAYED_OUT[1:]])
    assert state["phase"] == "Round over" and state["tricks_played"] == 1
    lines = _lines(told)
    assert lines["Ann"]["told"] == ["won 1 trick"] and lines["Bob"]["told"] == ["won no tricks"]


def test_two_tricks_won_are_said_in_the_plural():
    from tableside.core.systems.vegas.state import round_outcome

    told, outcome = round_outcome(["Ann", "Bob", "Ann"], ["Ann", "Bob", "Cy"])
    assert told == {"Ann": ["won 2 tricks"], "Bob": ["won 1 trick"], "Cy": ["won no tricks"]} and outcome is None
