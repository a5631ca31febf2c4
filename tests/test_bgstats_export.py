"""A finished game exports as a BG Stats play, and every finished game as CSV (#34).

The format is the one BG Stats publishes for a play sent by another app: "Push plays to BG Stats from other apps
or websites", https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ (the JSON
handed to ``https://app.bgstatsapp.com/createPlay.html?data=``). ``PUBLISHED`` below is its example's fields with
their types (``board``, ``comments`` and ``location`` included, though Tableside writes none of them); the export
may hold no other key. ``REQUIRED``: what a play must say to be one (who played, who won, the scores, the date
and length: #34), the page's ids of the source, and ``winner`` and ``startPlayer`` on every player (BG Stats'
Android app stops with "No value for ..." when either is missing, though the page's example has both).
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from urllib.parse import unquote

from tableside.core.plays import CREATE_PLAY, FORMAT_URL, link, play_date

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, acted, api_client

NUMBER = (int, float)
PUBLISHED = {
    "board": str,
    "durationMin": int,
    "comments": str,
    "game": dict,
    "location": str,
    "playDate": str,
    "players": list,
    "sourceName": str,
    "sourcePlayId": str,
}
PUBLISHED_GAME = {"bggId": int, "highestWins": bool, "name": str, "noPoints": bool, "sourceGameId": str}
PUBLISHED_PLAYER = {
    "startPlayer": bool,
    "name": str,
    "rank": int,
    "role": str,
    "score": NUMBER,
    "sourcePlayerId": str,
    "winner": bool,
}
REQUIRED = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
REQUIRED_GAME = {"name"}
REQUIRED_PLAYER = {"name", "winner", "startPlayer", "score"}
PLAY_DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")  # the page's "2020-10-23 19:16:58"


def _typed(obj: dict, published: dict, required: set, where: str) -> list[str]:
    problems = [f"{where}.{k} is not in the published format" for k in obj if k not in published]
    problems += [f"{where}.{k} is missing" for k in required if k not in obj]
    for k, v in obj.items():
        want = published.get(k)
        if want is not None and (not isinstance(v, want) or (want is not bool and isinstance(v, bool))):
            problems.append(f"{where}.{k} is {type(v).__name__}, not {want}")
    return problems


def check_published(play: dict) -> list[str]:
    """Everything in ``play`` that BG Stats' published format does not have, lacks, or types otherwise."""
    problems = _typed(play, PUBLISHED, REQUIRED, "play")
    problems += _typed(play.get("game", {}), PUBLISHED_GAME, REQUIRED_GAME, "game")
    for i, p in enumerate(play.get("players", [])):
        problems += _typed(p, PUBLISHED_PLAYER, REQUIRED_PLAYER, f"players[{i}]")
    if not PLAY_DATE.fullmatch(str(play.get("playDate"))):
        problems.append(f"playDate {play.get('playDate')!r} is not YYYY-MM-DD HH:MM:SS")
    return problems


def test_the_checker_refuses_what_the_format_does_not_have():
    """The check can fail: an invented field, a missing winner, a score as text are each named."""
    good = {
        "sourceName": "Tableside",
        "sourcePlayId": "ab12",
        "playDate": "2026-12-07 01:00:00",
        "durationMin": 5,
        "game": {"name": "Venusian Vegas", "sourceGameId": "vegas", "highestWins": True, "noPoints": False},
        "players": [{"name": "Ann", "winner": True, "startPlayer": False, "score": 3, "rank": 1}],
    }
    assert check_published(good) == []
    bad = json.loads(json.dumps(good))
    bad["players"][0].update(score="3 VP", luck=1.2)
    del bad["players"][0]["winner"]
    bad["playDate"] = "2026-12-07T01:00:00+00:00"
    assert sorted(check_published(bad)) == sorted(
        [
            "players[0].luck is not in the published format",
            "players[0].winner is missing",
            "players[0].score is str, not (<class 'int'>, <class 'float'>)",
            "playDate '2026-12-07T01:00:00+00:00' is not YYYY-MM-DD HH:MM:SS",
        ]
    )


