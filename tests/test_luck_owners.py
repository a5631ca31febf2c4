"""Whose dice the luck report counts (#17, one identity per player): each die is its player's, named
and coloured as the board draws them, whichever phone or button sent the roll.

A VNM attack is the attacker's dice ("roll two dice for each attack"), even when a table phone rolls
it; a VENOM combat roll is the dice of the player whose turn it is, and a roll-off gives each die to
its contender; a Venus 2140 Fly-Dice roll is the attacker's dice and the defender's; a Vegas random
pick is no player's. A Venus 2140 pool rolled privately is never counted in the shared report, so its
luck tells no other seat anything of its faces.
"""

from __future__ import annotations

import pytest
from tableside.core.screen import PLAYER_INKS
from tableside.core.systems.v2140 import SYSTEM as V2140
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.webui.history import luck_report

from tests.dicehelp import play_step
from tests.httpapi import AUTH, acted, new_table, phone, seated
from tests.test_venom_helpers import attacking, new_game

VNM_PLAYERS = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Mars"]},
    {"name": "Cy", "home_worlds": ["Pluto"]},
]


@pytest.fixture
def table(tmp_path):
    with new_table(tmp_path, 17) as table:
        yield table


def _entry(step, seat=None) -> dict:
    """A log entry as the table writes it for ``step`` (the rolls as recorded)."""
    return {"kind": "action", "seat": seat, "action": step.action, "rolls": step.rolls}


def test_a_vnm_attack_from_a_table_phone_is_the_attackers_dice_named_and_coloured_as_on_the_board(table):
    """Seen failing on the old code: the attack's dice were "The table"'s (no seat sent them)."""
    client = phone(table)
    r = client.post("/api/sessions", json={"system": "vnm", "options": {"players": VNM_PLAYERS}}, headers=AUTH)
    assert r.status_code == 201, r.get_json()  # Cy (Pluto) plays first
    acted(client, {"type": "declare_target", "target": "Venus", "area_type": "land"})
    acted(client, {"type": "attack", "faces": [9, 3]})  # a table phone (no seat) rolls Cy's attack
    ann = seated(client, "Ann")
    assert client.post("/api/rolls", json={"expr": "3d6"}, headers=ann).status_code == 200  # Ann's own free roll

    luck = client.get("/api/panel/luck", headers=AUTH).get_json()
    by = {p["name"]: p for p in luck["players"]}
    assert set(by) == {"Cy (Pluto)", "Ann (Venus)"}, luck
    assert by["Cy (Pluto)"]["dice"] == 2 and by["Ann (Venus)"]["dice"] == 3
    assert (by["Cy (Pluto)"]["seat"], by["Ann (Venus)"]["seat"]) == ("Cy", "Ann")
    # the board's colours: the rulebook's Setup table, "Venus Purple, ... Pluto Black"
    assert PLAYER_INKS[by["Cy (Pluto)"]["colour"]] == "black" and PLAYER_INKS[by["Ann (Venus)"]["colour"]] == "purple"
    view = client.get("/api/sessions/active", headers=AUTH).get_json()
    bars = [b for e in view["screen"]["elements"] for b in e.get("bars") or []]
    on_board = {b["label"]: b["colour"] for b in bars}
    assert (
        on_board["Cy (Pluto)"] == by["Cy (Pluto)"]["colour"] and on_board["Ann (Venus)"] == by["Ann (Venus)"]["colour"]
    )


def test_venom_combat_dice_are_the_turns_player_and_a_roll_off_gives_each_die_to_its_contender():
    """Seen failing on the old code: every die went to the seat that sent the roll, or "The table"."""
    roll_off = play_step(VENOM, new_game(["Ann", "Bob", "Cy"]), {"type": "commander_roll_off"}, [1, 6, 1])
    state = attacking(health=3, defense=4, dice=4, players=["Ann", "Bob", "Cy"], commander="Bob")
    combat = play_step(VENOM, state, {"type": "combat_roll"}, [6, 6, 6, 6], seat="Cy")  # Cy's phone rolls for Bob
    report = luck_report([_entry(roll_off), _entry(combat, seat="Cy")], VENOM, state)
    by = {p["name"]: p for p in report["players"]}
    assert {n: p["dice"] for n, p in by.items()} == {"Ann": 1, "Bob": 5, "Cy": 1}
    # the roll-off is read by faces; the combat roll by its hits, as the recap reads it (Defense 4: each die 1/2)
    assert by["Bob"]["average"] == "+71% against a fair die; 4 hits against 2.0 expected"
    assert by["Cy"]["average"] == "-71% against a fair die"
    assert [by[n]["colour"] for n in ("Ann", "Bob", "Cy")] == [0, 1, 2]  # seating order, as the Players rows


def test_venus_2140_fly_dice_are_the_attackers_and_the_defenders():
    s = V2140.start(V2140.validate_options({"players": ["James"], "gm": "GM"}))
    fly = {"type": "fly_dice", "attacker": "James", "defender": "GM", "attack_dice": 2, "defense_dice": 2}
    step = play_step(V2140, s, fly, [5, 4, 1, 2])  # no sixes: two dice each
    report = luck_report([_entry(step)], V2140, step.state)
    assert {p["name"]: p["dice"] for p in report["players"]} == {"James": 2, "GM": 2}


def test_a_random_pick_is_no_players_luck():
    entry = {
        "kind": "action",
        "seat": "Ann",
        "action": {"player": "Bob"},
        "rolls": [{"expr": "1d3", "rolls": [3], "by": ""}],
    }
    assert [p["name"] for p in luck_report([entry])["players"]] == ["The table"]


def test_a_private_pool_is_not_counted_for_anyone_in_the_shared_report(table):
    client = phone(table)
    r = client.post(
        "/api/sessions", json={"system": "v2140", "options": {"players": ["Shred"], "gm": "GM"}}, headers=AUTH
    )
    assert r.status_code == 201
    gm = seated(client, "GM")
    acted(client, {"type": "prepare_pool", "racks": 1}, gm)
    acted(client, {"type": "roll_pool", "participant": "GM"}, gm)
    own = client.get("/api/sessions/active/log", headers=gm).get_json()
    assert any(e["rolls"] for e in own)  # the GM's phone reads its faces...
    for headers in (AUTH, seated(phone(table), "Shred"), gm):  # ...no luck report counts them, not even the GM's
        luck = client.get("/api/panel/luck", headers=headers).get_json()
        assert luck["players"] == []
        # #17 F7: Sven's phone said "No dice rolled yet" after Shred rolled 5 private dice. The report says what is
        # true: dice were rolled, in private, and are not counted (how many is public: the log's summary says it).
        rolled = sum(len(r["rolls"]) for e in own for r in e["rolls"])
        assert luck["private_dice"] == rolled > 0
        said = f"Not counted: {rolled} dice rolled in private (a seat's private dice are its own)."
        assert luck["note"] == said, luck
