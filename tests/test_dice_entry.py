"""Physical dice entered with the buttons: A up, B down, C confirm, D cancel; the faces go through the rules.

The gestures go through the real Controls and a real Table (SQLite file); the last test drives the
whole path from MockFactory pins.
"""

from __future__ import annotations

import random

import pytest
from tableside.core.errors import BindingError, RuleError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import Gesture
from tableside.device.controls import Controls

from tests import toysystem
from tests.test_venom_helpers import table_to_phase


@pytest.fixture
def table(tmp_path):
    t = Table(Store(tmp_path / "t.db"), rng=random.Random(5), systems=toysystem.get)
    yield t
    t.store.close()


def controls(table, **kw):
    shown = []
    c = Controls(table, simulated=True, physical_dice=True, schedule=lambda delay, callback: None, **kw)
    c.on_change = lambda: shown.append(c.overlay())
    c.shown = shown
    return c


class Clock:
    t = 0.0


def press(c: Controls, *names: str):
    out = None
    for name in names:
        Clock.t += 0.5
        kind, button = ("hold", name[5:]) if name.startswith("hold ") else ("press", name)
        out = c.handle(Gesture(kind, (button,), Clock.t))
    return out


def test_a_roll_button_asks_for_each_die_and_the_rules_get_the_faces(table):
    table.create_session("toy")
    c = controls(table)
    asked = press(c, "A")  # Roll 2d6: with real dice, nothing is rolled; the e-paper asks
    assert "Enter the dice for Toy roll (2d6)" in asked["result"]["summary"]
    assert c.overlay()["title"] == "Enter the dice: Toy roll" and "Die 1 of 2:  > 1 <" in c.overlay()["lines"][1]
    assert table.view()["version"] == 0
    press(c, "A", "A")  # 3
    assert "> 3 <" in c.overlay()["lines"][1]
    press(c, "C", "B")  # die 1 = 3; die 2: down from 1 wraps to 6
    assert c.overlay()["lines"][1] == "Die 2 of 2:  > 6 <" and c.overlay()["lines"][2] == "Entered: 3"
    done = press(c, "C")
    assert done["state"]["score"] == 9 and c.overlay() is None and c.entry is None
    last = table.log()[-1]
    assert last["source"] == "button" and last["rolls"][0]["rolls"] == [3, 6]
    assert any(s and s["kind"] == "dice" for s in c.shown)  # the e-paper was given each step


def test_d_cancels_and_nothing_changes(table):
    table.create_session("toy")
    c = controls(table)
    press(c, "A", "A", "C")
    assert press(c, "D")["result"]["summary"] == "Dice entry cancelled: nothing changed"
    assert c.overlay() is None and table.view()["version"] == 0
    assert press(c, "B")["state"]["score"] == 1  # the buttons are back to the game's map


def test_an_action_that_rolls_no_dice_just_runs(table):
    table.create_session("toy")
    c = controls(table)
    assert press(c, "B")["state"]["score"] == 1 and c.entry is None


def test_a_count_that_depends_on_an_earlier_roll_then_a_pool_entered_per_face(table):
    table.create_session("toy")
    c = controls(table, overrides={"hold A": "chain"})
    press(c, "hold A")  # chain: 1d6, then that many d6
    press(c, "A", "A", "A", "A", "C")  # the first die shows 5
    lines = c.overlay()["lines"]
    assert c.overlay()["title"] == "Enter the dice: Then" and lines[0] == "5d6"
    assert lines[1] == "How many 6s?  > 0 <   (5 dice left)"
    press(c, "A", "A", "C")  # two 6s
    press(c, "C")  # no 5s
    press(c, "A", "C")  # one 4
    press(c, "A", "A", "A", "A")  # more 3s than dice are left: stops at 2
    assert "> 2 <" in c.overlay()["lines"][1]
    done = press(c, "C")  # two 3s: all five dice are in
    assert done["result"]["summary"] == "5 then [6, 6, 4, 3, 3]" and done["state"]["score"] == 27
    assert [r["rolls"] for r in table.log()[-1]["rolls"]] == [[5], [6, 6, 4, 3, 3]]


def test_the_dice_gesture_switches_between_rolled_and_physical_dice(table):
    table.create_session("toy")
    c = Controls(table, simulated=True, overrides={"hold C": "dice"}, schedule=lambda d, f: None)
    assert press(c, "A")["result"]["summary"].startswith("rolled")  # Tableside rolls
    assert press(c, "hold C")["result"]["physical_dice"] is True
    assert "Enter the dice" in press(c, "A")["result"]["summary"]
    press(c, "D")
    assert press(c, "hold C")["result"]["physical_dice"] is False


