"""Players across game nights (#34): a person per name whatever the case, offered at setup, renamed or merged,
a game left out of the stats and counted again, and a file from before people were kept (schema version 3)
upgraded with its games' people found when the Stats page first reads them."""

from __future__ import annotations

import sqlite3

import pytest
from tableside.core.store import MIGRATIONS, Store
from tableside.core.table import Table

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, new_table, phone


def _play(client, system: str, options: dict | None = None) -> str:
    default, actions = SCENARIOS[system]
    made = client.post("/api/sessions", json={"system": system, "options": options or default}, headers=AUTH)
    assert made.status_code == 201, made.get_json()
    for action in [*actions, *ENDINGS.get(system, [])]:
        acted = client.post("/api/sessions/active/actions", json=action, headers=AUTH)
        assert acted.status_code == 200, (action, acted.get_json())
    return made.get_json()["id"]


def _person(client, name: str) -> dict:
    return next(p for p in client.get("/api/people", headers=AUTH).get_json() if p["name"] == name)


def _stats(client) -> dict:
    answer = client.get("/api/stats", headers=AUTH)
    assert answer.status_code == 200
    return answer.get_json()


def _of(stats: dict, name: str) -> dict:
    return next(p for p in stats["players"] if p["name"] == name)


@pytest.fixture
def client(tmp_path):
    with new_table(tmp_path, 1) as table:
        c = phone(table)
        c.application.extensions["tableside"].new_games.per_minute = 100
        yield c


def test_a_name_is_one_person_in_any_case_and_the_form_is_offered_the_names_seen(client):
    _play(client, "venom")  # Ann, Bob, Cy
    lower = {"players": ["ann", "Dee", "Cy"], "vp_spaces": ["Game 3"]}
    made = client.post("/api/sessions", json={"system": "vegas", "options": lower}, headers=AUTH)
    assert made.status_code == 201
    people = client.get("/api/people", headers=AUTH).get_json()
    assert people[0]["name"] in ("Ann", "Cy", "Dee")  # the newest game's people first
    assert {p["name"]: p["games"] for p in people} == {"Ann": 2, "Bob": 1, "Cy": 2, "Dee": 1}


