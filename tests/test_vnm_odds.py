"""Exact d10 odds, shown before each attack and research roll."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tableside.core.systems.vnm import SYSTEM, d10

from tests.test_vnm_support import act, enhanced_game, new_game, play_to


def test_basic_attack_is_one_minus_seven_tenths_squared() -> None:
    assert d10.basic_destroy_chance() == 1 - Fraction(7, 10) ** 2 == Fraction(51, 100)


@pytest.mark.parametrize(
    ("count", "defense", "chance"),
    [
        (1, 6, Fraction(1, 2)),
        (1, 8, Fraction(3, 10)),
        (2, 6, Fraction(3, 4)),
        (3, 9, 1 - Fraction(8, 10) ** 3),
        (1, 10, Fraction(1, 10)),
        (2, 1, Fraction(1)),
    ],
)
def test_enhanced_attack_chance(count: int, defense: int, chance: Fraction) -> None:
    assert d10.destroy_chance(count, defense) == chance


def test_q_ray_chances() -> None:
    plain = d10.qray_chances(reroll=False)
    assert plain == {
        "both_destroyed": Fraction(1, 10),
        "both_teleport": Fraction(1, 10),
        "no_effect": Fraction(3, 10),
        "target_teleports": Fraction(2, 10),
        "target_destroyed": Fraction(3, 10),
    }
    again = d10.qray_chances(reroll=True)
    assert again["no_effect"] == Fraction(1, 8) and again["target_destroyed"] == Fraction(3, 8)
    assert sum(plain.values()) == sum(again.values()) == 1
    assert d10.qray_destroy_chance(False) == Fraction(2, 5)
    assert d10.qray_destroy_chance(True) == Fraction(1, 2)


def test_research_chance() -> None:
    assert d10.research_chance(5) == Fraction(3, 5)
    assert d10.research_chance(10) == Fraction(1, 10)


def test_show_keeps_percent_and_the_exact_fraction_as_strings() -> None:
    assert d10.show(Fraction(51, 100)) == {"chance": "51%", "chance_exact": "51/100"}
    assert d10.show(Fraction(1, 3)) == {"chance": "33.3%", "chance_exact": "1/3"}


def test_the_chance_is_on_the_screen_before_the_roll() -> None:
    state, _ = act(new_game(), {"type": "declare_target", "target": "Mars"})
    assert state["aim"]["chance"] == "51%"
    texts = [e.text for e in SYSTEM.screen(state).elements if e.kind == "text"]
    assert "A: Pluto vs Mars: 51% to destroy" in texts  # Basic: no area type, 8+ in every one


def test_the_shown_chance_follows_changed_tech_values() -> None:
    state = play_to(enhanced_game(), "Mars")
    state, _ = act(state, {"type": "declare_target", "target": "Venus", "area_type": "land"})
    assert state["aim"]["chance"] == "50%"
    state, _ = act(state, {"type": "set_tech", "world": "Venus", "defense_land": 9})
    assert state["aim"]["chance"] == "20%"


def test_faces_of_zero_read_as_ten() -> None:
    from tableside.core.systems.vnm import SYSTEM

    from tests.dicehelp import play
    from tests.test_vnm_support import new_game

    _, result = play(SYSTEM, new_game(), {"type": "attack", "target": "Mars"}, faces=[0, 3])
    assert result["faces"] == [10, 3]