def test_venom_combat_successes_against_the_defense_track_from_real_dice(tmp_path):
    table = Table(Store(tmp_path / "v.db"), rng=random.Random(1))
    table.create_session("venom", {"players": ["Ann", "Bob", "Cy"], "commander": "Ann"})
    # walk to the Tactical Phase through the table, as the phone would
    table_to_phase(table, "Tactical")
    table.act(
        {
            "type": "choose_leader",
            "name": "Vipress",
            "zone": "VENOM Mountain Defense",
            "health": 3,
            "defense": 4,
            "support": 2,
        }
    )
    table.act({"type": "allocate_dice", "combat_value": 5})
    c = controls(table)
    press(c, "A")  # Combat roll: 5d6, entered as a count per face
    assert c.overlay()["lines"][0] == "5d6"
    press(c, "A", "C", "C", "A", "A", "C", "C", "A", "C")  # one 6, no 5, two 4s, no 3, one 2: the last die is a 1
    entry = table.log()[-1]
    assert entry["type"] == "combat_roll" and entry["rolls"][0]["rolls"] == [6, 4, 4, 2, 1]
    assert entry["result"]["successes"] == 3 and entry["result"]["verdict"] == "captured"


def test_a_binding_that_raises_is_a_binding_error_not_a_refusal(table, monkeypatch):
    table.create_session("toy")

    def broken(state):
        raise KeyError("score")

    system = toysystem.SYSTEM
    bindings = tuple(b if b.button != "C" else type(b)("C", False, "Broken", broken) for b in system.bindings)
    monkeypatch.setattr(type(system), "bindings", bindings)
    with pytest.raises(BindingError, match="button C .*KeyError") as caught:
        table.press("C")
    assert not isinstance(caught.value, RuleError) and caught.value.component == "binding"


def test_the_whole_path_from_mock_pins(table, monkeypatch):
    """MockFactory pins -> debouncing -> gesture queue -> Controls -> Table: the same code a real press runs."""
    from tableside.device.buttons import ButtonPanel

    from tests.test_buttons import clocked, edges, settle

    factory = clocked(monkeypatch)
    table.create_session("toy")
    c = controls(table)
    panel = ButtonPanel(c.handle, factory, ticker=False)
    try:
        for label in ("A", "A", "A", "C", "B", "C"):  # A asks; A A: 3; C; B wraps 1 -> 6; C
            edges(factory, panel, label, [(0, True), (40, False)])
            settle(factory, panel)
        assert [h["ok"] for h in panel.history] == [True] * 6
        assert table.view()["state"]["score"] == 9 and table.log()[-1]["rolls"][0]["rolls"] == [3, 6]
    finally:
        panel.close()
        factory.reset()
        factory.close()


def test_a_vnm_attack_from_real_d10s(tmp_path):
    table = Table(Store(tmp_path / "n.db"), rng=random.Random(1))
    table.create_session("vnm", {})
    table.act({"type": "declare_target", "target": "Mars"})
    c = controls(table)
    press(c, "A")  # Attack: 2d10, one die at a time
    assert c.overlay()["lines"][0] == "2d10"
    press(c, "B", "C")  # down from 1 wraps to 10 (the die's "0")
    press(c, "A", "A", "C")  # 3
    entry = table.log()[-1]
    assert entry["type"] == "attack" and entry["rolls"][0]["rolls"] == [10, 3]
    assert table.view()["state"]["worlds"]["Mars"]["on_board"] == 1  # a 10 destroys one of Mars's 2 ships


def test_an_exploding_pool_asks_for_the_dice_its_sixes_rolled_in():
    """A Venus 2140 pool (10d6x, 4+ succeeds): sixes roll in one more die each, entered after the pool."""
    from tableside.core.recorder import Dice
    from tableside.device.controls import DiceEntry

    entry = DiceEntry.start(Gesture("press", ("A",), 0.0), "Scene pool", "10d6xcs>=4", [])
    counts = {6: 2, 5: 1, 4: 2, 3: 0, 2: 3}  # and two 1s: ten dice, two of them sixes
    for face in (6, 5, 4, 3, 2):
        for _ in range(counts[face]):
            entry.step(+1)
        assert entry.confirm() is False  # the two sixes owe two more dice
    assert entry.remaining() == 2 and entry.face == 6 and "How many 6s?" in entry.lines()[1]
    assert "2 dice rolled in left" in entry.lines()[1]
    entry.step(+1)  # one of the two extra dice is a six again: it owes one more
    entry.confirm()
    entry.step(+1)
    entry.step(+1)  # never more than the dice left in this pass
    assert entry.value == 1
    assert entry.confirm() is False  # a 5; the pass is full, and the new six owes one die
    assert entry.remaining() == 1 and entry.face == 6
    for _ in range(5):
        done = entry.confirm()  # no 6, 5, 4, 3, 2: it is a 1
    assert done is True
    faces = entry.all_faces()
    assert faces == [6, 6, 5, 4, 4, 2, 2, 2, 1, 1, 6, 5, 1]
    result = Dice(typed=faces).roll("Scene pool", "10d6xcs>=4")  # the core takes exactly these faces
    assert result.rolls == faces and result.successes == sum(f >= 4 for f in faces)
