"""Mind Control (Mars, Special; revised card): an attack choice that takes over a target spaceship, which
then acts for Mars on its later turns; the counts and the screen say whose it is now (#35)."""

from __future__ import annotations

from tableside.core.systems.vnm import SYSTEM

from tests.dicehelp import dice_for
from tests.httpapi import AUTH, acted, api_client, post
from tests.httpapi import refused as refused_over_http
from tests.rulebook_quotes import quoted
from tests.test_vnm_support import act, enhanced_game, new_game, play_to, refused

TAKE_OVER = quoted(
    "vnm",
    "When you perform an attack action, each of your spaceships may either attack using your Weapon Technology or "
    "use mind control to take over one target spaceship in the same area. Its original owner no longer controls "
    "it — you do!",
)
LATER_TURNS = quoted(
    "vnm",
    "On each of your turns after this one, you can use the controlled spaceship just as if it were one of your own "
    "spaceships — you can use it to move, attack, or collect population for you.",
)
OWN_CARDS = quoted(
    "vnm", "However, the controlled spaceship uses its own Movement, Weapon, and Defense Tech cards, not yours."
)
ONE_EACH = quoted("vnm", "Each of your spaceships may only control one other spaceship at a time.")
RELEASE = quoted(
    "vnm",
    "If, at the end of any turn, you do not have as many spaceships in an area as there are controlled spaceships "
    "in that area, you must release controlled spaceships of your choice back to their original owners",
)
NO_SPECIAL_BY_ZAP = quoted(
    "vnm",
    "In the Enhanced Game, when you discard a Zap card to extend your action, "
    "Technology and Special cards do not apply.",
)
MIND = {"type": "attack", "weapon": "mind_control"}


def mars_took_over_pluto() -> dict:
    """Venus, Mars, Pluto (Enhanced): on Mars's first turn one of its two spaceships takes over a Pluto one."""
    state = play_to(enhanced_game(), "Mars")
    state, result = act(state, {**MIND, "target": "Pluto"})
    assert "takes over one of Pluto's spaceships by Mind Control" in result["summary"]
    return state


def next_turn_of(state: dict, world: str) -> dict:
    state, _ = act(state, {"type": "end_turn"})
    return play_to(state, world)


def test_mind_control_is_an_attack_that_records_the_controlled_ship() -> None:
    """TAKE_OVER: one of the action's attacks, no roll; the state records the spaceship and who controls it."""
    assert "use mind control to take over one target spaceship" in TAKE_OVER
    state = mars_took_over_pluto()
    assert state["controlled"] == [{"ship": "Pluto", "by": "Mars", "turn_no": state["turn_no"]}]
    assert state["turn_action"]["count"] == 1 and state["worlds"]["Pluto"]["on_board"] == 2  # still Pluto's colour
    mars, pluto = state["worlds"]["Mars"], state["worlds"]["Pluto"]
    assert (mars["controls"], mars["commands"]) == (1, 3)
    assert (pluto["taken"], pluto["commands"]) == (1, 1)
    state, _ = act(state, {"type": "attack", "target": "Venus", "faces": [3]})  # Mars's second spaceship
    refused(state, {"type": "attack", "target": "Venus", "faces": [3]}, "has attacked 2 times")


def test_the_controlled_ship_attacks_for_mars_on_its_later_turns() -> None:
    """LATER_TURNS: two own spaceships and the controlled one make three attacks (the issue's refusal:
    "has attacked 2 times: 2 spaceships and 0 Zap extensions")."""
    state = next_turn_of(mars_took_over_pluto(), "Mars")
    state, _ = act(state, {"type": "attack", "target": "Venus", "faces": [3]})
    state, _ = act(state, {"type": "attack", "target": "Venus", "faces": [3]})
    state, result = act(state, {"type": "attack", "target": "Venus", "ship": "Pluto", "faces": [9]})
    assert "Pluto's spaceship" in result["summary"] and state["worlds"]["Venus"]["on_board"] == 1
    refused(state, {"type": "attack", "target": "Venus", "faces": [3]}, "has attacked 3 times: 3 spaceships")


