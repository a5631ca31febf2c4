"""Setup options, Event deck composition and the Commander Token roll-off."""

from __future__ import annotations

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.systems.venom import SYSTEM, deck

from tests.dicehelp import dice_for
from tests.test_venom_helpers import act, new_game, started, to_phase


def test_defaults_are_the_rulebook_suggestions():
    options = SYSTEM.validate_options({"players": ["Ann", "Bob"]})
    assert options["mission"] == "World in Darkness"
    assert options["venom_strikes_removed"] == 0
    assert options["commander"] == ""


@pytest.mark.parametrize("players, total, quiet", [(2, 37, 9), (3, 37, 9), (4, 28, 0), (5, 28, 0)])
def test_event_deck_counts_for_2_3_versus_4_5_players(players, total, quiet):
    state = new_game([f"P{i}" for i in range(players)])
    counts = state["event_deck"]
    assert sum(counts.values()) == total
    assert counts["all_is_quiet"] == quiet
    assert counts["venom_strikes"] == 10
    assert counts["freedom_squadron_or_venom"] == 18


@pytest.mark.parametrize("removed", [0, 1, 4])
def test_difficulty_removes_venom_strikes_cards(removed):
    state = new_game(["A", "B"], venom_strikes_removed=removed)
    assert state["event_deck"]["venom_strikes"] == 10 - removed
    assert sum(state["event_deck"].values()) == 37 - removed


def test_no_options_at_all_gives_a_two_player_game():
    state = SYSTEM.start(SYSTEM.validate_options(None))
    assert [p["name"] for p in state["players"]] == ["Player 1", "Player 2"]
    assert state["mission"] == "World in Darkness"


def test_an_empty_mission_is_refused():
    with pytest.raises(RuleError, match="mission must not be empty"):
        SYSTEM.validate_options({"players": ["A", "B"], "mission": "  "})


def test_removing_five_venom_strikes_is_refused():
    with pytest.raises(RuleError, match="Difficulty: '5' is not one of Normal: all 10 VENOM Strikes! cards"):
        SYSTEM.validate_options({"players": ["A", "B"], "venom_strikes_removed": 5})


def test_split_of_the_other_18_events_is_optional_and_checked():
    state = new_game(["A", "B"], freedom_squadron_events=10, venom_events=8)
    assert state["event_deck"] == {"all_is_quiet": 9, "freedom_squadron": 10, "venom": 8, "venom_strikes": 10}
    with pytest.raises(RuleError, match="must add up to 18, got 17"):
        SYSTEM.validate_options({"players": ["A", "B"], "freedom_squadron_events": 10, "venom_events": 7})
    with pytest.raises(RuleError, match="both Freedom Squadron Events and VENOM Events"):
        SYSTEM.validate_options({"players": ["A", "B"], "freedom_squadron_events": 18})


def test_build_event_deck_refuses_player_counts_outside_2_to_5():
    with pytest.raises(RuleError, match="2-5 players, got 6"):
        deck.build_event_deck(6)


def test_a_sixth_player_is_refused():
    with pytest.raises(RuleError, match="Players takes at most 5 entries, got 6"):
        SYSTEM.validate_options({"players": ["A", "B", "C", "D", "E", "F"]})


def test_one_player_is_refused():
    with pytest.raises(RuleError, match="Players needs at least 2 entries, got 1"):
        SYSTEM.validate_options({"players": ["Solo"]})


def test_player_names_must_be_present_and_distinct():
    with pytest.raises(RuleError, match="every player needs a name"):
        SYSTEM.validate_options({"players": ["Ann", "  "]})
    with pytest.raises(RuleError, match="'Ann' appears twice"):
        SYSTEM.validate_options({"players": ["Ann", "ann"]})


def test_unknown_option_is_malformed():
    with pytest.raises(BadRequest, match="unknown field"):
        SYSTEM.validate_options({"players": ["A", "B"], "expansion": True})


def test_commander_set_by_hand_starts_round_one_in_the_event_phase():
    state = new_game(["Ann", "Bob", "Cy"], commander="bob")
    assert (state["commander"], state["active_player"], state["round"], state["phase"]) == (1, 1, 1, "Event")


def test_commander_must_be_a_player():
    with pytest.raises(RuleError, match="commander 'Dee' is not one of the players"):
        SYSTEM.validate_options({"players": ["Ann", "Bob"], "commander": "Dee"})


