"""Buttons and the e-paper: the default map and what a glance at the table shows."""

from __future__ import annotations

import json
import random

from tableside.core.offers import buttons_now
from tableside.core.store import Store
from tableside.core.systems.vnm import SYSTEM
from tableside.core.table import Table
from tableside.display.panels import get_panel
from tableside.display.render import render

from tests.dicehelp import dice_for
from tests.test_vnm_support import act, enhanced_game, new_game, play_to


def press(state: dict, button: str, hold: bool = False):
    binding = SYSTEM.binding(button, hold)
    assert binding is not None
    return binding.action if isinstance(binding.action, str) else binding.action(state)


def element(state: dict, kind: str, title: str = ""):
    found = [
        e
        for e in SYSTEM.screen(state).elements
        if e.kind == kind and (not title or getattr(e, "title", getattr(e, "label", "")) == title)
    ]
    assert found, f"no {kind} {title!r} on the screen"
    return found[0]


def grid(state: dict, title: str) -> dict[str, tuple[str, ...]]:
    return {r.label: r.cells for r in element(state, "grid", title).rows}


def test_the_button_map() -> None:
    assert [(b.button, b.hold, b.label) for b in SYSTEM.bindings] == [
        ("A", False, "Attack"),
        ("B", False, "Research / d10"),
        ("C", False, "End turn"),
        ("D", False, "Undo"),
        ("D", True, "Redo"),
    ]
    state = new_game()
    assert press(state, "D") == "undo"
    assert press(state, "D", hold=True) == "redo"
    assert press(state, "C") == {"type": "end_turn"}


