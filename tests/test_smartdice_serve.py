"""``tableside serve --simulate`` with its virtual smart dice, over real HTTP: pair, restart, roll into an attack.

The whole path a player takes without hardware: the dice page's scan lists the virtual dice,
two are named and paired, the names survive a restart, a VNM attack waits for 2 d10 (and the
e-paper shows the wait), two dice rolled from the phone fill it, and ``/api/hardware`` lists
the paired dice with their connection and battery.
"""

from __future__ import annotations

import time

import pytest

from tests.live import Process

CONFIG = "[display]\nsimulate_refresh = false\nmin_interval = 0\n"


def until(check, what, seconds=30.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def ok(server, method, path, body=None, expect=200):
    status, out = server.request(method, path, body)
    assert status == expect, (path, body, out)
    return out


def frame(server):
    status, png = server.request("GET", "/display.png")
    return png if status == 200 else None


@pytest.mark.slow
def test_simulated_dice_pair_survive_a_restart_and_fill_an_attack(tmp_path):
    data = tmp_path / "data"
    server = Process(data, CONFIG).start()
    try:
        listing = ok(server, "POST", "/api/dice/scan", {"seconds": 1})
        d10s = [d["id"] for d in listing["dice"] if d["kind"] == "d10"]
        ok(server, "POST", "/api/dice/pair", {"die": d10s[0], "name": "Red ten", "seat": "Pluto"})
        ok(server, "POST", "/api/dice/pair", {"die": d10s[1], "name": "Blue ten"})
    finally:
        out = server.stop()
    assert "Smart dice: 10 simulated dice" in out

    server = Process(data, CONFIG).start()
    try:
        # the dice open on the hardware thread, just after the first answer; until then "starting"
        listing = until(lambda: (d := ok(server, "GET", "/api/dice"))["kind"] != "starting" and d, "the dice")
        paired = {d["label"]: d for d in listing["dice"] if d["paired"]}
        assert set(paired) == {"Red ten", "Blue ten"} and paired["Red ten"]["seat"] == "Pluto"
        hardware = ok(server, "GET", "/api/hardware")["smart_dice"]
        assert hardware["kind"] == "simulated"
        assert {(d["label"], d["connection"]) for d in hardware["dice"]} == {
            ("Red ten", "connected"),
            ("Blue ten", "connected"),
        }
        ok(server, "POST", "/api/sessions", {"system": "vnm", "options": {}}, expect=201)
        ok(server, "POST", "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
        game = until(lambda: frame(server), "the first frame")
        waiting = ok(server, "POST", "/api/dice/wait", {"action": {"type": "attack"}})["waiting"]
        assert waiting["text"] == "Pluto vs Mars: waiting for 2 d10" and waiting["seat"] is None  # a phone with no seat
        until(lambda: frame(server) not in (None, game), "the e-paper to show the wait")
        ok(server, "POST", "/api/dice/roll", {"die": d10s[0], "face": 10})
        done = ok(server, "POST", "/api/dice/roll", {"die": d10s[1], "face": 4})
        assert done["waiting"] is None
        log = ok(server, "GET", "/api/sessions/active/log")
        assert (log[-1]["type"], log[-1]["source"]) == ("attack", "dice")
        assert log[-1]["rolls"][0]["rolls"] == [10, 4] and log[-1]["rolls"][0]["dice"] == ["Red ten", "Blue ten"]
    finally:
        server.stop()
