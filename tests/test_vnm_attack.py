"""Attacks: Basic two dice 8+, Enhanced Weapon vs Defense by area type, Robotic, the Q-Ray table."""

from __future__ import annotations

import pytest
from tableside.core.systems.vnm import SYSTEM

from tests.dicehelp import dice_for
from tests.test_vnm_support import act, enhanced_game, new_game, play_to, refused, rolled


def expr(state: dict, raw: dict) -> str | None:
    return dice_for(SYSTEM, state, SYSTEM.validate_action(raw))


@pytest.mark.parametrize(("faces", "destroyed"), [([7, 8], True), ([10, 1], True), ([7, 7], False), ([0, 3], True)])
def test_basic_attack_destroys_on_either_die_8_or_more(faces: list, destroyed: bool) -> None:
    state = new_game()  # Pluto's turn; Venus and Mars have 2 ships each
    raw = {"type": "attack", "target": "Mars", "faces": faces}
    assert expr(state, raw) == "2d10"
    state, result = act(state, raw)
    assert state["worlds"]["Mars"]["on_board"] == (1 if destroyed else 2)
    assert result["hits"] == [f in (8, 9, 10, 0) for f in faces]
    assert result["chance"] == "51%" and result["chance_exact"] == "51/100"
    _, record = rolled(new_game(), raw)
    assert record["verdict"] == ("Mars's spaceship destroyed" if destroyed else "missed")


def test_attack_faces_are_checked() -> None:
    state = new_game()
    refused(state, {"type": "attack", "target": "Mars", "faces": [8]}, "Pluto vs Mars needs 2d10: only 1 typed-in")
    refused(state, {"type": "attack", "target": "Mars", "faces": [8, 11]}, "1-10", "11")
    refused(state, {"type": "attack", "target": "Mars", "faces": []}, "no typed-in faces left")


def test_a_target_is_declared_before_the_roll_and_reused() -> None:
    state = new_game()
    refused(state, {"type": "attack", "faces": [9, 9]}, "declare a target first")
    assert expr(state, {"type": "attack"}) is None  # refused: nothing to roll yet
    state, result = act(state, {"type": "declare_target", "target": "Venus"})
    assert result["chance"] == "51%"
    assert state["aim"]["text"] == "Pluto vs Venus: 51% to destroy"  # Basic: 8+ in every area, none named
    state, _ = act(state, {"type": "attack", "faces": [9, 1]})
    state, _ = act(state, {"type": "attack", "faces": [2, 8]})
    assert state["worlds"]["Venus"]["on_board"] == 0
    assert "no spaceships on the board" in state["aim"]["text"]
    refused(state, {"type": "attack", "faces": [9, 9]}, "Venus has no spaceships on the board to attack")
    assert state["turn_action"]["count"] == 2


def test_bad_targets_are_refused() -> None:
    state = new_game(players=["Pluto", "Earth", "Venus"])
    refused(state, {"type": "attack", "target": "Pluto", "faces": [9, 9]}, "'Pluto' is not one of")
    refused(state, {"type": "attack", "target": "Earth", "faces": [9, 9]}, "Earth has no spaceships")
    refused(state, {"type": "attack", "target": "Saturn", "faces": [9, 9]}, "'Saturn' is not one of")
    refused(state, {"type": "attack", "target": "Venus", "weapon": "q_ray", "faces": [9]}, "Enhanced")
    state = play_to(state, "Earth")
    refused(
        state,
        {"type": "attack", "target": "Venus", "faces": [9, 9]},
        "Earth has no spaceships on the board to attack with",
    )


def test_a_team_does_not_attack_itself() -> None:
    teams = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Pluto", "Titan"]}]
    state = new_game(players=teams)
    refused(state, {"type": "attack", "target": "Titan", "faces": [9, 9]}, "'Titan' is not one of Wally (Mars)")


def test_enhanced_attack_uses_weapon_dice_against_defense_by_area_type() -> None:
    state = play_to(enhanced_game(), "Mars")  # Mars: 1 die; Venus Defense 7 space / 6 land / 8 ocean
    raw = {"type": "attack", "target": "Venus", "area_type": "land", "faces": [6]}
    assert expr(state, raw) == "1d10"
    state, result = act(state, raw)
    assert result["chance"] == "50%"
    assert state["worlds"]["Venus"]["on_board"] == 1
    state, result = act(state, {"type": "attack", "target": "Venus", "area_type": "ocean", "faces": [7]})
    assert result["chance"] == "30%" and result["verdict"] == "missed"
    state, _ = act(state, {"type": "set_tech", "world": "Mars", "weapon_dice": 3})
    assert expr(state, {"type": "attack", "target": "Venus"}) is None  # both Mars spaceships have attacked
    state, _ = act(state, {"type": "extend", "cards": 1})
    assert expr(state, {"type": "attack", "target": "Venus"}) == "2d10"  # a Zap extension: no Technology cards
    fresh = play_to(enhanced_game(), "Mars")
    fresh, _ = act(fresh, {"type": "set_tech", "world": "Mars", "weapon_dice": 3})
    assert expr(fresh, {"type": "attack", "target": "Venus"}) == "3d10"


