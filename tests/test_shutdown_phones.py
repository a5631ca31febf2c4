"""The shutdown question on the phones (issue 32): while it is open every phone is told it with its number, and a
phone's Confirm (``POST /api/prompt/confirm``) switches the table off at once, whatever the e-paper is doing; a
Confirm after the question lapsed, or of another question, does nothing, and a press after it never plays.

Each Inky refresh class is simulated by a panel whose refresh takes its real time (``Panel.refresh_seconds``) on
a fake clock and holds until the test lets it go (tests/test_prompts_in_time.py's ``Ink``). Any joined phone may
confirm: the question only opens when someone at the device held the chord, and every joined phone has the
table's buttons already (``POST /api/buttons/A``), so an owner PIN would only make the host hunt for a phone
within the question's 7 s.
"""

from __future__ import annotations

import json
import time

import pytest
from tableside.device.buttons import Gesture
from tableside.device.controls import CONFIRM_HOLD, CONFIRM_WINDOW
from tableside.device.display import RefreshScheduler
from tableside.display.panels import PANELS
from tableside.webui.app import Services, create_app
from tableside.webui.stream import Broker

from tableside.config import load_config
from tableside.faults import Faults
from tableside.frames import FrameSource
from tableside.pi import Appliance
from tests.test_pi_parts import Ran, table  # noqa: F401  (the fixture: a toy game)
from tests.test_prompts_in_time import CLASSES, Clock, Ink

AUTH = {"Authorization": "Bearer K7TQ2M"}
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


