"""Setup options that matter only in some games (``shown_when``): declared, exposed, and kept honest.

A phone draws such an option only while its siblings hold the listed values and
otherwise leaves it out, so the system's default applies. The server's checks do
not depend on it: whatever is sent is still checked, and a value that contradicts
the chosen game is refused with a 422 naming the problem.
"""

from __future__ import annotations

import random

import pytest
from tableside.core.fields import Field
from tableside.core.store import Store
from tableside.core.systems import all_systems
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

CODE = "SHOWN1"
AUTH = {"Authorization": f"Bearer {CODE}"}
SYSTEMS = {s.id: s for s in all_systems()}
PLAYERS = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Pluto"]},
    {"name": "Cy", "home_worlds": ["Mars"]},
]


@pytest.fixture
def client(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(3))
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: {})
    yield create_app(services, {"TESTING": True}).test_client()
    table.store.close()


def vnm_options(client) -> dict[str, dict]:
    systems = {s["id"]: s for s in client.get("/api/systems", headers=AUTH).get_json()}
    return {o["name"]: o for o in systems["vnm"]["options"]}


def start(client, options: dict):
    return client.post("/api/sessions", json={"system": "vnm", "options": options}, headers=AUTH)


# -- the field itself ---------------------------------------------------------------------------
def test_a_field_is_shown_only_while_every_named_sibling_holds_a_listed_value() -> None:
    f = Field("tech", "count", shown_when={"version": ("Enhanced",), "game_length": ("Long", "Epic")})
    assert f.shown({"version": "Enhanced", "game_length": "Epic"})
    assert not f.shown({"version": "Basic", "game_length": "Epic"})
    assert not f.shown({"version": "Enhanced", "game_length": "Normal"})
    assert not f.shown({})
    assert Field("always").shown({})
    assert f.describe()["shown_when"] == {"version": ["Enhanced"], "game_length": ["Long", "Epic"]}
    assert "shown_when" not in Field("always").describe()


@pytest.mark.parametrize("bad", [{"version": ()}, {"version": ["Enhanced"]}, {"tech": ("x",)}])
def test_a_malformed_shown_when_is_refused_when_the_system_is_written(bad) -> None:
    with pytest.raises(ValueError, match="shown_when"):
        Field("tech", "count", shown_when=bad)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_shown_when_names_a_sibling_option_and_values_it_can_take(system) -> None:
    options = {o.name: o for o in SYSTEMS[system].options}
    for option in options.values():
        for other, values in (option.shown_when or {}).items():
            assert other in options, f"{system}.{option.name}: shown_when names unknown option {other}"
            choices = options[other].options_now(None)
            if choices is not None:
                assert set(values) <= {c.value for c in choices}, (system, option.name, values)


# -- Venus Needs Men over HTTP -------------------------------------------------------------------
def test_api_systems_exposes_which_vnm_options_depend_on_the_game(client) -> None:
    options = vnm_options(client)
    assert options["tech"]["shown_when"] == {"version": ["Enhanced"]}
    assert options["land_areas"]["shown_when"] == {"game_length": ["Short", "Long", "Epic"]}
    assert options["total_population"]["shown_when"] == {"game_length": ["Short", "Long", "Epic"]}
    for name in ("players", "version", "game_length"):
        assert "shown_when" not in options[name]
    # What a Basic, Normal game shows: the players, the game, its length (and the first player).
    defaults = {name: o.get("default") for name, o in options.items()}
    shown = [name for name, o in options.items() if all(defaults[k] in v for k, v in o.get("shown_when", {}).items())]
    assert shown == ["players", "version", "game_length", "first_player"]


def test_a_basic_game_with_only_names_gets_the_hidden_options_defaults(client) -> None:
    r = start(client, {"players": PLAYERS, "version": "Basic", "game_length": "Normal"})
    assert r.status_code == 201, r.get_json()
    state = r.get_json()["state"]
    assert state["total_population"] == 101
    assert [a["name"] for a in state["land_areas"]] == [
        "China",
        "India",
        "Europe",
        "Africa",
        "North America",
        "Australia & 2 more, together",
    ]
    assert all(w["tech"] is None for w in state["worlds"].values())


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"version": "Basic", "tech": [{"world": "Venus", "weapon_dice": 2}]}, ("Enhanced",)),
        ({"version": "Enhanced", "tech": [{"world": "Mars", "weapon_dice": 99}]}, ("Weapon dice", "at most 10")),
        ({"game_length": "Normal", "total_population": 100}, ("Normal", "101")),
        ({"game_length": "Long"}, ("Long", "total population")),
        ({"game_length": "Short", "total_population": 0}, ("total population", "at least 1")),
        ({"game_length": "Short", "land_areas": [{"name": "China", "population": -1}]}, ("Population", "at least 0")),
    ],
)
def test_a_hidden_option_sent_anyway_is_still_checked(client, options, words) -> None:
    r = start(client, {"players": PLAYERS, **options})
    assert r.status_code == 422, r.get_json()
    message = r.get_json()["error"]
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    assert client.get("/api/sessions", headers=AUTH).get_json() == []  # nothing was started


def test_the_mode_that_needs_them_takes_them(client) -> None:
    tech = [{"world": "Mars", "weapon_dice": 1, "defense_space": 7}]
    r = start(
        client,
        {"players": PLAYERS, "version": "Enhanced", "game_length": "Long", "total_population": 131, "tech": tech},
    )
    assert r.status_code == 201, r.get_json()
    state = r.get_json()["state"]
    assert state["total_population"] == 131
    assert state["worlds"]["Mars"]["tech"]["weapon_dice"] == 1
