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
    player = state["players"][state["active_player"]]["name"]
    # the rulebook's words: a Turn is one player's, a Round every player's; the header's "R1 Ann" agrees
    assert system.round_name(state) == f"{player}'s Turn (Round {state['round']})"
    assert system.screen(state).status.startswith(f"R{state['round']} {player}:")
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


def test_venom_names_each_turn_by_its_player_and_round_never_a_count_of_turns():
    """Seen before: "Turn 3 is over" after the third player's turn while the header read R1 (playthrough)."""
    from tableside.core.round_summary import RoundFold

    from tests.test_venom_helpers import SYSTEM, act, started

    state = started()  # Ann is the Commander: Round 1 is Ann's, Bob's and Cy's Turns
    fold, told, seq = RoundFold(SYSTEM, state), [], 0
    while len(told) < 4:
        if state["phase"] == "Event" and not state["event_drawn_this_phase"]:
            kind = "all_is_quiet" if state["event_deck"].get("all_is_quiet") else "freedom_squadron"
            state, _ = act(state, {"type": "draw_event", "kind": kind})
        else:
            state, _ = act(state, {"type": "next_phase"})
        seq += 1
        fold.add(seq, state)
        if fold.summary() and fold.summary()["seq"] == seq:
            told.append((fold.summary()["round"], SYSTEM.screen(state).status))
        assert seq < 60
    assert [t for t, _ in told] == [
        "Ann's Turn (Round 1)",
        "Bob's Turn (Round 1)",
        "Cy's Turn (Round 1)",
        "Ann's Turn (Round 2)",
    ]
    assert told[2][1].startswith("R2 Ann:"), told  # the header has moved on to Round 2 with the Commander


def test_a_summary_with_nothing_changed_is_one_line_not_a_wall_of_no_change():
    from tableside.core.round_summary import phone_lines, shown_lines

    same = {"Ann": {"VP": 1}, "Bob": {"VP": 0}, "Event Track": {"": 2}}
    quiet = lines(same, same)
    assert [line["text"] for line in quiet] == ["Ann: no change", "Bob: no change", "Event Track: no change"]
    assert phone_lines(quiet) == ["Nothing changed"]
    assert shown_lines({"lines": quiet}) == [("Nothing changed", 1)]
    some = lines(same, {**same, "Bob": {"VP": 2}})
    assert phone_lines(some) == ["Bob: VP +2 (now 2)", "No change: Ann, Event Track"]
    assert shown_lines({"lines": some}) == [("Bob: VP +2", 1), ("No change: Ann; Event Track", 2)]  # a list: counted
