"""Spaceships: builds per action, fleet limits, Earth's build area, ships lost to cards."""

from __future__ import annotations

from tableside.core.systems.vnm import SYSTEM

from tests.test_vnm_support import act, new_game, play_to, refused

SIX = ["Pluto", "Venus", "Mars", "Ganymede", "Titan", "Earth"]


def ships(state: dict, world: str) -> tuple[int, int]:
    w = state["worlds"][world]
    return w["on_board"], w["fleet"] - w["on_board"]


def test_building_with_the_whole_fleet_on_the_board_is_refused() -> None:
    state = new_game(players=SIX)
    assert ships(state, "Pluto") == (5, 0)
    refused(state, {"type": "build"}, "all 5 of Pluto's spaceships are on the board")


def test_a_full_fleet_is_not_offered_a_build() -> None:
    """The phone's main moves and the prompt follow availability: no Build to tap only to be refused."""
    state = new_game(players=SIX)
    assert "all 5 of Pluto's spaceships are on the board" in (SYSTEM.actions["build"].reason(state, None) or "")
    (prompt,) = SYSTEM.pending(state)
    assert "build" not in prompt.text and "build" not in prompt.also
    assert prompt.text.endswith("move, attack or collect")


def test_titan_builds_two_and_then_its_fleet_is_full() -> None:
    state = play_to(new_game(players=SIX), "Titan")
    state, result = act(state, {"type": "build"})
    assert result["built"] == 2
    assert ships(state, "Titan") == (5, 0)
    state, _ = act(state, {"type": "extend"})
    refused(state, {"type": "build"}, "all 5 of Titan's")


def test_one_build_per_action_and_a_zap_card_buys_one_more() -> None:
    state = play_to(new_game(players=SIX), "Venus")
    state, _ = act(state, {"type": "build"})
    assert ships(state, "Venus") == (3, 2)
    refused(state, {"type": "build"}, "has built 1", "extend")
    state, _ = act(state, {"type": "extend", "cards": 2})
    refused(state, {"type": "build", "count": 3}, "may build 2 more")
    state, _ = act(state, {"type": "build", "count": 2})
    assert ships(state, "Venus") == (5, 0)


def test_pluto_builds_as_many_as_the_reserve_holds_and_says_so() -> None:
    state = new_game(players=SIX)
    state, _ = act(state, {"type": "destroy_ship", "world": "Pluto", "count": 2})
    assert ships(state, "Pluto") == (3, 2)
    refused(state, {"type": "build", "count": 3}, "only 2 spaceships in reserve")
    state, result = act(state, {"type": "build"})
    assert result["built"] == 2
    assert "3 allowed, but only 2 left in reserve" in result["summary"]
    assert ships(state, "Pluto") == (5, 0)


def test_ganymede_builds_two_in_the_enhanced_game_amphibious() -> None:
    state = play_to(new_game(players=SIX, version="Enhanced"), "Ganymede")
    state, result = act(state, {"type": "build"})
    assert result["built"] == 2
    assert ships(state, "Ganymede") == (4, 2)


def test_earth_builds_in_a_populated_area_and_aliens_on_their_home_world() -> None:
    state = play_to(new_game(players=SIX), "Venus")
    refused(state, {"type": "build", "area": "China"}, "Venus builds on its home world")
    state = play_to(state, "Earth")
    assert ships(state, "Earth") == (0, 4)
    refused(state, {"type": "build", "area": "Atlantis"}, "'Atlantis' is not one of China (27 left)")
    state, result = act(state, {"type": "build", "area": "India"})
    assert "in India" in result["summary"]
    assert ships(state, "Earth") == (1, 3)


def test_earth_cannot_build_in_an_empty_area() -> None:
    areas = [{"name": "China", "population": 21}, {"name": "Oceania", "population": 4}]
    state = new_game(players=SIX, game_length="Short", land_areas=areas)
    state, _ = act(state, {"type": "collect", "area": "Oceania", "count": 4})
    state = play_to(state, "Earth")
    refused(state, {"type": "build", "area": "Oceania"}, "'Oceania' is not one of China (21 left)")


def test_actions_can_never_be_combined() -> None:
    state = play_to(new_game(players=SIX), "Venus")
    state, _ = act(state, {"type": "build"})
    refused(state, {"type": "collect", "area": "China"}, "already chose the Build action", "never be combined")
    refused(state, {"type": "move"}, "Build")


def test_a_ship_lost_to_a_card_goes_back_to_the_reserve() -> None:
    state = new_game(players=SIX)
    state, _ = act(state, {"type": "destroy_ship", "world": "titan"})
    assert ships(state, "Titan") == (2, 3)
    refused(state, {"type": "destroy_ship", "world": "Earth"}, "Earth has only 0")
    refused(state, {"type": "destroy_ship", "world": "Neptune"}, "'Neptune' is not one of Pluto, Venus")


def _build_fields(state: dict) -> dict:
    seats = [s.name for s in SYSTEM.seats(state)]
    return {f["name"]: f for f in SYSTEM.actions["build"].describe(state, seats)["fields"]}


def test_the_build_form_asks_only_what_applies_to_this_player() -> None:
    """#17 QA F4: Venus was offered 'Land area (Earth)' and a 1-6 stepper while it may build one."""
    venus = play_to(new_game(players=["Pluto", "Venus", "Titan"]), "Venus")
    assert _build_fields(venus) == {}  # one spaceship, on its home world: nothing to ask
    titan = play_to(new_game(players=["Pluto", "Venus", "Titan"]), "Titan")
    count = _build_fields(titan)["count"]
    assert (count["minimum"], count["maximum"]) == (1, 2)  # Titan builds two per action (Basic)
    assert "area" not in _build_fields(titan)
    earth = play_to(new_game(players=["Pluto", "Earth", "Venus"]), "Earth")
    assert set(_build_fields(earth)) == {"area"}  # Earth chooses a populated land area, one spaceship
