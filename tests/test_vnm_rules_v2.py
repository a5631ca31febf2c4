"""Rules found wrong in play (issue 7, item 10) and the interface v2 surfaces of vnm, each with a test."""

from __future__ import annotations

import random

import pytest
from tableside.core.fields import KINDS, Field
from tableside.core.store import Store
from tableside.core.systems.vnm import SYSTEM
from tableside.core.table import Table

from tests.test_vnm_support import act, enhanced_game, new_game, play_to, refused, rolled


def test_each_spaceship_collects_one_unit_and_each_zap_extension_one_more() -> None:
    state = play_to(new_game(), "Venus")  # Basic: Venus has 2 spaceships
    state, _ = act(state, {"type": "collect", "area": "China", "count": 2})
    refused(state, {"type": "collect", "area": "China"}, "2 spaceships", "so 0 more")
    state, _ = act(state, {"type": "extend", "cards": 2})
    refused(state, {"type": "collect", "area": "China", "count": 3}, "so 2 more, not 3")
    state, _ = act(state, {"type": "collect", "area": "China", "count": 2})
    assert state["worlds"]["Venus"]["population"] == 4


def test_alluring_venus_collects_two_per_ship_but_an_extension_only_one() -> None:
    state = play_to(enhanced_game(), "Venus")  # Enhanced: 2 spaceships, Alluring
    state, _ = act(state, {"type": "collect", "area": "China", "count": 4})
    refused(state, {"type": "collect", "area": "China"}, "two units each", "so 0 more")
    state, _ = act(state, {"type": "extend", "cards": 1})
    assert state["turn_action"]["left"] == 1  # one per Zap card, not two
    state, _ = act(state, {"type": "collect", "area": "China"})
    refused(state, {"type": "collect", "area": "China"}, "so 0 more")
    assert state["worlds"]["Venus"]["population"] == 5


def test_a_player_with_no_ship_on_the_board_collects_nothing() -> None:
    state = play_to(new_game(), "Venus")
    state, _ = act(state, {"type": "destroy_ship", "world": "Venus", "count": 2})
    refused(state, {"type": "collect", "area": "China"}, "Venus has no spaceship on the board")
    actions = {a["type"]: a for a in SYSTEM_actions(state)}
    assert actions["collect"]["available"] is False and "no spaceship" in actions["collect"]["reason"]


def SYSTEM_actions(state: dict) -> list[dict]:  # noqa: N802 - what GET .../actions lists for a state
    seats = [s.name for s in SYSTEM.seats(state)]
    return [spec.describe(state, seats) for spec in SYSTEM.actions.values()]


def test_attacks_are_bounded_by_ships_and_extensions() -> None:
    state = play_to(new_game(), "Venus")  # 2 spaceships
    state, _ = act(state, {"type": "attack", "target": "Pluto", "faces": [1, 1]})
    state, _ = act(state, {"type": "attack", "target": "Pluto", "faces": [1, 1]})
    refused(state, {"type": "attack", "faces": [1, 1]}, "attacked 2 times", "extend")
    state, _ = act(state, {"type": "extend"})
    state, _ = act(state, {"type": "attack", "faces": [9, 1]})
    assert state["worlds"]["Pluto"]["on_board"] == 4
    refused(state, {"type": "attack", "faces": [1, 1]}, "attacked 3 times")


def test_an_enhanced_extension_attack_needs_no_tech_cards() -> None:
    """ "Technology and Special cards do not apply": two dice, 8+, even with no Technology values entered."""
    state = play_to(new_game(version="Enhanced"), "Venus")  # no tech given at all; Venus has the Q-Ray
    state, _ = act(state, {"type": "attack", "target": "Mars", "faces": [3]})
    state, _ = act(state, {"type": "attack", "target": "Mars", "faces": [3]})
    state, result = act(state, {"type": "extend"})
    assert "two dice, 8 or higher" in result["summary"]
    assert "Zap extension" in state["aim"]["text"] and state["aim"]["chance"] == "51%"
    state, record = rolled(state, {"type": "attack", "faces": [8, 2]})
    assert state["worlds"]["Mars"]["on_board"] == 1
    assert record["expr"] == "2d10" and record["marks"] == ["hit", "miss"]