def test_enhanced_attack_needs_the_values_from_the_tech_cards() -> None:
    """Sent without them (button A, another client): refused in words a player reads, no API names."""
    state = new_game(version="Enhanced", tech={"Venus": {"defense_land": 6}})
    message = refused(
        state,
        {"type": "attack", "target": "Venus", "area_type": "land", "faces": [9]},
        "Pluto's Weapon dice are not entered yet",
        "Attack form",
    )
    assert "set_tech" not in message and "weapon_dice" not in message
    state, _ = act(state, {"type": "set_tech", "world": "Pluto", "weapon_dice": 1})
    message = refused(
        state,
        {"type": "attack", "target": "Venus", "area_type": "ocean", "faces": [9]},
        "Venus's Defense at sea is not entered yet",
    )
    assert "defense_ocean" not in message and "set_tech" not in message
    refused(state, {"type": "attack", "target": "Venus", "weapon": "gatling", "faces": [9, 9]}, "Gatling")


def test_the_first_enhanced_attack_enters_the_missing_card_values_itself() -> None:
    """Never a dead end: the attack carries the Weapon dice and the target's Defense not entered yet;
    they are kept for the game (the next attack needs none), and the log says them once."""
    state = new_game(version="Enhanced")
    raw = {"type": "attack", "target": "Mars", "area_type": "land", "weapon_dice": 2, "defense_land": 7}
    state, result = act(state, {**raw, "faces": [7, 3]})
    assert state["worlds"]["Pluto"]["tech"]["weapon_dice"] == 2
    assert state["worlds"]["Mars"]["tech"]["defense"] == {"space": None, "land": 7, "ocean": None}
    assert result["verdict"] == "Mars's spaceship destroyed"
    assert "entered from the cards: Pluto's Weapon 2 dice, Mars's Defense 7 on land" in result["summary"]
    # A value entered before is not changed by an attack (Technology values changes it), in words.
    message = refused(state, {**raw, "weapon_dice": 3, "faces": [9, 9, 9]}, "Pluto's card says Weapon 2 dice")
    assert message.startswith("weapon_dice: ")  # the phone says it at that field, by its label
    state, result = act(state, {"type": "attack", "target": "Mars", "area_type": "land", "faces": [6, 6]})
    assert result["verdict"] == "missed" and "entered" not in result["summary"]
    refused(new_game(), {**raw, "faces": [9, 9]}, "only in the Enhanced game")


def _fields(state: dict, action: str = "attack") -> dict:
    seats = [s.name for s in SYSTEM.seats(state)]
    return {f["name"]: f for f in SYSTEM.actions[action].describe(state, seats)["fields"]}


def test_the_enhanced_attack_form_asks_only_what_applies_to_this_attacker() -> None:
    """Pluto is offered no Q-Ray and no Gatling Lasers it has not acquired; the missing values are
    asked prefilled (the general rule's 2 dice, 8 or higher), only for the targets that lack them."""
    state = new_game(version="Enhanced", tech={"Venus": {"defense_space": 8}})
    fields = _fields(state)
    assert list(fields)[0] == "target"
    assert "weapon" not in fields  # one weapon: nothing to choose
    assert fields["weapon_dice"]["default"] == 2
    assert fields["defense_space"]["default"] == 8
    assert fields["defense_space"]["shown_when"] == {"target": ["Mars"], "area_type": ["space"]}
    assert fields["defense_land"]["shown_when"] == {"target": ["Venus", "Mars"], "area_type": ["land"]}
    assert fields["area_type"]["default"] == "space"
    state, _ = act(state, {"type": "set_tech", "world": "Pluto", "weapon_dice": 2})
    assert "weapon_dice" not in _fields(state)  # entered: not asked again
    state["worlds"]["Pluto"]["tech"]["upgrades"] = ["Gatling Lasers"]
    weapons = [c["value"] for c in _fields(state)["weapon"]["choices"]]
    assert weapons == ["gatling", "card"]
    venus = play_to(enhanced_game(), "Venus")
    assert {"area_type", "weapon", "weapon_dice", "defense_space"}.isdisjoint(_fields(venus))  # the Q-Ray only
    assert list(_fields(new_game())) == ["target"]  # Basic: the target, nothing else


