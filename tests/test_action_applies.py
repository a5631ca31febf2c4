"""An action that is no part of this game at all is not listed (#17 QA: "fields that do not apply
to this game's version are not shown").

A Basic Venus Needs Men game listed Infect, Destroy population, Technology values and the Research
group, each greyed out "Not now: only in the Enhanced game" for the whole game. ``ActionSpec.applies``
leaves such an action out of ``GET .../actions`` (and so out of the phone), as a field's ``applies``
leaves an Enhanced-only field out of a form; posted anyway, the rules still refuse it in words and
nothing changes. The system's static description (``GET /api/systems``) still names every action.
"""

from __future__ import annotations

import random

import pytest
from tableside.core.store import Store
from tableside.core.system import ActionSpec
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

CODE = "APPLIES1"
AUTH = {"Authorization": f"Bearer {CODE}"}
PLAYERS = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Mars"]},
    {"name": "Cy", "home_worlds": ["Pluto"]},
]
ENHANCED_ONLY = {"infect", "destroy_population", "choose_upgrade", "research", "set_tech"}


@pytest.fixture
def client(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(3))
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: {})
    yield create_app(services, {"TESTING": True}).test_client()
    table.store.close()


def start(client, version: str) -> None:
    r = client.post(
        "/api/sessions", json={"system": "vnm", "options": {"players": PLAYERS, "version": version}}, headers=AUTH
    )
    assert r.status_code == 201, r.get_json()


def listed(client, brief: bool = False) -> dict[str, dict]:
    r = client.get("/api/sessions/active/actions" + ("?brief=1" if brief else ""), headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return {a["type"]: a for a in r.get_json()["actions"]}


def test_applies_is_a_predicate_over_the_state_and_none_means_every_game() -> None:
    def handler(state, action, ctx):
        return state, {}

    plain = ActionSpec("a", "A", "", handler)
    only_big = ActionSpec("b", "B", "", handler, applies=lambda state: state.get("size") == "big")
    assert plain.applies_in({"size": "small"}) and plain.applies_in(None)
    assert only_big.applies_in({"size": "big"}) and not only_big.applies_in({"size": "small"})
    assert only_big.applies_in(None)  # no game yet (the system's description): every action


@pytest.mark.parametrize("brief", [False, True])
def test_a_basic_game_lists_no_enhanced_only_action(client, brief: bool) -> None:
    start(client, "Basic")
    actions = listed(client, brief)
    assert not ENHANCED_ONLY & set(actions), sorted(ENHANCED_ONLY & set(actions))
    assert not [a for a in actions.values() if a["group"] == "Research"]
    assert {"build", "attack", "collect", "end_turn", "correct"} <= set(actions)
    assert not [a for a in actions.values() if "Enhanced" in a.get("reason", "")]


def test_an_enhanced_game_lists_them(client) -> None:
    start(client, "Enhanced")
    assert set(listed(client)) >= ENHANCED_ONLY


def test_posted_anyway_in_a_basic_game_it_is_refused_in_words_and_nothing_changes(client) -> None:
    start(client, "Basic")
    before = client.get("/api/sessions/active", headers=AUTH).get_json()
    for action, words in (
        ({"type": "infect", "area": "China", "count": 1}, "Infecting population is only in the Enhanced game"),
        ({"type": "set_tech", "world": "Mars", "weapon_dice": 2}, "Technology is only in the Enhanced game"),
        ({"type": "choose_upgrade", "upgrade": "Gatling Lasers"}, "Research is only in the Enhanced game"),
    ):
        r = client.post("/api/sessions/active/actions", json=action, headers=AUTH)
        assert r.status_code == 422, r.get_json()
        assert words in r.get_json()["error"]
    assert client.get("/api/sessions/active", headers=AUTH).get_json() == before


def test_the_system_s_description_still_names_every_action(client) -> None:
    systems = {s["id"]: s for s in client.get("/api/systems", headers=AUTH).get_json()}
    assert {a["type"] for a in systems["vnm"]["actions"]} >= ENHANCED_ONLY