def test_population_is_never_created() -> None:
    state = new_game()
    refused(
        state,
        {"type": "receive_population", "gains": [{"world": "Mars", "count": 2}]},
        "From land area",
        error=__import__("tableside.core.errors", fromlist=["BadRequest"]).BadRequest,
    )
    state, _ = act(
        state,
        {
            "type": "receive_population",
            "card": "Alien Plague",
            "gains": [{"world": "Mars", "count": 2, "area": "India"}],
        },
    )
    assert state["worlds"]["Mars"]["population"] == 2
    assert next(a for a in state["land_areas"] if a["name"] == "India")["population"] == 19
    enhanced = new_game(version="Enhanced")
    enhanced, _ = act(enhanced, {"type": "destroy_population", "area": "China", "count": 2})
    assert enhanced["destroyed"] == 2 and not SYSTEM.laws(enhanced)
    enhanced["worlds"]["Venus"]["population"] += 1
    assert SYSTEM.laws(enhanced) == [
        "population: 102 on Earth, home worlds, the Refuge and the destroyed pile, the game has 101"
    ]


def test_earth_may_now_collect_is_said_only_in_games_with_earth() -> None:
    state, result = act(new_game(), {"type": "collect", "area": "China"})
    assert "Earth" not in result["summary"] and state["earth_may_collect"] is False
    state, result = act(new_game(players=["Pluto", "Earth", "Venus"]), {"type": "collect", "area": "China"})
    assert "Earth may now collect" in result["summary"]


def test_a_population_correction_moves_chips_from_the_pile_it_names_in_one_correction() -> None:
    # QA #5: "Venus: one more" was refused ("correct: 1 more population must come from somewhere ...")
    # and took two corrections (China one less, then Venus one more); now one names its source.
    state = new_game()
    numbers = {t.key: t for t in SYSTEM.tracked(state)}
    venus = numbers["worlds.Venus.population"]
    piles = {t.key: (t.pile, t.value) for t in numbers.values() if t.balance == venus.balance == "population"}
    assert piles["destroyed"] == ("the destroyed pile", 0) and piles["land_areas.0.population"] == ("China", 27)
    worlds = [f"worlds.{w}.population" for w in state["worlds"]]
    assert (
        set(worlds) <= set(piles) and len(piles) == len(state["land_areas"]) + len(worlds) + 1
    )  # land areas, home worlds, destroyed
    assert "players.0.zap.hand" not in piles and not numbers["players.0.zap.hand"].balance
    message = refused(state, {"type": "correct", "key": "worlds.Venus.population", "value": 1}, "say where from")
    assert not message.startswith("correct") and message.startswith(venus.label)
    raw = {"type": "correct", "key": "worlds.Venus.population", "value": 1, "balance": "land_areas.0.population"}
    after, result = act(state, raw)
    assert after["worlds"]["Venus"]["population"] == 1 and after["land_areas"][0]["population"] == 26
    assert after["destroyed"] == 0
    assert result["summary"] == f"Corrected {venus.label}: 0 -> 1, 1 from China"
    assert result["correction"]["balance"] == {"key": "land_areas.0.population", "label": "China", "from": 27, "to": 26}
    # Back: one less, to the destroyed pile; a pile holding nothing gives nothing; not a pile of the game.
    after, result = act(after, {**raw, "value": 0, "balance": "destroyed"})
    assert after["destroyed"] == 1 and result["summary"].endswith("1 -> 0, 1 to the destroyed pile")
    other = next(w for w in worlds if w != "worlds.Venus.population")
    refused(state, {**raw, "balance": other}, "cannot come from", "holds 0")
    refused(state, {**raw, "balance": "worlds.Venus.population"}, "cannot take its difference from")
    refused(state, {**raw, "balance": "players.0.zap.hand"}, "is not one of")
    # The destroyed pile is a number of the group too: a chip back to China from it, one correction.
    after, _ = act(after, {"type": "correct", "key": "destroyed", "value": 0, "balance": "land_areas.0.population"})
    assert after["destroyed"] == 0 and after["land_areas"][0]["population"] == 27
    refused(after, {"type": "correct", "key": "destroyed", "value": 1}, "say where the chips come from")


def test_corrections_keep_the_totals() -> None:
    state = new_game()
    state, result = act(
        state, {"type": "correct", "key": "land_areas.0.population", "value": 25, "reason": "two chips fell off"}
    )
    assert state["destroyed"] == 2 and result["correction"]["from"] == 27
    state, _ = act(state, {"type": "correct", "key": "worlds.Venus.population", "value": 2})
    assert state["destroyed"] == 0 and state["worlds"]["Venus"]["population"] == 2
    refused(state, {"type": "correct", "key": "worlds.Venus.population", "value": 3}, "destroyed pile holds 0")
    state, _ = act(state, {"type": "correct", "key": "players.0.zap.hand", "value": 2})
    assert state["players"][0]["zap"] == {"deck": 10, "hand": 2, "discard": 0}
    state, _ = act(state, {"type": "correct", "key": "players.0.zap.discard", "value": 1})
    assert state["players"][0]["zap"] == {"deck": 10, "hand": 1, "discard": 1}
    refused(state, {"type": "correct", "key": "worlds.Venus.on_board", "value": 6}, "at most 5")
    keys = {t.key for t in SYSTEM.tracked(state)}
    assert {"worlds.Pluto.on_board", "land_areas.5.population", "players.2.zap.hand"} <= keys