class Heard(Broker):
    """The events every phone would be sent, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict] = []

    def publish(self, event: dict) -> None:
        self.events.append(event)
        super().publish(event)


@pytest.fixture
def rig(table, tmp_path, request):  # noqa: F811
    panel, clock = PANELS[request.param], Clock()
    ink = Ink(panel, clock)
    broker = Heard()
    appliance = Appliance(load_config(None), table, broker, Faults(tmp_path), simulate=False, model=PI5)
    ran = Ran()
    appliance.controls.simulated, appliance.controls.run = False, ran  # never this computer's own poweroff
    frames = FrameSource(table, panel, overlay=appliance.controls.panel_overlay)
    worker = RefreshScheduler(ink, frames.image, clock=clock)
    appliance.controls.can_show = worker.can_show_within
    services = Services(
        table=table,
        join_code="K7TQ2M",
        frame_png=lambda: b"",
        press=appliance.press,
        confirm=appliance.confirm,
        broker=broker,
        hardware=appliance.status,
    )
    worker.start()
    assert ink.started.wait(20)  # a refresh of the game is under way: the panel is busy for its whole refresh
    try:
        yield appliance, create_app(services, {"TESTING": True}).test_client(), broker, ran, ink
    finally:
        ink.go.set()
        worker.stop()
        appliance.close()


def prompts(broker: Heard) -> list:
    return [e["prompt"] for e in broker.events if e["kind"] == "prompt"]


@pytest.mark.parametrize("rig", CLASSES, indirect=True)
def test_every_phone_is_asked_and_a_phone_confirms_at_once_while_the_panel_refreshes(rig, table):  # noqa: F811
    appliance, client, broker, ran, ink = rig
    now = appliance.buttons.now()
    appliance.controls.handle(Gesture("chord", ("A", "D"), now))
    asked = prompts(broker)[-1]
    assert asked["kind"] == "shutdown" and asked["title"] == "Shut down the table?" and isinstance(asked["id"], int)
    assert appliance.controls.panel_overlay() is None  # busy panel: never drawn, it would land after its deadline
    assert client.get("/api/hardware", headers=AUTH).get_json()["prompt"]["id"] == asked["id"]  # a phone that asks

    other = client.post("/api/prompt/confirm", json={"id": asked["id"] + 1}, headers=AUTH)  # a question gone by
    assert other.status_code == 409 and "no longer open" in other.get_json()["error"] and ran.calls == []
    bad = client.post("/api/prompt/confirm", json={"id": "yes"}, headers=AUTH)
    assert bad.status_code == 422 and "'id' must be the number" in bad.get_json()["error"] and ran.calls == []
    assert prompts(broker)[-1] == asked  # still open: nothing changed

    began = time.monotonic()
    done = client.post("/api/prompt/confirm", json={"id": asked["id"]}, headers=AUTH)
    assert time.monotonic() - began < 1.0 and not ink.go.is_set()  # at once: the e-paper is still mid-refresh
    assert done.status_code == 200 and done.get_json()["result"]["summary"] == "Shutting down"
    assert ran.calls == [["systemctl", "poweroff"]]
    decided = prompts(broker)[-1]
    assert decided["title"] == "Shutting down" and "id" not in decided  # every phone: decided, nothing to confirm
    assert {"kind": "said", "message": "A phone confirmed: Shutting down"} in broker.events
    assert appliance.controls.panel_overlay()["title"] == "Shutting down"  # the e-paper says it once decided
    # The hand on the chord lets go afterwards: still shutting down, never "cancelled", and never the game's.
    let_go = appliance.controls.handle(Gesture("release", ("A", "D"), now + 1.0))
    assert let_go["result"]["summary"] == "Shutting down"
    assert appliance.controls.panel_overlay()["title"] == "Shutting down"
    again = client.post("/api/prompt/confirm", json={"id": asked["id"]}, headers=AUTH)
    assert again.status_code == 409 and ran.calls == [["systemctl", "poweroff"]]  # once only
    assert table.view()["state"]["score"] == 0


@pytest.mark.parametrize("rig", CLASSES[:1], indirect=True)
def test_a_confirm_after_the_question_lapsed_does_nothing_and_a_press_then_never_plays(rig, table):  # noqa: F811
    appliance, client, broker, ran, _ = rig
    deadline = CONFIRM_HOLD + CONFIRM_WINDOW
    opened = appliance.buttons.now() - deadline - 0.5  # its timer has not run yet; the clock says it lapsed
    appliance.controls.schedule = lambda delay, callback: None
    appliance.controls.handle(Gesture("chord", ("A", "D"), opened))
    asked = prompts(broker)[-1]
    late = client.post("/api/prompt/confirm", json={"id": asked["id"]}, headers=AUTH)
    assert late.status_code == 409 and "lapsed: nothing happened" in late.get_json()["error"]
    assert ran.calls == [] and prompts(broker)[-1] is None  # every phone closes the question
    assert {"kind": "said", "message": "The shutdown question lapsed: the table plays on"} in broker.events
    press = appliance.controls.handle(Gesture("press", ("A",), appliance.buttons.now()))
    assert "lapsed: nothing happened" in press["result"]["summary"] and table.view()["state"]["score"] == 0


def test_a_table_without_buttons_has_no_question_to_confirm(table):  # noqa: F811
    services = Services(table=table, join_code="K7TQ2M", frame_png=lambda: b"", press=lambda label, hold: {})
    r = create_app(services, {"TESTING": True}).test_client().post("/api/prompt/confirm", json={"id": 1}, headers=AUTH)
    assert r.status_code == 409 and "no shutdown question is open" in r.get_json()["error"]


def first_event(client) -> tuple[str, dict]:
    """The first Server-Sent Event a phone opening the stream is sent: its name and data."""
    r = client.get("/api/stream", headers=AUTH, buffered=False)
    try:
        chunk = next(iter(r.response))
    finally:
        r.close()
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    lines = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return lines["event"], json.loads(lines["data"])


@pytest.mark.parametrize("rig", CLASSES[:1], indirect=True)
def test_a_phone_that_connects_during_the_question_is_asked_in_its_first_event(rig):
    appliance, client, broker, _, _ = rig
    assert first_event(client) == ("hello", {"kind": "hello", "version": 0}), "no question open: only the version"
    appliance.controls.handle(Gesture("chord", ("A", "D"), appliance.buttons.now()))
    asked = prompts(broker)[-1]
    kind, hello = first_event(client)
    assert kind == "hello" and hello["prompt"] == asked and isinstance(asked["id"], int)  # at once, with its Confirm
