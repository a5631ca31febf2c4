"""What the core tells a phone about a game (the actions list of docs/contract section 6): an action's keys
as a phone reads them, a seat, a prompt and a button, the ``correct`` action every system offers, and an
action that is no part of this game."""

from __future__ import annotations

from tableside.core.system import ActionSpec, Binding, Field, Prompt, Seat, in_phase

from tests.inn import Inn


def _noop(state, action, ctx):
    return state, {"summary": "nothing"}


ENHANCED = {"phase": "Build", "version": "Enhanced"}
BASIC = {"phase": "Fight", "version": "Basic"}
SPEC = ActionSpec(
    "build",
    "Build a ship",
    "Build one ship.",
    _noop,
    (
        Field("player", "pick", choices=lambda state: ["Ann", "Bob"] if state else []),
        Field("world", "pick", choices=("Venus", "Pluto")),
        Field("host", "seat", required=False, default=""),
        Field("tech", "count", required=False, default=0, applies=lambda state: state["version"] == "Enhanced"),
    ),
    group="Build",
    available=in_phase("Build"),
    example={"player": "Ann", "world": "Venus"},
    rolls=True,
    seat_field="player",
    taps=("world", "tech"),
    for_role="player",
    applies=lambda state: state["version"] == "Enhanced",
)


def test_an_action_is_described_with_every_key_a_phone_reads():
    out = SPEC.describe(ENHANCED, ["Ann", "Bob"], "Ann")
    assert {k: v for k, v in out.items() if k != "fields"} == {
        "type": "build",
        "label": "Build a ship",
        "doc": "Build one ship.",
        "group": "Build",
        "rolls_dice": True,
        "example": {"type": "build", "player": "Ann", "world": "Venus"},
        "seat_field": "player",
        "for_role": "player",
        "taps": ["world", "tech"],
        "available": True,
    }
    assert [f["name"] for f in out["fields"]] == ["player", "world", "host", "tech"]
    assert [c["value"] for c in out["fields"][0]["choices"]] == ["Ann", "Bob"]
    assert [c["value"] for c in out["fields"][2]["choices"]] == ["Ann", "Bob"]  # the seats handed in


def test_a_field_that_is_no_part_of_this_game_is_left_out_and_its_taps_with_it():
    out = SPEC.describe(BASIC, ["Ann", "Bob"])
    assert [f["name"] for f in out["fields"]] == ["player", "world", "host"]
    assert "taps" not in out  # "tech" is not drawn, so the form is not asked tap by tap
    assert out["available"] is False and out["reason"] == "only in Build; now: Fight"


def test_described_without_a_state_an_action_says_neither_availability_nor_choices_of_now():
    out = SPEC.describe()
    assert "available" not in out and "reason" not in out
    assert [f["name"] for f in out["fields"]] == ["player", "world", "host", "tech"]


def test_a_plain_action_leaves_out_the_keys_it_has_no_use_for():
    out = ActionSpec("pass", "Pass", "Pass the turn.", _noop).describe({"phase": "x"})
    assert out == {
        "type": "pass",
        "label": "Pass",
        "doc": "Pass the turn.",
        "group": "",
        "rolls_dice": False,
        "fields": [],
        "example": {"type": "pass"},
        "available": True,
    }


def test_an_action_of_another_version_of_the_game_is_no_part_of_it():
    assert SPEC.applies_in(ENHANCED) is True and SPEC.applies_in(BASIC) is False
    assert SPEC.applies_in(None) is True  # any game: as describe() lists every action
    plain = ActionSpec("pass", "Pass", "Pass.", _noop)
    assert plain.applies_in(BASIC) is True and plain.applies_in(None) is True
    truthy = ActionSpec("x", "X", "X.", _noop, applies=lambda state: state["version"])
    assert truthy.applies_in(BASIC) is True and truthy.applies_in({"version": ""}) is False


def test_an_owner_is_read_from_the_state_and_none_without_acts_for():
    owned = ActionSpec("x", "X", "X.", _noop, acts_for=lambda state, action: state["turn"])
    assert owned.owner({"turn": "Cy"}, {"type": "x"}) == "Cy"
    assert ActionSpec("y", "Y", "Y.", _noop).owner({"turn": "Cy"}, {"type": "y"}) is None


def test_a_seat_is_named_by_its_label_or_else_its_name():
    assert Seat("Ann", "player", "Ann (Venus)").describe() == {"name": "Ann", "role": "player", "label": "Ann (Venus)"}
    assert Seat("GM", "gm").describe() == {"name": "GM", "role": "gm", "label": "GM"}


def test_a_prompt_carries_its_alternatives_label_and_who_follows_only_when_it_has_them():
    assert Prompt("Ann", "Ann: play a card", "play").describe() == {
        "seat": "Ann",
        "text": "Ann: play a card",
        "type": "play",
    }
    full = Prompt(None, "Round 2", "next", also=("build", "move"), label="Start round 2", then=("Bob", "Cy"))
    assert full.describe() == {
        "seat": None,
        "text": "Round 2",
        "type": "next",
        "also": ["build", "move"],
        "label": "Start round 2",
        "then": ["Bob", "Cy"],
    }


def test_a_button_is_described_by_its_place_and_label():
    assert Binding("C", True, "Next phase", "redo").describe() == {"button": "C", "hold": True, "label": "Next phase"}


def test_every_system_offers_correct_with_these_fields():
    inn = Inn()
    out = inn.correct_spec().describe()
    assert out == {
        "type": "correct",
        "label": "Correct a number",
        "doc": "Set one tracked number to a new value; logged as a correction (from, to, why).",
        "group": "Corrections",
        "rolls_dice": False,
        "fields": [
            {"name": "key", "label": "Number", "kind": "pick", "required": True},
            {"name": "value", "label": "New value", "kind": "count", "required": True},
            {"name": "reason", "label": "Why", "kind": "text", "required": False, "max_length": 120},
            {
                "name": "balance",
                "label": "From or to",
                "kind": "pick",
                "required": False,
                "help": "a conserved number (population): where the difference comes from or goes to",
            },
        ],
        "example": {"type": "correct", "key": "score", "value": 3, "reason": "miscounted"},
    }
    state = inn.start(inn.validate_options({}))
    checked = inn.validate_action({"type": "correct", "key": "pips", "value": 2}, state)
    assert checked == {"type": "correct", "key": "pips", "value": 2, "reason": "", "balance": ""}
