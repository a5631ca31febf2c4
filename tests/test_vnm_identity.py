"""One identity per player: every place a VNM game names a player says "Ann (Venus)", in one colour.

A named game is played through the core, and after every action each text a person reads is
checked: the log line, the prompts, the e-paper's status and rows (Population, Ships, Zap), the
roll on the table, the buttons, the world choices of the forms, the correction labels and the
chart. Taking every "Name (World)" out of such a text must leave no player's name and no home
world: neither "Pluto: build" nor a bare "Ann". The colour of each player is their world's in the
rulebook's Setup table, the same on the bars, the rows and the chart.
"""

from __future__ import annotations

import re

import pytest
from tableside.core.screen import PLAYER_INKS
from tableside.core.system import TableRoll
from tableside.core.systems.vnm import SYSTEM, rules

from tests.dicehelp import play_step
from tests.test_vnm_support import new_game

PLAYERS = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Mars"]},
    {"name": "Cy", "home_worlds": ["Pluto"]},
    {"name": "Dee", "home_worlds": ["Titan"]},
]
TECH = [  # made-up test values, not card text
    {"world": w, "weapon_dice": 1, "defense_space": 7, "defense_land": 6, "defense_ocean": 8}
    for w in ("Venus", "Mars", "Pluto", "Titan")
]
LABELS = ("Ann (Venus)", "Bob (Mars)", "Cy (Pluto)", "Dee (Titan)")
BARE = re.compile(r"\b(Ann|Bob|Cy|Dee|Venus|Mars|Pluto|Titan)\b")
# The rulebook's Setup table: "Venus Purple, Mars Red, Ganymede Blue, Titan Yellow, Pluto Black".
RULEBOOK = {"Ann (Venus)": "purple", "Bob (Mars)": "red", "Cy (Pluto)": "black", "Dee (Titan)": "yellow"}

# Cy (Pluto) starts; then Dee (Titan), Ann (Venus), Bob (Mars), clockwise as seated.
STEPS = [
    {"type": "declare_target", "target": "Venus", "area_type": "land"},
    {"type": "attack", "faces": [9]},
    {"type": "extend", "cards": 1},
    {"type": "attack", "faces": [2]},
    {"type": "play_zap", "world": "Mars", "number": 12},
    {"type": "play_zap", "world": "Venus", "number": 20},
    {"type": "end_turn"},
    {"type": "infect", "area": "China", "count": 1},
    {"type": "end_turn"},
    {"type": "choose_upgrade", "upgrade": "Gatling Lasers", "roll_needed": 6},
    {"type": "research", "faces": [9]},
    {"type": "end_turn"},
    {"type": "collect", "area": "India", "count": 2},
    {"type": "set_tech", "world": "Mars", "weapon_dice": 2},
    {"type": "destroy_ship", "world": "Titan", "count": 1},
    {"type": "receive_population", "gains": [{"world": "Pluto", "area": "Europe", "count": 1}]},
    {"type": "end_turn"},
    {"type": "build", "count": 1},
    {"type": "end_turn"},
    {"type": "play_zap", "world": "Titan"},
    {"type": "draw_zap", "world": "Titan", "count": 1},
]


def _texts(state: dict, result: dict | None, roll: TableRoll | None) -> list[str]:
    """Everything a person reads about this moment, on a phone, in the log or on the e-paper."""
    screen = SYSTEM.screen(state, roll)
    out = [screen.status or "", screen.prompt or "", screen.alert or ""]
    out += [p.text for p in SYSTEM.pending(state)]
    out += list(SYSTEM.button_labels(state).values())
    for element in screen.elements:
        out += [b.label for b in getattr(element, "bars", ())]
        out += [r.label for r in getattr(element, "rows", ()) if element.title in ("Ships", "Zap")]
        if element.kind == "dice":
            out.append(element.label)
            out.append(element.verdict or "")
        if element.kind == "text":
            out.append(element.text)
    out += [t.label for t in SYSTEM.tracked(state) if not t.key.startswith("land_areas")]
    out += list(SYSTEM.chart_series(state))
    for spec in SYSTEM.actions.values():
        for field in spec.fields:
            if field.name in ("world", "target") and callable(field.choices):
                out += [c.label for c in field.choices(state)]
    if result is not None:
        out.append(result["summary"])
    return out


