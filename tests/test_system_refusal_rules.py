"""Which rulebook passage a refusal the core makes for an action rests on (the phone's "Rule" button, #35):
not available now is the action's passage (``rulerefs.ACTIONS``), a field's value out of its choices is the
passage the field rests on (``rulerefs.FIELDS``), and a refusal a system words itself keeps its own (or
none, for ``rulerefs.DEFAULTS`` to give from where it was raised). Read on Venus Needs Men's own refusals."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.system import run_action
from tableside.core.systems.vnm import SYSTEM

from tests.test_vnm_support import new_game


def refusal(state, raw):
    with pytest.raises(RuleError) as refused:
        run_action(SYSTEM, state, raw)
    return refused.value


def test_an_action_not_available_now_rests_on_the_actions_passage():
    # Pluto starts with all 5 spaceships on the board: a build is not available
    refused = refusal(new_game(), {"type": "build", "where": "Pluto"})
    assert str(refused).startswith("Build spaceships: all 5 of Pluto's spaceships are on the board")
    assert refused.rule == "vnm:one_action"


def test_a_fields_value_out_of_its_choices_rests_on_the_fields_passage():
    refused = refusal(new_game(), {"type": "collect", "count": 1, "area": "Atlantis"})
    assert str(refused).startswith("Collect population: Land area: 'Atlantis' is not one of China")
    assert refused.rule == "vnm:collect" and refused.raised_in == "tableside.core.fields:check"


def test_a_refusal_the_system_words_itself_keeps_no_key_of_the_cores():
    refused = refusal(new_game(), {"type": "attack"})
    assert str(refused) == "Attack: declare a target first: which enemy fleet's spaceship do you attack?"
    assert refused.rule is None and refused.raised_in.startswith("tableside.core.systems.vnm")


def test_who_acts_checked_on_the_action_itself_rests_on_the_actions_passage_too():
    """Venus 2140's put_forward asks whether the one who acts may act at all once the action is known (a
    Knocked Out participant spends books only): that refusal is the exchange's passage, as "not now" is."""
    from tableside.core.systems.v2140 import SYSTEM as V2140

    from tests.test_v2140_campaign import act, scene, with_pools

    s = with_pools(scene(), Sven=[6, 5, 4], Shred=[6, 6], GM=[6, 6, 5])
    s["participants"]["GM"]["books"] = 3
    guide = {"guide": "knock out one person", "target": "Sven", "effect": "Knock Out"}
    s, _ = act(s, {"type": "buy_goal", "participant": "GM", **guide})
    with pytest.raises(RuleError) as refused:
        run_action(
            V2140, with_pools(s, Sven=[5]), {"type": "put_forward", "actor": "Sven", "target": "GM", "dice": [5]}
        )
    assert "only spending books is left" in str(refused.value) and refused.value.rule == "v2140:exchange"
