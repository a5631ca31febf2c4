"""The recap reads a roll as the rules count it (#34): a VENOM Combat by its successes against the Defense Track, a
VNM attack by the dice reaching the defense value, with the exact chance of that many hits or more, and each seat's
luck as its hits against the n*p expected. A log from before rolls said their hit chance reads by totals, as before.

Every expected figure here is counted by brute force over every way the dice can fall, not with core.odds."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from tableside.core.recap import recap, recap_text
from tableside.core.recorder import Dice
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.core.systems.vnm import SYSTEM as VNM

from tests.dicehelp import play_step
from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, acted, api_client
from tests.rulebook_quotes import quoted
from tests.test_venom_defense_above_six import ABILITY, _defense_8
from tests.test_vnm_support import enhanced_game, play_to

BASIC_8 = quoted("vnm", "If either die is an 8 or higher, the target is destroyed")


def _tail(n: int, sides: int, reaches: int, hits: int) -> Fraction:
    """The chance of ``hits`` or more of ``n`` dice showing ``reaches`` or more, by counting every way they fall."""
    ways = itertools.product(range(1, sides + 1), repeat=n)
    return Fraction(sum(1 for w in ways if sum(f >= reaches for f in w) >= hits), sides**n)


def _played(client, system: str) -> dict:
    options, actions = SCENARIOS[system]
    client.post("/api/sessions", json={"system": system, "options": options}, headers=AUTH)
    for action in [*actions, *ENDINGS[system]]:
        acted(client, action)
    return client.get("/api/sessions/active/recap", headers=AUTH).get_json()


def _scenario_roll(system: str, kind: str) -> dict:
    return next(a for a in SCENARIOS[system][1] if a["type"] == kind)


def test_a_venom_combat_reads_by_its_successes_against_the_defense(tmp_path):
    faces = _scenario_roll("venom", "combat_roll")["faces"]  # 4,6,4,2,1
    defense = _scenario_roll("venom", "choose_leader")["defense"]  # 4
    hits = sum(f >= defense for f in faces)
    want = _tail(len(faces), 6, defense, hits)
    with api_client(tmp_path, 1) as client:
        told = _played(client, "venom")
    combat = next(r for r in told["biggest_rolls"] if r["label"] == "Combat")
    assert combat["hits"] == hits == 3 and "total" not in combat
    assert combat["odds"] == f"{want.numerator}/{want.denominator}" and combat["hit_chance"] == "1/2"
    assert f"Ann Combat 5d6 4,6,4,2,1: 3 hits ({float(want) * 100:g}% to roll this many or more)" in told["text"]
    assert "= 17" not in told["text"]  # the sum the game never counts
    p = Fraction(6 - defense + 1, 6)
    z = (hits - len(faces) * p) / math.sqrt(len(faces) * p * (1 - p))
    (ann,) = told["luck"]
    assert (ann["dice"], ann["z"], ann["hits"], ann["expected_hits"]) == (5, round(float(z), 2), 3, 2.5)
    assert "Ann too few dice to tell (5 dice; 3 hits, 2.5 expected)" in told["text"]


def test_a_vnm_attack_reads_by_the_dice_reaching_eight(tmp_path):
    assert BASIC_8
    faces = _scenario_roll("vnm", "attack")["faces"]  # 9,3
    want = _tail(2, 10, 8, 1)
    with api_client(tmp_path, 1) as client:
        told = _played(client, "vnm")
    (attack,) = told["biggest_rolls"]
    assert attack["faces"] == faces and attack["hits"] == 1 and attack["hit_chance"] == "3/10"
    assert attack["odds"] == f"{want.numerator}/{want.denominator}" == "51/100"
    assert "Ann (Venus) Venus vs Pluto 2d10 9,3: 1 hit (51% to roll this many or more)" in told["text"]
    z = (1 - 2 * 0.3) / math.sqrt(2 * 0.3 * 0.7)
    assert told["luck"][0]["z"] == round(z, 2) and told["luck"][0]["expected_hits"] == 0.6


def test_an_old_log_without_hit_chances_reads_by_totals_as_before(tmp_path):
    with api_client(tmp_path, 1) as client:
        _played(client, "venom")
        store = client.application.extensions["tableside"].table.store
        rows = store.execute("SELECT seq, rolls FROM log WHERE rolls LIKE '%hit_chance%'").fetchall()
        assert rows
        for seq, rolls in rows:  # the log as it was written before rolls said their hit chance
            old = [{k: v for k, v in r.items() if k != "hit_chance"} for r in json.loads(rolls)]
            store.execute("UPDATE log SET rolls = ? WHERE seq = ?", [json.dumps(old), seq])
        told = client.get("/api/sessions/active/recap", headers=AUTH).get_json()
        stats = client.get("/api/stats", headers=AUTH).get_json()
    combat = next(r for r in told["biggest_rolls"] if r["label"] == "Combat")
    assert combat["total"] == 17 and combat["odds"] == "389/648" and "hits" not in combat
    assert "Ann Combat 5d6 4,6,4,2,1 = 17 (60% to roll this or more)" in told["text"]
    z = sum((f - 3.5) / math.sqrt(35 / 12) for f in (4, 6, 4, 2, 1)) / math.sqrt(5)
    assert told["luck"] == [{"name": "Ann", "dice": 5, "z": round(z, 2), "verdict": "too few dice to tell"}]
    (night,) = next(p for p in stats["players"] if p["name"] == "Ann")["luck"]
    assert night["dice"] == 5 and abs(night["z"] - z) < 0.006


def test_the_stats_page_counts_a_combat_s_hits_as_the_recap_does(tmp_path):
    with api_client(tmp_path, 1) as client:
        told = _played(client, "venom")
        stats = client.get("/api/stats", headers=AUTH).get_json()
    (night,) = next(p for p in stats["players"] if p["name"] == "Ann")["luck"]
    z = (3 - 5 * Fraction(1, 2)) / math.sqrt(5 * Fraction(1, 4))
    assert night["dice"] == 5 and abs(night["z"] - z) < 0.006 and told["luck"][0]["z"] == round(z, 2)


def test_each_rule_says_one_die_s_hit_chance_where_it_knows_it():
    venus_land = play_step(
        VNM, play_to(enhanced_game(), "Mars"), {"type": "attack", "target": "Venus", "area_type": "land", "faces": [6]}
    )
    assert venus_land.rolls[-1]["hit_chance"] == str(Fraction(sum(f >= 6 for f in range(1, 11)), 10))  # Defense 6
    research = play_step(
        VNM, play_to(enhanced_game(), "Mars"), {"type": "research", "upgrade": "yttrium alloys", "faces": [5]}
    )
    assert research.rolls[-1]["hit_chance"] == "3/5"  # 5+ on a d10 (the card's number)
    qray = play_step(VNM, play_to(enhanced_game(), "Venus"), {"type": "attack", "target": "Mars", "faces": [2]})
    assert qray.rolls[-1]["hit_chance"] == "2/5"  # the Q-Ray destroys on 1, 8, 9, 10
    teleport = play_step(VNM, qray.state, {"type": "follow_up_roll", "faces": [4, 9]})
    assert "hit_chance" not in teleport.rolls[-1]  # a teleport die hits nothing
    eight = play_step(VENOM, _defense_8(), {"type": "combat_roll", ABILITY: True, "faces": [6, 5, 2]})
    assert "hit_chance" not in eight.rolls[-1]  # no face reaches Defense 8: only Abilities make successes


def test_a_hit_chance_needs_marks_and_a_chance():
    dice = Dice(typed=[3, 4])
    dice.roll("Combat", "2d6", by="Ann")
    for marks, chance in (((), Fraction(1, 2)), (("hit", "miss"), Fraction(3, 2)), (("hit", "miss"), Fraction(-1))):
        with pytest.raises(ValueError, match="hit_chance"):
            dice.mark(marks, hit_chance=chance)
    dice.mark(["miss", "hit"], hit_chance=Fraction(2, 6))
    assert dice.finish()[0]["hit_chance"] == "1/3"


def test_a_die_certain_either_way_tells_no_luck():
    from tableside.core.recap import die_lucks

    sure = {"label": "Combat", "expr": "2d6", "rolls": [3, 1], "marks": ["hit", "hit"], "hit_chance": "1"}
    assert die_lucks(sure, 6, [3, 1]) == [None, None]
    told = recap([{"seq": 1, "rolls": [{**sure, "by": "Ann"}]}], None, None)
    assert told["luck"] == [] and told["biggest_rolls"][0]["hits"] == 2 and told["biggest_rolls"][0]["chance"] == "100%"
    odd = {**sure, "hit_chance": "x/0"}  # a damaged chance: read by its total, never a failed recap
    assert "= 4 (" in recap_text(recap([{"seq": 1, "rolls": [{**odd, "by": "Ann"}]}], None, None), "VENOM")
