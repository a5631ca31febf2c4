"""Setup: the options the table confirms and the starting scene.

The rack (Lifestyles), the Murphy's Pool and the Player Points are setup data the players give;
the GM is a participant like the player characters, so names must differ from the GM's too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Field
from tableside.core.systems.v2140 import rules
from tableside.core.systems.v2140.state import State

OPTIONS = (
    Field(
        "players",
        "texts",
        label="Player characters",
        minimum=1,
        maximum=rules.MAX_PARTICIPANTS - 1,
        max_length=24,
        default=["Shred", "Sven", "Wire"],
        required=False,
    ),
    Field("gm", "text", label="GM", required=False, default=rules.GM_NAME, max_length=24),
    Field(
        "rack",
        "count",
        label="Rack (Lifestyles)",
        required=False,
        default=rules.DEFAULT_RACK,
        minimum=1,
        maximum=rules.MAX_QUALITY,
    ),
    Field("murphy", "count", label="Murphy's Pool", required=False, default=0, minimum=0, maximum=rules.MAX_COUNT),
    Field(
        "player_points",
        "count",
        label="Player Points each",
        required=False,
        default=0,
        minimum=0,
        maximum=rules.MAX_COUNT,
    ),
)

SEAT_NAME_CHARS = "."  # a name is a key in dotted correction paths


def initial_state(options: Mapping[str, Any]) -> State:
    """A new scene: every participant with an empty pool; the GM's session pool holds one rack per player."""
    players = list(options["players"])
    gm = options["gm"]
    names = [*players, gm]
    for name in names:
        if not name:
            raise RuleError("options: a participant needs a name")
        if any(c in name for c in SEAT_NAME_CHARS):
            raise RuleError(f"options: {name!r}: a name cannot contain '.'")
    folded = [n.casefold() for n in names]
    dupes = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if dupes:
        raise RuleError(f"options: {', '.join(dupes)} named twice (the GM is a participant too)")
    rack = options["rack"]
    participants = {name: _participant("player", rack, options["player_points"]) for name in players}
    participants[gm] = _participant("gm", rack, 0)
    return {
        "seating": names,
        "gm": gm,
        "participants": participants,
        "order": list(names),
        "turn": 0,
        "round": 1,
        "conflict": 1,
        "initiative": {},
        "session_racks": len(players) * rules.SESSION_RACKS_PER_PLAYER,
        "murphy": options["murphy"],
        "murphy_against": {},
        "exchange": None,
        "ledger": [],
        "last_exchange": None,
        "acted": {},
        "goals": [],
        "note": "",
    }


def _participant(role: str, rack: int, player_points: int) -> dict[str, Any]:
    return {
        "role": role,
        "rack": rack,
        "pool": [],
        "dice": 0,
        "books": 0,
        "player_points": player_points if role == "player" else 0,
        "reputation": 0,
        "prepared": None,
        "follow_up": 0,
    }
