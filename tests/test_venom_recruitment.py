"""VENOM Assault's card economy (#35): the Recruitment Points of the cards in play added up and the Cost of the
cards recruited checked against them, and the End of Turn's refills (the empty Zones, then the Training Ground)
prompted in the rulebook's order. Each rule quotes docs/rulebooks/venom.txt.

Before: no action added up Recruitment Points (the book's "1+1+2+2+2 = 8" example could not be run), the
Recruitment Phase prompt was "Recruitment Phase; next phase when done", and the End of Turn prompted only "next
phase": refilling a Zone was Enter a Leader under All actions (3 taps per Leader), the Training Ground nothing.
The card numbers are the table's, typed: the rulebook prints no Freedom Squadron card."""

from __future__ import annotations

from tableside.core.errors import RuleError
from tableside.core.systems.venom import SYSTEM

from tests.httpapi import AUTH, acted, api_client, post, refused
from tests.rulebook_quotes import quoted
from tests.test_venom_helpers import act, started, to_phase

ADD_UP = quoted("venom", "Add up the total Recruitment Points from all of your cards in play.")
TOTAL_COST = quoted(
    "venom",
    "You may recruit any number of cards from the Training Ground that have a total Cost equal to or less than "
    "your total Recruitment Points. Any excess points cannot be carried over to the next Round.",
)
EXAMPLE = quoted(
    "venom",
    'Adding up all of the Recruitment Points, he totals 1+1+2+2+2 = 8. He spends 5 on "Hornet\'s" Ability, and '
    "takes the top card from the Recruitment Deck into his Discard Pile.",
)
THREE_LEFT = quoted(
    "venom",
    "With only 3 Recruitment Points left, the player cannot purchase any of the face up cards from the Training "
    "Ground, which all have a Cost greater than 3",
)
END_OF_TURN_ORDER = (
    quoted("venom", "3. Refill any empty Zones with a Reward Card and a VENOM Leader."),
    quoted("venom", "4. Refill the Training Ground to five cards."),
)
FIVE = quoted("venom", "Refill the Training Ground to five cards by drawing from the Recruitment Deck.")
NO_NEED = quoted("venom", "The Training Ground, which was not touched during this Turn, has no need to refill.")
DECK = quoted("venom", "84 Freedom Squadron Cards")

BOOK = [{"points": 1}, {"points": 1}, {"points": 2}, {"points": 2}, {"points": 2}]
EXAMPLE_RECRUIT = {"type": "recruit", "in_play": BOOK, "abilities": 5, "from_deck": 1}


def _recruiting(**options):
    return to_phase(started(**options), "Recruitment")


def test_the_books_example_adds_up_to_8_and_leaves_3():
    assert ADD_UP and EXAMPLE
    state, result = act(_recruiting(), EXAMPLE_RECRUIT)
    assert (result["total"], result["left"]) == (8, 3)
    assert result["summary"] == (
        "Ann: Recruitment Points 1+1+2+2+2 = 8; 5 on Abilities (1 card from the Recruitment Deck); "
        "recruits nothing; 3 left, not carried over"
    )
    assert state["recruitment_deck"] == 84 - 5 - 1 and state["training_ground"] == 5 and DECK


def test_a_cost_above_the_points_left_is_refused_and_changes_nothing():
    assert THREE_LEFT and TOTAL_COST
    state = _recruiting()
    over = {**EXAMPLE_RECRUIT, "recruited": [{"name": "", "cost": 4}]}
    try:
        act(state, over)
    except RuleError as e:
        assert str(e) == (
            "Recruit: a total Cost of 4 is more than the 3 Recruitment Points left (1+1+2+2+2 = 8, 5 spent on "
            "Abilities); the total Cost must be equal to or less"
        )
    else:
        raise AssertionError("a Cost of 4 against 3 points left was accepted")
    # Equal to: allowed; the card leaves the Training Ground.
    state, result = act(state, {**EXAMPLE_RECRUIT, "recruited": [{"name": "", "cost": 3}]})
    assert result["left"] == 0 and state["training_ground"] == 4
    assert "recruits a card (Cost 3); none left" in result["summary"]


def test_a_second_recruitment_in_the_turn_replaces_the_first():
    state, _ = act(_recruiting(), {"type": "recruit", "in_play": BOOK, "recruited": [{"name": "", "cost": 8}]})
    assert state["training_ground"] == 4
    state, result = act(state, EXAMPLE_RECRUIT)
    assert state["training_ground"] == 5 and state["recruitment_deck"] == 78 and result["left"] == 3


def test_recruiting_is_the_recruitment_phases_moment_then_next_phase():
    state = _recruiting()
    prompt = SYSTEM.pending(state)[0]
    assert (prompt.type, prompt.also) == ("next_phase", ("recruit",))
    assert prompt.text == "Ann: play your Hand, add up the Recruitment Points and recruit, then next phase"
    assert SYSTEM.buttons(state)[0].button == "C"
    state, _ = act(state, EXAMPLE_RECRUIT)
    assert SYSTEM.pending(state)[0].also == ()
    assert SYSTEM.actions["recruit"].reason(to_phase(state, "Tactical"), None) is not None