def test_it_cannot_attack_on_the_turn_it_was_taken_over() -> None:
    """LATER_TURNS: "On each of your turns after this one"."""
    assert "after this one" in LATER_TURNS
    state = mars_took_over_pluto()
    refused(state, {"type": "attack", "target": "Venus", "ship": "Pluto", "faces": [9]}, "this turn", "after this one")


def test_the_controlled_ship_uses_its_own_weapon_card() -> None:
    """OWN_CARDS: Pluto's Weapon dice, not Mars's."""
    state = next_turn_of(mars_took_over_pluto(), "Mars")
    state, _ = act(state, {"type": "set_tech", "world": "Pluto", "weapon_dice": 3})
    own = SYSTEM.validate_action({"type": "attack", "target": "Venus"}, state)
    assert dice_for(SYSTEM, state, own) == "1d10"  # Mars's card
    controlled = SYSTEM.validate_action({"type": "attack", "target": "Venus", "ship": "Pluto"}, state)
    assert dice_for(SYSTEM, state, controlled) == "3d10"  # the controlled spaceship's own card
    refused(state, {**MIND, "target": "Venus", "ship": "Pluto"}, "cannot use Mind Control")


def test_its_original_owner_no_longer_controls_it() -> None:
    """TAKE_OVER: "Its original owner no longer controls it": Pluto attacks with one of its two spaceships."""
    state = next_turn_of(mars_took_over_pluto(), "Pluto")
    state, _ = act(state, {"type": "attack", "target": "Venus", "faces": [3]})
    refused(state, {"type": "attack", "target": "Venus", "faces": [3]}, "has attacked 1 time: 1 spaceship")
    all_taken = play_to(enhanced_game(), "Mars")
    all_taken, _ = act(all_taken, {**MIND, "target": "Pluto"})
    all_taken, _ = act(all_taken, {**MIND, "target": "Pluto"})
    refused(all_taken, {"type": "attack", "target": "Pluto", "faces": [9]}, "has attacked 2")
    all_taken = play_to(next_turn_of(all_taken, "Pluto"), "Pluto")
    assert SYSTEM.actions["attack"].available(all_taken, None) == "Pluto has no spaceships on the board to attack with"


def test_each_spaceship_controls_only_one_at_a_time() -> None:
    """ONE_EACH: two own spaceships control at most two."""
    assert "only control one other spaceship" in ONE_EACH
    state = mars_took_over_pluto()
    state, _ = act(state, {**MIND, "target": "Venus"})
    state = next_turn_of(state, "Mars")
    refused(state, {**MIND, "target": "Pluto"}, "controls 2 spaceships with 2 own spaceships", "only control one")


def test_only_mars_in_the_enhanced_game_and_never_by_a_zap_card() -> None:
    """Mind Control is Mars's Special card; NO_SPECIAL_BY_ZAP: an attack bought with a Zap card is the general rule."""
    refused(enhanced_game(), {**MIND, "target": "Mars"}, "Mind Control is Mars's Special card")
    refused(play_to(new_game(), "Mars"), {**MIND, "target": "Pluto"}, "Enhanced")
    state = mars_took_over_pluto()
    state, _ = act(state, {"type": "attack", "target": "Venus", "faces": [3]})
    state, _ = act(state, {"type": "extend"})
    refused(state, {**MIND, "target": "Venus"}, "uses no Technology cards")


def test_at_the_end_of_a_turn_a_spaceship_short_releases_its_controlled_one() -> None:
    """RELEASE: Mars loses both its own spaceships; at the end of the turn the Pluto one goes back to Pluto."""
    state = mars_took_over_pluto()
    state, _ = act(state, {"type": "destroy_ship", "world": "Mars", "count": 2})
    state, result = act(state, {"type": "end_turn"})
    assert "Mars releases Pluto's spaceship back to Pluto" in result["summary"]
    assert state["controlled"] == [] and state["worlds"]["Pluto"]["commands"] == 2


