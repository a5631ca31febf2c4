"""Setup: players and home worlds, turn order, land areas and totals, thresholds, ships, Zap deal."""

from __future__ import annotations

import json

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.systems.vnm import SYSTEM, rules

from tests.test_vnm_support import new_game

TEAMS = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Ganymede", "Titan"]}]


def players_for(count: int) -> list:
    if count == 2:
        return [{"name": "A", "home_worlds": ["Pluto", "Venus"]}, {"name": "B", "home_worlds": ["Mars", "Titan"]}]
    return ["Pluto", "Venus", "Mars", "Ganymede", "Titan", "Earth"][:count]


def options_error(raw: dict, *words: str, error: type = RuleError) -> str:
    with pytest.raises(error) as caught:
        SYSTEM.validate_options(raw)
    for word in words:
        assert word in caught.value.message, caught.value.message
    return caught.value.message


def test_defaults_start_a_normal_game_with_the_missing_areas_flagged() -> None:
    state = new_game()
    assert state["game_length"] == "Normal"
    assert state["total_population"] == 101
    areas = {a["name"]: a for a in state["land_areas"]}
    assert [areas[n]["population"] for n in ("China", "India", "Europe", "Africa", "North America")] == [
        27,
        21,
        16,
        9,
        8,
    ]
    assert all(areas[n]["source"] == "rulebook" for n in rules.KNOWN_LAND_AREAS)
    missing = areas[rules.MISSING_AREA_NAME]
    assert missing["population"] == 20  # 101 - 81, derived, not invented
    assert missing["source"] == "players confirm"
    assert sum(a["population"] for a in state["land_areas"]) == 101
    assert any("players confirm" in w for w in state["warnings"])


def test_state_is_plain_json() -> None:
    state = new_game(version="Enhanced")
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize(("players", "needed"), [(2, 51), (3, 34), (4, 26), (5, 21), (6, 17)])
def test_rulebook_thresholds_at_101(players: int, needed: int) -> None:
    assert new_game(players=players_for(players))["threshold"] == needed


# Totals for Short, Long and Epic are not in the seed: these are totals players might enter.
THRESHOLDS = {
    ("Short", 77): {2: 39, 3: 26, 4: 20, 5: 16, 6: 13},
    ("Normal", 101): {2: 51, 3: 34, 4: 26, 5: 21, 6: 17},
    ("Long", 127): {2: 64, 3: 43, 4: 32, 5: 26, 6: 22},
    ("Epic", 151): {2: 76, 3: 51, 4: 38, 5: 31, 6: 26},
}


