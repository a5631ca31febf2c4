"""Population: collecting, infected chips, the Earth trigger, winning, team and shared victory."""

from __future__ import annotations

from tableside.core.systems.vnm import SYSTEM

from tests.test_vnm_support import act, collected, new_game, play_to, refused

SMALL = [{"name": "China", "population": 20}, {"name": "Oceania", "population": 5}]  # players' own areas


def small_game(**options) -> dict:
    """Three players, 25 population: 9 to win."""
    return new_game(game_length="Short", land_areas=SMALL, players=["Pluto", "Venus", "Mars"], **options)


def area(state: dict, name: str) -> dict:
    return next(a for a in state["land_areas"] if a["name"] == name)


def test_collect_moves_chips_from_the_area_to_the_home_world() -> None:
    state = new_game()  # Pluto's turn
    state, result = act(state, {"type": "collect", "area": "china", "count": 3})
    assert area(state, "China")["population"] == 24
    assert state["worlds"]["Pluto"]["population"] == 3
    assert "Pluto collects 3 from China: population 3/34" in result["summary"]
    assert state["turn_action"] == {
        "kind": "population",
        "count": 3,
        "extensions": 0,
        "ships": 5,
        "collected": 3,
        "left": 2,
    }
    state, _ = act(state, {"type": "collect", "area": "India"})
    assert state["worlds"]["Pluto"]["population"] == 4


def test_collecting_from_an_empty_area_is_refused() -> None:
    state = small_game()
    state = collected(state, "Venus", "China", 5)
    state, _ = act(state, {"type": "collect", "area": "Oceania", "count": 5})
    refused(state, {"type": "collect", "area": "Oceania"}, "'Oceania' is not one of China (15 left)")
    state = play_to(
        new_game(
            players=["Pluto", "Venus", "Mars"],
            game_length="Short",
            land_areas=[{"name": "China", "population": 3}, {"name": "Oceania", "population": 22}],
        ),
        "Pluto",
    )
    refused(state, {"type": "collect", "area": "China", "count": 4}, "only 3", "4")


def test_an_unknown_area_is_refused_naming_the_areas() -> None:
    state = new_game()
    message = refused(state, {"type": "collect", "area": "Atlantis"}, "'Atlantis' is not one of")
    assert "China (27 left)" in message and "North America (8 left)" in message
    refused(state, {"type": "collect", "area": "Secret Underground Refuge"}, "is not one of China")


def test_bad_counts_are_refused_by_the_fields() -> None:
    refused(new_game(), {"type": "collect", "area": "China", "count": 0}, "at least 1")


def test_earth_waits_until_an_alien_collects() -> None:
    state = new_game(players=["Pluto", "Earth", "Venus"])
    state = play_to(state, "Earth")
    refused(state, {"type": "collect", "area": "China"}, "Earth may not collect population yet", "infecting")
    state, _ = act(state, {"type": "build", "area": "China"})
    state = play_to(state, "Venus")
    state, result = act(state, {"type": "collect", "area": "India"})
    assert state["earth_may_collect"] is True
    assert "Earth may now collect" in result["summary"]
    state = play_to(state, "Earth")
    refused(state, {"type": "collect", "area": "China", "count": 2}, "1 spaceship on", "so 1 more, not 2")
    state, result = act(state, {"type": "collect", "area": "China", "count": 1})
    assert state["worlds"]["Earth"]["population"] == 1
    assert "Secret Underground Refuge" in result["summary"]


def test_earth_may_collect_once_an_alien_attacks_an_earth_ship_even_on_a_miss() -> None:
    state = new_game(players=["Pluto", "Earth", "Venus"])
    state = play_to(state, "Earth")
    state, _ = act(state, {"type": "build", "area": "China"})
    state = play_to(state, "Pluto")
    assert state["earth_may_collect"] is False
    state, _ = act(state, {"type": "attack", "target": "Earth", "faces": [1, 2]})
    assert state["earth_may_collect"] is True
    assert state["worlds"]["Earth"]["on_board"] == 1


def test_earth_collecting_does_not_trigger_itself_and_infecting_does_not_count() -> None:
    state = new_game(players=["Pluto", "Earth", "Titan"], version="Enhanced")
    state = play_to(state, "Titan")
    state, _ = act(state, {"type": "infect", "area": "China", "count": 2})
    assert area(state, "China") | {} == {"name": "China", "population": 25, "infected": 2, "source": "rulebook"}
    assert state["earth_may_collect"] is False
    state = play_to(state, "Earth")
    refused(state, {"type": "collect", "area": "China"}, "Earth may not collect")


def test_destroying_population_triggers_earth_and_is_enhanced_only() -> None:
    refused(new_game(), {"type": "destroy_population", "area": "China"}, "Enhanced game")
    state = new_game(players=["Pluto", "Earth", "Titan"], version="Enhanced")
    state, result = act(state, {"type": "destroy_population", "area": "China", "count": 2})
    assert area(state, "China")["population"] == 25
    assert state["earth_may_collect"] is True
    assert "Earth may now collect" in result["summary"]


