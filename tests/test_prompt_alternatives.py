"""A prompt that names an alternative offers it (#17: never a dead end, "or ..." one tap away).

"Ann: choose the VENOM Leader to attack (or next phase: no Combat)" was answered only by "Choose the
VENOM Leader" on the phone; Next phase sat in All actions, under the board. A phone puts a prompt's
``type`` and its ``also`` at the top of the screen, so every alternative a prompt's words name must be
one of them (or the type of another prompt waited for now, as Vegas's "or enter trick 2 whole").

A seeded walk through each of the four systems plays the moment's own actions with legal values from
their fields, and checks every prompt it meets. The VENOM case was seen failing on the old prompts.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from tableside.core.errors import TablesideError
from tableside.core.recorder import NeedsDice
from tableside.core.system import GameSystem, run_action
from tableside.core.systems import get_system

from tests.test_venom_helpers import started, to_phase

GAMES = {
    "venom": {"players": ["Ann", "Bob"], "leader_deck": [{"name": "Vipress", "health": 3, "defense": 4, "support": 5}]},
    "vnm": {
        "players": [
            {"name": "Ann", "home_worlds": ["Venus"]},
            {"name": "Bob", "home_worlds": ["Mars"]},
            {"name": "Cy", "home_worlds": ["Pluto"]},
        ]
    },
    "vegas": {"players": ["Jo", "Kim", "Lu", "Max"]},
    "v2140": {"players": ["Shred", "Sven"], "gm": "GM"},
}
OR = re.compile(r"\bor\b")


def _value(rng: random.Random, field: dict) -> Any:
    """A legal value for one described field, or None to leave it to its default."""
    if field.get("default") is not None and rng.random() < 0.5:
        return field["default"]
    choices = [c["value"] if isinstance(c, dict) and "value" in c else c for c in field.get("choices") or []]
    kind = field["kind"]
    if kind == "picks":
        low, high = field.get("minimum") or 1, min(field.get("maximum") or len(choices), len(choices))
        return rng.sample(choices, rng.randint(low, high)) if choices and low <= high else None
    if choices:
        return rng.choice(choices)
    if kind == "count":
        low = field.get("minimum")
        low = 0 if low is None else low
        high = field.get("maximum")
        high = low + 6 if high is None else min(high, low + 6)
        return rng.randint(low, high)
    if kind == "flag":
        return rng.random() < 0.2
    return None


def _raw(rng: random.Random, described: dict) -> dict:
    raw: dict[str, Any] = {"type": described["type"]}
    for field in described["fields"]:
        value = _value(rng, field)
        if value is not None:
            raw[field["name"]] = value
    return raw


def _check(system: GameSystem, state: dict) -> list[str]:
    """The prompts now whose words offer an "or ..." that no other available action of the moment answers."""
    prompts = system.pending(state)
    answered = {t for p in prompts for t in (p.type, *p.also) if t}
    bad = []
    for p in prompts:
        assert all(t in system.all_actions() for t in p.also), p
        if not OR.search(p.text):
            continue
        # A button the phone draws: the alternative is available now (an unavailable one is not drawn on top).
        others = {t for t in answered - {p.type} if not system.all_actions()[t].reason(state, None)}
        if not others:
            bad.append(p.text)
    return bad


def _walk(system_id: str, seed: int, steps: int) -> tuple[list[str], int]:
    """Play ``steps`` actions of the moment (the prompts' own, else any available one); the prompts that
    fail the check, and how many prompts with an "or" were met."""
    system = get_system(system_id)
    rng = random.Random(seed)
    state = system.start(system.validate_options(GAMES[system_id]))
    bad: list[str] = []
    met = 0
    for _ in range(steps):
        bad += _check(system, state)
        prompts = system.pending(state)
        if not prompts:
            break
        met += sum(1 for p in prompts if OR.search(p.text))
        moment = [t for p in prompts for t in (p.type, *p.also) if t]
        seats = [s.name for s in system.seats(state)]
        actions = system.all_actions()
        described = [a for a in (actions[t].describe(state, seats) for t in moment) if a["available"]]
        if not described or rng.random() < 0.1:
            described = [
                a.describe(state, seats) for t, a in actions.items() if t != "correct" and not a.reason(state, None)
            ]
        for _ in range(8):  # a few tries: a random value may be refused by the rules
            raw = _raw(rng, rng.choice(described))
            try:
                state = run_action(system, state, raw, rng=rng).state
                break
            except (TablesideError, NeedsDice):
                continue
    return bad, met


@pytest.mark.parametrize("system_id", list(GAMES))
def test_every_alternative_a_prompt_names_is_a_button_of_the_moment(system_id):
    met = 0
    for seed in range(4):
        bad, n = _walk(system_id, seed, 120)
        assert not bad, f"{system_id}: prompts naming an alternative the phone does not offer: {sorted(set(bad))}"
        met += n
    assert met, f"{system_id}: the walk met no prompt with an 'or': it checked nothing"


def test_venom_choosing_a_leader_offers_next_phase_beside_it():
    """Seen failing on the old prompt: ``also`` was empty, so the phone showed only "Choose the VENOM Leader"."""
    system = get_system("venom")
    state = to_phase(started(["Ann", "Bob"]), "Tactical")
    [prompt] = system.pending(state)
    assert prompt.text == "Ann: choose the VENOM Leader to attack (or next phase: no Combat)"
    assert prompt.type == "choose_leader" and prompt.also == ("next_phase",)
    assert prompt.describe()["also"] == ["next_phase"]
    assert system.all_actions()["next_phase"].reason(state, "Ann") is None  # available: the button is live