def test_without_a_commander_the_game_waits_in_setup():
    state = new_game()
    assert state["phase"] == "Setup"
    with pytest.raises(RuleError, match="choose the Commander first"):
        act(state, {"type": "next_phase"})


def test_roll_off_highest_die_is_commander():
    state = new_game()
    assert dice_for(SYSTEM, state, {"type": "commander_roll_off"}) == "3d6"
    state, result = act(state, {"type": "commander_roll_off"}, faces=[2, 5, 3])
    assert result["commander"] == "Bob"
    assert (state["phase"], state["active_player"], state["round"]) == ("Event", 1, 1)


def test_roll_off_ties_reroll_only_among_the_tied():
    state = new_game(["Ann", "Bob", "Cy", "Dee"])
    state, result = act(state, {"type": "commander_roll_off"}, faces=[6, 2, 6, 6])
    assert result["commander"] is None and result["tied"] == ["Ann", "Cy", "Dee"]
    assert state["phase"] == "Setup"
    assert dice_for(SYSTEM, state, {"type": "commander_roll_off"}) == "3d6"
    state, result = act(state, {"type": "commander_roll_off"}, faces=[4, 4, 1])
    assert result["tied"] == ["Ann", "Cy"]
    state, result = act(state, {"type": "commander_roll_off"}, faces=[3, 5])
    assert result["commander"] == "Cy" and state["commander"] == 2
    assert len(state["roll_off"]["rounds"]) == 3


def test_roll_off_needs_one_face_per_contender():
    state = new_game()
    with pytest.raises(RuleError, match="Roll-off needs 3d6"):
        act(state, {"type": "commander_roll_off"}, faces=[4, 5], typed=True)


def test_commander_never_changes():
    state = new_game(commander="Ann")
    with pytest.raises(RuleError, match="never changes"):
        act(state, {"type": "set_commander", "player": "Bob"})
    with pytest.raises(RuleError, match="never changes"):
        act(state, {"type": "commander_roll_off"}, faces=[1, 2, 3])


def test_set_commander_by_name():
    state, result = act(new_game(), {"type": "set_commander", "player": "Cy"})
    assert result["commander"] == "Cy" and state["active_player"] == 2
    with pytest.raises(RuleError, match="Set the Commander: Commander: 'Zed' is not one of Ann, Bob, Cy"):
        act(new_game(), {"type": "set_commander", "player": "Zed"})


# --- the VENOM Leader Deck given at setup: a card chosen with a tap, then its Zone -------------
DECK = [
    {"name": "Vipress", "health": 3, "defense": 4, "support": 5},
    {"name": "Destro", "health": 4, "defense": 5, "support": 3},
]


def _tactical(**options):
    return to_phase(started(["Ann", "Bob"], leader_deck=DECK, **options), "Tactical")


def test_a_deck_card_is_chosen_with_its_zone_and_is_then_on_the_board():
    state = _tactical()
    offered = SYSTEM.actions["choose_leader"].describe(state)
    assert offered["taps"] == ["card", "zone"]
    card = next(f for f in offered["fields"] if f["name"] == "card")
    assert [c["value"] for c in card["choices"]] == ["Vipress", "Destro"]
    state, result = act(state, {"type": "choose_leader", "card": "Vipress", "zone": "VENOM Island"})
    assert result["summary"] == "Ann attacks Vipress in VENOM Island (Land): Health 3, Defense 4, Support 5"
    assert (state["health_track"], state["defense_track"]) == (3, 4)
    assert state["zones"]["VENOM Island"]["name"] == "Vipress"
    # On the board now: no longer a deck card to find, the Leader in its Zone instead.
    after = SYSTEM.actions["choose_leader"].describe(state)
    card = next(f for f in after["fields"] if f["name"] == "card")
    assert [c["value"] for c in card["choices"]] == ["Destro"]


def test_a_deck_card_without_its_zone_or_not_in_the_deck_is_refused_in_words():
    state = _tactical()
    with pytest.raises(RuleError, match="tap the Zone Vipress stands in"):
        act(state, {"type": "choose_leader", "card": "Vipress"})
    with pytest.raises(RuleError, match="not one of"):
        act(state, {"type": "choose_leader", "card": "Cobra Commander", "zone": "VENOM Island"})


def test_without_a_deck_the_form_has_no_card_and_no_taps():
    state = to_phase(started(["Ann", "Bob"]), "Tactical")
    offered = SYSTEM.actions["choose_leader"].describe(state)
    assert "taps" not in offered and "card" not in [f["name"] for f in offered["fields"]]


