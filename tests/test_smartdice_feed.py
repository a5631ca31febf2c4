"""Simulated smart dice fill the action the table waits for, die by die, through ``Table.act``.

Each game system's roll is filled by virtual dice rolled one at a time, then the session is
replayed from its log alone (no RNG: the conftest's replay check, and an explicit one here)
and the log names the die behind every face.
"""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.smartdice.registry import Registry
from tableside.device.smartdice.simulated import SimulatedDice

from tableside.dice_feed import DiceFeed
from tests import toysystem
from tests.test_venom_helpers import table_to_phase


class Rig:
    """A table, its dice feed and simulated dice wired as ``tableside serve`` wires them."""

    def __init__(self, tmp_path, kinds=("d10", "d10", "d10", "d6", "d6", "d6", "d6", "d6", "d6"), **table_kw):
        self.table = Table(Store(tmp_path / "t.db"), rng=random.Random(7), **table_kw)
        self.changes = 0
        self.now = 1000.0  # the feed's clock, moved by hand (the 2 s after a seat's roll was taken)
        self.feed = DiceFeed(self.table, on_change=self._changed, clock=lambda: self.now)
        self.hub = SimulatedDice(
            Registry(tmp_path / "dice.json"), kinds, rng=random.Random(3), on_roll=self.feed.landed
        )
        self.hub.scan()

    def _changed(self):
        self.changes += 1

    def pair_all(self, seat=None):
        for die in list(self.hub.dice.values()):
            self.hub.pair(die.id, name=f"{die.colour} {die.kind}", seat=seat)

    def ids(self, kind):
        return [d.id for d in self.hub.dice.values() if d.kind == kind]

    def roll(self, die_id, face):
        self.hub.roll(die_id, face)
        return self.feed.status()

    def replayed_equals_live(self):
        sid, _ = self.table.position()
        live = self.table.current_state()  # the whole state, private pools included
        assert json.dumps(self.table.replay(sid), sort_keys=True) == json.dumps(live, sort_keys=True)


