"""Venus 2140, a goal that is an effect (#35): buying "knock out one person" (or a goal named as an effect, "Wound")
applies the effect it buys, so a knocked out player's scene pool is gone at once; bought on the GM's side, which
plays every NPC, the effect is the table's next moment: the GM's Note an effect form, the effect and its buyer
filled in. Each rule quotes docs/rulebooks/v2140.txt.

Before: buying "knock out one person" on Wire for 3 books left Wire with every die; "Any dice you had in your
scene pool are gone gone gone" only happened through a separate Note an effect that nothing prompted."""

from __future__ import annotations

from tableside.core.systems.v2140 import SYSTEM, effects

from tests.httpapi import AUTH, acted, api_client, post
from tests.rulebook_quotes import quoted
from tests.test_v2140_campaign import act, scene, with_pools

KNOCK_OUT = quoted("v2140", "You knock out one person. 3 books.")
GONE = quoted(
    "v2140",
    "You aren't wounded, but you stop doing anything. Any dice you had in your scene pool are gone gone gone.",
)
VID_DRONZ = quoted("v2140", "He decides to Wound Sven once and KO Wire")
EFFECTS_ARE_GOALS = quoted("v2140", "Effects are permanent game world consequences purchased as goals.")
NAMED_NPCS = quoted("v2140", "Named NPCs won't usually be affected by this type of thing.")


def _wire_with_dice():
    s = with_pools(scene(players=["Sven", "Wire", "Shred"]), Sven=[6, 5], Wire=[6, 5, 4], Shred=[4], GM=[6])
    s["participants"]["GM"]["books"] = 4
    return s


def test_knocking_out_wire_for_3_books_takes_every_die_of_wire_s_pool():
    assert KNOCK_OUT and GONE
    s, result = act(
        _wire_with_dice(), {"type": "buy_goal", "participant": "GM", "guide": "knock out one person", "target": "Wire"}
    )
    assert s["participants"]["Wire"]["books"] == 0 and s["participants"]["GM"]["books"] == 1
    assert s["participants"]["Wire"]["pool"] == [] and effects.is_stopped(s, "Wire")
    assert result["summary"] == (
        "GM buys knock out one person on Wire for 3: 3 books; effect: Wire: Knock Out by GM; Wire stops doing "
        "anything: 3 dice in the scene pool are gone gone gone, only spending books is left"
    )


def test_the_vid_dronz_ending_wounds_sven_and_knocks_out_wire():
    """The GM's four books: a Wound on Sven and Wire knocked out, at the end of the conflict (the exception)."""
    assert VID_DRONZ and EFFECTS_ARE_GOALS
    s, _ = act(
        _wire_with_dice(), {"type": "buy_goal", "participant": "GM", "goal": "Wound", "price": 1, "target": "Sven"}
    )
    s, _ = act(
        s,
        {"type": "buy_goal", "participant": "GM", "guide": "knock out one person", "target": "Wire", "exception": True},
    )
    standing = {(e["character"], e["effect"]) for e in effects.active(s)}
    assert standing == {("Sven", "Wound"), ("Wire", "Knock Out")}
    assert s["participants"]["Sven"]["pool"] == [6, 5]  # a wound: "You aren't wounded" is the knock out's alone
    assert s["participants"]["GM"]["books"] == 0


def test_a_room_of_people_is_nobody_s_effect():
    assert NAMED_NPCS
    s, result = act(
        _wire_with_dice(),
        {"type": "buy_goal", "participant": "GM", "guide": "knock out one person", "scale": 1, "target": "Wire"},
    )
    assert (
        s["participants"]["Wire"]["pool"] == [6, 5, 4] and not effects.active(s) and "effect" not in result["summary"]
    )


def test_bought_on_the_gm_s_side_the_effect_is_the_gm_s_next_moment():
    s = with_pools(scene(), Shred=[6, 5], GM=[6, 6])
    s["participants"]["Shred"]["books"] = 3
    s, result = act(s, {"type": "buy_goal", "participant": "Shred", "guide": "knock out one person", "target": "GM"})
    assert s["participants"]["GM"]["pool"] == [6, 6]  # the GM plays every NPC: not all of them are knocked out
    assert result["summary"].endswith("; effect: Knock Out, for GM to note on the character who bears it")
    prompt = SYSTEM.pending(s)[0]
    assert (prompt.seat, prompt.type, prompt.label) == ("GM", "add_effect", "Note the Knock Out")
    assert prompt.text == "GM: note the Knock Out Shred bought (knock out one person) on the character who bears it"
    fields = {f["name"]: f for f in SYSTEM.actions["add_effect"].describe(s)["fields"]}
    assert (fields["effect"]["default"], fields["by"]["default"]) == ("Knock Out", "Shred")
    s, _ = act(s, {"type": "add_effect", "character": "Alamo Jack", "effect": "Knock Out", "by": "Shred"})
    assert effects.due(s) == [] and SYSTEM.pending(s)[0].type != "add_effect"


def test_a_new_scene_lets_an_unnoted_effect_go():
    s = with_pools(scene(), Shred=[6], GM=[6])
    s["participants"]["Shred"]["books"] = 3
    s, _ = act(s, {"type": "buy_goal", "participant": "Shred", "guide": "knock out one person", "target": "GM"})
    s, _ = act(s, {"type": "new_scene"})
    assert effects.due(s) == []


def test_over_http_the_knock_out_empties_wire_s_pool_and_a_gm_side_one_is_prompted(tmp_path):
    with api_client(tmp_path, 3) as client:
        options = {"players": ["Wire", "Shred"], "gm": "GM"}
        assert post(client, "/api/sessions", {"system": "v2140", "options": options}).status_code == 201
        acted(client, {"type": "prepare_pool", "participant": "Wire", "primary_skills": 1})
        acted(client, {"type": "roll_pool", "participant": "Wire", "faces": [5, 4]})
        acted(client, {"type": "correct", "key": "participants.GM.books", "value": 6, "reason": "captures"})
        acted(client, {"type": "correct", "key": "participants.Shred.books", "value": 3, "reason": "captures"})
        out = acted(
            client, {"type": "buy_goal", "participant": "GM", "guide": "knock out one person", "target": "Wire"}
        )
        assert out["state"]["participants"]["Wire"]["dice"] == 0
        assert "gone gone gone" in out["result"]["summary"]
        acted(client, {"type": "buy_goal", "participant": "Shred", "guide": "knock out one person", "target": "GM"})
        moment = client.get("/api/sessions/active/actions", headers=AUTH).get_json()
        assert moment["pending"][0] == {
            "seat": "GM",
            "text": "GM: note the Knock Out Shred bought (knock out one person) on the character who bears it",
            "type": "add_effect",
            "label": "Note the Knock Out",
        }
        out = acted(client, {"type": "add_effect", "character": "Alamo Jack", "effect": "Knock Out", "by": "Shred"})
        assert out["result"]["summary"].startswith("Effect: Alamo Jack: Knock Out by Shred")


def test_an_effect_bought_with_a_goal_of_its_own_name_is_said_once():
    """A goal chart's "Scar" goal buys the Scar: the prompt said "note the Scar Shred bought (Scar)" (seen on the
    e-paper's conflict end, tests/golden/v2140-round-*.png); the goal is said only where it adds words."""
    s = with_pools(scene(), Shred=[6], GM=[6])
    effects.make_due(s, "Scar", "Shred", "Scar")
    assert SYSTEM.pending(s)[0].text == "GM: note the Scar Shred bought on the character who bears it"
