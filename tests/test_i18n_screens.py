"""The game screens' own words reach a German phone in German (#38): each system's screen model (title, status,
grid titles and column names, bar and track labels), its tracked numbers' labels (the Fix a number sheet) and its
prompts are marked where they are built, each with a German entry; the e-paper still draws the English."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from flask import Flask
from tableside.core.screen import mark_next
from tableside.core.system import GameSystem, State
from tableside.core.systems.v2140 import SYSTEM as V2140
from tableside.core.systems.vegas import SYSTEM as VEGAS
from tableside.core.systems.vegas.screen import won_words as vegas_won
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.core.systems.vnm import SYSTEM as VNM
from tableside.core.text import Marked
from tableside.webui import i18n

from tests.test_v2140_scene import scene as v2140_scene
from tests.test_vegas_helpers import in_round
from tests.test_venom_helpers import act as venom_act
from tests.test_venom_helpers import attacking
from tests.test_venom_helpers import new_game as venom_game
from tests.test_vnm_support import enhanced_game, new_game

PHASE_GERMAN = {"Tricks": "Stiche", "Round start": "Rundenbeginn", "Reveal": "Aufdecken"}
SIX = ["Pluto", "Venus", "Mars", "Ganymede", "Titan", "Earth"]


def german(value: Any) -> Any:
    with Flask(__name__).test_request_context(headers={"Accept-Language": "de"}):
        return i18n.spoken(value)


def marked(value: Any) -> Iterator[Marked]:
    """Every marked text inside a screen's plain data (nested texts too: a label inside a status line)."""
    if isinstance(value, Marked):
        yield value
        for p in value.params.values():
            yield from marked(p)
    elif isinstance(value, dict):
        for v in value.values():
            yield from marked(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from marked(v)


def words_of(system: GameSystem, state: State) -> list[Any]:
    """What a phone is sent of a game: the screen, the tracked numbers' labels and the prompts."""
    return [
        system.screen(state).to_dict(),
        [t.label for t in system.tracked(state)],
        [p.text for p in system.pending(state)],
    ]


def without_german(system: GameSystem, state: State) -> list[str]:
    words = i18n.catalog("de")
    return sorted({m.msgid for m in marked(words_of(system, state)) if m.msgid not in words})


def test_every_marked_screen_word_of_vnm_has_its_german():
    for state in (new_game(players=SIX), enhanced_game()):
        assert without_german(VNM, state) == []


def test_the_vnm_screen_reads_german_on_a_german_phone_and_english_elsewhere():
    state = new_game(players=SIX)
    shown = VNM.screen(state)
    grids = {g.title: g.columns for g in shown.elements if g.kind == "grid"}
    assert grids["Zap"] == ("deck", "hand", "discard")  # the e-paper's English, byte for byte
    said = german(shown.to_dict())
    columns = {g["title"]: g["columns"] for g in said["elements"] if g["kind"] == "grid"}
    assert columns["Zap"] == ["Stapel", "Hand", "Ablage"]
    assert columns["Schiffe"] == ["im Spiel", "Vorrat"]
    assert said["status"] == "R1 Pluto: Aktion wählen · Venus als Nächstes", said["status"]
    bars = next(e for e in said["elements"] if e["kind"] == "bars")
    assert bars["title"] == "Bevölkerung"
    assert [b["note"] for b in bars["bars"] if b["note"]] == ["am Zug", "als Nächstes"]
    nxt = german(mark_next(replace(shown, status=""), "Mars", "Bob (Mars)").to_dict())
    assert nxt["status"] == "Bob (Mars) als Nächstes"


def test_the_vnm_choice_of_action_is_one_german_list():
    state = new_game(players=SIX)
    (prompt,) = VNM.pending(state)
    assert prompt.text == "Pluto: move, attack or collect"  # the English, as every test and the e-paper read it
    assert german(prompt.text) == "Pluto: bewegen, angreifen oder einsammeln"
    labels = german([t.label for t in VNM.tracked(state)])
    assert "China: Bevölkerung" in labels


def test_every_marked_screen_word_of_venom_has_its_german_in_a_fight():
    state = attacking(health=3, defense=4, dice=5)
    assert without_german(VENOM, state) == []
    said = german(VENOM.screen(state).to_dict())
    assert said["status"] == "R1 Ann: Tactical · Bob als Nächstes"  # the phase is the rulebook's name
    capture = next(e for e in said["elements"] if e["kind"] == "figure" and e["label"] == "Gefangennahme")
    assert capture["unit"] == " (5 Würfel)"
    state, _ = venom_act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    assert without_german(VENOM, state) == []
    said = german(VENOM.screen(state).to_dict())
    (dice,) = [e for e in said["elements"] if e["kind"] == "dice"]
    assert dice["verdict"] == "3/3 Treffer: GEFANGEN"
    grid = next(e for e in said["elements"] if e["kind"] == "grid")
    assert grid["columns"] == ["VP", "Leader", "Rewards"]


def test_the_venom_setup_screen_and_tracked_numbers_read_german():
    state = venom_game()
    assert without_german(VENOM, state) == []
    said = german(VENOM.screen(state).to_dict())
    assert said["status"].startswith("Aufbau: Roll-off um den Commander (B)")
    events = [e["text"] for e in said["elements"] if e["kind"] == "text" and "Event" in e["text"]]
    assert events and events[0].startswith("Aktive Events: keine · "), events


def test_every_marked_screen_word_of_vegas_has_its_german():
    state = in_round()
    assert without_german(VEGAS, state) == []
    said = german(words_of(VEGAS, state))
    figures = [e["label"] for e in said[0]["elements"] if e["kind"] == "figure"]
    assert figures[0] == "Runde"
    assert said[0]["status"].startswith(PHASE_GERMAN[state["phase"]]), said[0]["status"]
    player = state["players"][0]
    assert f"VP von {player}" in said[1] and f"Handkarten von {player}" in said[1]
    assert VEGAS.screen(state).elements[0].label == "Round"  # the e-paper's English


def test_the_vegas_winners_are_joined_by_a_marked_pattern():
    assert german(vegas_won(["Ann", "Bob", "Cy"])) == "Ann und Bob und Cy gewinnen"
    assert vegas_won(["Ann", "Bob"]) == "Ann and Bob win" and vegas_won(["Ann"]) == "Ann wins"


def test_the_v2140_scene_pools_and_tracked_numbers_read_german():
    state = v2140_scene()
    assert without_german(V2140, state) == []
    shown = V2140.screen(state)
    said = german(words_of(V2140, state))
    grid = next(e for e in said[0]["elements"] if e["kind"] == "grid")
    assert grid["title"] == "Pools der Szene" and grid["columns"] == ["Würfel", "Books", "Punkte"]
    assert said[0]["title"].startswith("Venus 2140 - Konflikt ")
    assert any(label.endswith(": Ruf") for label in said[1])
    assert next(e for e in shown.elements if e.kind == "grid").columns == ("dice", "books", "points")
