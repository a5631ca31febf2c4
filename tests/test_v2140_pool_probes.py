"""A Venus 2140 scene pool cannot be probed from another phone (#33).

Found from outside: a released seat's pool answered the table's probes ("Shred's scene pool does not hold
those dice: needs 1 more 6"), a fact per refusal. A pool's faces are its seat's until dice are put forward
face up (docs/rulebooks/v2140.txt; ``core.privacy``), so a phone that is not the pool's seat (the table's, a
phone with no seat, which may act for a seat no phone holds) is answered from what is public only: the count.
Dice it names that the pool does not hold are taken as seen on the table, in place of others. The test sends
every probe to two tables that differ only in the pools' faces and counts the facts another phone learns: 0.
"""

from __future__ import annotations

import copy
import itertools

from tableside.core.system import run_action
from tableside.core.systems.v2140 import SYSTEM

from tests import probehelp
from tests.test_v2140_scene import shred_and_jack

PHONES = (None, "Shred", "GM")


def tables() -> tuple[dict, dict]:
    """Shred's 7 dice and the GM's 2 as rolled, and the same counts with other faces."""
    a = shred_and_jack()
    b = copy.deepcopy(a)
    b["participants"]["Shred"]["pool"] = [5, 3, 3, 2, 2, 2, 1]
    b["participants"]["GM"]["pool"] = [2, 1]
    assert SYSTEM.redact(a, None) == SYSTEM.redact(b, None)
    return a, b


def answer(state: dict, raw: dict, phone: str | None) -> str:
    return probehelp.answer(SYSTEM, state, raw, phone)


def probes() -> list[dict]:
    """Dice named from each pool: put forward (1 or 2 dice, every face) and bid for initiative."""
    out = []
    for dice in [[f] for f in range(1, 7)] + [list(d) for d in itertools.combinations_with_replacement(range(1, 7), 2)]:
        for name, other in (("Shred", "GM"), ("GM", "Shred")):
            out.append({"type": "put_forward", "actor": name, "target": other, "dice": dice})
            out.append({"type": "bid_initiative", "participant": name, "dice": dice})
    return out


def facts_learned() -> tuple[list[tuple], int]:
    """(what another phone learned, probes sent): a probe whose answer differs between the two tables,
    sent by a phone that is not the pool's seat."""
    a, b = tables()
    learned, asked = [], 0
    for raw in probes():
        owner = raw.get("actor") or raw.get("participant")
        for phone in PHONES:
            if phone == owner:
                continue
            asked += 1
            said = answer(a, raw, phone)
            if said != answer(b, raw, phone):
                learned.append((raw, phone, said[:120]))
    return learned, asked


def test_no_phone_but_the_pool_s_own_learns_a_face_of_it():
    learned, asked = facts_learned()
    assert asked == len(probes()) * 2
    assert learned == [], f"{len(learned)} facts learned in {asked} probes, e.g. {learned[:3]}"


def test_the_pool_s_own_phone_is_still_told_its_pool_lacks_the_dice():
    a, _ = tables()
    said = answer(a, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [5]}, "GM")
    assert said.startswith("422 ") and "does not hold those dice: needs 1 more 5" in said, said


def test_dice_the_table_saw_are_taken_in_place_of_others():
    a, _ = tables()
    step = run_action(SYSTEM, a, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [5]})
    assert step.state["exchange"]["forward"] == [5] and step.state["participants"]["GM"]["pool"] == [6]
    step = run_action(SYSTEM, a, {"type": "bid_initiative", "participant": "Shred", "dice": [1]})
    assert step.state["participants"]["Shred"]["pool"] == [6, 6, 5, 5, 5, 5]


def test_a_die_taken_in_place_of_another_is_said_on_the_pool_s_own_phone_alone(tmp_path):
    """A phone that is not Shred's names a 6 Shred's pool does not hold: the 6 goes forward in place of the
    pool's lowest (a 4). Shred's phone reads which; every other phone reads words that are the same whatever
    the pool holds (the same when the pool holds the 6)."""
    from tableside.core.store import Store
    from tableside.core.table import Table

    said = {}
    for faces in ([5, 5, 4], [6, 5, 4, 2]):  # pools [5, 5, 4] and [6, 5, 4] (the 6 rolled in a 2, tossed)
        table = Table(Store(tmp_path / f"{faces[0]}.db"))
        table.create_session("v2140", {"players": ["Shred"], "gm": "GM"})
        table.act({"type": "prepare_pool", "participant": "Shred", "primary_skills": 1, "secondary_skills": 1})
        table.act({"type": "roll_pool", "participant": "Shred", "faces": faces}, seat="Shred")
        out = table.act({"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]}, source="phone")
        said[faces[0]] = {seat: table.log(seat=seat)[-1]["result"]["summary"] for seat in ("Shred", "GM", None)}
        said[faces[0]]["answer"] = out["result"]["summary"]
        left = table.view(seat="Shred")["state"]["participants"]["Shred"]["pool"]
        assert left == ([5, 5] if faces[0] == 5 else [5, 4])
        assert table.log(seat="GM")[-1]["action"] is None and table.log(seat="Shred")[-1]["action"]["dice"] == [6]
        table.store.close()
    others = "Shred puts forward 6 in an exchange against GM; GM has no dice to answer: resolve it with button B"
    others += " (entered by another phone: a die not in Shred's pool stands in for its lowest)"
    for pool in (5, 6):
        assert said[pool]["GM"] == said[pool][None] == said[pool]["answer"] == others, said[pool]
    assert said[5]["Shred"].endswith("; Shred's pool did not hold 6: 4 from it went in their place"), said[5]
    assert said[6]["Shred"] == others.split(" (entered")[0]
