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

import bisect
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
    action, and only its new entries are read. ``luck``: each owner's dice and summed luck (``core.recap.die_lucks``)
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
            for r, sides, faces, owners in recap.dice_of(e):  # each die as the recap reads it: hits or face
                for lucky, owner in zip(recap.die_lucks(r, sides, faces), owners, strict=True):
                    if lucky is not None:
                        n, z = self.luck.get(owner, (0, 0.0))
                        self.luck[owner] = (n + 1, z + lucky)


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
    folding = Folding(names)
    for index, (sid, g) in enumerate(games):
        folding.add(index, sid, g, people.get(sid, {}), sid in left_out)
    return folding.page()


class Folding:
    """The Stats page's figures summed up one game at a time (``add``), and the page made from them (``page``).

    ``with_game`` is a copy with one more game that leaves these figures as they are: the game on the table,
    whose every action can move its figures (a Venus 2140 game counts from its first action), is added to the
    kept fold of every other game, so a roll never folds the other 499 again. A game's place (``index``, its
    order among the games) decides what a fold in that order would: the order of the games left out, and of a
    player's systems with as many games each."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names
        self.players: dict[int, dict[str, Any]] = {}
        self.beaten: dict[int, Counter] = defaultdict(Counter)  # person -> who beat them, how often
        self.together: dict[int, Counter] = defaultdict(Counter)  # person -> competitive games with each other
        self.counted: list[dict[str, Any]] = []
        self.nights: dict[str, dict[str, Any]] = {}
        self.out: list[dict[str, Any]] = []
        self._listed: list[dict[str, Any]] | None = None  # the counted games, the longest first, once asked for
        self._entries: dict[int, dict[str, Any]] | None = None  # each person's entry of the page, once asked for

    def add(self, index: int, sid: str, g: Mapping[str, Any], at: Mapping[str, tuple[int, str]], out: bool) -> None:
        """One game's summary (``at``: the person at each seat; ``out``: left out of the stats)."""
        if not g.get("counts"):
            return
        seated = [(at[r["seat"]], r) for r in g["seats"] if r["seat"] in at]
        game = {"id": sid, "system": g["system"], "night": g["night"], "seconds": g["seconds"], "seated": seated}
        game["index"] = index
        if out:
            self.out.append(game)
            return
        self.counted.append(game)
        if self._listed is not None:
            bisect.insort(self._listed, game, key=_longest_first)
        night = self.nights.setdefault(g["night"] or "?", {"night": g["night"], "games": 0, "players": set()})
        night["games"] += 1
        for (pid, name), r in seated:
            _count(self.players.setdefault(pid, {"id": pid, "name": name, "systems": {}}), index, g, r, self.names)
            night["players"].add(name)
            if self._entries is not None:  # their figures moved: their entry is made again
                self._entries.pop(pid, None)
        if g["result"] and not g["team"]:
            _rivals(seated, self.beaten, self.together)

    def with_game(
        self, index: int, sid: str, g: Mapping[str, Any], at: Mapping[str, tuple[int, str]], out: bool
    ) -> Folding:
        """These figures and one more game, these left as they are: only what that game touches is copied
        (its people's figures, its night), the rest shared, with the games in order of length and the page's
        entries of the people it does not touch."""
        copy = Folding(self.names)
        copy.counted, copy.out = list(self.counted), list(self.out)
        copy._listed, copy._entries = list(self._longest()), dict(self._people())
        copy.players, copy.nights = dict(self.players), dict(self.nights)
        copy.beaten, copy.together = defaultdict(Counter, self.beaten), defaultdict(Counter, self.together)
        if g.get("counts") and not out:
            night = g["night"] or "?"
            if night in self.nights:
                copy.nights[night] = {**self.nights[night], "players": set(self.nights[night]["players"])}
            for pid in {at[r["seat"]][0] for r in g["seats"] if r["seat"] in at}:
                copy.beaten[pid], copy.together[pid] = Counter(self.beaten[pid]), Counter(self.together[pid])
                if pid in self.players:
                    copy.players[pid] = _copied(self.players[pid])
        copy.add(index, sid, g, at, out)
        return copy

    def page(self) -> dict[str, Any]:
        """The Stats page from the figures so far (they stay as they are: a kept fold makes many pages)."""
        names, entries, listed = self.names, self._people(), self._longest()
        return {
            "games": len(self.counted),
            "left_out": len(self.out),
            "left_out_games": [_game(c, names) for c in sorted(self.out, key=lambda c: c["index"])],
            "players": [entries[pid] for pid, _p in _ranked(self.players)],
            "longest": [_game(c, names) for c in listed[:LISTED]],
            "shortest": [_game(c, names) for c in listed[::-1][:LISTED]],
            "nights": [
                {"night": n["night"], "games": n["games"], "players": sorted(n["players"])}
                for _k, n in sorted(self.nights.items())
            ],
        }

    def _longest(self) -> list[dict[str, Any]]:
        if self._listed is None:
            self._listed = sorted(self.counted, key=_longest_first)
        return self._listed

    def _people(self) -> dict[int, dict[str, Any]]:
        """Each person's entry of the page, made for those whose figures moved since it was last asked for."""
        if self._entries is None:
            self._entries = {}
        for pid, p in self.players.items():
            if pid not in self._entries:
                beaten, together = self.beaten.get(pid, Counter()), self.together.get(pid, Counter())
                self._entries[pid] = _player(p, beaten, together, self.players)
        return self._entries


def _longest_first(c: Mapping[str, Any]) -> tuple[float, str]:
    return (-c["seconds"], c["id"])


def _copied(p: dict[str, Any]) -> dict[str, Any]:
    """A person's figures, copied as deep as ``_count`` changes them."""
    copy = {**p, "systems": {k: {**s} for k, s in p["systems"].items()}}
    for s in copy["systems"].values():
        if "factions" in s:
            s["factions"] = Counter(s["factions"])
    if "luck_by_night" in p:
        copy["luck_by_night"] = {night: list(luck) for night, luck in p["luck_by_night"].items()}
    return copy


def _count(p: dict[str, Any], index: int, g: Mapping[str, Any], r: Mapping[str, Any], names: Mapping[str, str]) -> None:
    """One game of one person into their figures for its system (``first``: the place of its first game there)."""
    s = p["systems"].setdefault(
        g["system"],
        {"system": g["system"], "name": names.get(g["system"], g["system"]), "games": 0, "results": 0, "wins": 0},
    )
    s["first"] = min(s.get("first", index), index)
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
    for kept in sorted(p["systems"].values(), key=lambda s: (-s["games"], s["first"])):
        s = {k: v for k, v in kept.items() if k not in ("factions", "first")}  # the kept figures stay as they are
        factions = kept.get("factions")
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