def test_infected_population_is_counted_apart_and_collected_on_request() -> None:
    refused(new_game(players=["Pluto", "Titan", "Venus"]), {"type": "infect", "area": "China"}, "Enhanced")
    state = new_game(players=["Pluto", "Titan", "Venus"], version="Enhanced")
    refused(state, {"type": "infect", "area": "China"}, "Pluto cannot infect", "Titan")
    state = play_to(state, "Titan")
    state, _ = act(state, {"type": "infect", "area": "Africa", "count": 2})
    refused(state, {"type": "infect", "area": "Africa", "count": 1}, "2 spaceships", "extend")
    state = _infect(state, "Africa", 7)
    assert area(state, "Africa")["population"] == 0 and area(state, "Africa")["infected"] == 9
    state = play_to(state, "Venus")
    refused(state, {"type": "collect", "area": "Africa"}, "no healthy population", "9 infected")
    state, _ = act(state, {"type": "collect", "area": "Africa", "infected": True, "count": 2})
    assert area(state, "Africa")["infected"] == 7
    assert state["worlds"]["Venus"]["population"] == 2


def test_a_win_is_announced_the_moment_the_threshold_is_reached() -> None:
    state = small_game()
    assert state["threshold"] == 9
    state = collected(state, "Pluto", "China", 3)
    state, result = act(state, {"type": "collect", "area": "China", "count": 4})
    state, _ = act(state, {"type": "collect", "area": "China", "count": 1})
    assert state["winners"] == []
    refused(state, {"type": "collect", "area": "China"}, "5 spaceships", "so 0 more", "extend")
    state, _ = act(state, {"type": "extend", "cards": 1})
    state, result = act(state, {"type": "collect", "area": "China"})
    assert state["winners"] == [0]  # Pluto is the first in the players list
    assert "Pluto wins with 9 of 9" in result["summary"]
    assert SYSTEM.screen(state).alert == "Pluto wins!"
    refused(state, {"type": "end_turn"}, "the game is over", "Pluto won")
    refused(state, {"type": "collect", "area": "China"}, "game is over")


def test_a_two_player_team_wins_on_its_two_home_worlds_combined() -> None:
    teams = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Ganymede", "Titan"]}]
    state = new_game(players=teams, first_player="Titan")
    state = collected(state, "Mars", "China", 27)
    state = collected(play_to(state, "Venus"), "Venus", "India", 21)
    state, _ = act(state, {"type": "collect", "area": "Europe", "count": 1})
    state, result = act(state, {"type": "collect", "area": "Europe", "count": 1})
    assert state["winners"] == []
    assert "Wally (Venus) collects 1 from Europe: team population 50/51" in result["summary"]
    state, _ = act(state, {"type": "extend"})
    state, result = act(state, {"type": "collect", "area": "Europe"})
    assert state["winners"] == [0]
    assert "Wally (Mars, Venus) wins with 51 of 51" in result["summary"]


def test_natural_disaster_can_give_a_shared_victory() -> None:
    state = small_game()
    state = collected(collected(state, "Pluto", "China", 7), "Venus", "China", 7)
    state, result = act(
        state,
        {
            "type": "receive_population",
            "card": "Natural Disaster",
            "gains": [
                {"world": "Pluto", "count": 2, "area": "Oceania"},
                {"world": "venus", "count": 2, "area": "Oceania"},
                {"world": "Mars", "count": 1, "area": "China"},
            ],
        },
    )
    assert state["winners"] == [0, 1]
    assert "Shared victory: Pluto and Venus" in result["summary"]
    assert SYSTEM.screen(state).alert == "Shared victory: Pluto and Venus!"
    assert area(state, "Oceania")["population"] == 1


def test_receive_population_checks_every_gain_and_changes_nothing_on_error() -> None:
    state = small_game()
    refused(
        state,
        {
            "type": "receive_population",
            "gains": [
                {"world": "Pluto", "count": 3, "area": "Oceania"},
                {"world": "Mars", "count": 3, "area": "Oceania"},
            ],
        },
        "Oceania has only 2",
    )
    refused(
        state,
        {"type": "receive_population", "gains": [{"world": "Titan", "count": 1, "area": "China"}]},
        "'Titan' is not one of",
    )
    refused(
        state, {"type": "receive_population", "gains": [{"world": "Mars", "count": 0, "area": "China"}]}, "at least 1"
    )
    refused(
        state,
        {"type": "receive_population", "gains": [{"world": "Mars", "count": 1, "area": "Atlantis"}]},
        "'Atlantis' is not one of China",
    )


def _infect(state: dict, name: str, count: int) -> dict:
    import copy

    state = copy.deepcopy(state)
    a = area(state, name)
    a["population"] -= count
    a["infected"] += count
    return state


def _most(state: dict, action: str) -> int:
    fields = SYSTEM.all_actions()[action].describe(state)["fields"]
    return next(f for f in fields if f["name"] == "count")["maximum"]


def test_the_count_a_phone_offers_is_what_the_action_has_left() -> None:
    """Pluto's 5 ships collect 5 units: the form offers 1 to 5, never 1 to 99 (#17 QA)."""
    state = new_game()
    assert _most(state, "collect") == 5
    state, _ = act(state, {"type": "collect", "area": "China", "count": 3})
    assert _most(state, "collect") == 2
    assert _most(state, "destroy_population") == 2
    refused(state, {"type": "collect", "area": "China", "count": 3}, "so 2 more, not 3")