def test_a_named_vnm_attack_waits_under_the_players_names(tmp_path):
    """The wait says who fights whom as every screen does; the dice still fill the roll the log names."""
    rig = Rig(tmp_path)
    rig.pair_all()
    names = [{"name": n, "home_worlds": [w]} for n, w in (("Ann", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto"))]
    rig.table.create_session("vnm", {"players": names})
    rig.table.act({"type": "declare_target", "target": "Mars"})
    status = rig.feed.wait({"type": "attack"})
    assert status["waiting"]["text"] == "Cy (Pluto) vs Bob (Mars): waiting for 2 d10"
    first, second, _third = rig.ids("d10")
    rig.roll(first, 7)
    rig.roll(second, 10)
    entry = rig.table.log()[-1]
    assert entry["rolls"][0]["label"] == "Pluto vs Mars" and entry["rolls"][0]["shown"] == "Cy (Pluto) vs Bob (Mars)"
    rig.replayed_equals_live()


def test_a_vnm_attack_is_filled_by_two_d10s_and_replays_from_the_log(tmp_path):
    rig = Rig(tmp_path)
    rig.pair_all()
    rig.table.create_session("vnm", {})
    rig.table.act({"type": "declare_target", "target": "Mars"})
    status = rig.feed.wait({"type": "attack"})  # the phone's needs_dice answer, handed to the dice
    assert status["waiting"]["text"] == "Pluto vs Mars: waiting for 2 d10"
    assert rig.feed.overlay()["title"] == "Pluto vs Mars: waiting for 2 d10"
    first, second, third = rig.ids("d10")
    version = rig.table.position()[1]
    rig.roll(first, 4)
    assert rig.feed.status()["waiting"]["left"] == 1 and rig.table.position()[1] == version  # nothing runs yet
    rig.roll(first, 7)  # the same die again: its face is replaced, still one to go
    assert [f["face"] for f in rig.feed.status()["waiting"]["faces"]] == [7]
    rig.roll(second, 10)
    assert rig.feed.status()["waiting"] is None
    entry = rig.table.log()[-1]
    assert entry["type"] == "attack" and entry["source"] == "dice"
    assert entry["rolls"][0]["rolls"] == [7, 10]
    assert entry["rolls"][0]["dice"] == ["red d10", "blue d10"]
    assert rig.table.view()["state"]["worlds"]["Mars"]["on_board"] == 1  # the 10 destroys one ship
    rig.replayed_equals_live()
    # The game's prompt now reads "Pluto: attack again (4 left) or end the turn". An anyone die landing
    # does not start that attack (the prompt is Pluto's): a free roll, said so.
    status = rig.roll(third, 2)
    assert status["waiting"] is None and status["free"][-1]["face"] == 2
    assert "the prompt is Pluto's and green d10 is anyone's, so it is a free roll" in status["message"]
    # Pluto's own die starts it, but not within 2 s of Pluto's last roll being taken.
    rig.hub.pair(third, name="Pluto d10", seat="Pluto")
    rig.now += 1.0
    status = rig.roll(third, 2)
    assert status["waiting"] is None and "1.0 s after its seat's last roll was taken" in status["message"]
    rig.now += 1.5
    waiting = rig.roll(third, 2)["waiting"]
    assert (waiting["origin"], waiting["seat"], waiting["left"]) == ("prompt", "Pluto", 1)
    assert rig.table.log()[-1]["type"] == "attack" and rig.table.position()[1] == version + 1


def test_a_venom_combat_roll_from_its_pending_prompt_with_six_d6(tmp_path):
    rig = Rig(tmp_path)
    rig.pair_all(seat="Ann")  # the prompt is Ann's: her dice start it
    table = rig.table
    table.create_session("venom", {"players": ["Ann", "Bob", "Cy"], "commander": "Ann"})
    table_to_phase(table, "Tactical")
    table.act(
        {"type": "choose_leader", "name": "Vipress", "zone": "VENOM Mountain Defense"}
        | {"health": 3, "defense": 4, "support": 2}
    )
    table.act({"type": "allocate_dice", "combat_value": 6})
    assert any(p["type"] == "combat_roll" for p in table.actions()["pending"])
    d6s, d10 = rig.ids("d6"), rig.ids("d10")[0]
    rig.roll(d10, 5)  # a d10 for a d6 roll: refused in words, nothing taken
    status = rig.feed.status()
    assert "is a d10: Combat" in status["message"] and "needs d6s" in status["message"]
    assert status["waiting"]["faces"] == [] and status["waiting"]["text"].endswith("waiting for 6 d6")
    for die_id, face in zip(d6s, [6, 4, 4, 2, 1, 5], strict=True):
        rig.roll(die_id, face)
    entry = table.log()[-1]
    assert entry["type"] == "combat_roll" and entry["source"] == "dice"
    assert entry["rolls"][0]["rolls"] == [6, 4, 4, 2, 1, 5]
    assert len(entry["rolls"][0]["dice"]) == 6 and entry["rolls"][0]["dice"][0] == "black d6"
    assert entry["result"]["successes"] == 4
    rig.replayed_equals_live()


def test_a_venus_2140_pool_of_ten_from_six_dice_with_its_roll_ins(tmp_path):
    rig = Rig(tmp_path)
    rig.pair_all()
    table = rig.table
    table.create_session("v2140", {"players": ["Shred"], "gm": "GM"})
    table.act(
        {"type": "prepare_pool", "primary_skills": 3, "secondary_skills": 3, "secondary_assist_quality": 4},
        seat="Shred",
    )
    status = rig.feed.wait({"type": "roll_pool"}, seat="Shred")
    w = status["waiting"]
    assert w["needed"] == 10 and w["seat"] == "Shred"
    d6s = rig.ids("d6")
    for die_id, face in zip(d6s, [6, 6, 5, 5, 4, 3], strict=True):
        rig.roll(die_id, face)
    assert rig.feed.status("Shred")["waiting"]["left"] == 4  # a pool of ten; its sixes' roll-ins come after
    public = rig.feed.status()  # the pool is Shred's private dice: other phones and the e-paper see a count
    assert public["waiting"]["faces"] == [] and public["waiting"]["landed"] == 6 and "3" not in public["message"]
    assert rig.feed.overlay()["lines"][1] == "Landed: 6 of 10 (private to Shred)"
    assert [f["face"] for f in rig.feed.status("Shred")["waiting"]["faces"]] == [6, 6, 5, 5, 4, 3]
    rig.feed.keep()  # the six dice roll again for the rest
    for die_id, face in zip(d6s[:4], [5, 3, 2, 2], strict=True):
        rig.roll(die_id, face)
    w = rig.feed.status("Shred")["waiting"]  # the rules then roll in one die for each six, as a roll of its own
    assert (w["label"], w["expr"], w["earlier"][0]["face"]) == ("Shred scene pool roll-in 1", "2d6", 6)
    rig.roll(d6s[0], 5)
    rig.roll(d6s[0], 4)  # rolled again before the roll was complete: replaces its 5
    rig.roll(d6s[1], 5)
    w = rig.feed.status()["waiting"]
    assert w is None, rig.feed.status()
    entry = table.log(seat="Shred")[-1]
    assert entry["type"] == "roll_pool" and entry["source"] == "dice" and entry["seat"] == "Shred"
    faces = [f for r in entry["rolls"] for f in r["rolls"]]
    names = [n for r in entry["rolls"] for n in r["dice"]]
    assert faces == [6, 6, 5, 5, 4, 3, 5, 3, 2, 2, 4, 5] and len(names) == len(faces)
    assert table.view("Shred")["state"]["participants"]["Shred"]["pool"][:2] == [6, 6]
    rig.replayed_equals_live()


def test_a_die_assigned_to_another_seat_is_refused_in_words(tmp_path):
    rig = Rig(tmp_path, kinds=("d6",), systems=toysystem.get)
    rig.table.create_session("toy")
    die = rig.ids("d6")[0]
    rig.hub.pair(die, name="Bob's die", seat="Bob")
    rig.feed.wait({"type": "chain"}, seat="Ann")
    rig.roll(die, 3)
    assert rig.feed.status()["message"] == "Bob's die is Bob's die: How many is Ann's roll, so it was not used"


def test_a_roll_that_depends_on_an_earlier_one_asks_for_each_in_turn(tmp_path):
    rig = Rig(tmp_path, kinds=("d6", "d6", "d6"), systems=toysystem.get)
    rig.pair_all()
    rig.table.create_session("toy")
    rig.feed.wait({"type": "chain"})
    a, b, c = rig.ids("d6")
    rig.roll(a, 2)  # "How many": 1d6 -> then 2d6
    assert rig.feed.status()["waiting"]["label"] == "Then"
    assert rig.feed.status()["waiting"]["earlier"] == [{"die": a, "name": "red d6", "face": 2}]
    rig.roll(b, 6)
    rig.roll(c, 1)
    entry = rig.table.log()[-1]
    assert [r["rolls"] for r in entry["rolls"]] == [[2], [6, 1]]
    assert [r["dice"] for r in entry["rolls"]] == [["red d6"], ["blue d6", "green d6"]]


def test_nothing_waiting_offers_a_free_roll_that_can_be_logged(tmp_path):
    rig = Rig(tmp_path, kinds=("d6", "d6"), systems=toysystem.get)
    rig.pair_all()
    rig.table.create_session("toy")
    a, b = rig.ids("d6")
    rig.roll(a, 3)
    rig.roll(b, 5)
    rig.roll(a, 4)  # rolled again: its face replaces the 3
    assert [f["face"] for f in rig.feed.status()["free"]] == [5, 4]
    result = rig.feed.log_free("Ann")
    assert result["rolls"] == [5, 4]
    entry = rig.table.log()[-1]
    assert entry["type"] == "roll" and entry["source"] == "dice" and entry["rolls"][0]["dice"] == ["blue d6", "red d6"]
    assert entry["seat"] == "Ann"  # the phone that logged it: the luck report counts it for that player
    with pytest.raises(RuleError, match="no free roll"):
        rig.feed.log_free()


def test_an_unpaired_die_is_not_used_and_asking_wrongly_changes_nothing(tmp_path):
    rig = Rig(tmp_path, kinds=("d6",), systems=toysystem.get)
    rig.table.create_session("toy")
    rig.feed.wait({"type": "chain"})
    die = rig.ids("d6")[0]
    with pytest.raises(RuleError, match="pair Sim d6 1 first"):
        rig.roll(die, 3)
    rig.hub.landed(die, 3)  # as a die in reach over Bluetooth would report it: nobody's die, not used
    assert rig.feed.status()["waiting"]["faces"] == []
    with pytest.raises(BadRequest):
        rig.feed.wait("attack")
    with pytest.raises(RuleError, match="needs no dice"):
        rig.feed.wait({"type": "add", "points": 1})


def test_a_wait_that_the_table_moved_past_is_dropped(tmp_path):
    rig = Rig(tmp_path, kinds=("d10", "d10"))
    rig.pair_all()
    rig.table.create_session("vnm", {})
    rig.table.act({"type": "declare_target", "target": "Mars"})
    rig.feed.wait({"type": "attack"})
    rig.table.undo()  # someone undid the target on a phone
    rig.roll(rig.ids("d10")[0], 9)
    status = rig.feed.status()
    assert status["waiting"] is None and status["message"].startswith("Stopped waiting for Pluto vs Mars")
    assert rig.table.log()[-1]["kind"] == "undo"


def test_pairing_survives_a_restart(tmp_path):
    rig = Rig(tmp_path, kinds=("d10", "d6"))
    d10 = rig.ids("d10")[0]
    rig.hub.pair(d10, name="Lucky", seat="Ann")
    again = SimulatedDice(Registry(tmp_path / "dice.json"), ("d10", "d6"))
    die = again.die(d10)
    assert (die.name, die.seat, die.paired, die.connection) == ("Lucky", "Ann", True, "connected")
    again.forget(d10)
    assert Registry(tmp_path / "dice.json").get(d10) is None
    rig.table.store.close()


def test_a_die_that_lands_while_the_buttons_ask_for_faces_finishes_that_roll(tmp_path):
    from tableside.device.buttons import Gesture
    from tableside.device.controls import Controls

    rig = Rig(tmp_path, kinds=("d6", "d6"), systems=toysystem.get)
    rig.pair_all()
    rig.table.create_session("toy")
    controls = Controls(rig.table, simulated=True, physical_dice=True, schedule=lambda delay, callback: None)
    rig.feed.from_buttons = controls.hand_to_dice
    controls.handle(Gesture("press", ("A",), 1.0))  # A: roll 2d6, and the buttons ask for the faces
    assert controls.overlay()["title"].startswith("Enter the dice")
    a, b = rig.ids("d6")
    rig.roll(a, 5)
    assert controls.overlay() is None and controls.entry is None  # the dice took over
    w = rig.feed.status()["waiting"]
    assert (w["origin"], w["left"]) == ("buttons", 1) and rig.feed.overlay()["title"] == w["text"]
    rig.roll(b, 2)
    entry = rig.table.log()[-1]
    assert (entry["type"], entry["source"], entry["rolls"][0]["rolls"]) == ("roll_d6", "dice", [5, 2])
    assert controls.hand_to_dice() is None
