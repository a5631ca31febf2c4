"""The Stats page at 500 finished games (#34), built over HTTP across the four systems and checked against a count
this test makes itself from what it sent: the games, wins, win rates, medals and favourite worlds per player and
system, the rival and the nemesis, the luck of each game night from the faces typed in, the longest and shortest
games, the calendar, and the games left out; then the answer's size and its server CPU.

The games and how each system's game ends: ``tests/stats_games.py``.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections import Counter, defaultdict
from datetime import datetime, timedelta

import pytest

from tests.stats_games import NAMES, Games, play_nights, served

pytestmark = pytest.mark.slow

GAMES = int(os.environ.get("STATS_GAMES", "500"))  # fewer to try it out quickly


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("stats500"))


def _night(start: float) -> str:
    return (datetime.fromtimestamp(start) - timedelta(hours=6)).date().isoformat()


def _expected(played: list[dict], left_out: set[str], renamed: dict[str, str]) -> dict:
    """The figures of the Stats page, counted here from the games as they were played."""
    figures: dict[str, dict] = defaultdict(lambda: defaultdict(Counter))
    worlds: dict[str, Counter] = defaultdict(Counter)
    beaten: dict[str, Counter] = defaultdict(Counter)
    together: dict[str, Counter] = defaultdict(Counter)
    luck: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
    nights: dict[str, dict] = defaultdict(lambda: {"games": 0, "players": set()})
    counted = [g for g in played if g["id"] not in left_out]
    for g in counted:
        night = _night(g["start"])
        nights[night]["games"] += 1
        for s in g["seats"]:
            name = renamed.get(s["name"], s["name"])
            nights[night]["players"].add(name)
            f = figures[name][g["system"]]
            f["games"] += 1
            f["results"] += g["result"]
            f["wins"] += s["won"]
            f["medals"] += s["medal"]
            if s["faction"]:
                worlds[name][s["faction"]] += 1
            if s["name"] in g["dice"]:
                dice, z = g["dice"][s["name"]]
                luck[name][night][0] += dice
                luck[name][night][1] += z
        if g["result"] and not g["team"]:
            for s in g["seats"]:
                for o in g["seats"]:
                    if o is not s:
                        me, other = renamed.get(s["name"], s["name"]), renamed.get(o["name"], o["name"])
                        together[me][other] += 1
                        beaten[me][other] += o["won"] and not s["won"]
    return {
        "counted": counted,
        "figures": figures,
        "worlds": worlds,
        "beaten": beaten,
        "together": together,
        "luck": luck,
        "nights": nights,
    }


def test_500_finished_games_over_http_the_stats_page_agrees_with_our_own_count(server):
    client, clock, table = server
    games = Games(client, clock, random.Random(34))
    play_nights(games, GAMES)
    left_out = {g["id"] for g in games.played[::50]}
    for sid in left_out:
        client.json("POST", f"/api/stats/games/{sid}", {"left_out": True})
    people = {p["name"].casefold(): p["id"] for p in client.json("GET", "/api/people")}
    assert sorted(people) == sorted(n.casefold() for n in NAMES)  # "ann" and "Ann" are one person
    for name in NAMES:  # each as this test names them (a person keeps the case their name was first typed in)
        client.json("POST", f"/api/people/{people[name.casefold()]}/rename", {"name": name})
    client.json("POST", f"/api/people/{people['fay']}/rename", {"name": "Faye"})
    renamed = {"Fay": "Faye"}

    cold = time.process_time()
    stats = client.json("GET", "/api/stats")
    cold = time.process_time() - cold
    want = _expected(games.played, left_out, renamed)

    assert stats["games"] == len(want["counted"]) == GAMES - len(left_out)
    assert stats["left_out"] == len(left_out) and {g["id"] for g in stats["left_out_games"]} == left_out
    by_name = {p["name"]: p for p in stats["players"]}
    assert sorted(by_name) == sorted(renamed.get(n, n) for n in NAMES)
    for name, systems_of in want["figures"].items():
        shown = {s["system"]: s for s in by_name[name]["systems"]}
        assert set(shown) == set(systems_of), name
        for system, f in systems_of.items():
            s = shown[system]
            assert (s["games"], s["results"], s["wins"]) == (f["games"], f["results"], f["wins"]), (name, system)
            assert s["win_rate"] == (round(f["wins"] / f["results"], 3) if f["results"] else None)
            assert s["team"] == (system == "venom") and s.get("medals", 0) == f["medals"]
        assert by_name[name]["games"] == sum(f["games"] for f in systems_of.values())
        assert by_name[name]["wins"] == sum(f["wins"] for f in systems_of.values())
        # favourite world: the most played, then A-Z
        world, times = min(want["worlds"][name].items(), key=lambda kv: (-kv[1], kv[0]))
        assert by_name[name]["favourite"] == {"system": "vnm", "faction": world, "games": times}
        beaten, together = want["beaten"][name], want["together"][name]
        most = max(beaten.values())
        assert by_name[name]["rival"]["beat_you"] == most
        assert beaten[by_name[name]["rival"]["name"]] == most
        share = max(b / together[o] for o, b in beaten.items() if together[o] >= 3)
        nemesis = by_name[name]["nemesis"]
        assert nemesis["beat_you"] / nemesis["of"] == share and beaten[nemesis["name"]] == nemesis["beat_you"]
        luck = [(n, d, z / math.sqrt(d)) for n, (d, z) in sorted(want["luck"][name].items())]
        shown = [(x["night"], x["dice"], x["z"]) for x in by_name[name]["luck"]]
        assert [x[:2] for x in shown] == [x[:2] for x in luck], name
        assert all(abs(a[2] - b[2]) <= 0.0051 for a, b in zip(shown, luck, strict=True)), name  # shown to 2 places

    durations = sorted(g["seconds"] for g in want["counted"])
    assert [g["seconds"] for g in stats["longest"]] == durations[::-1][:3]
    assert [g["seconds"] for g in stats["shortest"]] == durations[:3]
    nights = [
        {"night": n, "games": v["games"], "players": sorted(v["players"])} for n, v in sorted(want["nights"].items())
    ]
    assert stats["nights"] == nights
    assert len(nights) > GAMES // 8  # 2-7 games a night

    # Fast and small: the page at 500 games, warm (each game summed up once, at the first request).
    raw, _ = client.send("GET", "/api/stats")
    zipped, response = client.send("GET", "/api/stats", gzip=True)
    assert response.getheader("Content-Encoding") == "gzip"
    spent = []
    for _ in range(20):
        table.roll("1d6", [3], source="cli")  # a change on the table: its game's summary and the page made again
        before = time.process_time()
        client.send("GET", "/api/stats")
        spent.append(time.process_time() - before)
    print(
        f"stats at {GAMES} games: {len(raw)} bytes ({len(zipped)} gzipped), first request {cold * 1000:.0f} ms CPU, "
        f"then {statistics.median(spent) * 1000:.1f} ms CPU (median of 20, each after a change)"
    )
    assert len(raw) < 100_000
    assert statistics.median(spent) < 0.050
