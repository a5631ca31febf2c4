"""VENOM's prompts and the phone's buttons say the same words (#17): the button that answers a prompt
(``Prompt.label``, else the action's label) says words of the prompt's request, so "Ann: draw the Event
card" is answered by "Draw the Event card", not "Draw an Event card"; "roll the Combat Dice" by
"Roll the Combat Dice", not "Combat roll". Seen failing on the old code for both."""

from __future__ import annotations

import pytest
from tableside.core.systems.venom import SYSTEM

from tests.test_venom_helpers import act, attacking, new_game, started, to_phase


def _moments() -> dict[str, dict]:
    tied, _ = act(new_game(["Ann", "Bob", "Cy"]), {"type": "commander_roll_off"}, faces=[6, 6, 1])
    rolled, _ = act(attacking(health=3, defense=4, dice=5), {"type": "combat_roll"}, faces=[6, 6, 6, 1, 1])
    return {
        "roll-off": new_game(["Ann", "Bob", "Cy"]),
        "roll-off again": tied,
        "event": started(),
        "leader": to_phase(started(), "Tactical"),
        "allocate": attacking(health=3, defense=4, dice=0),
        "combat roll": attacking(health=3, defense=4, dice=5),
        "abort": attacking(health=3, defense=4, dice=2),
        "combat abilities": rolled,
    }


MOMENTS = _moments()


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_the_button_for_each_prompt_says_the_prompts_words(moment):
    prompts = SYSTEM.pending(MOMENTS[moment])
    assert prompts, moment
    for p in prompts:
        button = p.label or SYSTEM.actions[p.type].label
        request = p.text.split(": ", 1)[1] if p.seat else p.text  # "Ann: draw the Event card"
        assert button.lower() in request.lower(), (moment, p.text, button)


def test_the_words_are_the_table_view_s_too():
    prompt = SYSTEM.pending(MOMENTS["event"])[0].describe()
    assert prompt["text"] == "Ann: draw the Event card" and prompt["label"] == "Draw the Event card"
    combat = SYSTEM.pending(MOMENTS["combat roll"])[0].describe()
    assert combat["text"] == "Ann: roll the Combat Dice (5 dice)" and combat["label"] == "Roll the Combat Dice"
    abort = SYSTEM.pending(MOMENTS["abort"])[0].describe()
    assert abort["text"] == "Ann: record the aborted Combat (2 combat dice < Health 3)"
