"""The attack's chance before the tap that rolls, and the Basic Game's attack words without an area type.

A playthrough on phones: the target's tap rolls at once, and the chance (51%) was seen only after it; the
Basic game's words said "(space, 51%)" though the Basic Game's 8+ holds in every area.
"""

from __future__ import annotations

from typing import Any

from tableside.core.systems.vnm import SYSTEM, fleet

from tests.test_vnm_support import act, enhanced_game, new_game, play_to


def target_field(state: dict[str, Any]) -> dict[str, Any]:
    """The attack form's target as the phone gets it (its help and choices in this state)."""
    field = next(f for f in SYSTEM.actions["attack"].fields if f.name == "target")
    return field.describe(state)


def test_the_basic_attack_form_says_the_chance_the_roll_then_uses() -> None:
    state = new_game()  # Pluto's turn, nothing declared: the tap on a target sends the attack
    field = target_field(state)
    assert field["help"] == "51% to destroy, whichever fleet"
    assert "default" not in field
    shown = fleet.plan_against(state, "Mars")["chance"]
    _, result = act(state, {"type": "attack", "target": "Mars", "faces": [9, 1]})
    assert result["chance"] == shown == "51%"


def test_a_declared_target_keeps_both_the_chance_and_the_default_in_the_help() -> None:
    state, _ = act(new_game(), {"type": "declare_target", "target": "Venus"})
    assert target_field(state)["help"] == "51% to destroy, whichever fleet; default: the declared target, Venus"


def test_where_the_form_changes_the_chance_no_chance_is_said_for_it() -> None:
    """Mars's Weapon card rolls against the target's Defense by area type: the area picked in the form changes the
    chance, so the target's help does not say one (the declared target's line on the Now card does)."""
    state = play_to(enhanced_game(), "Mars")
    field = target_field(state)
    assert "%" not in field.get("help", "")
    assert all("%" not in c["label"] for c in field["choices"])


def test_the_basic_games_attack_words_name_no_area_type() -> None:
    state, declared = act(new_game(), {"type": "declare_target", "target": "Mars", "area_type": "land"})
    assert declared["summary"] == "Pluto vs Mars: 51% to destroy"
    _, result = act(state, {"type": "attack", "faces": [9, 1]})
    assert result["summary"] == "Pluto vs Mars (51%): rolled 9 and 1, Mars's spaceship destroyed"


def test_the_enhanced_games_attack_words_keep_the_area_type() -> None:
    state = play_to(enhanced_game(), "Mars")
    _, result = act(state, {"type": "declare_target", "target": "Venus", "area_type": "land"})
    assert "(land)" in result["summary"]