def test_the_end_of_turn_prompts_the_zone_then_the_training_ground():
    assert END_OF_TURN_ORDER and FIVE
    deck = [
        {"name": "Vipress", "health": 2, "defense": 4, "support": 2},
        {"name": "Destro", "health": 3, "defense": 3, "support": 1},
    ]
    state = started(leader_deck=deck)
    state, _ = act(state, {"type": "place_leader", "card": "Vipress", "zone": "VENOM Mountain Defense"})
    state = to_phase(state, "Recruitment")
    state, _ = act(
        state, {"type": "recruit", "in_play": BOOK, "recruited": [{"name": "", "cost": 4}, {"name": "", "cost": 4}]}
    )
    state = to_phase(state, "Tactical")
    state, _ = act(state, {"type": "choose_leader", "on_board": "VENOM Mountain Defense"})
    state, _ = act(state, {"type": "allocate_dice", "combat_value": 2})
    state, _ = act(state, {"type": "combat_roll"}, faces=[5, 6])
    state = to_phase(state, "End of Turn")
    zone = SYSTEM.pending(state)[0]
    assert zone.type == "place_leader" and zone.label == "Enter the new VENOM Leader"
    assert zone.text.startswith("Ann: refill VENOM Mountain Defense: a Reward Card face down, then enter")
    # The form starts at the empty Zone: tapping the card sends it (one tap).
    fields = {f["name"]: f for f in SYSTEM.actions["place_leader"].describe(state)["fields"]}
    assert fields["zone"]["default"] == "VENOM Mountain Defense"
    state, _ = act(state, {"type": "place_leader", "card": "Destro", "zone": "VENOM Mountain Defense"})
    ground = SYSTEM.pending(state)[0]
    assert ground.type == "refill_training_ground"
    assert ground.text == "Ann: refill the Training Ground to five cards (2 cards from the Recruitment Deck)"
    state, result = act(state, {"type": "refill_training_ground"})
    assert result["summary"] == "Ann: Training Ground refilled to 5 (2 cards from the Recruitment Deck, 77 left)"
    last = SYSTEM.pending(state)[0]
    assert (last.type, last.text) == (
        "next_phase",
        "Ann: discard your cards in play and draw five new cards; next phase when done",
    )


def test_an_untouched_training_ground_has_no_need_to_refill():
    assert NO_NEED
    state = to_phase(started(), "End of Turn")
    assert SYSTEM.pending(state)[0].type == "next_phase"
    assert (
        SYSTEM.actions["refill_training_ground"].reason(state, None)
        == "the Training Ground has 5 cards: no need to refill"
    )


def test_leaving_the_end_of_turn_refills_what_the_table_did_not_enter():
    state, _ = act(_recruiting(), {"type": "recruit", "in_play": BOOK, "recruited": [{"name": "", "cost": 3}]})
    state = to_phase(state, "End of Turn")
    state, result = act(state, {"type": "next_phase"})
    assert state["training_ground"] == 5 and state["recruitment_deck"] == 78
    assert result["summary"].endswith("; Training Ground refilled to 5 (1 card from the Recruitment Deck, 78 left)")


# --- over HTTP ------------------------------------------------------------------------------------------------


def test_recruit_and_refill_over_http(tmp_path):
    with api_client(tmp_path, 7) as client:
        r = post(
            client, "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"], "commander": "Ann"}}
        )
        assert r.status_code == 201
        acted(client, {"type": "draw_event", "kind": "all_is_quiet"})
        refused(client, EXAMPLE_RECRUIT, "Recruitment Phase")
        acted(client, {"type": "next_phase"})
        refused(client, {**EXAMPLE_RECRUIT, "recruited": [{"cost": 4}]}, "total Cost of 4", "3 Recruitment Points left")
        refused(client, {"type": "recruit", "in_play": []}, "Cards in play")
        out = acted(client, {**EXAMPLE_RECRUIT, "recruited": [{"cost": 3}]})
        assert out["result"]["left"] == 0 and out["state"]["training_ground"] == 4
        moment = client.get("/api/sessions/active/actions", headers=AUTH).get_json()
        assert moment["pending"][0]["type"] == "next_phase" and "also" not in moment["pending"][0]
        for _ in range(3):  # Tactical (no Leader: Retirement), End of Turn
            acted(client, {"type": "next_phase"})
        moment = client.get("/api/sessions/active/actions", headers=AUTH).get_json()
        assert moment["pending"][0]["type"] == "refill_training_ground"
        out = acted(client, {"type": "refill_training_ground"})
        assert out["state"]["training_ground"] == 5 and out["state"]["recruitment_deck"] == 77
        refused(client, {"type": "refill_training_ground"}, "no need to refill")


def test_a_zone_left_empty_is_not_asked_again():
    assert quoted(
        "venom",
        "If there are no more VENOM Leaders or Reward Cards, then leave the Zone empty, as Freedom Squadron has "
        "liberated that Zone of all VENOM threats.",
    )
    state = to_phase(started(["Ann", "Bob"]), "Tactical")
    leader = {"name": "Vipress", "zone": "VENOM Mountain Defense", "health": 1, "defense": 4, "support": 2}
    state, _ = act(state, {"type": "choose_leader", **leader})
    state, _ = act(state, {"type": "allocate_dice", "combat_value": 1})
    state, _ = act(state, {"type": "combat_roll"}, faces=[6])
    state = to_phase(state, "End of Turn")
    assert SYSTEM.pending(state)[0].also == ("next_phase",)  # "or next phase: none left"
    state, result = act(state, {"type": "next_phase"})
    assert result["summary"] == "Round 1: Bob's Turn, Recruitment Phase; VENOM Mountain Defense left empty"
    state = to_phase(state, "End of Turn")
    assert (
        SYSTEM.pending(state)[0].type == "next_phase" and "VENOM Mountain Defense" not in SYSTEM.pending(state)[0].text
    )