def test_with_two_fleets_to_release_the_table_chooses() -> None:
    """RELEASE: "of your choice": the end of the turn waits for the table's Release."""
    state = mars_took_over_pluto()
    state, _ = act(state, {**MIND, "target": "Venus"})
    state, _ = act(state, {"type": "destroy_ship", "world": "Mars", "count": 1})
    refused(state, {"type": "end_turn"}, "release 1 of their choice first")
    state, result = act(state, {"type": "release_ship", "ship": "Venus"})
    assert "Mars releases Venus's spaceship back to Venus" in result["summary"]
    state, _ = act(state, {"type": "end_turn"})
    assert state["controlled"] == [{"ship": "Pluto", "by": "Mars", "turn_no": state["turn_no"] - 1}]


def test_a_controlled_ship_no_longer_on_the_board_is_no_longer_controlled() -> None:
    state = mars_took_over_pluto()
    state, _ = act(state, {"type": "destroy_ship", "world": "Pluto", "count": 2})
    assert state["controlled"] == []
    refused(state, {"type": "release_ship", "ship": "Pluto"}, "no spaceship is controlled")


def test_the_screen_and_the_target_choices_say_whose_it_is_now() -> None:
    state = mars_took_over_pluto()
    texts = [e.text for e in SYSTEM.screen(state).elements if hasattr(e, "text")]
    assert "Mars controls 1 of Pluto's spaceships (Mind Control)" in texts
    venus = next_turn_of(state, "Venus")
    field = next(f for f in SYSTEM.actions["attack"].fields if f.name == "target")
    labels = [c.label for c in field.choices(venus)]
    assert (
        "Pluto, 2 ships (1 controlled by Mars), 40%" in labels
    )  # Robotic (disabled), Mars destroyed: each says its chance


def test_over_http_the_take_over_is_in_the_log_and_undo_gives_it_back(tmp_path) -> None:
    options = {
        "players": ["Venus", "Mars", "Pluto"],
        "version": "Enhanced",
        "tech": [{"world": "Mars", "weapon_dice": 1}],
    }
    with api_client(tmp_path, 1) as client:
        assert post(client, "/api/sessions", {"system": "vnm", "options": options}).status_code == 201
        acted(client, {"type": "end_turn"})
        acted(client, {"type": "end_turn"})  # Mars's turn
        described = client.get("/api/sessions/active/actions", headers=AUTH).get_json()
        attack = next(a for a in described["actions"] if a["type"] == "attack")
        weapon = next(f for f in attack["fields"] if f["name"] == "weapon")
        assert "mind_control" in [c["value"] for c in weapon["choices"]]
        done = acted(client, {**MIND, "target": "Pluto"})
        assert "takes over one of Pluto's spaceships" in done["result"]["summary"]
        state = client.get("/api/sessions/active", headers=AUTH).get_json()["state"]
        assert state["controlled"][0]["ship"] == "Pluto" and state["worlds"]["Mars"]["commands"] == 3
        refused_over_http(client, {"type": "attack", "target": "Venus", "ship": "Pluto"}, "after this one")
        undone = client.post("/api/sessions/active/undo", headers=AUTH).get_json()
        assert undone["state"]["controlled"] == [] and undone["state"]["worlds"]["Pluto"]["taken"] == 0


def test_the_controlled_ship_collects_for_mars_and_no_longer_for_pluto() -> None:
    """LATER_TURNS: "you can use it to move, attack, or collect population for you"."""
    assert "collect population for you" in LATER_TURNS
    pluto = next_turn_of(mars_took_over_pluto(), "Pluto")
    refused(pluto, {"type": "collect", "area": "China", "count": 2}, "has 1 spaceship on the board")
    mars = play_to(next_turn_of(pluto, "Mars"), "Mars")
    mars, result = act(mars, {"type": "collect", "area": "China", "count": 3})
    assert mars["worlds"]["Mars"]["population"] == 3 and "collects 3 from China" in result["summary"]