def test_vnm_players_left_unnamed_are_no_people(client):
    worlds = [("", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto")]
    options = {"players": [{"name": n, "home_worlds": [w]} for n, w in worlds]}
    assert client.post("/api/sessions", json={"system": "vnm", "options": options}, headers=AUTH).status_code == 201
    assert sorted(p["name"] for p in client.get("/api/people", headers=AUTH).get_json()) == ["Bob", "Cy"]


def test_rename_merge_and_a_game_left_out(client):
    venom = _play(client, "venom", {"players": ["Annie", "Bob", "Cy"], "commander": "Annie"})  # won together
    _play(client, "vegas")  # Ann, Bob, Cy: Ann wins with 9 VP
    assert _of(_stats(client), "Annie")["systems"][0]["wins"] == 1
    annie, ann, bob = _person(client, "Annie"), _person(client, "Ann"), _person(client, "Bob")
    refused = client.post(f"/api/people/{ann['id']}/merge", json={"into": bob["id"]}, headers=AUTH)
    assert refused.status_code == 409 and "same game" in refused.get_json()["error"]
    taken = client.post(f"/api/people/{annie['id']}/rename", json={"name": "ann"}, headers=AUTH)
    assert taken.status_code == 409 and "merge" in taken.get_json()["error"]
    merged = client.post(f"/api/people/{annie['id']}/merge", json={"into": ann["id"]}, headers=AUTH)
    assert merged.status_code == 200 and "Annie" not in [p["name"] for p in merged.get_json()]
    stats = _stats(client)
    assert _of(stats, "Ann")["games"] == 2 and _of(stats, "Ann")["wins"] == 2
    assert _of(stats, "Bob")["rival"] == {"name": "Ann", "beat_you": 1}
    renamed = client.post(f"/api/people/{ann['id']}/rename", json={"name": "Ann Lee"}, headers=AUTH)
    assert renamed.status_code == 200
    assert [p["name"] for p in _stats(client)["players"]].count("Ann Lee") == 1
    # The old names still find the person at setup.
    client.post("/api/sessions", json={"system": "venom", "options": {"players": ["Annie", "Bob"]}}, headers=AUTH)
    assert _person(client, "Ann Lee")["games"] == 3
    out = client.post(f"/api/stats/games/{venom}", json={"left_out": True}, headers=AUTH)
    assert out.status_code == 200
    stats = _stats(client)
    assert stats["games"] == 1 and stats["left_out"] == 1
    assert [s["system"] for s in _of(stats, "Ann Lee")["systems"]] == ["vegas"]
    client.post(f"/api/stats/games/{venom}", json={"left_out": False}, headers=AUTH)
    assert _stats(client)["games"] == 2
    bad = client.post(f"/api/stats/games/{venom}", json={"left_out": "yes"}, headers=AUTH)
    assert bad.status_code == 400
    assert client.post("/api/stats/games/nosuch", json={"left_out": True}, headers=AUTH).status_code == 404


def test_a_file_from_before_people_is_upgraded_and_its_games_get_their_people(tmp_path):
    path = tmp_path / "t.db"
    with new_table(tmp_path, 1) as table:
        _play(phone(table), "venom")
    conn = sqlite3.connect(path)  # what schema version 3 wrote: no people, no players, no stats cache
    conn.executescript(
        "DROP TABLE people; DROP TABLE players; DROP TABLE left_out; DROP TABLE game_stats; PRAGMA user_version = 3;"
    )
    conn.close()
    table = Table(Store(path))
    try:
        assert table.store.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 5  # every step since
        client = phone(table)
        assert client.get("/api/people", headers=AUTH).get_json() == []
        stats = _stats(client)
        assert stats["games"] == 1 and {p["name"] for p in stats["players"]} == {"Ann", "Bob", "Cy"}
        assert _of(stats, "Ann")["systems"][0] == {
            "system": "venom",
            "name": "VENOM Assault",
            "games": 1,
            "results": 1,
            "wins": 1,
            "team": True,
            "medals": 1,
            "win_rate": 1.0,
        }
        assert {p["name"] for p in client.get("/api/people", headers=AUTH).get_json()} == {"Ann", "Bob", "Cy"}
    finally:
        table.store.close()


def test_the_game_on_the_table_read_entry_by_entry_sums_up_as_a_fresh_read(tmp_path):
    """Only the new entries of the game on the table are read at each request (``StatsBook._read``): after
    rolls, an undo and a redo, the page is the one a new reader of the whole file makes."""
    from tableside.webui.stats import StatsBook

    with new_table(tmp_path, 1) as table:
        client = phone(table)
        options, actions = SCENARIOS["v2140"]
        client.post("/api/sessions", json={"system": "v2140", "options": options}, headers=AUTH)
        for i, action in enumerate(actions):
            table.act(action, source="cli")  # the table's command line: it may act for every seat
            table.roll("2d6", [6, (i % 6) + 1], source="cli", seat="Shred")  # Shred's free roll
            if i == 4:
                client.post("/api/sessions/active/undo", json={}, headers=AUTH)
            if i == 6:
                client.post("/api/sessions/active/redo", json={}, headers=AUTH)
            kept = _stats(client)
        fresh = StatsBook(table)
        try:
            assert fresh.answer(False).body == client.get("/api/stats", headers=AUTH).get_data()
        finally:
            fresh.close()
        assert _of(kept, "Shred")["luck"][0]["dice"] == 2 * len(actions)


def _counting(monkeypatch) -> dict[str, int]:
    """How often every game is folded again (``stats.fold``) and how many games are added to a fold."""
    from tableside.core import stats

    counted = {"fold": 0, "add": 0}
    fold, add = stats.fold, stats.Folding.add

    def counting_fold(*args, **kwargs):
        counted["fold"] += 1
        return fold(*args, **kwargs)

    def counting_add(self, *args, **kwargs):
        counted["add"] += 1
        return add(self, *args, **kwargs)

    monkeypatch.setattr(stats, "fold", counting_fold)
    monkeypatch.setattr(stats.Folding, "add", counting_add)
    return counted


def test_a_roll_on_the_table_folds_no_other_game_again(tmp_path, monkeypatch):
    """A Venus 2140 game counts from its first action, so a roll at it moves the page (its seat's luck): that one
    game is added to the kept fold of the others, which are not folded again; the page is a fresh reader's."""
    from tableside.webui.stats import StatsBook

    with new_table(tmp_path, 1) as table:
        client = phone(table)
        client.application.extensions["tableside"].new_games.per_minute = 100
        _play(client, "venom")
        _play(client, "vegas")
        options, actions = SCENARIOS["v2140"]
        client.post("/api/sessions", json={"system": "v2140", "options": options}, headers=AUTH)
        table.act(actions[0], source="cli")
        before = _stats(client)
        counted = _counting(monkeypatch)
        for faces in ([6, 6], [1, 2], [5, 3]):
            table.roll("2d6", faces, source="cli", seat="Shred")
            after = _stats(client)
        assert counted == {"fold": 0, "add": 3}  # the game on the table, once a roll; never the other two
        assert after["games"] == before["games"] == 3
        dice = [sum(night["dice"] for night in _of(page, "Shred")["luck"]) for page in (before, after)]
        assert dice[1] == dice[0] + 6
        assert _of(after, "Ann") == _of(before, "Ann")  # who played the finished games: as they were
        fresh = StatsBook(table)
        try:
            assert fresh.answer(False).body == client.get("/api/stats", headers=AUTH).get_data()
        finally:
            fresh.close()


def test_a_roll_in_a_game_not_yet_ended_changes_nothing_kept_and_writes_nothing(tmp_path, monkeypatch):
    """A VENOM game being played counts once it ends: a roll at it adds nothing to the page, and its summary is
    not written beside every write of the table's; once another game takes its place, it is."""
    with new_table(tmp_path, 1) as table:
        client = phone(table)
        client.application.extensions["tableside"].new_games.per_minute = 100
        _play(client, "vegas")
        venom = client.post("/api/sessions", json={"system": "venom", "options": SCENARIOS["venom"][0]}, headers=AUTH)
        sid = venom.get_json()["id"]
        first = client.get("/api/stats", headers=AUTH).get_data()
        cached = table.store.execute("SELECT version FROM game_stats WHERE session_id = ?", [sid]).fetchall()
        counted = _counting(monkeypatch)
        for face in (1, 4, 6):
            table.roll("1d6", [face], source="cli")
            assert client.get("/api/stats", headers=AUTH).get_data() == first
        assert counted == {"fold": 0, "add": 0}
        assert table.store.execute("SELECT version FROM game_stats WHERE session_id = ?", [sid]).fetchall() == cached
        _play(client, "vegas")
        assert _stats(client)["games"] == 2
        saved = table.store.execute("SELECT version FROM game_stats WHERE session_id = ?", [sid]).fetchone()
        assert saved == (table.store.game_versions()[1][2],)


def test_a_game_deleted_while_another_is_on_the_table_leaves_the_page(tmp_path):
    with new_table(tmp_path, 1) as table:
        client = phone(table)
        client.application.extensions["tableside"].new_games.per_minute = 100
        vegas = _play(client, "vegas")  # Ann wins
        _play(client, "venom")
        assert _stats(client)["games"] == 2
        table.delete_session(vegas)
        stats = _stats(client)
        assert stats["games"] == 1 and [s["system"] for s in _of(stats, "Ann")["systems"]] == ["venom"]
