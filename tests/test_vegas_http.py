"""Venusian Vegas over HTTP: bad input is a 422 naming the problem, and changes nothing."""

from __future__ import annotations

import pytest

from tests.httpapi import AUTH, api_client, post, refused


@pytest.fixture
def client(tmp_path):
    with api_client(tmp_path, seed=5) as phone:
        yield phone


def act(client, body):
    return post(client, "/api/sessions/active/actions", body)


def ok(client, body):
    r = act(client, body)
    assert r.status_code == 200, (body, r.get_json())
    return r.get_json()


def active(client):
    return client.get("/api/sessions/active", headers=AUTH).get_json()


def new_game(client, players=("Ann", "Bob", "Cy")):
    r = post(client, "/api/sessions", {"system": "vegas", "options": {"players": list(players)}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def in_round(client):
    new_game(client)
    for player, tracks in (("Ann", ["Team", "Game"]), ("Bob", ["Game", "Inspector"]), ("Cy", ["Bot", "Mobster"])):
        ok(client, {"type": "setup_tracks", "player": player, "tracks": tracks})
    ok(client, {"type": "start_round"})
    ok(client, {"type": "free_increase", "track": "Game", "player": "Ann"})


def test_a_sixth_player_is_refused(client):
    r = post(
        client, "/api/sessions", {"system": "vegas", "options": {"players": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]}}
    )
    assert r.status_code == 422
    assert "players" in r.get_json()["error"].lower() and "5" in r.get_json()["error"]
    assert client.get("/api/sessions", headers=AUTH).get_json() == []


def test_increasing_one_track_twice_at_setup_is_refused(client):
    new_game(client)
    refused(client, {"type": "setup_tracks", "player": "Ann", "tracks": ["Game", "Game"]}, "Game", "twice")
    refused(client, {"type": "setup_tracks", "player": "Ann", "tracks": ["Game", "Team", "Bot"]}, "2 different tracks")


def test_a_token_the_player_does_not_hold_is_refused(client):
    in_round(client)
    refused(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Team", "number": 4, "token": "Mobster"},
                {"player": "Bob", "suit": "Team", "number": 9},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
        "Ann holds no Mobster token",
    )


def test_two_game_tokens_in_one_trick_are_refused(client):
    in_round(client)
    refused(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Team", "number": 4, "token": "Game", "trump": "Bot"},
                {"player": "Bob", "suit": "Team", "number": 9, "token": "Game", "trump": "Team"},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
        "only one token of each colour",
        "Game",
    )


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ({"player": "Ann", "suit": "Team", "number": 14}, ("number", "at most 13", "14")),
        ({"player": "Ann", "suit": "Joker", "number": 4}, ("Joker",)),
    ],
    ids=["Team 14", "Joker 4"],
)
def test_a_card_that_does_not_exist_is_refused(client, card, words):
    in_round(client)
    refused(
        client,
        {
            "type": "play_trick",
            "cards": [
                card,
                {"player": "Bob", "suit": "Team", "number": 9},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
        *words,
    )


def test_other_bad_input_names_the_problem(client):
    in_round(client)
    refused(client, {"type": "trick_winner", "winner": "Zed"}, "Zed")
    refused(client, {"type": "reveal_card", "suit": "Team", "number": 3}, "Reveal")
    refused(client, {"type": "correct", "key": "boards.0.Team", "value": 6}, "at most 5")
    r = act(client, {"type": "play_trick", "cards": "Ann plays Team 4"})
    assert r.status_code == 400 and "list" in r.get_json()["error"]


def test_a_game_played_over_http_and_undone(client):
    in_round(client)
    body = ok(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Game", "number": 9},
                {"player": "Bob", "suit": "Game", "number": 4, "token": "Inspector"},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
    )
    assert body["result"]["winner"] == "Bob" and body["state"]["rank"] == "Low Wins"
    version = body["version"]
    undone = post(client, "/api/sessions/active/undo", {})
    assert undone.status_code == 200
    state = active(client)["state"]
    assert state["rank"] == "High Wins" and state["tokens"]["Bob"]["Inspector"] == 1
    redone = post(client, "/api/sessions/active/redo", {})
    assert redone.status_code == 200 and active(client)["state"]["rank"] == "Low Wins"
    assert active(client)["version"] > version


def test_buttons_start_the_round_and_settle_the_tie_with_a_logged_die(client):
    new_game(client)
    for player, tracks in (("Ann", ["Team", "Game"]), ("Bob", ["Game", "Inspector"]), ("Cy", ["Bot", "Mobster"])):
        ok(client, {"type": "setup_tracks", "player": player, "tracks": tracks})
    assert post(client, "/api/buttons/A", {"hold": False}).status_code == 422  # no trick open: nothing to do
    assert post(client, "/api/buttons/C", {"hold": False}).status_code == 200
    assert active(client)["state"]["round"] == 1
    assert post(client, "/api/buttons/B", {"hold": False}).status_code == 200
    chosen = active(client)["state"]["chosen"]
    entry = client.get("/api/sessions/active/log", headers=AUTH).get_json()[-1]
    (roll,) = entry["rolls"]
    assert roll["expr"] == "1d3" and ["Ann", "Bob", "Cy"][roll["rolls"][0] - 1] == chosen
    pending = client.get("/api/sessions/active/actions", headers=AUTH).get_json()["pending"]
    said = f"{chosen}: choose a free increase and lead"
    assert pending == [{"seat": chosen, "text": said, "type": "free_increase", "rule": "vegas:furthest_behind"}]


def seat_headers(client, seat):
    """A phone of its own at ``seat``: the client's seat cookie from an earlier claim is not sent (a phone
    holds one seat, so claiming another with it would give the first one up)."""
    client.delete_cookie("tableside_seat")
    r = client.post("/api/sessions/active/seats", json={"seat": seat}, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}


def test_an_entered_hand_reaches_only_its_seat_and_a_card_played_again_is_refused_in_words(client):
    """ "Follow the led suit if you can": checked against a hand its seat entered; nobody else sees the cards."""
    in_round(client)
    ann, bob = seat_headers(client, "Ann"), seat_headers(client, "Bob")
    held = active(client)["state"]["hand"]["Ann"]
    cards = [f"Mobster {n}" for n in range(1, held + 1)]
    r = client.post(
        "/api/sessions/active/actions", json={"type": "enter_hand", "player": "Ann", "cards": cards}, headers=ann
    )
    assert r.status_code == 200, r.get_json()
    assert "Mobster" not in r.get_json()["result"]["summary"]
    mine = client.get("/api/sessions/active", headers=ann).get_json()["state"]
    assert mine["hands"]["Ann"] == cards
    for headers in (bob, AUTH):
        view = client.get("/api/sessions/active", headers=headers).get_json()["state"]
        assert view["hands"]["Ann"] is None and view["hand_entered"]["Ann"] is True
        log = client.get("/api/sessions/active/log", headers=headers).get_data(as_text=True)
        assert "Ann entered their hand" in log
        assert "Mobster 1" not in log and "Mobster 2" not in log
    refused(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Game", "number": 9},
                {"player": "Bob", "suit": "Game", "number": 4},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
        "Ann's hand as entered does not hold Game 9",
        headers=ann,  # checked aloud on Ann's own phone only (#33)
    )
    ok(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Mobster", "number": 9},
                {"player": "Bob", "suit": "Game", "number": 4},
                {"player": "Cy", "suit": "Bot", "number": 2},
            ],
        },
    )
    ok(client, {"type": "next_trick"})
    refused(
        client,
        {
            "type": "play_trick",
            "cards": [
                {"player": "Ann", "suit": "Mobster", "number": 8},
                {"player": "Bob", "suit": "Bot", "number": 2},
                {"player": "Cy", "suit": "Team", "number": 1},
            ],
        },
        "Bob's card: Bot 2 was already played this round (Cy, trick 1)",
    )
