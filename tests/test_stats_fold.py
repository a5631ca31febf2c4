"""The Stats page's fold one game at a time (#34): the game on the table added to the kept fold of the others
(``Folding.with_game``) gives the page a fold of every game in order gives, wherever that game stands among them,
and leaves the kept fold as it was (it makes the next page too)."""

from __future__ import annotations

import json
import random

from tableside.core import stats

NAMES = {"vnm": "Venus Needs Men", "venom": "VENOM Assault", "vegas": "Venusian Vegas", "v2140": "Venus 2140"}
PEOPLE = ["Ann", "Bob", "Cy", "Dee"]


def _games(rng: random.Random, count: int) -> tuple[list[tuple[str, dict]], dict]:
    """Summaries as ``core.stats.summarise`` makes them, and the person at each seat."""
    games, people = [], {}
    for n in range(count):
        system = rng.choice(list(NAMES))
        seated = rng.sample(PEOPLE, rng.randint(2, 4))
        winner = rng.choice(seated)
        team = system == "venom"
        rows = [
            {
                "seat": name,
                "won": name == winner or (team and winner == seated[0]),
                "medal": team and name == winner,
                "score": rng.randint(0, 9),
                "faction": rng.choice(["Venus", "Mars"]) if system == "vnm" else None,
                "dice": rng.randint(0, 3),
                "luck": rng.uniform(-2, 2),
            }
            for name in seated
        ]
        result = system != "v2140"
        night = f"2025-0{1 + n // 4 % 9}-1{n % 4}"
        games.append(
            (
                f"g{n}",
                {
                    "system": system,
                    "counts": rng.random() < 0.9,
                    "result": result,
                    "team": team,
                    "night": night,
                    "start": night,
                    "seconds": float(rng.choice([600, 900, 1200, 1200, 3600])),
                    "seats": rows,
                },
            )
        )
        people[f"g{n}"] = {name: (PEOPLE.index(name) + 1, name) for name in seated}
    return games, people


def test_the_game_on_the_table_added_to_the_kept_fold_gives_the_fold_of_every_game():
    rng = random.Random(34)
    for trial in range(40):
        games, people = _games(rng, rng.randint(1, 30))
        left_out = {sid for sid, _g in games if rng.random() < 0.15}
        whole = json.dumps(stats.fold(games, people, left_out, NAMES))
        live = rng.randrange(len(games))
        kept = stats.Folding(NAMES)
        for index, (sid, g) in enumerate(games):
            if index != live:
                kept.add(index, sid, g, people[sid], sid in left_out)
        alone = json.dumps(kept.page())
        sid, g = games[live]
        for _again in range(2):  # the kept fold makes the next page too
            assert json.dumps(kept.with_game(live, sid, g, people[sid], sid in left_out).page()) == whole, trial
            assert json.dumps(kept.page()) == alone, trial
