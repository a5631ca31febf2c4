"""The recap (#34): told from the game's own log, as JSON, plain text and one PNG drawn by the e-paper's renderer,
each as the asking seat may read it (a Venus 2140 pool's faces count only in its own seat's luck and rolls)."""

from __future__ import annotations

import io
from fractions import Fraction

from PIL import Image
from tableside.core.recap import sum_at_least

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, acted, api_client, new_table, phone, seated
from tests.test_v2140_turns_browser import POOLS


def test_the_odds_of_a_total_are_exact():
    assert sum_at_least(2, 6, 12) == Fraction(1, 36)
    assert sum_at_least(2, 6, 2) == 1
    assert sum_at_least(5, 6, 17) == Fraction(sum(1 for n in range(6**5) if _total(n) >= 17), 6**5)


def _total(n: int) -> int:
    return sum((n // 6**i) % 6 + 1 for i in range(5))


def test_the_recap_of_a_finished_game_as_json_text_and_picture(tmp_path):
    options, actions = SCENARIOS["venom"]
    with api_client(tmp_path, 1) as client:
        client.post("/api/sessions", json={"system": "venom", "options": options}, headers=AUTH)
        for action in [*actions, *ENDINGS["venom"]]:
            acted(client, action)
        told = client.get("/api/sessions/active/recap", headers=AUTH).get_json()
        assert told["result"]["winners"] == ["Ann"]
        combat = next(r for r in told["biggest_rolls"] if r["label"] == "Combat")
        # 4,6,4,2,1 against Defense 4: 3 successes, as the rules count them (not the sum: tests/test_recap_hits.py)
        assert combat["hits"] == 3 and combat["odds"] == "1/2" and combat["chance"] == "50%"
        assert told["luck"] and told["undos"] == 0 and told["actions"] == len(actions) + 1
        text = client.get("/api/sessions/active/recap.txt", headers=AUTH)
        assert text.mimetype == "text/plain"
        words = text.get_data(as_text=True)
        assert "Medal of Honor: Ann" in words and "Final: Ann 2 VP" in words
        assert "3 hits (50% to roll this many or more)" in words
        assert "Luck: Ann too few dice to tell (5 dice; 3 hits, 2.5 expected)" in words
        assert ", z " not in words  # words, not a z-score
        png = client.get("/api/sessions/active/recap.png", headers=AUTH)
        assert png.mimetype == "image/png"
        with Image.open(io.BytesIO(png.data)) as image:
            assert image.size == (780, 1688)
        (tmp_path / "recap.png").write_bytes(png.data)


def test_a_private_pool_counts_only_in_its_own_seat_s_recap(tmp_path):
    with new_table(tmp_path, 1) as t:
        client, a, b = phone(t), phone(t), phone(t)
        client.post("/api/sessions", json={"system": "v2140", "options": {"players": ["Shred", "Sven"]}}, headers=AUTH)
        shred, sven = seated(a, "Shred"), seated(b, "Sven")
        acted(a, POOLS[0], shred)
        acted(a, POOLS[1], shred)
        own = a.get("/api/sessions/active/recap", headers=shred).get_json()
        other = b.get("/api/sessions/active/recap", headers=sven).get_json()
        table = client.get("/api/sessions/active/recap", headers=AUTH).get_json()
        assert [x["name"] for x in own["luck"]] == ["Shred"] and own["luck"][0]["dice"] == 4
        assert any(r["faces"] == [5, 5, 5, 4] for r in own["biggest_rolls"])
        for view in (other, table):
            assert view["luck"] == [] and view["biggest_rolls"] == [] and view["private_entries"] == 1
        words = b.get("/api/sessions/active/recap.txt", headers=sven).get_data(as_text=True)
        assert "5,5,5,4" not in words and "private rolls of other seats are not shown" in words


def test_a_roll_off_is_each_player_s_own_die_not_one_roll_of_the_first():
    """VENOM's roll-off for the Commander rolls one die per player (``by`` names each): the recap listed it as
    "Ann Roll-off 3d6 2,5,1 = 8", three players' dice summed and given to the first (a playthrough). Each
    player's die is their own roll; and one die is "1 die"."""
    from tableside.core.recap import recap, recap_text

    entry = {
        "seq": 1,
        "at": "2026-12-07T12:00:00",
        "rolls": [{"label": "Roll-off", "expr": "3d6", "rolls": [2, 5, 1], "by": ["Ann", "Bob", "Cy"]}],
    }
    told = recap([entry], None, None)
    rolls = {r["who"]: (r["expr"], r["faces"], r["total"]) for r in told["biggest_rolls"]}
    assert rolls == {"Bob": ("1d6", [5], 5), "Ann": ("1d6", [2], 2), "Cy": ("1d6", [1], 1)}
    assert [r["who"] for r in told["biggest_rolls"]] == ["Bob", "Ann", "Cy"]
    words = recap_text(told, "VENOM Assault")
    assert "Bob Roll-off 1d6 5 = 5 (33.3% to roll this or more)" in words and "3d6" not in words
    assert "Ann too few dice to tell (1 die)" in words and "(1 dice)" not in words


def test_a_turning_point_names_its_round_not_a_bare_number(tmp_path):
    """ "Turning points: 2: Cy (Pluto) +4 (to 9)" (a playthrough): the bare 2 is the chart's round (or action), so
    the recap says which, as the chart's axis does: "Round 2: Cy (Pluto) +4 (to 9)"."""
    from tableside.core.recap import recap

    series = [(1, {"Ann": 0, "Cy": 0}), (2, {"Ann": 0, "Cy": 4})]
    assert recap([], None, None, series, x_label="Round")["turning_points"] == [
        "Round 2: Cy takes the lead",
        "Round 2: Cy +4 (to 4)",
    ]
    options, actions = SCENARIOS["vegas"]
    with api_client(tmp_path, 1) as client:  # the chart of a Vegas game is by round: the recap's points say so
        client.post("/api/sessions", json={"system": "vegas", "options": options}, headers=AUTH)
        for action in [*actions, *ENDINGS["vegas"]]:
            acted(client, action)
        told = client.get("/api/sessions/active/recap", headers=AUTH).get_json()
        assert told["turning_points"] and all(p.startswith("Round ") for p in told["turning_points"])


def test_a_random_pick_is_the_table_s_die_whichever_phone_asked():
    """Vegas's random pick rolls nobody's die (``by`` is ``core.recorder.TABLE``, ""): the recap gave it to the
    phone's seat that tapped Random pick ("Ann Random pick ... 1d3", Ann's luck; a playthrough) while the same pick
    by button B was "The table", and the History tab's luck report (webui.history.die_owners) counts it the table's."""
    from tableside.core.recap import THE_TABLE, recap
    from tableside.core.recorder import TABLE

    entry = {
        "seq": 3,
        "seat": "Ann",
        "action": {"type": "random_pick"},
        "rolls": [{"label": "Random pick: a player", "expr": "1d3", "rolls": [2], "by": TABLE}],
    }
    told = recap([entry], "Ann", None)
    assert [r["who"] for r in told["biggest_rolls"]] == [THE_TABLE]
    assert [x["name"] for x in told["luck"]] == [THE_TABLE]
