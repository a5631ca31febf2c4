"""Research (Enhanced only): one die against the Upgrade's number, duplicates and obsolete cards."""

from __future__ import annotations

from tableside.core.systems.vnm import SYSTEM

from tests.dicehelp import dice_for
from tests.test_vnm_support import act, enhanced_game, new_game, play_to, refused


def tech(state: dict, world: str) -> dict:
    return state["worlds"][world]["tech"]


def test_research_in_the_basic_game_is_refused() -> None:
    state = new_game()
    refused(
        state, {"type": "research", "upgrade": "Gatling Lasers", "faces": [9]}, "Research is only in the Enhanced game"
    )
    refused(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"}, "Enhanced game")


def test_a_roll_at_least_the_number_acquires_it_at_the_end_of_the_turn() -> None:
    state = play_to(enhanced_game(), "Mars")
    state, result = act(state, {"type": "research", "upgrade": "yttrium alloys", "faces": [5]})
    assert result["acquired"] is True
    assert "Yttrium Alloys acquired" in result["summary"] and "(5+, 60%)" in result["summary"]
    assert tech(state, "Mars")["defense"] == {"space": 7, "land": 6, "ocean": 8}  # not yet
    state, result = act(state, {"type": "end_turn"})
    assert tech(state, "Mars")["upgrades"] == ["Yttrium Alloys"]
    assert tech(state, "Mars")["defense"] == {"space": 8, "land": 7, "ocean": 9}
    assert "Defense 8 space, 7 land, 9 ocean" in result["summary"]


def test_a_miss_keeps_the_choice_and_one_roll_per_action_unless_extended() -> None:
    state = play_to(enhanced_game(), "Mars")
    state, _ = act(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    assert state["upgrade_choice"]["chance"] == "60%"
    state, result = act(state, {"type": "research", "faces": [4]})
    assert result["acquired"] is False
    refused(state, {"type": "research", "faces": [9]}, "has rolled for research this turn", "extend")
    state, _ = act(state, {"type": "extend"})
    state, result = act(state, {"type": "research", "faces": [9]})
    assert result["acquired"] is True
    state, _ = act(state, {"type": "extend"})
    refused(state, {"type": "research", "upgrade": "Gatling Lasers", "faces": [9]}, "already has Gatling Lasers")


def test_unknown_upgrades_need_the_number_from_the_card() -> None:
    state = play_to(enhanced_game(), "Mars")
    refused(state, {"type": "research", "upgrade": "Plasma Cannon", "faces": [9]}, "roll_needed", "Plasma Cannon")
    refused(state, {"type": "research", "faces": [9]}, "choose an Upgrade card first")
    refused(state, {"type": "research", "upgrade": "Plasma Cannon", "roll_needed": 11, "faces": [9]}, "at most 10")
    state, result = act(state, {"type": "research", "upgrade": "Plasma Cannon", "roll_needed": 7, "faces": [7]})
    assert result["acquired"] is True
    state, result = act(state, {"type": "end_turn"})
    assert "under Technology values" in result["summary"] and "set_tech" not in result["summary"]


def test_duplicates_and_obsoleted_upgrades_cannot_be_attempted() -> None:
    state = new_game(version="Enhanced", tech={"Pluto": {"cards": ["Ultronium Shielding"]}})
    refused(state, {"type": "research", "upgrade": "Yttrium Alloys", "faces": [9]}, "duplicates Ultronium Shielding")
    state["worlds"]["Pluto"]["tech"]["upgrades"] = ["Auto Fire Control"]
    refused(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"}, "obsoleted by Auto Fire Control")


def test_venus_with_the_q_ray_keeps_gatling_lasers_beside_auto_fire_control() -> None:
    state = play_to(enhanced_game(), "Venus")
    tech(state, "Venus")["upgrades"] = ["Auto Fire Control"]
    state, result = act(state, {"type": "research", "upgrade": "Gatling Lasers", "faces": [6]})
    assert result["acquired"] is True
    state, _ = act(state, {"type": "end_turn"})
    assert tech(state, "Venus")["upgrades"] == ["Auto Fire Control", "Gatling Lasers"]


def test_acquiring_an_upgrade_discards_the_one_it_obsoletes() -> None:
    state = play_to(enhanced_game(), "Mars")
    tech(state, "Mars")["upgrades"] = ["Gatling Lasers"]
    state, _ = act(state, {"type": "research", "upgrade": "Energy Amplifier", "roll_needed": 6, "faces": [8]})
    state, result = act(state, {"type": "end_turn"})
    assert tech(state, "Mars")["upgrades"] == ["Energy Amplifier"]
    assert "Gatling Lasers discarded (obsoleted by Energy Amplifier)" in result["summary"]


def test_research_faces_and_dice_expression() -> None:
    state = play_to(enhanced_game(), "Mars")
    action = SYSTEM.validate_action({"type": "research", "upgrade": "Gatling Lasers"})
    assert dice_for(SYSTEM, state, action) == "1d10"
    refused(state, {"type": "research", "upgrade": "Gatling Lasers", "faces": [4, 4]}, "1 typed-in face left over")


def test_set_tech_is_enhanced_only_and_needs_a_value() -> None:
    refused(new_game(), {"type": "set_tech", "world": "Mars", "weapon_dice": 1}, "Enhanced")
    refused(enhanced_game(), {"type": "set_tech", "world": "Mars"}, "at least one value")
    state, result = act(
        enhanced_game(), {"type": "set_tech", "world": "Mars", "builds_per_action": 2, "cards": ["Chameleon Screen"]}
    )
    assert state["worlds"]["Mars"]["builds_per_action"] == 2
    assert tech(state, "Mars")["cards"] == ["Chameleon Screen"]
