"""Smart-dice faces of a Venus 2140 pool cannot be learned from another phone (#33).

A pool rolled with smart dice (``tableside.dice_feed``: the wait is ``private_to`` the pool's seat) is that
seat's until its dice are put forward face up. Two tables are played the same way over HTTP with simulated
dice (the same hub and feed as Bluetooth ones) and differ only in the faces the dice showed; every phone
that is not the pool's seat (another seat's, one with no seat) reads every route of the app (views, stream,
log, export, charts, stats, the dice page, ``/api/dice``; the e-paper's screen and dice overlay) at each step
of the roll and after what a die may do later, and sends the probes of tests/test_v2140_pool_probes.py, while
the seat holds its phone and after it released it. A fact learned is an answer that differs between the two
tables: 0. Found this way (10 facts in 800 requests before): a die back from out of reach said "came back
showing N" only when N was not its private face, and a frame sent without a roll was dropped only when it
showed that face (a free roll of it otherwise).
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

from tableside.config import load_config
from tableside.smartdice import open_dice
from tests.httpapi import AUTH, CODE, seated
from tests.test_v2140_pool_probes import probes

# What the pool's dice showed at each table: 3 faces from 2 d6s (rolled, kept, one rolled again). The pool's
# count is public (4+ stay, 1-3 are tossed, a 6 rolls in: docs/rulebooks/v2140.txt), so both keep 2, roll no 6.
FACES = ([5, 5, 3], [4, 4, 1])
SKIP = {"api.shutdown", "settings.restart"}  # routes that end the table rather than answer a phone
NOW = 1_800_000_000.0  # one clock for both tables: the entries' times are the same


@contextmanager
def rig(folder: Path) -> Iterator[SimpleNamespace]:
    """A Venus 2140 table (Shred and Vex, GM) where Shred's phone drew a pool of 3 and waits for two smart d6s."""
    table = Table(Store(folder / "t.db"), rng=random.Random(4), clock=lambda: NOW)
    dice, _ = open_dice(
        load_config(None),
        True,
        folder,
        table,
        on_change=lambda: None,
        on_wait_change=lambda: None,
        report=lambda _: None,
    )
    dice.feed.clock = lambda: NOW
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: None, dice=dice)
    app = create_app(services, {"TESTING": True})
    table_phone = app.test_client()
    try:
        table_phone.post("/api/dice/scan", json={}, headers=AUTH)
        game = {"system": "v2140", "options": {"players": ["Shred", "Vex"], "gm": "GM"}}
        assert table_phone.post("/api/sessions", json=game, headers=AUTH).status_code == 201
        shred_phone, vex_phone = app.test_client(), app.test_client()
        shred, vex = seated(shred_phone, "Shred"), seated(vex_phone, "Vex")
        body = {"type": "prepare_pool", "primary_skills": 1, "secondary_skills": 1}
        assert shred_phone.post("/api/sessions/active/actions", json=body, headers=shred).status_code == 200
        d6s = sorted(d.id for d in dice.hub.dice.values() if d.kind == "d6")[:2]
        for n, die in enumerate(d6s):
            pairing = {"die": die, "name": f"Shred {n}", "seat": "Shred"}
            assert table_phone.post("/api/dice/pair", json=pairing, headers=AUTH).status_code == 200
        r = shred_phone.post("/api/dice/wait", json={"action": {"type": "roll_pool"}}, headers=shred)
        assert r.status_code == 200 and r.get_json()["waiting"]["private_to"] == "Shred", r.get_json()
        assert r.get_json()["waiting"]["needed"] == 3
        yield SimpleNamespace(
            table=table,
            app=app,
            dice=dice,
            d6s=d6s,
            phones={"no seat": (table_phone, AUTH), "Vex": (vex_phone, vex)},
            shred=(shred_phone, shred),
        )
    finally:
        dice.close()
        table.store.close()


def roll(t, die: int, face: int) -> None:
    """Shred's phone rolls its simulated die ``die`` (0 or 1) to ``face``."""
    client, headers = t.shred
    r = client.post("/api/dice/roll", json={"die": t.d6s[die], "face": face}, headers=headers)
    assert r.status_code == 200, r.get_json()


def keep(t) -> None:
    client, headers = t.shred
    assert client.post("/api/dice/keep", json={}, headers=headers).status_code == 200


def pool(t) -> list[int]:
    client, headers = t.shred
    return client.get("/api/sessions/active", headers=headers).get_json()["state"]["participants"]["Shred"]["pool"]


def _url(rule, session_id: str) -> str:
    values = {"session_id": session_id, "label": "A", "size": "192", "filename": "app.js", "key": "x", "lang": "en"}
    return rule.build({a: values.get(a, "x") for a in rule.arguments}, append_unknown=False)[1]


def _read(client, method: str, url: str, headers: dict, body: dict | None = None) -> str:
    """The answer as the phone reads it: status and body (a stream's first event)."""
    r = client.open(url, method=method, json=body if method != "GET" else None, headers=headers, buffered=False)
    try:
        if r.mimetype == "text/event-stream":
            first = next(iter(r.response), b"")
            text = first.decode() if isinstance(first, bytes) else first
        else:
            data = r.get_data()
            text = data.decode("utf-8", "replace") if r.mimetype != "image/png" else data.hex()
    finally:
        r.close()
    return f"{r.status_code} {text}"


