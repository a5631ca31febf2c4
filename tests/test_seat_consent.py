"""A take-over of a seat with private data needs that seat's consent (#33): its PIN, chosen when it claimed.

Shred's phone claims with a PIN and rolls Shred's Venus 2140 pool, then sleeps past ``SEAT_GONE_AFTER``.
Another phone taking the seat over with the PIN reads the pool, as before; with a wrong PIN it is refused
and nothing changes; with none it is seated but reads what a phone with no seat reads (0 faces learned).
"""

from __future__ import annotations

import json

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui import consent
from tableside.webui.seats import SEAT_GONE_AFTER

from tests.httpapi import AUTH, phone

SEATS = "/api/sessions/active/seats"
READS = (
    "/api/sessions/active",
    "/api/sessions/active/actions",
    "/api/sessions/active/log",
    "/api/sessions/active/export",
    "/api/sessions/active/moment",
    "/api/panel/chart.svg",
    "/api/panel/luck",
)


class Game:
    """A Venus 2140 table whose Shred pool was rolled from ``faces`` by Shred's phone (PIN ``pin``)."""

    def __init__(self, path, faces=(5, 4, 3), pin: str | None = "4711") -> None:
        self.now = [1000.0]
        self.path = path
        self.open()
        self.table.create_session("v2140", {"players": ["Shred"], "gm": "GM"})
        body = {"seat": "Shred", **({"pin": pin} if pin else {})}
        r = self.client.post(SEATS, json=body, headers=AUTH)
        assert r.status_code == 200, r.get_json()
        self.owner = {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}
        prepare = {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1, "secondary_skills": 1}
        for action in (prepare, {"type": "roll_pool", "participant": "Shred", "faces": list(faces)}):
            r = self.client.post("/api/sessions/active/actions", json=action, headers=self.owner)
            assert r.status_code == 200, r.get_json()
        self.pool = self.read("/api/sessions/active", self.owner)["state"]["participants"]["Shred"]["pool"]
        assert self.pool and sorted(self.pool, reverse=True) == self.pool
        self.now[0] += SEAT_GONE_AFTER + 1  # Shred's phone sleeps

    def open(self) -> None:
        self.table = Table(Store(self.path), clock=lambda: self.now[0])
        self.client = phone(self.table)

    def restart(self) -> None:
        self.table.store.close()
        self.open()

    def take_over(self, pin: str | None = None):
        """Another phone (no cookie of Shred's) asks to take Shred's seat over."""
        body = {"seat": "Shred", "takeover": True, **({"pin": pin} if pin else {})}
        return phone(self.table).post(SEATS, json=body, headers=AUTH)

    def taker(self, pin: str | None = None) -> dict:
        r = self.take_over(pin)
        assert r.status_code == 200, r.get_json()
        return {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}

    def read(self, path: str, headers: dict) -> dict:
        """What a phone sending ``headers`` (no cookie) reads at ``path``."""
        r = phone(self.table).get(path, headers=headers)
        assert r.status_code == 200, (path, r.status_code, r.get_data(as_text=True)[:200])
        text = r.get_data(as_text=True)
        return json.loads(text) if r.mimetype == "application/json" else {"text": text}

    def holders(self) -> dict:
        return {s["name"]: s for s in self.read(SEATS, AUTH)["seats"]}

    def close(self) -> None:
        self.table.store.close()


def reads(game: Game, headers: dict) -> list[str]:
    """Everything the phone reads of the game, without what names the phone itself (its seat, the tags)."""
    out = []
    for path in READS:
        got = game.read(path, headers)
        for part in (got, got.get("view") or {}) if isinstance(got, dict) else ():
            for key in ("seat", "seat_public", "tag", "base"):
                part.pop(key, None)
        out.append(json.dumps(got, sort_keys=True).replace(game.table.view()["id"], "GAME"))  # ids are random
    return out


def test_a_pin_chosen_at_claim_is_said_in_the_seat_list_and_the_right_one_hands_over_the_pool(tmp_path):
    game = Game(tmp_path / "t.db")
    assert game.holders()["Shred"].get("pin") is True and "pin" not in game.holders()["GM"]
    taker = game.taker("4711")
    assert game.read("/api/sessions/active", taker)["state"]["participants"]["Shred"]["pool"] == game.pool
    assert game.read("/api/sessions/active", taker)["seat"] == "Shred"
    assert "public" not in game.holders()["Shred"]
    game.close()


