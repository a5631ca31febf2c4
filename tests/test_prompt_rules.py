"""Why, one tap away (#35): every prompt on the phone names the rule it rests on.

Each system's golden scenario (``tests/scenarios/<id>.py``) and its ending (``tests/golden_states.ENDINGS``)
are played on a real Table; after every action, each prompt of the moment (``GET .../actions``' ``pending``,
the phone's moment card) must carry a ``rule`` key, the key its action's "not now" refusal gives, and that
reference's quote must be in the book (``tests/rulebook_quotes.quoted``). The key is fetched over HTTP by
``GET /api/rules/ref/<key>``, as the phone's dialog does.
"""

from __future__ import annotations

import random

import pytest
from tableside.core import rulebook_refs
from tableside.core.store import Store
from tableside.core.table import Table

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, api_client, phone, post
from tests.rulebook_quotes import quoted

CORE_ACTIONS = {"correct", "roll"}  # Tableside's own: no book's rule


def answers(prompt: dict) -> list[str]:
    """The action types that answer ``prompt``: its ``type`` and its ``also``."""
    return [t for t in (prompt["type"], *prompt.get("also", ())) if t]


def walk(system: str, folder) -> list[dict]:
    """Every prompt of the table's moment, after the start and after each action of the scenario and its end."""
    options, actions = SCENARIOS[system]
    table = Table(Store(folder / "walk.db"), rng=random.Random(1))
    try:
        table.create_session(system, options)
        seen = list(table.actions()["pending"])
        for action in [*actions, *ENDINGS.get(system, [])]:
            table.act(action, source="cli")
            seen += table.actions()["pending"]
            assert table.view()["pending"] == table.actions()["pending"]  # the session view says the same
        return seen
    finally:
        table.store.close()


@pytest.mark.parametrize("system", sorted(SCENARIOS))
def test_every_prompt_of_the_walk_rests_on_a_passage_of_the_book(system, tmp_path):
    prompts = [p for p in walk(system, tmp_path) if set(answers(p)) - CORE_ACTIONS]
    types = {t for p in prompts for t in answers(p)}
    assert len(types) >= 3, types  # the walk reaches several moments, not only the first
    missing = sorted({p["text"] for p in prompts if not p.get("rule")})
    assert not missing, f"{len(missing)} prompts of {system} name no rule: {missing}"
    for p in prompts:
        # the rule a refusal of the move it names gives ("move, attack or collect": the first that has one)
        assert p["rule"] == next(filter(None, (rulebook_refs.action_key(system, t) for t in answers(p)))), p
        book, _, key = p["rule"].partition(":")
        rule = rulebook_refs.refs_of(book).RULES[key]
        if rule.own_choice:  # the book is silent: the setting is named instead (tests/test_rulerefs.py checks it)
            assert rule.note, p
            continue
        quoted(book, rule.quote)


def test_a_prompt_s_rule_is_fetched_by_its_key(tmp_path):
    with api_client(tmp_path, 1) as client:
        made = post(client, "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}})
        assert made.status_code == 201, made.get_json()
        pending = client.get("/api/sessions/active/actions", headers=AUTH).get_json()["pending"]
        key = pending[0]["rule"]  # "Pluto: move, attack or collect": one action a turn
        assert key == "vnm:one_action"
        r = client.get(f"/api/rules/ref/{key}", headers=AUTH)
        assert r.status_code == 200
        book, _, name = key.partition(":")
        assert r.get_json() == rulebook_refs.describe(book, name)  # the same body a refusal's 422 carries
        assert [p["text"] for p in r.get_json()["parts"] if p["mark"]] == [r.get_json()["quote"]]
        assert client.get("/api/rules/ref/vnm:no_such_rule", headers=AUTH).status_code == 404
        assert client.get("/api/rules/ref/os:path", headers=AUTH).status_code == 404  # only the four books
        assert client.get(f"/api/rules/ref/{key}").status_code == 401  # a joined phone's, like every route


def test_the_moment_grows_by_the_keys_alone(tmp_path):
    """The moment is sent after every change: each prompt adds its key, never the passage."""
    with api_client(tmp_path, 1) as client:
        post(client, "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}})
        pending = client.get("/api/sessions/active/actions", headers=AUTH).get_json()["pending"]
        assert pending and all(isinstance(p["rule"], str) and len(p["rule"]) < 40 for p in pending)


def test_a_prompt_of_a_system_without_references_names_none(tmp_path):
    from tests.toysystem import get as toy_systems

    table = Table(Store(tmp_path / "toy.db"), rng=random.Random(1), systems=toy_systems)
    try:
        table.create_session("toy", {"limit": 500})
        pending = table.actions()["pending"]
        assert pending and all("rule" not in p for p in pending)
        assert phone(table).get("/api/rules/ref/toy:anything", headers=AUTH).status_code == 404
    finally:
        table.store.close()
