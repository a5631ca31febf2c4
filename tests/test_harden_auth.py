"""Who may talk to the table (issue 13): the join code's rate limit, its signed cookie,
cross-site requests, the Host header, and codes refused at start-up."""

from __future__ import annotations

import html
import logging
import random

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app
from tableside.webui.auth import COOKIE, JoinGuard, host_allowed

from tableside import config
from tests import toysystem
from tests.handclock import Clock

CODE = "K7TQ2M"
AUTH = {"Authorization": f"Bearer {CODE}"}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def services(tmp_path, clock):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    yield Services(
        table=table,
        join_code=CODE,
        frame_png=lambda: b"",
        press=lambda *_: {},
        guard=JoinGuard(free=3, base=1.0, ceiling=3600.0, clock=clock),
        names=("games-table",),
    )
    table.store.close()


@pytest.fixture
def client(services):
    return create_app(services, {"TESTING": True}).test_client()


# -- guessing the code ---------------------------------------------------------------------
def test_wrong_codes_get_a_growing_wait_and_are_logged(client, clock, caplog):
    caplog.set_level(logging.WARNING, logger="tableside.webui.auth")
    for _ in range(3):  # a few typos are free
        assert client.get("/join?code=WRONG1").status_code == 401
    assert client.get(f"/join?code={CODE}").status_code == 302  # and the right code still works
    for _ in range(3):  # after a success, the typos are free again
        assert client.get("/api/systems", headers={"Authorization": "Bearer WRONG1"}).status_code == 401
    assert client.get("/api/systems", headers=AUTH).status_code == 200
    for _ in range(3):
        assert client.get("/api/systems", headers={"Authorization": "Bearer WRONG1"}).status_code == 401
    waits = []
    for _ in range(6):
        assert client.get("/api/systems", headers={"Authorization": "Bearer WRONG1"}).status_code == 401
        r = client.get("/api/systems", headers=AUTH)  # even the right code waits its turn
        assert r.status_code == 429 and "try again in" in r.get_json()["error"]
        waits.append(int(r.headers["Retry-After"]))
        clock.now += waits[-1]
    assert waits == [1, 2, 4, 8, 16, 32]
    assert client.get("/api/systems", headers=AUTH).status_code == 200
    assert sum("wrong join code from" in rec.getMessage() for rec in caplog.records) == 3 + 3 + 3 + 6


def test_the_wait_grows_to_an_hour_so_guessing_takes_years():
    clock = Clock()
    guard = JoinGuard(clock=clock)
    waited = 0.0
    for _ in range(60):  # as fast as allowed: a source is forgotten only a day after its last wrong code
        wait = guard.failed("10.0.0.9")
        waited += wait
        clock.now += wait
    assert guard.failed("10.0.0.9") == 3600.0
    # 6 characters from 32 symbols: half the codes at one guess an hour is tens of thousands of years.
    years = (len(config.CODE_ALPHABET) ** config.CODE_LENGTH / 2) * 3600 / (365 * 24 * 3600)
    assert years > 10_000


