"""The Stats page across game nights (#34): pure functions, no I/O.

Each game is summed up once (``summarise``: its result, each seat's score, faction and public dice, its clock),
and the page is folded from those summaries and the people at each seat (``fold``), so a request reads one small
row per game rather than replaying 500 logs. A summary is keyed by seat, never by person: renaming or merging
people changes the page without remaking a summary.

How games count: a game counts once its rules end it (the screen's result: winners and final scores). VENOM
Assault is cooperative (``GameSystem.cooperative``): Freedom Squadron wins or loses together, counted as team
games apart from the competitive ones, and its Medal of Honor is counted as a medal. Venus 2140 has no end of
game in its rules (``GameSystem.ends`` is False): a game of it counts as played from its first action, for the
games, the time, the luck and the calendar, and is never won or lost. Luck counts the public dice only (every
phone reads this page): a Venus 2140 pool's faces stay in its own seat's recap.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tableside.core import privacy, recap
from tableside.core.system import GameSystem

NIGHT_STARTS = 6  # a game started before 6 in the morning belongs to the evening before: one game night
LISTED = 3  # longest and shortest games listed
TOGETHER = 3  # games against someone before they can be your nemesis


def night_of(at: str) -> str | None:
    """The game night a game started on (local time, the small hours counted to the evening before)."""
    try:
        start = datetime.fromisoformat(at).astimezone()
    except (TypeError, ValueError):
        return None
    return (start - timedelta(hours=NIGHT_STARTS)).date().isoformat()


def _seconds(start: str, end: str | None) -> float:
    try:
        return max((datetime.fromisoformat(str(end)) - datetime.fromisoformat(start)).total_seconds(), 0.0)
    except (TypeError, ValueError):
        return 0.0


@dataclass
class Tally:
    """A game's log as read so far, carried forward entry by entry: the game on the table changes with every
    action, and only its new entries are read. ``luck``: each owner's dice and summed luck (``core.recap.luck_of``)
    over the public dice (every phone reads the Stats page: a private pool's faces are left out, as the recap
    leaves them for the other seats)."""

    version: int = 0
    actions: int = 0
    end: str | None = None  # the newest entry's time
    luck: dict[str, tuple[int, float]] = field(default_factory=dict)

    def add(self, entries: Iterable[Mapping[str, Any]]) -> None:
        for raw in entries:
            self.version = max(self.version, int(raw.get("seq") or 0))
            self.actions += 1
            self.end = raw.get("at") or self.end
            e = privacy.entry(raw, None)
            if e.get("kind") != "action" or e.get("private"):
                continue
            for _r, sides, faces, owners in recap.dice_of(e):
                for face, owner in zip(faces, owners, strict=True):
                    n, z = self.luck.get(owner, (0, 0.0))
                    self.luck[owner] = (n + 1, z + recap.luck_of(face, sides))


def summarise(system: GameSystem, created_at: str, state: dict, tally: Tally) -> dict:
    """One game as the Stats page counts it: ``counts`` (ended by its rules, or played where they end none),
    whether it is a team game, each seat's result, score, faction and public dice, when and how long."""
    seats = system.seats(state)
    result = system.screen(system.redact(state, None)).result if system.ends else None
    label = {s.label or s.name: s.name for s in seats}
    winners = {label.get(w, w) for w in (result.winners if result else ())}
    scores = {label.get(n, n): v for n, v in (result.scores if result else ())}
    won_together = bool(winners & {s.name for s in seats})
    rows = []
    for s in seats:
        dice, z = tally.luck.get(s.name) or tally.luck.get(s.label) or (0, 0.0)
        rows.append(
            {
                "seat": s.name,
                "won": won_together if system.cooperative else s.name in winners,
                "medal": system.cooperative and s.name in winners,
                "score": scores.get(s.name),
                "faction": system.faction(state, s.name),
                "dice": dice,
                "luck": z,
            }
        )
    return {
        "system": system.id,
        "counts": result is not None or (not system.ends and tally.actions > 0),
        "result": result is not None,
        "team": system.cooperative,
        "night": night_of(created_at),
        "start": created_at,
        "seconds": _seconds(created_at, tally.end),
        "seats": rows,
    }