def _left_over(text: str) -> list[str]:
    """What names a player or a world outside a "Name (World)" label."""
    for label in LABELS:
        text = text.replace(label, "")
    return BARE.findall(text)


def test_every_line_names_a_player_as_name_and_world() -> None:
    state = new_game(players=PLAYERS, version="Enhanced", tech=TECH)
    done, seen = [], 0
    for raw in [None, *STEPS]:
        result, roll = None, None
        if raw is not None:
            step = play_step(SYSTEM, state, raw)
            state, result = step.state, step.result
            if step.rolls:
                roll = TableRoll(1, tuple({**r, "belongs_to": None} for r in step.rolls))
            done.append(raw["type"])
        for text in _texts(state, result, roll):
            seen += 1
            assert not _left_over(text), f"after {raw}: {text!r} names {_left_over(text)} outside 'Name (World)'"
    assert len(done) == len(STEPS) and seen > 300


def test_the_roll_on_the_table_names_the_players_and_keeps_its_logged_label() -> None:
    state = new_game(players=PLAYERS)
    step = play_step(SYSTEM, state, {"type": "attack", "target": "Venus", "faces": [9, 3]})
    assert step.rolls[-1]["label"] == "Pluto vs Venus"  # what a replay of an older log checks
    group = TableRoll(1, tuple(step.rolls)).group()
    assert group.label == "Cy (Pluto) vs Ann (Venus)"
    assert group.verdict == "Ann (Venus)'s spaceship destroyed"


def test_a_roll_still_to_make_is_asked_for_by_the_players_names() -> None:
    """Typed-in faces run out: the phone's "Dice to roll" and the smart dice's wait say who fights whom."""
    from tableside.core.recorder import NeedsDice
    from tableside.core.system import run_action

    state = new_game(players=PLAYERS)
    with pytest.raises(NeedsDice) as caught:
        run_action(SYSTEM, state, {"type": "attack", "target": "Venus"}, faces=[])
    assert caught.value.needs_dice == [
        {"label": "Pluto vs Venus", "expr": "2d10", "shown": "Cy (Pluto) vs Ann (Venus)"}
    ]
    assert caught.value.message.startswith("Cy (Pluto) vs Ann (Venus) needs 2d10")


def test_a_player_has_the_rulebook_colour_of_their_world_everywhere() -> None:
    state = new_game(players=PLAYERS)
    screen = SYSTEM.screen(state)
    by_element = {
        getattr(e, "title", ""): {
            getattr(r, "label", ""): r.colour for r in (*getattr(e, "bars", ()), *getattr(e, "rows", ()))
        }
        for e in screen.elements
        if e.kind in ("bars", "grid")
    }
    chart = SYSTEM.chart_colours(state)
    for label, colour in RULEBOOK.items():
        assert PLAYER_INKS[by_element["Population"][label]] == colour
        assert PLAYER_INKS[by_element["Ships"][label]] == colour
        assert PLAYER_INKS[by_element["Zap"][label]] == colour
        assert PLAYER_INKS[chart[label]] == colour
    assert rules.COLOURS[rules.PLANETS.index("Venus")] == "Purple"


@pytest.mark.parametrize(
    ("players", "world", "acting", "whole"),
    [
        (PLAYERS, "Venus", "Ann (Venus)", "Ann (Venus)"),
        (
            [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Pluto", "Titan"]}],
            "Venus",
            "Wally (Venus)",
            "Wally (Mars, Venus)",
        ),
        (["Venus", "Mars", "Pluto"], "Venus", "Venus", "Venus"),  # left unnamed: the world alone
        ([{"home_worlds": ["Mars", "Venus"]}, {"home_worlds": ["Pluto", "Titan"]}], "Venus", "Venus", "Mars & Venus"),
    ],
)
def test_one_rule_names_a_player_a_team_and_an_unnamed_player(players, world, acting, whole) -> None:
    from tableside.core.systems.vnm.state import player_label, who  # the one rule (new in #17)

    state = new_game(players=players)
    assert who(state, world) == acting
    assert player_label(state, state["worlds"][world]["player"]) == whole
