"""What must always hold in a Venus 2140 scene, and the numbers a correction may set.

The laws: every face in a pool is a d6 face, no pool beyond the limit, no negative counts, and
every exchange in the ledger conserves its dice (each die put forward ends in exactly one fate); a
knocked-out character holds no dice; effects keep distinct numbers and a level of at least 1.
"""

from __future__ import annotations

from tableside.core.system import Tracked
from tableside.core.systems.v2140 import effects, exchange, rules
from tableside.core.systems.v2140.state import State
from tableside.core.text import N_


def broken(state: State) -> list[str]:
    broken = []
    for name, p in state["participants"].items():
        bad = [f for f in p["pool"] if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= rules.SIDES]
        if bad:
            broken.append(f"{name}'s scene pool holds a face outside 1-6: {bad[0]!r}")
        if len(p["pool"]) > rules.MAX_POOL:
            broken.append(f"{name}'s scene pool holds more than {rules.MAX_POOL} dice")
        for key in ("books", "player_points", "reputation", "follow_up"):
            if p[key] < 0:
                broken.append(f"{name}'s {key.replace('_', ' ')} cannot be negative")
        if any(r["points"] < 0 for r in p.get("restricted", ())):
            broken.append(f"{name}'s restricted points cannot be negative")
        if p["pool"] and effects.is_stopped(state, name):
            broken.append(f"{name} is knocked out, so holds no dice in the scene pool")
    ids = [e["id"] for e in effects.active(state)]
    if len(ids) != len(set(ids)):
        broken.append("two effects share a number")
    for e in effects.active(state):
        if e["level"] < 1:
            broken.append(f"effect #{e['id']}: a wound's level is at least 1")
    for record in state["ledger"]:
        law = exchange.conservation(
            record["put_forward"], record["captured"], record["returned"], record["discarded"], record["at_stake"]
        )
        if law:
            broken.append(f"exchange {record['n']} ({record['actor']} against {record['target']}): {law}")
    if state["murphy"] < 0 or state["session_racks"] < 0:
        broken.append("the Murphy's Pool and the session pool cannot be negative")
    return broken


def tracked(state: State) -> list[Tracked]:
    out = []
    for name in state["seating"]:
        p = state["participants"][name]
        out.append(
            Tracked(f"participants.{name}.books", N_("{name}: books", name=name), p["books"], 0, rules.MAX_COUNT * 10)
        )
        if p["role"] == "player":
            out.append(
                Tracked(
                    f"participants.{name}.player_points",
                    N_("{name}: Player Points", name=name),
                    p["player_points"],
                    0,
                    rules.MAX_COUNT * 10,
                )
            )
        out.append(
            Tracked(
                f"participants.{name}.reputation",
                N_("{name}: reputation", name=name),
                p["reputation"],
                0,
                rules.MAX_COUNT * 10,
            )
        )
        out.append(
            Tracked(
                f"participants.{name}.rack", N_("{name}: rack (Lifestyles)", name=name), p["rack"], 1, rules.MAX_QUALITY
            )
        )
        out.append(
            Tracked(
                f"participants.{name}.follow_up",
                N_("{name}: follow-up dice", name=name),
                p["follow_up"],
                0,
                rules.MAX_DICE_IN_ROLL,
            )
        )
    out.append(Tracked("murphy", N_("Murphy's Pool"), state["murphy"], 0, rules.MAX_COUNT * 10))
    out.append(Tracked("session_racks", N_("GM's session racks"), state["session_racks"], 0, rules.MAX_COUNT))
    return out