def test_a_wrong_pin_is_refused_in_words_and_changes_nothing(tmp_path):
    game = Game(tmp_path / "t.db")
    before = game.holders()["Shred"]
    for pin in ("0000", "12345678"):
        r = game.take_over(pin)
        assert r.status_code == 403 and "not the PIN of Shred's seat" in r.get_json()["error"], r.get_json()
    for pin in ("12", "123456789", "12a4", 4711):
        r = phone(game.table).post(SEATS, json={"seat": "Shred", "takeover": True, "pin": pin}, headers=AUTH)
        assert r.status_code == 400 and "'pin' must be 4 to 8 digits" in r.get_json()["error"], r.get_json()
    assert game.holders()["Shred"] == before
    assert game.read("/api/sessions/active", game.owner)["seat"] == "Shred"  # the owner still holds it
    game.close()


def test_a_take_over_without_the_pin_is_seated_but_learns_no_face(tmp_path):
    said = []
    for faces in ((5, 4, 3), (4, 4, 1)):  # the same count kept (public), other faces
        game = Game(tmp_path / f"{faces[0]}.db", faces)
        taker = game.taker()
        assert game.holders()["Shred"]["claimed"] and game.holders()["Shred"].get("public") is True
        view = game.read("/api/sessions/active", taker)
        assert view["seat"] == "Shred" and view["seat_public"] is True
        assert view["state"]["participants"]["Shred"]["pool"] is None, view["state"]["participants"]["Shred"]
        assert reads(game, taker) == reads(game, AUTH)  # what a phone with no seat reads
        probes = []
        for dice in ([6], [5], [1], [6, 6], [2, 2]):
            r = phone(game.table).post(
                "/api/sessions/active/actions",
                json={"type": "bid_initiative", "participant": "Shred", "dice": dice},
                headers=taker,
            )
            probes.append(json.dumps(r.get_json(), sort_keys=True))
        assert ['"error"' not in p for p in probes[:2]] == [True, True], probes  # the table goes on
        said.append((reads(game, taker), probes))
        game.close()
    pairs = list(zip(said[0][0] + said[0][1], said[1][0] + said[1][1], strict=True))
    learned = [(a[:200], b[:200]) for a, b in pairs if a != b]
    assert len(pairs) == len(READS) + 5 and learned == [], learned


def test_a_seat_that_never_had_a_pin_taken_over_reads_the_table_view(tmp_path):
    game = Game(tmp_path / "t.db", pin=None)  # no PIN was chosen: a take-over still reads the table's view
    taker = game.taker("4711")  # a PIN the seat never had changes nothing
    assert game.read("/api/sessions/active", taker)["state"]["participants"]["Shred"]["pool"] is None
    game.close()


def test_a_seat_its_phone_gave_up_is_free_of_its_pin(tmp_path):
    game = Game(tmp_path / "t.db")
    r = game.client.post(SEATS, json={"seat": "GM"}, headers=game.owner)  # Shred's phone moves to the GM's seat
    assert r.status_code == 200 and "pin" not in game.holders()["Shred"], r.get_json()
    other = phone(game.table).post(SEATS, json={"seat": "Shred"}, headers=AUTH).get_json()
    assert "public" not in other and "pin" not in other, other
    game.close()


def test_wrong_pins_are_limited_per_seat_and_the_wait_is_said_in_seconds(tmp_path):
    game = Game(tmp_path / "t.db")
    for _ in range(consent.TRIES - 1):
        assert game.take_over("0000").status_code == 403
    last = game.take_over("0000").get_json()["error"]
    assert f"wait {int(consent.WAIT)} s" in last, last
    r = game.take_over("4711")  # even the right PIN waits
    assert r.status_code == 429 and f"try again in {int(consent.WAIT)} s" in r.get_json()["error"], r.get_json()
    game.now[0] += consent.WAIT + 1
    assert game.take_over("4711").status_code == 200
    game.close()


def test_a_restart_keeps_the_pin_and_the_public_take_over(tmp_path):
    game = Game(tmp_path / "t.db")
    taker = game.taker()
    game.restart()
    assert game.holders()["Shred"].get("pin") is True
    assert game.read("/api/sessions/active", taker)["state"]["participants"]["Shred"]["pool"] is None
    assert game.take_over("0000").status_code == 403
    back = game.taker("4711")  # the owner takes the seat back with its PIN, at once
    assert game.read("/api/sessions/active", back)["state"]["participants"]["Shred"]["pool"] == game.pool
    assert phone(game.table).get("/api/sessions/active", headers=taker).status_code == 409  # the public phone lost it
    game.close()
