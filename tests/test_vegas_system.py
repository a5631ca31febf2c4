"""The vegas system through the core's flow (run_action): prompts, buttons, random picks, laws, screen."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.screen import Grid, KeyFigure
from tableside.core.system import run_action
from tableside.core.systems import get_system
from tableside.core.systems.vegas import SYSTEM

NAMES = ["Ann", "Bob", "Cy"]


def start(names=None, **options):
    opts = SYSTEM.validate_options({"players": list(names or NAMES), **options})
    return SYSTEM.start(opts)


def act(state, raw, faces=None, rng=None):
    before = json.dumps(state, sort_keys=True)
    step = run_action(SYSTEM, state, raw, faces=faces, rng=rng or random.Random(7))
    assert json.dumps(state, sort_keys=True) == before, "apply must not mutate its input"
    json.dumps(step.state)
    return step


def set_up(names=None, **options):
    state = start(names, **options)
    picks = {
        "Ann": ["Team", "Game"],
        "Bob": ["Game", "Inspector"],
        "Cy": ["Bot", "Mobster"],
        "Di": ["Team", "Bot"],
        "Ed": ["Game", "Mobster"],
    }
    for p in state["players"]:
        wanted = 3 if len(state["players"]) == 5 else 2
        tracks = picks[p] + [t for t in ("Team", "Game", "Inspector", "Bot", "Mobster") if t not in picks[p]]
        state = act(state, {"type": "setup_tracks", "player": p, "tracks": tracks[:wanted]}).state
    return state


def prompts(state):
    return [(p.seat, p.type) for p in SYSTEM.pending(state)]


def press(state, button, hold=False):
    binding = SYSTEM.binding(button, hold, state)
    return binding.action if isinstance(binding.action, str) else binding.action(state)


def test_registered_and_described():
    assert get_system("vegas") is SYSTEM
    described = SYSTEM.describe()
    assert described["id"] == "vegas"
    assert {b["button"] for b in described["buttons"]} == {"A", "B", "C", "D"}


def test_seats_are_the_players():
    assert [s.name for s in SYSTEM.seats(start())] == NAMES


def test_prompts_walk_setup_the_tie_the_free_increase_and_the_leader():
    state = start()
    assert prompts(state) == [("Ann", "setup_tracks"), ("Bob", "setup_tracks"), ("Cy", "setup_tracks")]
    state = set_up()
    assert prompts(state) == [(None, "start_round")]
    assert press(state, "C") == {"type": "start_round"}
    state = act(state, {"type": "start_round"}).state
    assert prompts(state) == [(None, "choose_furthest_behind")]
    tie = "Ann, Bob and Cy tie for furthest behind: settle the tie, or pick at random with button B"
    assert SYSTEM.pending(state)[0].text == tie
    assert press(state, "C") is None and press(state, "A") is None
    assert press(state, "B") == {"type": "random_pick"}
    state = act(state, {"type": "choose_furthest_behind", "player": "Cy"}).state
    assert prompts(state) == [("Cy", "free_increase")]
    state = act(state, {"type": "free_increase", "track": "Bot"}).state
    assert prompts(state) == [("Cy", "play_card"), (None, "play_trick")]  # seat by seat, or the whole trick
    assert press(state, "D") == "undo" and press(state, "D", hold=True) == "redo"


def test_b_settles_the_tie_by_a_recorded_die_and_replay_picks_the_same():
    state = act(set_up(), {"type": "start_round"}).state
    step = act(state, press(state, "B"), rng=random.Random(1))
    (roll,) = step.rolls
    assert roll["label"] == "Random pick: who takes the free increase" and roll["expr"] == "1d3"
    chosen = NAMES[roll["rolls"][0] - 1]
    assert step.state["chosen"] == chosen and chosen in step.result["summary"]
    again = run_action(SYSTEM, state, {"type": "random_pick"}, replay=step.rolls)
    assert again.state == step.state
    typed = act(state, {"type": "random_pick"}, faces=[2])
    assert typed.state["chosen"] == "Bob"


def _round_one(leader="Ann", track="Game"):
    state = act(set_up(), {"type": "start_round"}).state
    return act(state, {"type": "free_increase", "track": track, "player": leader}).state


def test_a_game_steal_picks_whom_and_which_card_through_the_dice():
    state = _round_one("Ann")
    state = act(state, {"type": "correct", "key": "vp.0", "value": 3, "reason": "test"}).state
    state = act(
        state,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Team", "number": 13},
                {"player": "Bob", "suit": "Game", "number": 7},
                {"player": "Cy", "suit": "Team", "number": 2},
            ],
        },
    ).state
    step = act(state, {"type": "claim_bonus", "player": "Ann", "suit": "Game", "number": 7}, rng=random.Random(3))
    whom, which = step.rolls
    victim = ["Bob", "Cy"][whom["rolls"][0] - 1]
    assert (whom["label"], whom["expr"]) == ("Random pick: whom to steal from", "1d2")
    assert (which["label"], which["expr"]) == (f"Random pick: which of {victim}'s 6 cards", "1d6")
    assert step.state["hand"] == {"Ann": 9, **{p: 6 - (p == victim) for p in ("Bob", "Cy")}}
    assert step.state["vp"]["Ann"] == 2
    assert f"steals card {which['rolls'][0]} of {victim}'s 6" in step.result["summary"]
    replayed = run_action(
        SYSTEM, state, {"type": "claim_bonus", "player": "Ann", "suit": "Game", "number": 7}, replay=step.rolls
    )
    assert replayed.state == step.state


def test_typed_in_picks_for_a_steal_use_a_d2_then_a_d6():
    state = _round_one("Ann")
    state = act(state, {"type": "correct", "key": "vp.0", "value": 3}).state
    state = act(state, {"type": "trick_winner", "winner": "Ann"}).state
    step = act(state, {"type": "claim_bonus", "player": "Ann", "suit": "Game", "number": 7}, faces=[2, 5])
    assert [(r["expr"], r["rolls"]) for r in step.rolls] == [("1d2", [2]), ("1d6", [5])]
    assert "steals card 5 of Cy's 6" in step.result["summary"]


def test_a_steal_named_by_hand_rolls_nothing():
    state = _round_one("Ann")
    state = act(state, {"type": "correct", "key": "vp.0", "value": 1}).state
    state = act(state, {"type": "trick_winner", "winner": "Ann"}).state
    step = act(state, {"type": "claim_bonus", "player": "Ann", "suit": "Game", "number": 6, "target": "Bob", "card": 3})
    assert step.rolls == [] and step.state["hand"]["Bob"] == 5


def test_buttons_a_closes_a_trick_and_c_starts_the_next_round_only_when_over():
    state = _round_one("Ann")
    state = act(state, {"type": "trick_winner", "winner": "Bob"}).state
    assert press(state, "A") == {"type": "next_trick"} and press(state, "C") is None
    state = act(state, press(state, "A")).state
    assert state["trick"] is None and state["leader"] == "Bob" and press(state, "A") is None


def test_a_vp_correction_goes_into_the_ledger_so_the_law_holds():
    state = _round_one()
    step = act(state, {"type": "correct", "key": "vp.1", "value": 4, "reason": "missed a Mobster 3"})
    assert step.state["vp"]["Bob"] == 4
    assert step.state["vp_log"][-1] == {
        "player": "Bob",
        "asked": 4,
        "applied": 4,
        "capped": False,
        "reason": "correction",
    }
    assert SYSTEM.laws(step.state) == []


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("boards.0.Team", 6, "at most 5, got 6"),
        ("tokens.1.Bot", -1, "at least 0, got -1"),
        ("vp.2", -1, "at least 0, got -1"),
        ("hand.0", -3, "at least 0, got -3"),
    ],
)
def test_corrections_out_of_range_are_refused(key, value, message):
    state = _round_one()
    with pytest.raises(RuleError, match=message):
        act(state, {"type": "correct", "key": key, "value": value})


def test_vp_may_be_corrected_below_zero_when_the_players_allow_it():
    state = set_up(vp_below_zero=True)
    step = act(state, {"type": "correct", "key": "vp.2", "value": -2})
    assert step.state["vp"]["Cy"] == -2 and SYSTEM.laws(step.state) == []


def test_laws_name_what_is_broken():
    state = _round_one()
    state["vp"]["Ann"] += 1
    state["tokens"]["Bob"]["Game"] = -1
    assert SYSTEM.laws(state) == [
        "Ann has 1 VP but the gains and losses add up to 0",
        "Bob holds -1 Game tokens; never below 0",
    ]


def test_actions_not_available_now_say_why():
    state = start()
    with pytest.raises(RuleError, match="waiting for the setup increases of Ann, Bob, Cy"):
        act(state, {"type": "start_round"})
    with pytest.raises(RuleError, match="only while tricks are played; now: Setup"):
        act(state, {"type": "trick_winner", "winner": "Ann"})
    with pytest.raises(RuleError, match="only in Reveal; now: Setup"):
        act(state, {"type": "reveal_card", "suit": "Team", "number": 3})


def test_field_errors_name_the_field():
    state = _round_one()
    with pytest.raises(RuleError, match="at most 13, got 14"):
        act(
            state,
            {
                "type": "play_trick",
                "cards": [
                    {"player": "Ann", "suit": "Team", "number": 14},
                    {"player": "Bob", "suit": "Team", "number": 1},
                ],
            },
        )
    with pytest.raises(RuleError, match="'Zed' is not one of Ann, Bob, Cy"):
        act(state, {"type": "trick_winner", "winner": "Zed"})
    with pytest.raises(BadRequest, match="unknown field"):
        act(state, {"type": "trick_winner", "winner": "Ann", "please": True})


def test_the_screen_shows_round_indicators_and_the_boards():
    state = _round_one("Ann")
    state = act(
        state,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Team", "number": 4, "token": "Game", "trump": "Mobster"},
                {"player": "Bob", "suit": "Team", "number": 9, "token": "Inspector"},
                {"player": "Cy", "suit": "Game", "number": 2},
            ],
        },
    ).state
    screen = SYSTEM.screen(state)
    figures = {e.label: e.value for e in screen.elements if isinstance(e, KeyFigure)}
    assert figures == {"Round": "1/4", "Trump": "Mobster", "Rank": "Low Wins"}
    grid = [e for e in screen.elements if isinstance(e, Grid)][0]  # the boards (then the tokens held, if any)
    assert grid.columns == ("VP", "Tm", "Gm", "Ins", "Bot", "Mob", "Inc", "Crd")
    assert [r.label for r in grid.rows] == NAMES
    assert grid.rows[0].cells[:3] == ("0", "2", "3")
    assert screen.prompt == "Ann: take or decline a trick bonus"
    assert screen.status == "Tricks · last trick Ann"
    assert [r.label for r in grid.rows if r.highlight] == ["Ann"]  # whom the table waits for
    texts = [e.text for e in screen.elements if e.kind == "text"]
    assert texts == ["Trick 1: Ann (Team 4, lowest of the led suit (Team))"]  # no Mobster played: led suit
    closed = SYSTEM.screen(act(state, {"type": "next_trick"}).state)
    assert closed.prompt == "Trick 2: Ann leads"  # said once, by the prompt: no "Ann leads" line under it
    assert not [e for e in closed.elements if e.kind == "text" and "leads" in e.text]
    assert json.dumps(screen.to_dict())