def _finish(client, system: str) -> dict:
    options, actions = SCENARIOS[system]
    made = client.post("/api/sessions", json={"system": system, "options": options}, headers=AUTH).get_json()
    for action in [*actions, *ENDINGS[system]]:
        acted(client, action)
    return made


def test_each_finished_game_exports_as_a_published_bgstats_play(tmp_path):
    assert FORMAT_URL.startswith("https://www.bgstatsapp.com/")
    with api_client(tmp_path, 1) as client:
        for system in ("vegas", "venom", "vnm"):
            made = _finish(client, system)
            view = client.get("/api/sessions/active?brief=1", headers=AUTH).get_json()
            result = view["screen"]["result"]
            r = client.get(f"/api/sessions/{made['id']}/bgstats", headers=AUTH)
            assert r.status_code == 200, r.get_json()
            assert r.headers["Content-Disposition"].endswith('.bgstats.json"')
            play = r.get_json()
            assert check_published(play) == [], (system, play)
            assert play["sourcePlayId"] == made["id"] and play["game"]["sourceGameId"] == system
            log = client.get("/api/sessions/active/log", headers=AUTH).get_json()
            assert play["playDate"] == play_date(_created(client, made["id"]))
            assert play["durationMin"] >= 1 and log
            # The result the phones show, told player by player: the winners, the scores in the order shown.
            names = [p["name"] for p in play["players"]]
            assert len(names) == len(result["scores"])
            shown = [score for _name, score in result["scores"]]
            assert [str(p["score"]) for p in play["players"]] == [s.split()[0] for s in shown]
            won = [p["name"] for p in play["players"] if p["winner"]]
            assert len(won) == len([n for n, _s in result["scores"] if n in result["winners"]])
            assert all(p["rank"] == 1 for p in play["players"] if p["winner"])
            # The same play opens BG Stats from the phone: the page's address, the JSON URL-encoded.
            address = link(play)
            assert address.startswith(CREATE_PLAY)
            assert json.loads(unquote(address[len(CREATE_PLAY) :])) == play


def _created(client, session_id: str) -> str:
    return next(s["created_at"] for s in client.get("/api/sessions", headers=AUTH).get_json() if s["id"] == session_id)


def test_venom_names_its_commander_the_start_player_and_the_medal_the_winner(tmp_path):
    with api_client(tmp_path, 1) as client:
        made = _finish(client, "venom")
        play = client.get("/api/sessions/active/bgstats", headers=AUTH).get_json()
        assert play["sourcePlayId"] == made["id"]
        assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
            ("Ann", 2, 1, True),
            ("Bob", 0, 2, False),
            ("Cy", 0, 2, False),
        ]
        assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Ann"]  # the Commander (options)


def test_a_game_not_ended_is_no_play_and_the_csv_holds_every_finished_one(tmp_path):
    with api_client(tmp_path, 1) as client:
        finished = [_finish(client, s) for s in ("vegas", "vnm")]
        options, _actions = SCENARIOS["venom"]
        going = client.post("/api/sessions", json={"system": "venom", "options": options}, headers=AUTH).get_json()
        r = client.get(f"/api/sessions/{going['id']}/bgstats", headers=AUTH)
        assert r.status_code == 404 and "has not ended" in r.get_json()["error"]
        r = client.get("/api/plays.csv", headers=AUTH)
        assert r.status_code == 200 and r.mimetype == "text/csv"
        rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
        plays = [client.get(f"/api/sessions/{m['id']}/bgstats", headers=AUTH).get_json() for m in finished]
        assert [(row["session"], row["player"]) for row in rows] == [
            (p["sourcePlayId"], q["name"]) for p in plays for q in p["players"]
        ]
        assert going["id"] not in {row["session"] for row in rows}
        for row in rows:
            datetime.strptime(row["date"], "%Y-%m-%d %H:%M:%S")
            assert row["winner"] in ("yes", "no") and int(row["duration_min"]) >= 1
        assert client.get("/api/plays.csv").status_code == 401  # the join code, as every route
