"""The dice page's JSON over HTTP, with simulated dice: scan, pair, roll into a waiting action, refusals.

Also: with ``[dice] kind = "none"`` (or no adapter) nothing of the smart dice is built or
imported, and ``tableside serve``'s modules never import bleak.
"""

from __future__ import annotations

import random
import subprocess
import sys
from types import SimpleNamespace

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

from tableside.config import ConfigError, load_config
from tableside.smartdice import open_dice
from tests.httpapi import AUTH, CODE


@pytest.fixture
def rig(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(4))
    events = []
    cfg = load_config(None)
    dice, note = open_dice(
        cfg,
        True,
        tmp_path,
        table,
        on_change=lambda: events.append("dice"),
        on_wait_change=lambda: events.append("wait"),
        report=events.append,
    )
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: None, dice=dice)
    client = create_app(services, {"TESTING": True}).test_client()
    yield SimpleNamespace(table=table, dice=dice, client=client, events=events, note=note)
    dice.close()
    table.store.close()


def post(client, path, body=None, headers=AUTH):
    return client.post(path, json=body or {}, headers=headers)


def test_serve_simulate_gets_ten_virtual_dice_that_pair_and_roll_from_the_phone(rig):
    assert rig.note.startswith("10 simulated dice")
    listing = post(rig.client, "/api/dice/scan", {"seconds": 2}).get_json()
    assert listing["kind"] == "simulated" and len(listing["dice"]) == 10
    d10s = [d["id"] for d in listing["dice"] if d["kind"] == "d10"]
    for n, die in enumerate(d10s[:2]):
        r = post(rig.client, "/api/dice/pair", {"die": die, "name": f"Ten {n}", "seat": None})
        assert r.status_code == 200, r.get_json()
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    post(rig.client, "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
    refused = post(rig.client, "/api/sessions/active/actions", {"type": "attack", "faces": []})  # "by hand"
    assert refused.status_code == 422 and refused.get_json()["needs_dice"]
    waiting = post(rig.client, "/api/dice/wait", {"action": {"type": "attack"}}).get_json()["waiting"]
    assert waiting["text"] == "Pluto vs Mars: waiting for 2 d10"
    post(rig.client, "/api/dice/roll", {"die": d10s[0], "face": 9})
    after = post(rig.client, "/api/dice/roll", {"die": d10s[1], "face": 1}).get_json()
    assert after["waiting"] is None and after["message"]
    log = rig.client.get("/api/sessions/active/log", headers=AUTH).get_json()
    attack = log[-1]
    assert attack["source"] == "dice" and attack["rolls"][0]["rolls"] == [9, 1]
    assert attack["rolls"][0]["dice"] == ["Ten 0", "Ten 1"]
    assert "wait" in rig.events and "dice" in rig.events


def test_the_dice_page_and_its_refusals(rig):
    page = rig.client.get("/dice", headers=AUTH)
    assert page.status_code == 200 and b"/static/dice.js" in page.data
    script = rig.client.get("/static/dice.js")
    assert script.status_code == 200 and b"/api/dice/wait" not in script.data and b"/api/dice/pair" in script.data
    script.close()
    post(rig.client, "/api/dice/scan")
    cases = [
        ("/api/dice/scan", {"seconds": 99}, 400, "1 to 15"),
        ("/api/dice/pair", {"die": "sim-1", "name": "x" * 30}, 400, "1-24 characters"),
        ("/api/dice/pair", {"die": "sim-1", "kind": "d7"}, 400, "'kind' must be one of"),
        ("/api/dice/pair", {"die": "sim-1", "kind": "d6"}, 422, "only a GoDice changes kind"),
        ("/api/dice/pair", {"die": "nope"}, 404, "no die 'nope'"),
        ("/api/dice/roll", {"die": "sim-1", "face": 3}, 422, "pair Sim d10 1 first"),
        ("/api/dice/pair", {"die": "sim-2", "name": "Two"}, 200, None),
        ("/api/dice/roll", {"die": "sim-2", "face": 11}, 400, "a face of a d10"),
        ("/api/dice/wait", {"action": "attack"}, 400, "an action object"),
        ("/api/dice/wait", {"action": {"type": "attack"}}, 404, "no active session"),
        ("/api/dice/keep", {}, 422, "no faces to keep"),
        ("/api/dice/free", {}, 422, "no free roll"),
    ]
    for path, body, status, words in cases:
        r = post(rig.client, path, body)
        assert r.status_code == status and (words is None or words in r.get_json()["error"]), (path, r.get_json())
    assert post(rig.client, "/api/dice/scan", headers={}).status_code == 401


def test_no_smart_dice_means_nothing_is_built(tmp_path):
    table = Table(Store(tmp_path / "t.db"))
    cfg = SimpleNamespace(dice="none")
    dice, note = open_dice(cfg, True, tmp_path, table, on_change=None, on_wait_change=None, report=None)
    assert dice is None and note == "off ([dice] kind = none)"
    auto = SimpleNamespace(dice="auto")
    hooks = {"on_change": None, "on_wait_change": None, "report": None}
    dice, note = open_dice(auto, False, tmp_path, table, root=tmp_path, **hooks)
    assert dice is None and note == "none (no Bluetooth adapter)"
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: None)
    client = create_app(services, {"TESTING": True}).test_client()
    assert client.get("/api/dice", headers=AUTH).get_json()["kind"] == "none"
    r = post(client, "/api/dice/scan")
    assert r.status_code == 404 and "no smart dice" in r.get_json()["error"]
    table.store.close()