def _same_words(text: str, t) -> str:
    """The answer without what differs between two tables by construction: the session's id, and the moment's
    tag (random: webui/api.py)."""
    text = re.sub(r'"tag":"[0-9a-f]+"', '"tag":"TAG"', text)
    return re.sub(re.escape(t.table.position()[0]), "SESSION", text)


def _reads(t) -> list[tuple[str, str, str]]:
    """(phone, request, answer) for every GET route, as each phone that is not Shred's reads it, and what the
    e-paper draws (the screen and the dice overlay)."""
    session_id = t.table.position()[0]
    out = []
    for rule in sorted(t.app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in rule.methods or rule.endpoint in SKIP or rule.endpoint == "static":
            continue
        url = _url(rule, session_id)
        for query in ("", "?format=csv") if rule.endpoint == "api.export" else ("",):
            for who, (client, headers) in t.phones.items():
                said = _read(client, "GET", url + query, headers)
                out.append((who, _same_words(f"GET {url}{query}", t), _same_words(said, t)))
    screen = json.dumps({"screen": t.table.screen().to_dict(), "dice": t.dice.feed.overlay()}, sort_keys=True)
    out.append(("e-paper", "the screen", _same_words(screen, t)))
    return out


def _probes(t) -> list[tuple[str, str, str]]:
    """(phone, probe, answer) for every probe naming Shred's pool (an accepted one is undone after)."""
    out = []
    for raw in probes():
        if "Shred" not in (raw.get("actor"), raw.get("participant")):
            continue
        for who, (client, headers) in t.phones.items():
            said = _read(client, "POST", "/api/sessions/active/actions", headers, raw)
            if said.startswith("200 "):
                said += " | " + _read(client, "POST", "/api/sessions/active/undo", headers, {})
            out.append((who, f"POST {raw}", _same_words(said, t)))
    return out


def _play(t, faces: list[int], read) -> None:
    """Shred's pool rolled in with ``faces`` (two dice, kept, one again), read at each step; then what a die
    does after (it comes back from out of reach showing the first table's last face; it sends a face without
    being rolled), each read again, before and after Shred's phone lets the seat go."""
    roll(t, 0, faces[0])
    read("one die in")
    roll(t, 1, faces[1])
    keep(t)
    read("two kept")
    roll(t, 0, faces[2])
    assert pool(t) == sorted((f for f in faces if f >= 4), reverse=True)
    read("rolled")
    t.dice.hub.drop(t.d6s[0])
    t.dice.hub.back(t.d6s[0])
    t.dice.hub.showing(t.d6s[0], FACES[0][2])  # as Pixels' IAmADie says the face on top (device/smartdice/pixels.py)
    read("a die back")
    t.dice.hub.landed(t.d6s[1], FACES[0][1])  # a frame without a roll (not seen moving)
    read("a frame unrolled", probe=True)
    client, headers = t.shred
    r = client.post("/api/sessions/active/seats/release", json={}, headers=headers)
    assert r.status_code == 200, r.get_json()
    read("released", probe=True)


def facts_learned() -> tuple[list[tuple[str, str, str]], int]:
    """(what another phone learned, requests sent): answers that differ between the two tables."""
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        answers: list[list[tuple[str, str, str]]] = []
        for n, faces in enumerate(FACES):
            t = stack.enter_context(rig(Path(tmp) / str(n)))
            said: list[tuple[str, str, str]] = []

            def read(step: str, probe: bool = False, t=t, said=said) -> None:
                asked = _reads(t) + (_probes(t) + _reads(t) if probe else [])
                said.extend((f"{step}, {who}", what, a) for who, what, a in asked)

            _play(t, faces, read)
            answers.append(said)
        a, b = answers
        assert [x[:2] for x in a] == [x[:2] for x in b]
        learned = [(who, what, x[:300]) for (who, what, x), (_, _, y) in zip(a, b, strict=True) if x != y]
        return learned, len(a)


def test_no_phone_but_the_pool_s_own_learns_a_smart_dice_face_of_it():
    learned, asked = facts_learned()
    assert asked == 800  # 73 reads at each of 6 steps, and at 2 of them 108 probes and the 73 reads again
    assert learned == [], f"{len(learned)} facts learned in {asked} requests, e.g. {learned[:3]}"


def test_a_die_back_with_a_private_face_is_told_to_roll_again_without_a_face():
    with tempfile.TemporaryDirectory() as tmp, rig(Path(tmp)) as t:
        for n, face in enumerate((5, 4)):
            roll(t, n, face)
        keep(t)
        roll(t, 0, 4)
        t.dice.hub.drop(t.d6s[0])
        t.dice.hub.back(t.d6s[0])
        t.dice.hub.showing(t.d6s[0], 2)
        said = t.phones["Vex"][0].get("/api/dice", headers=t.phones["Vex"][1]).get_json()["message"]
        assert said == "Shred 0 is back: if it was rolled while out of reach, that roll was not used, roll it again"
        t.dice.hub.rolling(t.d6s[0])
        t.dice.hub.landed(t.d6s[0], 2)  # rolled: a free roll everyone sees, as before
        assert "Shred 0 shows 2" in t.phones["Vex"][0].get("/api/dice", headers=AUTH).get_json()["message"]