def test_the_leader_deck_lists_each_name_once_and_at_most_29_cards():
    with pytest.raises(RuleError, match="lists 'Vipress' twice"):
        SYSTEM.validate_options({"players": ["Ann", "Bob"], "leader_deck": [DECK[0], {**DECK[0], "name": "vipress"}]})
    too_many = [{**DECK[0], "name": f"Leader {n}"} for n in range(30)]
    with pytest.raises(RuleError, match="at most 29"):
        SYSTEM.validate_options({"players": ["Ann", "Bob"], "leader_deck": too_many})


def test_a_deck_card_placed_in_a_zone_is_then_chosen_with_one_tap():
    state = _tactical()
    offered = SYSTEM.actions["place_leader"].describe(state)
    assert offered["taps"] == ["card", "zone"]
    state, result = act(state, {"type": "place_leader", "card": "Destro", "zone": "Captured Oil Rig"})
    assert result["summary"] == "Destro in Captured Oil Rig: Health 4, Defense 5, Support 3"
    choices = next(f for f in SYSTEM.actions["choose_leader"].describe(state)["fields"] if f["name"] == "on_board")
    assert [c["value"] for c in choices["choices"]] == ["Captured Oil Rig"]
    state, result = act(state, {"type": "choose_leader", "on_board": "Captured Oil Rig"})
    assert result["summary"].startswith("Ann attacks Destro in Captured Oil Rig (Sea): Health 4, Defense 5")
    with pytest.raises(RuleError, match="Leader card from the deck: .Destro. is not one of Vipress"):
        act(state, {"type": "place_leader", "card": "Destro", "zone": "VENOM Island"})


def test_a_leader_entered_by_hand_still_needs_its_values_in_words():
    state = to_phase(started(["Ann", "Bob"]), "Tactical")
    with pytest.raises(RuleError, match=r"^Enter a Leader on the board: fill in Health, Defense and Support Value$"):
        act(state, {"type": "place_leader", "name": "Vipress", "zone": "VENOM Island"})
    state, result = act(
        state,
        {"type": "place_leader", "name": "Vipress", "zone": "VENOM Island", "health": 3, "defense": 4, "support": 5},
    )
    assert result["summary"] == "Vipress in VENOM Island: Health 3, Defense 4, Support 5"


def _required(state, action: str) -> dict[str, bool]:
    return {f["name"]: f["required"] for f in SYSTEM.actions[action].describe(state)["fields"]}


def test_a_leader_card_s_values_are_required_while_nothing_can_give_them_and_missing_ones_are_said_by_label():
    """QA F1: no Leader Deck and no Leader on the board: the card's values are the only way, so the phone's form asks
    each of them (a required field is never folded away), and a refusal names the missing ones by their labels."""
    state = to_phase(started(["Ann", "Bob"]), "Tactical")
    card = {"name": True, "zone": True, "health": True, "defense": True, "support": True, "zone_type": False}
    assert _required(state, "choose_leader") == card
    assert _required(state, "place_leader") == {
        "name": True,
        "zone": True,
        "health": True,
        "defense": True,
        "support": True,
    }
    missing = "^Choose the VENOM Leader: fill in Leader's name and Support Value$"
    with pytest.raises(RuleError, match=missing):
        act(state, {"type": "choose_leader", "zone": "VENOM Island", "health": 3, "defense": 4})
    # A Leader on the board gives them with a tap: then they are optional, and the refusal says so first.
    state, _ = act(
        state,
        {"type": "place_leader", "name": "Vipress", "zone": "VENOM Island", "health": 3, "defense": 4, "support": 5},
    )
    assert not any(_required(state, "choose_leader").values())
    missing = "^Choose the VENOM Leader: tap a Leader on the board, or fill in Leader's name and Support Value$"
    with pytest.raises(RuleError, match=missing):
        act(state, {"type": "choose_leader", "zone": "Captured Oil Rig", "health": 3, "defense": 4})
    # With a deck given at setup its cards give them too (the Zone is still asked when placing one).
    deck = to_phase(
        started(["Ann", "Bob"], leader_deck=[{"name": "Destro", "health": 4, "defense": 5, "support": 3}]), "Tactical"
    )
    assert _required(deck, "place_leader") == {
        "card": False,
        "name": False,
        "zone": True,
        "health": False,
        "defense": False,
        "support": False,
    }
    assert _required(deck, "choose_leader")["name"] is False
