"""The button map and what the e-paper shows (the core's screen model)."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.errors import RuleError
from tableside.core.screen import DiceGroup, Grid, KeyFigure, Text, Track
from tableside.core.store import Store
from tableside.core.systems.venom import SYSTEM
from tableside.core.table import Table

from tests.test_venom_helpers import act, attacking, new_game, started, to_phase


def _press(state, button, hold=False):
    binding = SYSTEM.binding(button, hold, state)
    assert binding is not None
    return binding.action if isinstance(binding.action, str) else binding.action(state)


def _by_label(screen):
    return {getattr(e, "label", None) or getattr(e, "title", None) or e.text: e for e in screen.elements}


def test_button_map_keeps_its_meaning_in_every_state():
    for state in (new_game(), started(), attacking(health=3, defense=4, dice=5)):
        assert _press(state, "A") == {"type": "combat_roll"}
        assert _press(state, "C") == {"type": "next_phase"}
        assert _press(state, "D") == "undo"
        assert _press(state, "D", hold=True) == "redo"
    assert _press(new_game(), "B") == {"type": "commander_roll_off"}
    assert _press(started(), "B") == {"type": "single_die"}


def test_buttons_list_the_pending_step_first_with_b_labelled_for_the_phase():
    setup = SYSTEM.buttons(new_game())
    assert [(b.button, b.label) for b in setup][0] == ("B", "Roll off for the Commander")
    fight = SYSTEM.buttons(attacking(health=3, defense=4, dice=5))
    assert [b.button for b in fight][:1] == ["A"]
    recruiting = SYSTEM.buttons(to_phase(started(), "Recruitment"))
    assert recruiting[0].button == "C"
    assert {(b.button, b.hold) for b in recruiting} == {
        ("A", False),
        ("B", False),
        ("C", False),
        ("D", False),
        ("D", True),
    }
    assert "Roll one die" in [b.label for b in recruiting]


def test_button_a_rolls_the_current_dice():
    state = attacking(health=3, defense=4, dice=5)
    state, result = act(state, _press(state, "A"), faces=[4, 6, 4, 2, 1])
    assert result["verdict"] == "captured"


def test_button_a_without_a_leader_gets_a_clear_refusal():
    state = to_phase(started(), "Recruitment")
    with pytest.raises(RuleError, match=r"^Combat roll: only in the Tactical or Combat Phase \(now: Recruitment"):
        act(state, _press(state, "A"))


def _table(tmp_path, **options):
    table = Table(Store(tmp_path / "venom.db"), rng=random.Random(0))
    table.create_session("venom", {"players": ["Ann", "Bob", "Cy"], **options})
    return table


def _dice(table):
    return [e for e in table.screen().elements if isinstance(e, DiceGroup)]


def test_button_b_single_die_is_logged_and_shown_in_its_turn_only(tmp_path):
    table = _table(tmp_path, commander="Ann")
    done = table.press("B", faces=[5])
    assert done["result"]["face"] == 5
    (record,) = table.log()[-1]["rolls"]
    assert (record["label"], record["expr"], record["rolls"], record["belongs_to"]) == ("1 die", "1d6", [5], 1)
    assert "last_roll" not in table.view()["state"]  # the roll is the log's, not the game state's
    (dice,) = _dice(table)
    assert [d.face for d in dice.dice] == [5] and dice.verdict == "rolled 5"
    table.act({"type": "draw_event", "kind": "all_is_quiet"})
    while table.view()["state"]["phase"] != "End of Turn":
        table.act({"type": "next_phase"})
    assert _dice(table)  # still Ann's Turn
    table.act({"type": "next_phase"})  # Bob's Turn: Ann's die is not his
    assert table.view()["state"]["turn"] == 2 and not _dice(table) and table.view()["roll"] is None
    table.undo()
    assert [d.face for d in _dice(table)[0].dice] == [5]  # back in Ann's Turn, her die is back


def test_the_roll_off_marks_the_highest_die(tmp_path):
    table = _table(tmp_path)
    table.act({"type": "commander_roll_off", "faces": [6, 2, 6]})
    assert table.log()[-1]["rolls"][0]["marks"] == ["kept", "", "kept"]
    (dice,) = _dice(table)
    assert [(d.face, d.mark) for d in dice.dice] == [(6, "kept"), (2, ""), (6, "kept")]
    # Said as the rulebook's roll-off, who rolled what, never as a sum of the dice ("total 14").
    assert (dice.label, dice.verdict) == ("Roll-off: Ann 6, Bob 2, Cy 6", "Ann and Cy tie: roll again")
    table.act({"type": "commander_roll_off", "faces": [3, 5]})
    (dice,) = _dice(table)
    assert (dice.label, dice.verdict) == ("Roll-off: Ann 3, Cy 5", "Cy is Commander")
    assert table.view()["pending"][0]["text"] == "Cy: draw the Event card"  # the Commander goes first


def test_screen_during_combat_shows_leader_tracks_and_capture_chance_first():
    state = attacking(health=3, defense=4, dice=5)
    screen = SYSTEM.screen(state)
    assert screen.status == "R1 Ann: Tactical · Bob next"
    assert screen.prompt == "Ann: roll the Combat Dice (5 dice)"
    shown = _by_label(screen)
    # Each names the number a phone's tap on it corrects (#36: fixed where it is shown).
    assert shown["Health"] == Track("Health", 3, 1, 8, "scale", priority=1, fix="health_track")
    assert shown["Defense"] == Track("Defense", 4, 1, 8, "scale", priority=1, fix="defense_track")
    assert shown["Capture"] == KeyFigure("Capture", "50%", unit=" (5 dice)", priority=1, tone="accent")
    assert shown["Event Track"].style == "boxes" and shown["Event Track"].maximum == 5
    assert shown["VENOM Strikes! next"].value == "10/36"  # an All Is Quiet drawn: 10 of 36 left
    small = {getattr(e, "label", getattr(e, "text", "")) for e in screen.by_priority(1).elements}
    assert small == {"VP Ann 0 · Bob 0 · Cy 0", "Capture", "Health", "Defense"}  # the scores, whatever the panel
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    (dice,) = [e for e in SYSTEM.screen(state).elements if isinstance(e, DiceGroup)]
    assert [(d.face, d.mark) for d in dice.dice] == [(4, "hit"), (6, "hit"), (4, "hit"), (2, "miss"), (1, "miss")]
    assert dice.verdict == "3/3 hits: CAPTURED"
    assert _by_label(SYSTEM.screen(state))["Capture"].value == "CAPTURED"
    json.dumps(SYSTEM.screen(state).to_dict())


def test_screen_shows_players_commander_and_vp():
    state = attacking(health=3, defense=4, dice=5, support=2)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    grid = _by_label(SYSTEM.screen(state))["Players"]
    assert isinstance(grid, Grid) and grid.columns == ("VP", "Leaders", "Rewards")
    assert [(r.label, r.cells, r.highlight) for r in grid.rows] == [
        ("Ann (Cmdr)", ("2", "1", "0"), True),
        ("Bob", ("0", "0", "0"), False),
        ("Cy", ("0", "0", "0"), False),
    ]


def test_without_a_leader_the_event_track_and_venom_strikes_chance_come_first():
    small = SYSTEM.screen(started(["A", "B", "C", "D"])).by_priority(1)
    assert {getattr(e, "label", getattr(e, "title", "")) for e in small.elements} == {
        "Event Track",
        "VENOM Strikes! next",
        "Players",  # the scores, one line on a pHAT
    }
    assert _by_label(small)["VENOM Strikes! next"].value == "10/28"


def test_screen_warns_before_an_aborting_roll():
    screen = SYSTEM.screen(attacking(health=4, defense=4, dice=3))
    assert screen.alert == "Would abort: 3 combat dice < Health 4"
    assert _by_label(screen)["Capture"].value == "abort"


def test_screen_reminds_the_commander_to_draw_and_shows_setup():
    assert SYSTEM.screen(started()).prompt == "Ann: draw the Event card"
    assert SYSTEM.screen(started()).alert is None  # said once, by the prompt, not again in the alert band
    assert SYSTEM.screen(new_game()).status == "Setup: roll-off for Commander (B)"


def test_screen_at_game_over_shows_the_medal():
    state, _ = act(started(), {"type": "record_capture", "name": "V", "support": 2, "player": "Cy"})
    state, _ = act(state, {"type": "game_over", "winner": "freedom_squadron"})
    screen = SYSTEM.screen(state)
    assert screen.alert == "Medal of Honor: Cy" and screen.prompt is None
    rows = {r.label: r for r in _by_label(screen)["Players"].rows}
    assert rows["Cy Medal"].cells == ("2", "1", "0") and rows["Cy Medal"].highlight


def test_active_events_are_listed_by_name():
    state, _ = act(started(), {"type": "draw_event", "kind": "venom", "name": "Pull Down the Heavens"})
    texts = [e.text for e in SYSTEM.screen(state).elements if isinstance(e, Text)]
    assert "Active Events: Pull Down the Heavens · 36 cards in the Event deck" in texts


def test_the_temporary_renderer_draws_it_on_the_smallest_panel():
    from tableside.display.panels import PANELS
    from tableside.display.render import render

    state = attacking(health=3, defense=4, dice=5)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    small = min(PANELS.values(), key=lambda p: p.width * p.height)
    image = render(SYSTEM.screen(state).by_priority(1), small)
    assert image.size == (small.width, small.height) == (212, 104)
    low, high = image.convert("L").getextrema()
    assert low < high  # something was drawn


def test_describe_is_json():
    described = SYSTEM.describe()
    json.dumps(described)
    assert described["id"] == "venom" and described["rules_version"] == 2
    assert {a["type"] for a in described["actions"]} == {*SYSTEM.actions, "correct", "roll", "clock"}


def test_health_and_defense_tracks_are_shown_only_once_a_leader_is_chosen():
    for state in (new_game(), started(), to_phase(started(), "Tactical")):
        shown = _by_label(SYSTEM.screen(state))
        assert "Health" not in shown and "Defense" not in shown
        assert shown["Event Track"].priority == 1
    shown = _by_label(SYSTEM.screen(attacking(health=3, defense=4, dice=5)))
    assert shown["Health"].value == 3 and shown["Defense"].value == 4


def test_one_die_before_the_first_turn_is_the_table_s_roll_not_a_fault(tmp_path):
    """Before the Commander roll-off there is no turn: "roll one die" is still a roll the table can
    make (the phone's "Roll one die"), owned by the table, not refused as a fault of the system."""
    table = _table(tmp_path)
    assert table.view()["state"]["active_player"] is None
    done = table.act({"type": "single_die", "faces": [3]})
    assert done["result"]["face"] == 3
    (record,) = table.log()[-1]["rolls"]
    assert record["rolls"] == [3] and record["by"] == ""
