"""Checks about who acts are availabilities that see the action (``available(state, seat, action)``), asked
by the core before the handler runs, not checks inside the handlers (#37)."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.screen import Screen
from tableside.core.system import ActionSpec, Field, GameSystem, Seat, run_action
from tableside.core.systems.v2140 import SYSTEM as V2140

from tests.test_v2140_campaign import act, scene, with_pools

ASKED: list = []


def _only_ann_may_bank(state, seat=None, action=None):
    ASKED.append(action)
    if action is not None and action["player"] != "Ann":
        return f"{action['player']} is not the banker"
    return None


def _bank(state, action, ctx):
    return {**state, "banked": state["banked"] + 1}, {"summary": f"{action['player']} banks"}


class Bank(GameSystem):
    id = "bank"
    name = "Bank"
    actions = {
        "bank": ActionSpec(
            "bank",
            "Bank",
            "Bank a chip.",
            _bank,
            (Field("player", "pick", required=False, default="", choices=lambda state: ["Ann", "Bob"]),),
            available=_only_ann_may_bank,
            seat_field="player",
        )
    }

    def initial_state(self, options):
        return {"banked": 0}

    def seats(self, state):
        return [Seat("Ann"), Seat("Bob")]

    def screen(self, state, roll=None):
        return Screen("Bank")


def test_an_availability_that_takes_the_action_gets_it_checked_with_the_seat_filled_in():
    ASKED.clear()
    bank = Bank()
    state = bank.start({})
    assert run_action(bank, state, {"type": "bank"}, seat="Ann").state == {"banked": 1}
    assert ASKED == [None, {"type": "bank", "player": "Ann"}]  # the type first, then the action as it will run
    with pytest.raises(RuleError, match="^Bank: Bob is not the banker$"):
        run_action(bank, state, {"type": "bank"}, seat="Bob")
    described = bank.actions["bank"].describe(state, ["Ann", "Bob"], "Bob")
    assert described["available"] is True  # the phone's list asks about the type only: Bob's phone offers it


def test_a_stopped_participant_is_refused_by_the_actions_availability_not_its_handler():
    s = with_pools(scene(), Sven=[6, 5, 4], Shred=[6, 6], GM=[6, 6, 5])
    s["participants"]["GM"]["books"] = 3
    s, _ = act(
        s,
        {
            "type": "buy_goal",
            "participant": "GM",
            "guide": "knock out one person",
            "target": "Sven",
            "effect": "Knock Out",
        },
    )
    for kind, action in (
        ("prepare_pool", {"type": "prepare_pool", "participant": "Sven", "primary_skills": 1}),
        ("bid_initiative", {"type": "bid_initiative", "participant": "Sven", "dice": [5]}),
        ("put_forward", {"type": "put_forward", "actor": "Sven", "target": "GM", "dice": [5]}),
    ):
        spec = V2140.actions[kind]
        assert spec.reason(s, None) is None or kind != "prepare_pool"  # Shred may still draw dice
        said = spec.reason(with_pools(s, Sven=[5]), None, V2140.validate_action(action, with_pools(s, Sven=[5])))
        assert said is not None and said.startswith("Sven is stopped (Knock Out)"), (kind, said)
    assert (
        V2140.actions["prepare_pool"].reason(
            s, None, V2140.validate_action({"type": "prepare_pool", "participant": "Shred", "primary_skills": 1}, s)
        )
        is None
    )