@pytest.mark.parametrize(("length", "total"), list(THRESHOLDS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_threshold_is_total_over_players_rounded_up_at_every_length(length: str, total: int, players: int) -> None:
    state = new_game(players=players_for(players), game_length=length, total_population=total)
    assert state["threshold"] == THRESHOLDS[(length, total)][players]
    assert sum(a["population"] for a in state["land_areas"]) == total


@pytest.mark.parametrize(("length", "china", "known"), [("Short", 20, 61), ("Long", 34, 101), ("Epic", 40, 120)])
def test_other_lengths_prefill_the_known_areas_and_need_a_total(length: str, china: int, known: int) -> None:
    options_error({"game_length": length}, "Earth's total population", str(known))
    state = new_game(game_length=length, total_population=known + 30)
    areas = {a["name"]: a["population"] for a in state["land_areas"]}
    assert areas["China"] == china
    assert areas[rules.MISSING_AREA_NAME] == 30
    options_error({"game_length": length, "total_population": known}, f"more than {known}")


def test_players_may_enter_all_land_areas() -> None:
    areas = [{"name": "China", "population": 20}, {"name": "Oceania", "population": 9}]
    state = new_game(game_length="Short", land_areas=areas)
    assert state["total_population"] == 29
    assert [a["source"] for a in state["land_areas"]] == ["rulebook", "players"]
    assert state["threshold"] == 10


def test_land_areas_must_add_up_to_the_chosen_total() -> None:
    areas = [{"name": "China", "population": 27}, {"name": "Elsewhere", "population": 70}]
    options_error({"land_areas": areas}, "add up to 97", "101")
    options_error({"game_length": "Long", "total_population": 130, "land_areas": areas}, "add up to 97", "130")
    options_error({"total_population": 100}, "Normal", "101")


@pytest.mark.parametrize(
    ("areas", "words"),
    [
        ([{"name": "China", "population": 50}, {"name": "china", "population": 51}], ("same name",)),
        ([{"name": "Secret Underground Refuge", "population": 101}], ("Refuge",)),
        ([{"name": "China", "population": -1}, {"name": "X", "population": 102}], ("at least 0",)),
        ([{"name": f"A{i}", "population": 11} for i in range(9)] + [{"name": "Z", "population": 2}], ("at most 8",)),
    ],
)
def test_bad_land_areas_are_refused(areas: list, words: tuple) -> None:
    options_error({"land_areas": areas}, *words)


def test_malformed_land_area_is_a_bad_request() -> None:
    options_error({"land_areas": [{"name": "China"}]}, "Population' is required", error=BadRequest)


def test_a_total_divisible_by_the_players_is_warned_about_not_refused() -> None:
    state = new_game(players=players_for(4), game_length="Long", total_population=128)
    assert state["threshold"] == 32
    assert any("divides evenly by 4" in w for w in state["warnings"])
    assert not any("divides" in w for w in new_game(players=players_for(4))["warnings"])


def test_a_seventh_player_is_refused() -> None:
    options_error(
        {"players": ["Venus", "Mars", "Ganymede", "Titan", "Pluto", "Earth", "Venus"]}, "7 players", "2 to 6", "7th"
    )


def test_one_player_and_bad_home_worlds_are_refused() -> None:
    options_error({"players": ["Pluto"]}, "2 to 6")
    options_error({"players": ["Pluto", "Jupiter", "Mars"]}, "Home world", "'Jupiter' is not one of")
    options_error({"players": ["Pluto", "Mars", "mars"]}, "Mars is chosen twice")
    options_error({"players": [5, "Mars", "Pluto"]}, "row 1 must be an object", error=BadRequest)


def test_home_worlds_ignore_case_and_names_default_to_the_planet() -> None:
    state = new_game(players=["pluto", {"name": "Ann", "home_worlds": ["earth"]}, "VENUS"])
    assert [p["name"] for p in state["players"]] == ["Pluto", "Ann", "Venus"]
    assert list(state["worlds"]) == ["Pluto", "Earth", "Venus"]


def test_two_players_each_play_two_planets_not_earth() -> None:
    options_error({"players": ["Venus", "Mars"]}, "two planets")
    options_error(
        {"players": [{"home_worlds": ["Earth", "Venus"]}, {"home_worlds": ["Mars", "Pluto"]}]}, "other than Earth"
    )
    options_error({"players": [{"home_worlds": ["Venus", "Earth"]}, "Pluto", "Mars"]}, "one home world")


def test_two_player_turn_order_alternates_like_the_rulebook_example() -> None:
    state = new_game(players=TEAMS, first_player="Titan")
    assert state["turn_order"] == ["Titan", "Mars", "Ganymede", "Venus"]
    assert state["threshold"] == 51
    for a, b in zip(state["turn_order"], state["turn_order"][1:] + state["turn_order"][:1], strict=True):
        assert state["worlds"][a]["player"] != state["worlds"][b]["player"]


def test_pluto_takes_the_first_turn_then_clockwise() -> None:
    assert new_game(players=["Venus", "Pluto", "Mars", "Earth"])["turn_order"] == ["Pluto", "Mars", "Earth", "Venus"]
    two = new_game(
        players=[{"name": "A", "home_worlds": ["Venus", "Pluto"]}, {"name": "B", "home_worlds": ["Mars", "Titan"]}]
    )
    assert two["turn_order"] == ["Pluto", "Mars", "Venus", "Titan"]
    options_error({"players": ["Venus", "Pluto", "Mars"], "first_player": "Venus"}, "Pluto takes the first turn")


def test_without_pluto_the_players_name_the_first_player_clockwise_from_pluto() -> None:
    options_error({"players": ["Venus", "Mars", "Titan"]}, "First player", "clockwise from Pluto")
    options_error({"players": ["Venus", "Mars", "Titan"], "first_player": "Earth"}, "not in this game")
    state = new_game(players=["Venus", "Mars", "Titan"], first_player="Mars")
    assert state["turn_order"] == ["Mars", "Titan", "Venus"]


@pytest.mark.parametrize(
    ("version", "ships"),
    [
        ("Basic", {"Venus": 2, "Mars": 2, "Ganymede": 3, "Titan": 3, "Pluto": 5, "Earth": 0}),
        ("Enhanced", {"Venus": 2, "Mars": 2, "Ganymede": 2, "Titan": 2, "Pluto": 2, "Earth": 0}),
    ],
)
def test_fleets_and_starting_spaceships(version: str, ships: dict) -> None:
    state = new_game(players=list(rules.PLANETS), version=version)
    assert {w: s["on_board"] for w, s in state["worlds"].items()} == ships
    assert {w: s["fleet"] for w, s in state["worlds"].items()} == {
        "Venus": 5,
        "Mars": 5,
        "Ganymede": 6,
        "Titan": 5,
        "Pluto": 5,
        "Earth": 4,
    }


def test_builds_per_action_by_version() -> None:
    basic = new_game(players=list(rules.PLANETS))
    assert {w: s["builds_per_action"] for w, s in basic["worlds"].items()} == {
        "Venus": 1,
        "Mars": 1,
        "Ganymede": 1,
        "Titan": 2,
        "Pluto": 3,
        "Earth": 1,
    }
    enhanced = new_game(players=list(rules.PLANETS), version="Enhanced")
    # Amphibious (Ganymede Special, revised card) builds two; the rest build one.
    assert {w: s["builds_per_action"] for w, s in enhanced["worlds"].items()} == {
        "Venus": 1,
        "Mars": 1,
        "Ganymede": 2,
        "Titan": 1,
        "Pluto": 1,
        "Earth": 1,
    }


@pytest.mark.parametrize(("players", "each", "aside"), [(2, 18, 0), (3, 12, 0), (4, 9, 0), (5, 7, 1), (6, 6, 0)])
def test_zap_cards_are_dealt_evenly_and_three_drawn(players: int, each: int, aside: int) -> None:
    state = new_game(players=players_for(players))
    assert state["zap_set_aside"] == aside
    for player in state["players"]:
        assert player["zap"] == {"deck": each - 3, "hand": 3, "discard": 0}
    assert sum(p["zap"]["deck"] + p["zap"]["hand"] for p in state["players"]) + aside == 36


def test_tech_is_enhanced_only_and_checked() -> None:
    options_error({"tech": {"Venus": {"weapon_dice": 1}}}, "Enhanced")
    options_error({"version": "Enhanced", "tech": {"Titan": {"weapon_dice": 1}}}, "Titan", "not a home world")
    options_error({"version": "Enhanced", "tech": {"Mars": {"defense_land": 11}}}, "at most 10")
    state = new_game(version="Enhanced", tech={"mars": {"weapon_dice": 2, "defense_land": 6}})
    assert state["worlds"]["Mars"]["tech"]["weapon_dice"] == 2
    assert state["worlds"]["Mars"]["tech"]["defense"] == {"space": None, "land": 6, "ocean": None}
    assert state["worlds"]["Venus"]["tech"]["cards"] == ["Q-Ray", "Baryonite Armor"]  # the seed's Venus cards


def test_unknown_option_and_bad_version_are_refused() -> None:
    options_error({"colour": "red"}, "colour", error=BadRequest)
    options_error({"version": "Deluxe"}, "Deluxe")


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"game_length": "Epic", "total_population": 151, "version": "Enhanced", "tech": {"Mars": {"weapon_dice": 1}}},
        {"players": TEAMS, "first_player": "Titan", "land_areas": [{"name": "China", "population": 101}]},
    ],
)
def test_validated_options_validate_again_to_the_same_options(raw: dict) -> None:
    """The core may store validated options and replay from them."""
    once = SYSTEM.validate_options(raw)
    assert SYSTEM.validate_options(once) == once
    assert SYSTEM.start(once) == SYSTEM.start(SYSTEM.validate_options(once))
    assert json.loads(json.dumps(once)) == once


def test_the_new_game_form_says_earth_is_a_home_world_as_it_offers_it() -> None:
    """#17 QA F5: the form offered "Earth (Green)" under help that said "(not Earth)"; the Players help
    read an API note ("A plain list of home worlds ... is accepted too") to a person."""
    options = {f["name"]: f for f in SYSTEM.describe()["options"]}
    players = options["players"]
    home = next(f for f in players["fields"] if f["name"] == "home_worlds")
    assert "Earth" in [c["value"] for c in home["choices"]]
    assert "(not Earth)" not in home["help"] and "Earth included" in home["help"]
    assert "two-player game" in home["help"] and "not Earth" in home["help"]
    assert "plain list" not in players["help"] and '"Venus"' not in players["help"]
