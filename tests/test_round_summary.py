"""A round end is a moment (#34): what changed in the round that just ended, told from the log's states
(core.round_summary) for each system: Vegas rounds, VNM rounds, VENOM turns, Venus 2140 conflicts. An undone
round end is no longer told; a system without round hooks has nothing to say; private data never appears."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tableside.core.replay import Replay
from tableside.core.round_summary import last_round, lines
from tableside.core.store import Store
from tableside.core.system import GameSystem
from tableside.core.systems import get_system
from tableside.core.table import Table

from tests.golden_states import ENDINGS, SCENARIOS


def _told(system_id: str, actions: list[dict | str], undo_last: bool = False):
    """(the summary the log tells after ``actions``, the state) of a game set up with the scenario's options;
    an action "undo" undoes the last one."""
    options, _ = SCENARIOS[system_id]
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(Path(folder) / "t.db"), rng=random.Random(1))
        try:
            table.create_session(system_id, options)
            for action in actions:
                if action == "undo":
                    table.undo(source="cli")
                else:
                    table.act(action, source="cli")
            if undo_last:
                table.undo(source="cli")
            session_id, version = table.position()
            row = table.store_row(session_id)
            system = table.system_of(row)
            steps = Replay(table.store, system, row).steps(row["initial_state"], 0, version)
            return last_round(system, row["initial_state"], steps), table.current_state()
        finally:
            table.store.close()


def _mid(system_id: str):
    """(the system, its state after the golden scenario)."""
    return get_system(system_id), _told(system_id, SCENARIOS[system_id][1])[1]


def _texts(summary) -> list[str]:
    return [line["text"] for line in summary["lines"]]


def test_a_vegas_round_end_says_each_player_s_vp_tracks_and_tokens():
    _, actions = SCENARIOS["vegas"]
    # Round 1 played out: Bob's bonus declined, VP counted again, every hand played out: the round ends.
    upto = ENDINGS["vegas"][:7]
    told, state = _told("vegas", [*actions, *upto])
    assert state["phase"] == "Round over"
    assert told["round"] == "Round 1"
    texts = _texts(told)
    assert [line["name"] for line in told["lines"]] == ["Ann", "Bob", "Cy"]
    assert texts[0].startswith("Ann: VP +9 (now 9)"), texts
    assert texts[1].startswith("Bob: VP +4 (now 4)"), texts
    assert "track increases +1" in texts[1]  # Bob's free increase at the round's start
    assert all("hand" not in t.lower() and "card" not in t.lower() for t in texts)  # hands are no one else's


def test_an_undone_round_end_is_no_longer_told():
    _, actions = SCENARIOS["vegas"]
    told, state = _told("vegas", [*actions, *ENDINGS["vegas"][:7]], undo_last=True)
    assert state["phase"] != "Round over" and told is None


def test_the_next_round_s_summary_compares_from_its_own_start():
    _, actions = SCENARIOS["vegas"]
    told, _state = _told("vegas", [*actions, *ENDINGS["vegas"][:13]])  # round 2 started, free increase, played out
    assert told["round"] == "Round 2"
    # Bob, furthest behind, took the free increase
    assert _texts(told)[1] == "Bob: track increases +1 (now 4); won no tricks"
    assert all(c["label"] != "VP" for line in told["lines"] for c in line["changes"])  # round 1's VP stay in round 1


def test_a_vnm_round_says_population_and_spaceships():
    _, actions = SCENARIOS["vnm"]
    system = get_system("vnm")
    told, state = _told("vnm", actions)
    assert state["round"] == 1 and told is None  # round 1 still under way: nothing has ended
    assert system.round_name(state) == "Round 1"
    numbers = system.round_numbers(state)
    assert set(numbers) == {"Ann (Venus)", "Bob (Mars)", "Cy (Pluto)", "Dee (Titan)"}
    assert numbers["Cy (Pluto)"] == {"population": 2, "spaceships on the board": 4}
    assert system.round_name({**state, "winners": ["Venus"]}) is None


def test_vnm_s_round_ends_when_every_world_took_its_turn():
    from tableside.core.round_summary import RoundFold

    system = get_system("vnm")
    state = system.start(system.validate_options(SCENARIOS["vnm"][0]))
    fold = RoundFold(system, state)
    later = {**state, "round": 2, "worlds": {**state["worlds"]}}
    first = next(iter(later["worlds"]))
    later["worlds"][first] = {**later["worlds"][first], "population": later["worlds"][first]["population"] + 3}
    fold.add(1, later)
    told = fold.summary()
    assert told["round"] == "Round 1" and told["seq"] == 1
    changed = [line for line in told["lines"] if line["changes"]]
    assert len(changed) == 1 and changed[0]["changes"][0]["label"] == "population"
    assert changed[0]["changes"][0]["change"] == 3


def test_a_venom_turn_end_says_captures_and_the_event_track():
    system, state = _mid("venom")
    assert system.round_name(state) == f"Turn {state['turn']}"
    before = system.round_numbers(state)
    assert before["Ann"]["Leaders captured"] == 1 and "Event Track" in before
    after = system.round_numbers({**state, "event_track": state["event_track"] + 2})
    text = {line["name"]: line["text"] for line in lines(before, after)}
    assert text["Event Track"] == f"Event Track: +2 (now {state['event_track'] + 2})"  # "Move the Event Track up"
    assert text["Ann"] == "Ann: no change"
    assert system.round_name({**state, "game_over": {"winner": "venom"}}) is None


def test_a_venus_2140_conflict_end_says_captures_and_books_never_a_pool():
    system, state = _mid("v2140")
    assert system.round_name(state) == f"Conflict {state['conflict']}"
    numbers = system.round_numbers(state)
    # a captured die is its captor's book; the ledger's count is both sides' dice (the dice law), nobody's own
    assert numbers["Shred"]["books"] == 1 and all("dice captured" not in n for n in numbers.values())
    assert all("pool" not in label for n in numbers.values() for label in n)
    # the fold reads the public view: a pool's faces are None there, and a summary is the same with any faces
    from tableside.core.round_summary import numbers_of

    hidden = {**state, "participants": {k: {**v, "pool": [6] * 9} for k, v in state["participants"].items()}}
    assert numbers_of(system, hidden) == numbers_of(system, state)


def test_a_system_without_round_hooks_has_nothing_to_say():
    class Plain(GameSystem):
        id = "plain"

    fold_told = last_round(Plain(), {"round": 1}, [(1, {"round": 2})])
    assert fold_told is None


def test_an_undone_round_start_is_not_told_as_that_round_s_end():
    _, actions = SCENARIOS["vegas"]
    # Round 1 played out, round 2 started (ENDINGS[7] is its start_round), then that start undone: the table is
    # back between rounds, and the last round that ended is still round 1, never a "Round 2 is over".
    told, state = _told("vegas", [*actions, *ENDINGS["vegas"][:8], "undo"])
    assert state["phase"] == "Round over"
    assert told["round"] == "Round 1", told
