"""Setup: the options the table confirms and the starting scene of a campaign.

The rack (Lifestyles), the Murphy's Pool and the Player Points are setup data the players give;
the GM is a participant like the player characters, so names must differ from the GM's too.
Two more are readings of a transcription that lost text: ``effects`` ties each effect's name to
the paragraph it reads (the headings are missing), and ``goal_charts`` lists the goals of each
root skill (the charts are missing; the goals the text names are the default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Field
from tableside.core.systems.v2140 import effects, goals, rules
from tableside.core.systems.v2140.state import State
from tableside.core.text import N_

OPTIONS = (
    Field(
        "players",
        "texts",
        label=N_("Player characters"),
        minimum=1,
        maximum=rules.MAX_PARTICIPANTS - 1,
        max_length=24,
        default=["Shred", "Sven", "Wire"],
        required=False,
    ),
    Field("gm", "text", label=N_("GM"), required=False, default=rules.GM_NAME, max_length=24),
    Field(
        "rack",
        "count",
        label=N_("Rack (Lifestyles)"),
        required=False,
        default=rules.DEFAULT_RACK,
        minimum=1,
        maximum=rules.MAX_QUALITY,
    ),
    Field("murphy", "count", label=N_("Murphy's Pool"), required=False, default=0, minimum=0, maximum=rules.MAX_COUNT),
    Field(
        "player_points",
        "count",
        label=N_("Player Points each"),
        required=False,
        default=0,
        minimum=0,
        maximum=rules.MAX_COUNT,
    ),
    Field(
        "effects",
        "rows",
        label=N_("Effects"),
        required=False,
        default=[dict(r) for r in effects.DEFAULT_READINGS],
        maximum=len(effects.PARAGRAPHS) * 2,
        fields=(
            Field("name", "text", label=N_("Effect"), max_length=24),
            Field("reads", "pick", label=N_("Reads the paragraph"), choices=effects.PARAGRAPH_CHOICES),
        ),
        help=N_(
            "the paragraph each effect reads: the transcription lost the effect headings, so confirm which paragraph "
            "each effect is"
        ),
    ),
    Field(
        "goal_charts",
        "rows",
        label=N_("Chart goals"),
        required=False,
        default=[dict(r) for r in goals.DEFAULT_CHARTS],
        maximum=60,
        fields=(
            Field("root", "text", label=N_("Root skill"), max_length=24),
            Field("goal", "text", label=N_("Goal"), max_length=rules.MAX_TEXT),
        ),
        help=N_(
            "the goal charts by root skill; the charts are not in the transcription: the goals it names, and any the "
            "table adds"
        ),
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
            raise RuleError(N_("options: a participant needs a name"))
        if any(c in name for c in SEAT_NAME_CHARS):
            raise RuleError(N_("options: {name}: a name cannot contain '.'", name=repr(name)))
    folded = [n.casefold() for n in names]
    dupes = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if dupes:
        raise RuleError(N_("options: {dupes} named twice (the GM is a participant too)", dupes=", ".join(dupes)))
    readings = effects.check_readings(options.get("effects", effects.DEFAULT_READINGS))
    charts = [
        {"root": str(r["root"]).strip(), "goal": str(r["goal"]).strip()}
        for r in options.get("goal_charts", goals.DEFAULT_CHARTS)
    ]
    if any(not r["root"] or not r["goal"] for r in charts):
        raise RuleError(N_("options: goal_charts: every row needs a root skill and a goal"), rule="chart_goals")
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
        "lead": None,
        "acted": {},
        "goals": [],
        "note": "",
        "campaign": {"session": 1, "scene": 1},
        "readings": readings,
        "charts": charts,
        "effects": [],
        "next_effect": 1,
        "skills": {"primary": "", "secondary": ""},
        "fly_goals": [],
        "drawn": {},
        "outnumbered_claimed": [],
        "tests": [],
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
        "restricted": [],
    }
