"""Venusian Vegas's and Venus 2140's rule texts are marked where they are built (#38), and their German is complete
for what a phone puts on its buttons and forms: every action's label, help and group, every field's label and help
(a row's fields too), every fixed choice, every setup option and every button of the system's own. A refusal of
each system reaches a German phone in German and an English phone in the English words the tests match."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tableside.core.fields import Choice
from tableside.core.system import UNDO_REDO
from tableside.core.systems.v2140.system import SYSTEM as V2140
from tableside.core.systems.vegas.system import SYSTEM as VEGAS
from tableside.core.text import Marked
from tableside.webui import i18n

from tests.httpapi import AUTH, api_client, post


def fields(of) -> Iterator:
    for f in of:
        yield f
        yield from fields(f.fields)


def phone_words(system) -> Iterator[tuple[str, object]]:
    """(where, text) for every word of the system's own that a phone shows on a button or a form."""
    forms = [(f"options.{f.name}", f) for f in fields(system.options)]
    for spec in system.actions.values():
        yield f"{spec.type} label", spec.label
        yield f"{spec.type} help", spec.doc
        yield f"{spec.type} group", spec.group
        forms += [(f"{spec.type}.{f.name}", f) for f in fields(spec.fields)]
    for where, f in forms:
        yield f"{where} label", f.label
        yield f"{where} help", f.help
        for c in f.choices if isinstance(f.choices, tuple) else ():
            if isinstance(c, Choice):
                yield f"{where} choice {c.value}", c.label
    for b in system.bindings:
        if b not in UNDO_REDO:  # the core's own, shared by every system
            yield f"button {b.button}", b.label
    yield "description", system.description


@pytest.mark.parametrize("system", [VEGAS, V2140], ids=lambda s: s.id)
def test_every_word_on_the_buttons_and_forms_is_marked_and_has_its_german(system):
    words = [(where, text) for where, text in phone_words(system) if text]
    assert len(words) > 50, words  # the walk reaches the forms
    unmarked = [where for where, text in words if not isinstance(text, Marked)]
    assert unmarked == [], f"built without N_ (core/text.py): {unmarked}"
    german = i18n.catalog("de")
    missing = sorted({text.msgid for _, text in words if text.msgid not in german})
    assert missing == [], f"no German in de/messages.po: {missing}"


@pytest.fixture
def client(tmp_path):
    with api_client(tmp_path, seed=5) as phone:
        yield phone


def refusal(client, body: dict, lang: str) -> str:
    r = client.post("/api/sessions/active/actions", json=body, headers={**AUTH, "Accept-Language": lang})
    assert r.status_code == 422, r.get_json()
    return r.get_json()["error"]


def test_a_vegas_refusal_reaches_a_german_phone_in_german(client):
    r = post(client, "/api/sessions", {"system": "vegas", "options": {"players": ["Ann", "Bob", "Cy"]}})
    assert r.status_code == 201, r.get_json()
    three = {"type": "setup_tracks", "player": "Ann", "tracks": ["Game", "Team", "Bot"]}
    german = "bei 3 Spielern erhöht jeder beim Aufbau 2 verschiedene Leisten, nicht 3"
    assert german in refusal(client, three, "de")
    assert "at 3 players each player increases 2 different tracks at setup, got 3" in refusal(client, three, "en")


def test_a_venus_2140_refusal_reaches_a_german_phone_in_german(client):
    r = post(client, "/api/sessions", {"system": "v2140", "options": {"players": ["Shred"], "gm": "GM"}})
    assert r.status_code == 201, r.get_json()
    spend = {"type": "murphy", "add": 0, "spend": 3}
    assert "der Murphy's Pool enthält 0, 3 kann nicht ausgegeben werden" in refusal(client, spend, "de")
    assert "the Murphy's Pool holds 0, cannot spend 3" in refusal(client, spend, "en")