def fold(
    games: Iterable[tuple[str, dict]],
    people: Mapping[str, Mapping[str, tuple[int, str]]],
    left_out: set[str],
    names: Mapping[str, str],
) -> dict[str, Any]:
    """The Stats page from each game's summary (``games``: session id, summary), the person at each seat
    (``people``: session id -> seat -> (person id, name)), the games left out and the systems' names."""
    players: dict[int, dict[str, Any]] = {}
    beaten: dict[int, Counter] = defaultdict(Counter)  # person -> who beat them, how often
    together: dict[int, Counter] = defaultdict(Counter)  # person -> competitive games with each other person
    counted: list[dict[str, Any]] = []
    nights: dict[str, dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    for sid, g in games:
        if not g.get("counts"):
            continue
        at = people.get(sid, {})
        seated = [(at[r["seat"]], r) for r in g["seats"] if r["seat"] in at]
        game = {"id": sid, "system": g["system"], "night": g["night"], "seconds": g["seconds"], "seated": seated}
        if sid in left_out:
            out.append(game)
            continue
        counted.append(game)
        night = nights.setdefault(g["night"] or "?", {"night": g["night"], "games": 0, "players": set()})
        night["games"] += 1
        for (pid, name), r in seated:
            _count(players.setdefault(pid, {"id": pid, "name": name, "systems": {}}), g, r, names)
            night["players"].add(name)
        if g["result"] and not g["team"]:
            _rivals(seated, beaten, together)
    listed = sorted(counted, key=lambda c: (-c["seconds"], c["id"]))
    return {
        "games": len(counted),
        "left_out": len(out),
        "left_out_games": [_game(c, names) for c in out],
        "players": [_player(p, beaten[pid], together[pid], players) for pid, p in _ranked(players)],
        "longest": [_game(c, names) for c in listed[:LISTED]],
        "shortest": [_game(c, names) for c in listed[::-1][:LISTED]],
        "nights": [
            {"night": n["night"], "games": n["games"], "players": sorted(n["players"])}
            for _k, n in sorted(nights.items())
        ],
    }


def _count(p: dict[str, Any], g: Mapping[str, Any], r: Mapping[str, Any], names: Mapping[str, str]) -> None:
    """One game of one person into their figures for its system."""
    s = p["systems"].setdefault(
        g["system"],
        {"system": g["system"], "name": names.get(g["system"], g["system"]), "games": 0, "results": 0, "wins": 0},
    )
    s["games"] += 1
    s["team"] = bool(g["team"])
    if g["result"]:
        s["results"] += 1
        s["wins"] += bool(r["won"])
        if r.get("medal"):
            s["medals"] = s.get("medals", 0) + 1
    if r.get("faction"):
        s.setdefault("factions", Counter())[r["faction"]] += 1
    if r.get("dice"):
        luck = p.setdefault("luck_by_night", {}).setdefault(g["night"], [0, 0.0])
        luck[0] += r["dice"]
        luck[1] += r["luck"]


def _rivals(seated: list, beaten: dict[int, Counter], together: dict[int, Counter]) -> None:
    """In a competitive game, every winner beat every seat that did not win."""
    for (pid, _n), r in seated:
        for (other, _m), o in seated:
            if other != pid:
                together[pid][other] += 1
                if o["won"] and not r["won"]:
                    beaten[pid][other] += 1


def _ranked(players: dict[int, dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    games = {pid: sum(s["games"] for s in p["systems"].values()) for pid, p in players.items()}
    return sorted(players.items(), key=lambda kv: (-games[kv[0]], kv[1]["name"].casefold()))


def _player(p: dict[str, Any], beaten: Counter, together: Counter, everyone: dict[int, dict]) -> dict[str, Any]:
    systems = []
    favourite = None
    for s in sorted(p["systems"].values(), key=lambda s: -s["games"]):
        factions = s.pop("factions", None)
        if factions:
            name, times = min(factions.items(), key=lambda kv: (-kv[1], kv[0]))  # the most played, then A-Z
            s["favourite"] = {"faction": name, "games": times}
            if favourite is None or times > favourite["games"]:
                favourite = {"system": s["system"], "faction": name, "games": times}
        s["win_rate"] = round(s["wins"] / s["results"], 3) if s["results"] else None
        systems.append(s)
    rival = max(beaten.items(), key=lambda kv: (kv[1], -kv[0]), default=None)
    share = [(n / together[o], n, o) for o, n in beaten.items() if together[o] >= TOGETHER]
    nemesis = max(share, key=lambda t: (t[0], t[1], -t[2]), default=None)
    luck = sorted((p.get("luck_by_night") or {}).items(), key=lambda kv: kv[0] or "")
    return {
        "id": p["id"],
        "name": p["name"],
        "games": sum(s["games"] for s in systems),
        "wins": sum(s["wins"] for s in systems),
        "systems": systems,
        "favourite": favourite,
        "rival": {"name": everyone[rival[0]]["name"], "beat_you": rival[1]} if rival else None,
        "nemesis": (
            {"name": everyone[nemesis[2]]["name"], "beat_you": nemesis[1], "of": together[nemesis[2]]}
            if nemesis
            else None
        ),
        "luck": [{"night": n, "dice": d, "z": round(z / math.sqrt(d), 2)} for n, (d, z) in luck if d],
    }


def _game(c: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {
        "id": c["id"],
        "system": names.get(c["system"], c["system"]),
        "night": c["night"],
        "time": _length(c["seconds"]),
        "seconds": round(c["seconds"]),
        "players": [name for (_pid, name), _r in c["seated"]],
    }


def _length(seconds: float) -> str:
    """How long a game took, as a player says it: "1 h 57 min", "12 min", "45 s"."""
    minutes = int(round(seconds / 60))
    if seconds < 60:
        return f"{int(round(seconds))} s"
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"