def test_devices_are_counted_apart(client, services):
    services.guard.free = 0
    client.get("/join?code=WRONG1", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert client.get("/api/systems", headers=AUTH, environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 429
    assert client.get("/api/systems", headers=AUTH, environ_base={"REMOTE_ADDR": "10.0.0.8"}).status_code == 200


# -- the cookie ----------------------------------------------------------------------------
def test_the_cookie_holds_a_signed_token_not_the_code(client):
    r = client.get(f"/join?code={CODE}")
    cookie = client.get_cookie(COOKIE)
    assert r.status_code == 302 and cookie is not None
    assert CODE not in cookie.value and CODE.lower() not in cookie.value.lower()
    assert client.get("/api/systems").status_code == 200
    client.set_cookie(COOKIE, CODE)  # the code itself is no longer a valid cookie
    assert client.get("/api/systems").status_code == 401


def test_changing_the_code_revokes_every_cookie(client, services):
    client.get(f"/join?code={CODE}")
    assert client.get("/api/systems").status_code == 200
    services.join_code = "NEWCODE9"
    assert client.get("/api/systems").status_code == 401
    assert client.get("/join?code=NEWCODE9").status_code == 302
    assert client.get("/api/systems").status_code == 200


def test_a_forged_or_tampered_cookie_is_refused(client):
    client.get(f"/join?code={CODE}")
    good = client.get_cookie(COOKIE).value
    for bad in (good[:-1] + ("0" if good[-1] != "0" else "1"), "t1.x.y", "", "x" * 500):
        client.set_cookie(COOKIE, bad)
        assert client.get("/api/systems").status_code == 401


# -- codes refused at start ----------------------------------------------------------------
@pytest.mark.parametrize("bad", ["", "   ", "\t\n", "ABC12", "AB CD EF", "x" * 65])
def test_weak_or_empty_codes_are_refused_at_start(tmp_path, monkeypatch, bad):
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", bad)
    with pytest.raises(config.ConfigError) as info:
        config.join_code(tmp_path)
    assert "TABLESIDE_JOIN_CODE" in str(info.value)


def test_a_good_code_from_the_environment_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLESIDE_JOIN_CODE", "  PLAY42 ")
    assert config.join_code(tmp_path) == "PLAY42"


# -- cross-site requests -------------------------------------------------------------------
def test_a_foreign_page_cannot_change_the_table_even_with_the_cookie(client):
    client.get(f"/join?code={CODE}")
    body = '{"system": "toy"}'
    r = client.post(
        "/api/sessions", data=body, headers={"Origin": "http://evil.example", "Content-Type": "application/json"}
    )
    assert r.status_code == 403 and "may not change the table" in r.get_json()["error"]
    r = client.post("/api/sessions", data=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.get_json()["error"]
    r = client.post(
        "/api/sessions", data=body, headers={"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}
    )
    assert r.status_code == 403
    assert client.get("/api/sessions").get_json() == []  # nothing was created
    r = client.post(
        "/api/sessions",
        data=body,
        headers={"Origin": "http://localhost", "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"},
    )
    assert r.status_code == 201


def test_form_bodies_with_the_cookie_are_refused_but_scripts_with_the_code_are_fine(client):
    client.get(f"/join?code={CODE}")
    r = client.post("/api/sessions", data={"system": "toy"})  # a form post riding on the cookie
    assert r.status_code == 415 and client.get("/api/sessions").get_json() == []
    assert client.post("/api/sessions", json={"system": "toy"}).status_code == 201
    assert client.post("/api/sessions/active/undo").status_code == 422  # no body: fine (nothing to undo)
    # curl -H 'Authorization: Bearer CODE' -d '{...}': no other site can send that header
    r = client.post(
        "/api/sessions", data='{"system": "toy"}', headers={**AUTH, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 201


# -- Host header (DNS rebinding) -------------------------------------------------------------
@pytest.mark.parametrize(
    "host",
    [
        "192.168.1.20:8080",
        "10.0.0.5",
        "[fe80::1]:8080",
        "[::1]",
        "tableside.local",
        "pi-table.local:8080",
        "localhost:8080",
        "games-table",
        "GAMES-TABLE:80",
    ],
)
def test_hosts_the_table_answers_to(client, host):
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8080",
        "attacker.com.",
        "local",
        ".local",
        "a b.local",
        "192.168.1.20:http",
        "[zz::1]",
        "",
    ],
)
def test_other_hosts_are_refused(client, host):
    r = client.get("/api/systems", headers={"Host": host, **AUTH})
    assert r.status_code == 400 and "host name" in r.get_json()["error"]


def test_host_allowed_needs_a_name_for_configured_hosts():
    assert not host_allowed("games-table")
    assert host_allowed("games-table", ("games-table",))


def test_the_table_s_qr_code_gets_in_while_a_guest_guesses_from_rotating_addresses(client, services):
    """Found from outside (#33): a guest sending wrong codes from rotating addresses spends the table-wide
    budget (10 checks a second), and then the right code was refused too: 56 of 57 tries on /join. The
    e-paper's QR code carries a key signed with the table's secret beside the code (display.join.JoinInfo):
    it is let in every time, from any address, even one that has been guessing and is told to scan."""
    from tableside.display.join import JoinInfo
    from tableside.webui.auth import join_key

    link = JoinInfo("http://192.168.1.20:8080", CODE, join_key(services.secret, CODE)).link
    query = link.split("/join", 1)[1]
    assert "&key=" in query and len(query) < 60
    _guess_from(client, 50, services.guard.free + 1)
    let_in = 0
    for n in range(20):
        r = client.get("/join" + query, environ_base={"REMOTE_ADDR": f"10.9.0.{n}"})  # guessers' addresses
        let_in += r.status_code == 302 and COOKIE in r.headers.get("Set-Cookie", "")
    assert let_in == 20
    typed = client.get(f"/join?code={CODE}", environ_base={"REMOTE_ADDR": "10.9.0.30"})
    said = html.unescape(typed.get_data(as_text=True))
    assert typed.status_code == 429 and "scan the QR code on the table's display" in said, said
    # a key with a wrong code, or a made-up key with the right code, goes through the throttle like any guess
    for bad in (query.replace(CODE, "WRONG1"), f"?code={CODE}&key=AAAAAAAAAAAAAA"):
        assert client.get("/join" + bad, environ_base={"REMOTE_ADDR": "10.9.0.31"}).status_code == 429


def _guess_from(client, addresses: int, each: int) -> int:
    """A guest sending ``each`` wrong codes from each of ``addresses`` addresses (10.9.x.y), the clock
    still; returns how many were checked (401, not 429)."""
    checked = 0
    for n in range(addresses):
        for _ in range(each):
            environ = {"REMOTE_ADDR": f"10.9.{n // 250}.{n % 250}"}
            r = client.get("/api/sessions", headers={"Authorization": "Bearer WRONG1"}, environ_base=environ)
            assert r.status_code in (401, 429), r.status_code
            checked += r.status_code == 401
    return checked


def test_a_typed_right_code_gets_in_at_once_while_a_guest_guesses_from_many_addresses(client, services):
    """#33: the throttle is per source, so a phone that has not been guessing gets in with the right code
    every time (on /join and as Bearer), even after a typo, while the guest is held to the table-wide
    ceiling: only its free typos per address are checked, and past them even its right code waits."""
    free = services.guard.free
    checked = _guess_from(client, 200, free + 2)
    assert checked <= 200 * free + services.guard.per_second, checked  # the clock never moved: no refill
    accepted = 0
    for n in range(20):  # late friends, each on an address of its own, between the guesses
        _guess_from(client, 3, 1)
        joined = client.get(f"/join?code={CODE.lower()}", environ_base={"REMOTE_ADDR": f"10.8.0.{n}"})
        bearer = client.get("/api/sessions", headers=AUTH, environ_base={"REMOTE_ADDR": f"10.8.1.{n}"})
        accepted += joined.status_code == 302 and bearer.status_code == 200
    assert accepted == 20
    typo = {"REMOTE_ADDR": "10.8.2.1"}
    assert client.get("/join?code=WRONG1", environ_base=typo).status_code == 401
    assert client.get(f"/join?code={CODE}", environ_base=typo).status_code == 302
    guesser = client.get("/api/sessions", headers=AUTH, environ_base={"REMOTE_ADDR": "10.9.0.7"})
    assert guesser.status_code == 429 and int(guesser.headers["Retry-After"]) >= 1


def test_sources_are_forgotten_a_day_after_their_last_wrong_code():
    clock = Clock()
    guard = JoinGuard(free=1, base=1000.0, clock=clock, forget=100.0)
    guard.failed("10.0.0.9")
    guard.failed("10.0.0.9")
    assert guard.wait("10.0.0.9") > 0
    clock.now += 99
    assert guard.wait("10.0.0.9") > 0
    clock.now += 1
    assert guard.wait("10.0.0.9") == 0
