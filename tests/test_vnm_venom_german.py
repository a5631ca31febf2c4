"""Venus Needs Men and VENOM Assault mark their rule texts where they are built (#38): every button and form
word of the two systems (action labels and groups, field labels, fixed choices, the physical buttons) is a
marked text with a German entry, and a refusal built by the rules reaches a German phone in German."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from tableside.core.errors import RuleError
from tableside.core.fields import Choice, Field
from tableside.core.system import GameSystem
from tableside.core.systems.venom import SYSTEM as VENOM
from tableside.core.systems.vnm import SYSTEM as VNM
from tableside.core.text import Marked
from tableside.webui import i18n

from tests.test_vnm_support import new_game

SIX = ["Pluto", "Venus", "Mars", "Ganymede", "Titan", "Earth"]


def _field_words(where: str, fields: tuple[Field, ...]) -> Iterator[tuple[str, str]]:
    for f in fields:
        yield f"{where}.{f.name}", f.label
        if isinstance(
            f.choices, tuple
        ):  # a name shown as itself (a Zone, a planet) is the rulebook's, in every language
            named = (c for c in f.choices if isinstance(c, Choice) and c.label != c.value)
            yield from ((f"{where}.{f.name}={c.value}", c.label) for c in named)
        yield from _field_words(f"{where}.{f.name}", f.fields)


def on_buttons_and_forms(system: GameSystem) -> Iterator[tuple[str, str]]:
    """(where, words) of every label a phone draws for the system before a game is under way."""
    yield from _field_words("options", system.options)
    for spec in system.actions.values():
        yield spec.type, spec.label
        yield f"{spec.type} (group)", spec.group
        yield from _field_words(spec.type, spec.fields)
    yield from (
        (f"button {b.button}", b.label) for b in system.bindings if b.label and b.action not in ("undo", "redo")
    )


@pytest.mark.parametrize("system", [VNM, VENOM], ids=["vnm", "venom"])
def test_every_button_and_form_word_is_marked_and_has_its_german(system):
    words = [(where, text) for where, text in on_buttons_and_forms(system) if text]
    assert len(words) > 40, words  # the walk reached the actions and their fields
    unmarked = [where for where, text in words if not isinstance(text, Marked)]
    assert unmarked == [], f"labels built without N_: {unmarked}"
    german = i18n.catalog("de")
    missing = sorted({text.msgid for _, text in words if text.msgid not in german})
    assert missing == [], f"labels without a German entry: {missing}"


def say_in(lang: str, text: str) -> str:
    with Flask(__name__).test_request_context(headers={"Accept-Language": lang}):
        return i18n.say(text)


def test_a_vnm_refusal_and_a_closed_reason_reach_a_german_phone_in_german():
    with pytest.raises(RuleError) as caught:
        VNM.validate_options({"players": ["Ann"]})
    message = caught.value.message
    assert message == "options: 1 player given; Venus Needs Men takes 2 to 6 players"  # the English, as built
    assert say_in("de", message) == "options: 1 Spieler angegeben; Venus Needs Men ist für 2 bis 6 Spieler"
    assert say_in("en", message) == message
    reason = VNM.actions["build"].reason(new_game(players=SIX), None)
    assert isinstance(reason, Marked) and reason.msgid.startswith("all {fleet} of {world}'s spaceships")
    assert say_in("de", reason) == (
        "Alle 5 Raumschiffe von Pluto sind auf dem Spielplan; keines kann gebaut werden, bis welche vernichtet sind"
    )


def test_a_venom_closed_reason_reaches_a_german_phone_in_german():
    state = VENOM.start(VENOM.validate_options({"players": ["Ann", "Bob"]}))
    reason = VENOM.actions["combat_roll"].reason(state, None)
    assert reason == "choose the Commander first: roll off (button B) or set the Commander"
    assert say_in("de", reason) == "Bestimmt zuerst den Commander: auswürfeln (Taste B) oder den Commander festlegen"


def test_vnm_counts_are_marked_and_say_what_core_words_says():
    from tableside.core.systems.vnm.state import _COUNTED, many
    from tableside.core.words import plural

    english = {(n, thing): many(n, thing) for thing in _COUNTED for n in (0, 1, 2, 7)}
    assert all(words == plural(n, thing) and isinstance(words, Marked) for (n, thing), words in english.items())
    assert say_in("de", many(3, "spaceship")) == "3 Raumschiffe" and say_in("de", many(1, "Zap card")) == "1 Zap-Karte"
    assert many(2, "Upgrade card") == "2 Upgrade cards"  # a thing without marked forms: core.words' English


def test_venom_counts_are_marked_and_say_what_core_words_says():
    from tableside.core.systems.venom.combat import _COUNTED, counted
    from tableside.core.words import plural

    english = {(n, thing): counted(n, thing) for thing in _COUNTED for n in (0, 1, 2, 7)}
    assert all(words == plural(n, thing) and isinstance(words, Marked) for (n, thing), words in english.items())
    assert say_in("de", counted(3, "die")) == "3 Würfel" and say_in("de", counted(1, "card")) == "1 Karte"
