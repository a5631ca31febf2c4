"""One luck on every page (#37): the History tab reads a roll the rules count by hits by its hits against its chance,
as the recap and the Stats page do (``core.recap.die_lucks``), so the three give one verdict; a log from before rolls
said a chance is read by faces, as before."""

from __future__ import annotations

import math

from tableside.core import recap as recap_mod
from tableside.core.stats import Tally
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.webui.history import luck_report

from tests.dicehelp import play_step
from tests.test_venom_helpers import attacking


def _combats() -> tuple[list[dict], dict]:
    """Three VENOM Combat rolls of four 2s against Defense 2: every die a hit (lucky, 5/6 each), every face low."""
    state = attacking(health=3, defense=2, dice=4, players=["Ann", "Bob"], commander="Ann")
    entries = []
    for seq in range(1, 4):
        step = play_step(VENOM, state, {"type": "combat_roll"}, [2, 2, 2, 2], seat="Ann")
        entries.append({"seq": seq, "kind": "action", "seat": "Ann", "action": step.action, "rolls": step.rolls})
    return entries, state


def test_history_recap_and_stats_give_one_verdict_on_a_game_counted_by_hits():
    """Seen failing before: the History tab called Ann cursed (low faces) where the recap called her lucky."""
    entries, state = _combats()
    history = {p["name"]: p for p in luck_report(entries, VENOM, state)["players"]}
    told = {x["name"]: x for x in recap_mod.recap(entries, None, None)["luck"]}
    tally = Tally()
    tally.add(entries)
    dice, z = tally.luck["Ann"]
    assert history["Ann"]["dice"] == told["Ann"]["dice"] == dice == 12
    assert history["Ann"]["z"] == told["Ann"]["z"] == round(z / math.sqrt(dice), 2) > 1
    assert told["Ann"]["verdict"] == "lucky" and history["Ann"]["verdict"] == "Lucky"
    assert history["Ann"]["average"] == "12 hits against 10.0 expected"


def test_a_log_from_before_hit_chances_is_read_by_faces_as_before():
    entries, state = _combats()
    for e in entries:
        e["rolls"] = [{k: v for k, v in r.items() if k != "hit_chance"} for r in e["rolls"]]
    history = {p["name"]: p for p in luck_report(entries, VENOM, state)["players"]}
    assert history["Ann"]["verdict"].startswith("Cursed") and history["Ann"]["average"] == "-43% against a fair die"
    assert {x["name"]: x["verdict"] for x in recap_mod.recap(entries, None, None)["luck"]} == {"Ann": "cursed"}