def test_no_field_kind_needs_json() -> None:
    assert "json" not in KINDS
    with pytest.raises(ValueError, match="unknown field kind"):
        Field("x", "json")


def test_a_mid_game_session_lists_the_states_real_names(tmp_path) -> None:
    table = Table(Store(tmp_path / "vnm.db"), rng=random.Random(3))
    table.create_session(
        "vnm",
        {
            "players": [
                {"name": "Ann", "home_worlds": ["Venus"]},
                {"name": "Bob", "home_worlds": ["Pluto"]},
                {"name": "Cy", "home_worlds": ["Mars"]},
            ]
        },
    )
    table.act({"type": "collect", "area": "North America", "count": 5})
    table.act({"type": "extend", "cards": 3})
    table.act({"type": "collect", "area": "North America", "count": 3})  # North America is empty now
    table.act({"type": "end_turn"})
    listed = table.actions()
    by_type = {a["type"]: a for a in listed["actions"]}
    assert listed["pending"][0]["seat"] == "Cy" and listed["pending"][0]["text"].startswith(
        "Cy (Mars):"
    )  # the player and the world

    def choices(action: str, field: str, rows: str | None = None) -> list:
        fields = by_type[action]["fields"]
        if rows:
            fields = next(f for f in fields if f["name"] == rows)["fields"]
        return [c["value"] for c in next(f for f in fields if f["name"] == field)["choices"]]

    areas = ["China", "India", "Europe", "Africa", "Australia & 2 more, together"]
    assert choices("collect", "area") == areas  # North America has no population left
    assert choices("receive_population", "area", rows="gains") == areas
    assert choices("receive_population", "world", rows="gains") == ["Venus", "Pluto", "Mars"]
    assert choices("attack", "target") == ["Venus", "Pluto"]  # Mars's enemies
    assert choices("play_zap", "world") == ["Venus", "Pluto", "Mars"]
    assert [s["name"] for s in table.view()["seats"]] == ["Ann", "Bob", "Cy"]
    assert by_type["collect"]["label"] == "Collect population" and by_type["collect"]["group"] == "Population"
    assert "research" not in by_type  # an Enhanced-only action is no part of a Basic game (ActionSpec.applies)
    assert by_type["follow_up_roll"]["reason"].startswith("no follow-up roll is waiting")

    def kinds(fields: list) -> set:
        return {f["kind"] for f in fields} | {k for f in fields for k in kinds(f.get("fields", []))}

    every = set().union(*(kinds(a["fields"]) for a in listed["actions"]))
    assert every <= set(KINDS) and "json" not in every
    with pytest.raises(Exception, match="not Ann's|turn"):
        table.act({"type": "move"}, seat="Ann")
    assert table.view()["version"] == 4


def test_an_older_rules_session_opens_read_only(tmp_path, monkeypatch) -> None:
    table = Table(Store(tmp_path / "old.db"))
    table.create_session("vnm", {})
    table.act({"type": "move"})
    monkeypatch.setattr(type(SYSTEM), "rules_version", SYSTEM.rules_version + 1)
    again = Table(Store(tmp_path / "old.db"))
    assert f"Venus Needs Men rules v{SYSTEM.rules_version - 1}" in again.view()["readonly"]
    assert SYSTEM.rules_version - 1 == 2


def test_every_players_population_bar_names_its_number_so_the_phone_fixes_it_from_the_bar() -> None:
    # The phone finds a bar's number by the pile name: Earth's chips (in the Refuge) included.
    state = new_game(players=["Pluto", "Earth", "Venus"])
    bars = [b.label for e in SYSTEM.screen(state).elements if e.kind == "bars" for b in e.bars]
    piles = {t.pile: t.key for t in SYSTEM.tracked(state) if t.balance}
    assert bars and all(label in piles for label in bars), (bars, piles)
    assert piles["Earth"] == "worlds.Earth.population"


def test_a_refused_correction_never_starts_with_the_action_type() -> None:
    # QA #5: "correct: 1 more population ..." led a message a person reads with an API name.
    state = new_game()
    for raw in (
        {"type": "correct", "key": "worlds.Venus.population", "value": 1},
        {"type": "correct", "key": "worlds.Venus.population", "value": 1, "balance": "nope"},
        {"type": "correct", "key": "worlds.Venus.on_board", "value": 99},
        {"type": "correct", "key": "players.0.zap.discard", "value": 9},
    ):
        assert not refused(state, raw).lower().startswith("correct:"), raw