def test_serving_without_dice_never_imports_bleak_or_the_dice_modules():
    code = (
        "import sys\n"
        "import tableside.core.table, tableside.serve, tableside.webui.app, tableside.smartdice\n"
        "from tableside.config import load_config\n"
        "print(sorted(m for m in sys.modules if m.startswith(('bleak', 'godice', 'dbus_fast', "
        "'tableside.device.smartdice'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_dice_config_is_checked(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text('[dice]\nkind = "simulated"\nsimulated = ["d6", "d10"]\nadapter = "hci1"\n')
    cfg = load_config(str(conf))
    assert (cfg.dice, cfg.dice_simulated, cfg.dice_adapter) == ("simulated", ("d6", "d10"), "hci1")
    for bad, words in (
        ('kind = "usb"', "kind must be one of"),
        ('simulated = ["d7"]', "simulated must be a list"),
        ('adapter = "/dev/x"', "adapter must name"),
    ):
        conf.write_text(f"[dice]\n{bad}\n")
        with pytest.raises(ConfigError, match=words):
            load_config(str(conf))


BAD_VALUES = [None, True, 3, -1, 2.5, "", "x" * 300, [], ["sim-1"], {}, {"type": 1}, {"type": "attack", "x": [[]]}]


def test_every_dice_route_answers_bad_values_in_words_never_a_500(rig):
    post(rig.client, "/api/dice/scan")
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    routes = {
        "/api/dice/scan": ("seconds",),
        "/api/dice/pair": ("die", "name", "seat", "kind"),
        "/api/dice/forget": ("die",),
        "/api/dice/roll": ("die", "face"),
        "/api/dice/wait": ("action",),
        "/api/dice/keep": (),
        "/api/dice/cancel": (),
        "/api/dice/free": (),
    }
    for path, keys in routes.items():
        for key in keys:
            for value in BAD_VALUES:
                body = {"die": "sim-1", key: value}
                r = post(rig.client, path, body)
                assert r.status_code < 500 and r.is_json, (path, body, r.status_code, r.data[:200])
                if r.status_code >= 400:
                    assert r.get_json()["error"], (path, body)
        r = rig.client.post(path, data=b"[1, 2", headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 400 and "JSON object" in r.get_json()["error"], (path, r.get_json())