def test_robotic_pluto_is_disabled_not_destroyed() -> None:
    state = play_to(enhanced_game(), "Mars")
    state, result = act(state, {"type": "attack", "target": "Pluto", "faces": [9]})
    assert "disabled, not destroyed (Robotic)" in result["verdict"]
    assert state["worlds"]["Pluto"]["on_board"] == 2
    assert "to disable (Robotic)" in state["aim"]["text"]


def qray_game(upgrades: tuple = ()) -> dict:
    state = play_to(enhanced_game(), "Venus")
    state["worlds"]["Venus"]["tech"]["upgrades"] = list(upgrades)
    return state


@pytest.mark.parametrize(
    ("face", "venus", "mars", "pending"),
    [
        (1, 1, 1, None),
        (2, 2, 2, "teleport"),
        (3, 2, 2, None),
        (4, 2, 2, None),
        (5, 2, 2, None),
        (6, 2, 2, "teleport"),
        (7, 2, 2, "teleport"),
        (8, 2, 1, None),
        (10, 2, 1, None),
    ],
)
def test_the_q_ray_table(face: int, venus: int, mars: int, pending: str | None) -> None:
    state = qray_game()
    raw = {"type": "attack", "target": "Mars", "faces": [face]}
    assert expr(state, raw) == "1d10"
    state, result = act(state, raw)
    assert result["chance"] == "40%"
    assert (state["worlds"]["Venus"]["on_board"], state["worlds"]["Mars"]["on_board"]) == (venus, mars)
    assert (state["pending_roll"] or {}).get("kind") == pending


def test_q_ray_teleports_wait_for_a_die_per_ship() -> None:
    state, result = act(qray_game(), {"type": "attack", "target": "Mars", "faces": [2]})
    assert "roll a die for the space area of Mars and Venus" in result["verdict"]
    assert expr(state, {"type": "follow_up_roll"}) == "2d10"
    refused(state, {"type": "end_turn"}, "teleport die")
    refused(state, {"type": "attack", "faces": [9]}, "teleport die")
    refused(state, {"type": "follow_up_roll", "faces": [4]}, "needs 2")
    state, result = act(state, {"type": "follow_up_roll", "faces": [4, 9]})
    assert "Mars's spaceship to space area die 4" in result["verdict"]
    assert state["pending_roll"] is None
    refused(state, {"type": "follow_up_roll", "faces": [1]}, "no follow-up roll")


@pytest.mark.parametrize("upgrade", ["Auto Fire Control", "Energy Amplifier"])
def test_q_ray_rolls_again_on_4_or_5_with_the_upgrades(upgrade: str) -> None:
    state = qray_game((upgrade,))
    state, result = act(state, {"type": "attack", "target": "Mars", "faces": [4]})
    assert result["chance"] == "50%"
    assert state["pending_roll"]["kind"] == "qray_reroll"
    state, _ = act(state, {"type": "follow_up_roll", "faces": [5]})
    assert state["pending_roll"]["kind"] == "qray_reroll"
    state, result = act(state, {"type": "follow_up_roll", "faces": [9]})
    assert result["verdict"] == "Mars's spaceship destroyed"
    assert state["worlds"]["Mars"]["on_board"] == 1
    state, record = rolled(state, {"type": "attack", "target": "Mars", "faces": [3]})
    assert state["pending_roll"] is None and record["verdict"] == "no effect"


def test_venus_may_choose_gatling_lasers_beside_the_q_ray() -> None:
    state = qray_game(("Gatling Lasers",))
    assert expr(state, {"type": "attack", "target": "Mars"}) == "1d10"
    raw = {"type": "attack", "target": "Mars", "weapon": "gatling", "area_type": "land", "faces": [2, 6]}
    assert expr(state, raw) == "2d10"
    state, result = act(state, raw)
    assert result["chance"] == "75%"  # 1 - (5/10)^2 against Defense 6
    assert state["worlds"]["Mars"]["on_board"] == 1
    refused(
        new_game(version="Enhanced", tech={"Pluto": {"weapon_dice": 1}}),
        {"type": "attack", "target": "Venus", "weapon": "q_ray", "faces": [9]},
        "Pluto has no Q-Ray",
    )


def test_the_attack_that_destroys_the_last_ship_still_reports_its_chance() -> None:
    state = new_game()
    state, _ = act(state, {"type": "attack", "target": "Mars", "faces": [9, 1]})
    state, result = act(state, {"type": "attack", "target": "Mars", "faces": [9, 1]})
    assert result["chance"] == "51%" and "51%" in result["summary"]
    assert state["aim"]["chance"] is None
