"""Drawing hints a field carries for a phone: ``for_role``, ``choices_by`` and ``help_now`` (#17 QA).

Each is described for the phone and changes no server check: the rules refuse a value sent anyway
in their own words. Each system's use is checked here in the state QA found it wrong in.
"""

from __future__ import annotations

import random

import pytest
from tableside.core.errors import RuleError
from tableside.core.fields import Field
from tableside.core.system import Prompt, run_action
from tableside.core.systems.v2140.system import SYSTEM as V2140
from tableside.core.systems.vegas.system import SYSTEM as VEGAS
from tableside.core.systems.vnm.system import SYSTEM as VNM

PLAYERS = ["Jo", "Kim", "Lu", "Max"]
JO_LEADS = (
    *({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in PLAYERS),
    {"type": "start_round"},
    {"type": "choose_furthest_behind", "player": "Jo"},
    {"type": "free_increase", "track": "Bot"},
)


def play(system, options, *actions):
    state = system.start(system.validate_options(options))
    for action in actions:
        state = run_action(system, state, action, rng=random.Random(1)).state
    return state


def fields(system, state, action_type: str, seat: str | None = None) -> dict[str, dict]:
    seats = [s.name for s in system.seats(state)]
    described = system.actions[action_type].describe(state, seats, seat)
    return {f["name"]: f for f in described["fields"]}


def test_the_hints_are_described_only_when_given() -> None:
    plain = Field("n").describe({})
    assert not {"for_role", "choices_by"} & set(plain)
    assert Field("racks", for_role="gm").describe()["for_role"] == "gm"
    token = Field("token", "pick", choices=("Game", "Bot"), choices_by="player", choices_of=lambda s: {"Jo": ["Bot"]})
    assert "choices_by" not in token.describe()  # no state: no one's holdings to narrow by
    assert token.describe({})["choices_by"] == {"field": "player", "values": {"Jo": ["Bot"]}}
    said = Field("target", "pick", choices=("Mars",), help="default: x", help_now=lambda s: s.get("help", ""))
    assert said.describe()["help"] == "default: x"
    assert "help" not in said.describe({})
    assert said.describe({"help": "now"})["help"] == "now"


@pytest.mark.parametrize(
    "bad",
    [
        {"choices_by": "player"},  # without choices_of
        {"choices_of": lambda s: {}},  # without choices_by
        {"choices_by": "token", "choices_of": lambda s: {}},  # itself
    ],
)
def test_a_malformed_choices_by_is_refused_when_the_system_is_written(bad) -> None:
    with pytest.raises(ValueError):
        Field("token", "pick", choices=("Game",), **bad)
    with pytest.raises(ValueError):
        Field("n", "count", choices_by="player", choices_of=lambda s: {})


def test_v2140_racks_are_the_gm_s_fields_and_the_rules_still_refuse_them_for_a_player() -> None:
    state = play(V2140, {"players": ["Shred", "Sven"]})
    described = fields(V2140, state, "prepare_pool", "Shred")
    assert {n for n, f in described.items() if f.get("for_role") == "gm"} == {"racks", "session_racks"}
    assert {s.role for s in V2140.seats(state) if s.name == "GM"} == {"gm"}
    with pytest.raises(RuleError, match="racks are the GM's dice"):
        run_action(V2140, state, {"type": "prepare_pool", "racks": 1}, seat="Shred")


def test_v2140_the_gm_s_actions_are_the_gm_seat_s_and_a_player_seat_is_refused_them() -> None:
    state = play(V2140, {"players": ["Shred", "Sven"]})
    seats = [s.name for s in V2140.seats(state)]
    gm_only = {
        a["type"] for a in (s.describe(state, seats, "Shred") for s in V2140.actions.values()) if a.get("for_role")
    }
    assert {"new_scene", "award_player_points", "session_rack", "add_effect"} <= gm_only
    assert not {"prepare_pool", "put_forward", "resolve"} & gm_only
    for spec in V2140.actions.values():  # the hint says what the core enforces: the GM's seat acts for the GM
        assert (spec.for_role == "gm") == (spec.owner(state, {}) == "GM" and spec.seat_field == ""), spec.type
    with pytest.raises(RuleError, match="cannot act for GM"):
        run_action(V2140, state, {"type": "new_scene"}, seat="Shred")


def test_vegas_tokens_are_narrowed_to_what_each_player_holds_less_what_this_trick_played() -> None:
    state = play(VEGAS, {"players": PLAYERS}, *JO_LEADS)
    token = fields(VEGAS, state, "play_card", "Jo")["token"]
    assert token["choices_by"] == {
        "field": "player",
        "values": {"Jo": ["Game", "Bot"], "Kim": ["Game"], "Lu": ["Game"], "Max": ["Game"]},
    }
    row = {f["name"]: f for f in fields(VEGAS, state, "play_trick")["cards"]["fields"]}
    assert row["token"]["choices_by"] == token["choices_by"]
    state = run_action(
        VEGAS,
        state,
        {"type": "play_card", "player": "Jo", "suit": "Team", "number": 5, "token": "Game", "trump": "Bot"},
    ).state
    values = fields(VEGAS, state, "play_card", "Kim")["token"]["choices_by"]["values"]
    assert values == {"Jo": ["Bot"], "Kim": [], "Lu": [], "Max": []}  # one token of each colour per trick
    # A hint only: the rules refuse the token in their own words (a whole trick entered with two Game tokens).
    cards = [
        {"player": p, "suit": "Team", "number": n, "token": "Game", "trump": "Bot"}
        for p, n in zip(PLAYERS, (5, 9, 3, 2), strict=True)
    ]
    with pytest.raises(RuleError, match="only one token of each colour"):
        run_action(VEGAS, play(VEGAS, {"players": PLAYERS}, *JO_LEADS), {"type": "play_trick", "cards": cards})


def test_vegas_the_round_s_prompt_names_the_button_and_the_phone_s_button_says_the_same() -> None:
    state = play(VEGAS, {"players": PLAYERS}, *JO_LEADS[:4])
    assert [p.describe() for p in VEGAS.pending(state)] == [
        {"seat": None, "text": "Start round 1 (button C)", "type": "start_round", "label": "Start round 1"}
    ]
    assert "label" not in Prompt(None, "x", "t").describe()


def test_vnm_the_attack_help_names_a_default_only_when_a_target_is_declared() -> None:
    worlds = (("Ann", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto"))
    options = {"players": [{"name": n, "home_worlds": [w]} for n, w in worlds]}
    state = play(VNM, options, {"type": "move"}, {"type": "end_turn"})
    # the Basic game's chance is said before the tap that rolls (every target has the same one)
    assert fields(VNM, state, "attack")["target"]["help"] == "51% to destroy, whichever fleet"
    state = run_action(VNM, state, {"type": "declare_target", "target": "Mars"}).state
    assert fields(VNM, state, "attack")["target"]["help"] == (
        "51% to destroy, whichever fleet; default: the declared target, Bob (Mars)"
    )


def test_v2140_prompts_name_the_phone_s_buttons() -> None:
    """ "(or C: no dice, move on)" beside a button "Next participant (C)": the prompt says the button's words."""
    state = play(V2140, {"players": ["Shred", "Sven"]})
    labels = {a.type: a.label for a in V2140.actions.values()}
    draw, *others = V2140.pending(state)
    assert draw.text == "Shred: draw dice for a scene pool, or none (Next participant, button C)"
    assert [p.text for p in others] == ["Sven: draw dice for a scene pool", "GM: draw dice for a scene pool"]
    assert labels[draw.type].lower() in draw.text.lower() and labels[draw.also[0]].split(" (")[0] in draw.text
    state = play(
        V2140,
        {"players": ["Shred", "Sven"]},
        {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1},
        {"type": "roll_pool", "participant": "Shred", "faces": [5, 4]},
        {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [5]},
    )
    (resolve,) = V2140.pending(state)
    assert resolve.text == "Resolve the exchange (button B): Shred against GM"
    assert labels[resolve.type] == "Resolve the exchange (B)"