def test_the_buttons_a_phone_offers_say_what_they_do_now_and_never_only_to_be_refused() -> None:
    """#17 QA F2, F3: a Basic game's B was offered as "Research / d10", and A as "Attack" before any
    target was declared (pressed, it was refused)."""
    state = new_game()
    assert [(b["button"], b["label"]) for b in buttons_now(SYSTEM, state)] == [("B", "Roll d10"), ("C", "End turn")]
    state, _ = act(state, {"type": "declare_target", "target": "Mars"})
    assert [b["label"] for b in buttons_now(SYSTEM, state)] == ["Attack Mars", "Roll d10", "End turn"]
    enhanced = enhanced_game()
    enhanced, _ = act(enhanced, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    assert "Research Gatling Lasers" in [b["label"] for b in buttons_now(SYSTEM, enhanced)]


def test_a_attacks_the_declared_target_and_b_rolls_a_single_d10() -> None:
    state = new_game()
    assert press(state, "B") == {"type": "roll", "expr": "1d10"}
    state, _ = act(state, {"type": "declare_target", "target": "Mars"})
    action = press(state, "A")
    assert action == {"type": "attack"}
    assert dice_for(SYSTEM, state, SYSTEM.validate_action(action)) == "2d10"
    state, _ = act(state, {**action, "faces": [9, 2]})
    assert state["worlds"]["Mars"]["on_board"] == 1


def test_b_rolls_the_chosen_research_and_both_a_and_b_roll_a_waiting_follow_up() -> None:
    state = play_to(enhanced_game(), "Venus")
    state, _ = act(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    assert press(state, "B") == {"type": "research"}
    assert dice_for(SYSTEM, state, SYSTEM.validate_action(press(state, "B"))) == "1d10"
    state, result = act(state, {"type": "research", "faces": [5]})
    assert result["acquired"] is True
    assert press(state, "B") == {"type": "roll", "expr": "1d10"}  # nothing chosen any more
    state, _ = act(state, {"type": "end_turn"})
    state = play_to(state, "Venus")
    state, _ = act(state, {"type": "attack", "target": "Mars", "faces": [7]})
    assert press(state, "A") == press(state, "B") == {"type": "follow_up_roll"}
    assert SYSTEM.screen(state).prompt == "Venus: roll the teleport die (1d10)"
    assert [b.button for b in SYSTEM.buttons(state)][0] == "A"
    assert SYSTEM.buttons(state)[0].label == "Roll teleport die"


def test_buttons_do_nothing_after_a_win() -> None:
    state = new_game()
    state["winners"] = [0]
    assert press(state, "A") is None and press(state, "B") is None and press(state, "C") is None


def test_the_screen_shows_population_earth_ships_zap_turn_and_roll() -> None:
    state = new_game()
    state, _ = act(state, {"type": "collect", "area": "China", "count": 4})
    state, _ = act(state, {"type": "play_zap", "world": "Venus"})
    screen = SYSTEM.screen(state)
    assert screen.status == "R1 Pluto: Collect (1 left) · Venus next"  # play passes to the left
    assert screen.prompt == "Pluto: collect 1 more or end the turn"
    population = element(state, "bars")
    assert population.title == "Population" and population.threshold == 34 and population.priority == 1
    assert [(b.label, b.value, b.maximum, b.note) for b in population.bars] == [
        ("Venus", 0, 34, "next"),
        ("Mars", 0, 34, ""),
        ("Pluto", 4, 34, "turn"),
    ]
    assert grid(state, "Earth")["China"] == ("23",)
    assert grid(state, "Earth")["Australia & 2 more, together*"] == ("20",)
    assert any(e.text == "Earth: 97 left" for e in screen.elements if e.kind == "text")
    assert grid(state, "Ships") == {"Venus": ("2", "3"), "Mars": ("2", "3"), "Pluto": ("5", "0")}
    assert grid(state, "Zap")["Venus"] == ("9", "2", "1")
    assert json.dumps(screen.to_dict())


def _table(tmp_path):
    table = Table(Store(tmp_path / "vnm.db"), rng=random.Random(0))
    table.create_session("vnm", {})
    return table


def test_a_small_panel_keeps_population_prompt_and_the_roll_of_this_turn(tmp_path) -> None:
    table = _table(tmp_path)
    table.act({"type": "attack", "target": "Venus", "faces": [3, 8]})
    small = table.screen().by_priority(2)
    assert [e.kind for e in small.elements] == ["bars", "dice", "text"]
    assert small.prompt == "Pluto: attack again (4 left) or end the turn"
    image = render(small, get_panel("phat-red"))
    assert image.size == (212, 104)


def test_the_last_roll_shows_hit_marks_and_only_during_its_turn(tmp_path) -> None:
    table = _table(tmp_path)
    table.act({"type": "attack", "target": "Venus", "faces": [3, 8]})
    (roll,) = [e for e in table.screen().elements if e.kind == "dice"]
    assert [(d.face, d.mark) for d in roll.dice] == [(3, "miss"), (8, "hit")]
    assert roll.verdict == "Venus's spaceship destroyed" and roll.sides == 10 and roll.tone == "accent"
    (record,) = table.log()[-1]["rolls"]
    assert (record["label"], record["rolls"], record["marks"], record["belongs_to"]) == (
        "Pluto vs Venus",
        [3, 8],
        ["miss", "hit"],
        1,
    )
    table.act({"type": "end_turn"})
    assert not [e for e in table.screen().elements if e.kind == "dice"]
    before = table.view()["state"]
    table.act({"type": "roll", "expr": "1d10", "faces": [7]})
    assert table.view()["state"] == before  # a free roll changes nothing in the game
    (roll,) = [e for e in table.screen().elements if e.kind == "dice"]
    assert roll.verdict == "total 7" and table.log()[-1]["rolls"][0]["belongs_to"] == 2


def test_infected_population_and_team_status() -> None:
    state = play_to(new_game(players=["Pluto", "Titan", "Venus"], version="Enhanced"), "Titan")
    state, _ = act(state, {"type": "infect", "area": "Europe", "count": 2})
    assert grid(state, "Earth")["Europe"] == ("14", "2")
    teams = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Pluto", "Titan"]}]
    assert SYSTEM.screen(new_game(players=teams)).status == "R1 Al (Pluto): choose action · Wally (Mars, Venus) next"
    bars = element(new_game(players=teams), "bars").bars
    assert [b.label for b in bars] == ["Wally (Mars, Venus)", "Al (Pluto, Titan)"]
    assert [s.name for s in SYSTEM.seats(new_game(players=teams))] == ["Wally", "Al"]


def test_setup_warning_then_the_draw_prompt() -> None:
    state = new_game()
    assert any("players confirm" in e.text for e in SYSTEM.screen(state).elements if e.kind == "text")
    state, _ = act(state, {"type": "play_zap", "world": "Venus"})
    state, _ = act(state, {"type": "end_turn"})
    assert SYSTEM.screen(state).prompt == "Venus: draw 1 Zap card, then build, move, attack or collect"
    state, _ = act(state, {"type": "move"})
    assert SYSTEM.screen(state).prompt == "Venus: end the turn (button C)"
    assert SYSTEM.buttons(state)[0].button == "C"


def test_the_combined_land_area_says_it_is_three_areas_and_its_old_name_still_finds_it() -> None:
    """The seed's Game Length table stops at "Australia" with no values, so the three land areas it never
    reaches are one pool. Its old name, "Australia + 2 others", was read as one land area (#36); the name now
    says it is a pool of more than one. A land area typed with the old name is that pool."""
    from tableside.core.systems.vnm import rules
    from tableside.core.systems.vnm.setup import _given_area, area_source

    assert "together" in rules.MISSING_AREA_NAME and "2 more" in rules.MISSING_AREA_NAME
    given = _given_area({"name": "australia + 2 OTHERS", "population": 20}, 5)
    assert given["name"] == rules.MISSING_AREA_NAME
    assert area_source(given["name"], 20, "Normal") == "players confirm"
    assert len(rules.MISSING_AREA_NAME) <= 30  # a typed land area's limit (AREA_FIELDS)


def _next_roll_lines(state: dict) -> list[str]:
    return [e.text for e in SYSTEM.screen(state).elements if e.kind == "text" and e.text.startswith(("A: ", "B: "))]


def test_the_attack_line_leaves_the_screen_once_no_attack_is_left() -> None:
    """Seen in a playthrough: after Venus's two ships had attacked, the e-paper still said "A: Ann (Venus) vs Cy
    (Pluto) (space): 51% to destroy" under "end the turn (button C)", and A only refuses then. The line shows while
    an attack is open: before the turn's action is chosen and while attacks are left; not after a collect."""
    state = play_to(
        new_game(
            players=[
                {"name": "Ann", "home_worlds": ["Venus"]},
                {"name": "Cy", "home_worlds": ["Pluto"]},
                {"name": "Bob", "home_worlds": ["Mars"]},
            ]
        ),
        "Venus",
    )
    state, _ = act(state, {"type": "declare_target", "target": "Pluto"})
    assert [line[:3] for line in _next_roll_lines(state)] == ["A: "]
    state, _ = act(state, {"type": "attack", "target": "Pluto", "faces": [2, 3]})
    assert [line[:3] for line in _next_roll_lines(state)] == ["A: "]  # one attack left (Venus has two ships)
    state, _ = act(state, {"type": "attack", "target": "Pluto", "faces": [2, 3]})
    assert state["turn_action"]["left"] == 0
    assert _next_roll_lines(state) == []
    state, _ = act(state, {"type": "end_turn"})
    state = play_to(state, "Venus")
    state, _ = act(state, {"type": "declare_target", "target": "Pluto"})
    assert [line[:3] for line in _next_roll_lines(state)] == ["A: "]
    state, _ = act(state, {"type": "collect", "area": "China", "count": 1})  # the turn's action: no attack now
    assert _next_roll_lines(state) == []
