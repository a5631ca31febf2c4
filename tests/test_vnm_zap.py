"""Zap cards: the counts per player are always right; a hand of three; up to three extend an action."""

from __future__ import annotations

from tests.test_vnm_support import act, new_game, play_to, refused

TEAMS = [{"name": "Wally", "home_worlds": ["Mars", "Venus"]}, {"name": "Al", "home_worlds": ["Pluto", "Titan"]}]


def zap(state: dict, index: int) -> dict:
    return state["players"][index]["zap"]


def test_playing_a_card_moves_it_from_hand_to_discard_and_numbers_decide_priority() -> None:
    state = new_game()  # Venus, Mars, Pluto; Pluto's turn
    state, result = act(state, {"type": "play_zap", "world": "Mars", "number": 12})
    assert zap(state, 1) == {"deck": 9, "hand": 2, "discard": 1}
    assert "priority" not in result
    state, result = act(state, {"type": "play_zap", "number": 30})
    assert zap(state, 2) == {"deck": 9, "hand": 2, "discard": 1}
    assert result["priority"] == {"world": "Pluto", "number": 30}
    assert "highest number wins: #30 (Pluto)" in result["summary"]
    state, result = act(state, {"type": "play_zap", "world": "Venus"})
    assert result["priority"]["number"] == 30


def test_a_fourth_card_in_hand_is_refused() -> None:
    state = new_game()
    refused(state, {"type": "draw_zap", "world": "Venus", "count": 1}, "holds 3 Zap cards", "4th")
    refused(state, {"type": "draw_zap"}, "4th")
    state, _ = act(state, {"type": "play_zap"})
    refused(state, {"type": "draw_zap", "count": 2}, "4th")
    state, _ = act(state, {"type": "draw_zap"})
    assert zap(state, 2) == {"deck": 8, "hand": 3, "discard": 1}


def test_no_card_to_play_and_no_card_to_draw() -> None:
    state = new_game()
    for _ in range(3):
        state, _ = act(state, {"type": "play_zap", "world": "Mars"})
    refused(state, {"type": "play_zap", "world": "Mars"}, "Mars has no Zap cards in hand")
    state["players"][1]["zap"]["deck"] = 1
    refused(state, {"type": "draw_zap", "world": "Mars", "count": 2}, "deck has 1 card left")


def test_the_next_player_draws_up_to_three_at_the_start_of_the_turn_while_the_deck_lasts() -> None:
    state = new_game()
    state, _ = act(state, {"type": "play_zap", "world": "Venus"})
    state, _ = act(state, {"type": "play_zap", "world": "Venus"})
    state, result = act(state, {"type": "end_turn"})
    assert zap(state, 0) == {"deck": 7, "hand": 3, "discard": 2}
    assert "Venus plays next and draws 2 Zap cards" in result["summary"]
    state["players"][1]["zap"] = {"deck": 1, "hand": 0, "discard": 11}
    state, result = act(state, {"type": "end_turn"})
    assert zap(state, 1) == {"deck": 0, "hand": 1, "discard": 11}
    assert "the deck is out" in result["summary"]


def test_extending_an_action_discards_up_to_three_cards_a_turn() -> None:
    state = new_game()
    refused(state, {"type": "extend"}, "has not chosen an action yet")
    state, _ = act(state, {"type": "move"})
    state, result = act(state, {"type": "extend", "cards": 2})
    assert "2 x move one spaceship one extra area" in result["summary"]
    assert zap(state, 2) == {"deck": 9, "hand": 1, "discard": 2}
    refused(state, {"type": "extend", "cards": 2}, "at most three", "already discarded 2")
    state, _ = act(state, {"type": "extend"})
    assert state["turn_action"]["extensions"] == 3
    refused(state, {"type": "extend", "cards": 1}, "already discarded three Zap cards", "the most allowed")
    refused(act(new_game(), {"type": "move"})[0], {"type": "extend", "cards": 4}, "at most 3")


def test_extending_needs_the_cards_in_hand() -> None:
    state = new_game()
    state, _ = act(state, {"type": "play_zap"})
    state, _ = act(state, {"type": "play_zap"})
    state, _ = act(state, {"type": "move"})
    refused(state, {"type": "extend", "cards": 2}, "holds 1 Zap card, not 2")


def test_two_players_each_have_one_deck_of_18_for_both_planets() -> None:
    state = new_game(players=TEAMS)
    assert state["turn_order"] == ["Pluto", "Mars", "Titan", "Venus"]
    assert zap(state, 1) == {"deck": 15, "hand": 3, "discard": 0}
    state, result = act(state, {"type": "play_zap", "world": "Titan", "number": 3})
    assert zap(state, 1)["hand"] == 2
    assert "Al (Titan) plays a Zap card #3" in result["summary"]
    state = play_to(state, "Titan")
    assert zap(state, 1) == {"deck": 14, "hand": 3, "discard": 1}


def test_counts_always_add_up_to_the_cards_dealt() -> None:
    state = new_game(players=["Pluto", "Venus", "Mars", "Titan", "Earth"])
    steps = [
        {"type": "play_zap", "world": "Mars"},
        {"type": "move"},
        {"type": "extend", "cards": 2},
        {"type": "end_turn"},
        {"type": "play_zap", "world": "Earth", "number": 9},
        {"type": "end_turn"},
        {"type": "end_turn"},
        {"type": "end_turn"},
        {"type": "end_turn"},
    ]
    for raw in steps:
        state, _ = act(state, raw)
        for player in state["players"]:
            assert sum(player["zap"].values()) == 7
            assert 0 <= player["zap"]["hand"] <= 3
    assert state["zap_set_aside"] == 1
