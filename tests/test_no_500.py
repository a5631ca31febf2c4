"""Whatever a phone sends, the answer is a clear refusal or a change, never a crash.

Hypothesis throws arbitrary JSON at every action type of every system; any
exception that is not a ``TablesideError`` (and so would be a 500) fails.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tableside.core.errors import TablesideError
from tableside.core.store import Store
from tableside.core.systems import SYSTEM_MODULES, get_system
from tableside.core.table import Table

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, width=32)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    made = {}
    for system_id in SYSTEM_MODULES:
        table = Table(Store(tmp_path_factory.mktemp(system_id) / "t.db"), rng=random.Random(5))
        table.create_session(system_id)
        made[system_id] = table
    yield made
    for table in made.values():
        table.store.close()


@pytest.mark.parametrize("system_id", sorted(SYSTEM_MODULES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_action_body_is_applied_or_refused_cleanly(tables, system_id, data):
    table = tables[system_id]
    types = sorted(get_system(system_id).actions)
    action_type = data.draw(st.sampled_from([*types, "roll", "nope", ""]))
    fields = [f.name for f in get_system(system_id).actions[action_type].fields] if action_type in types else []
    keys = st.sampled_from([*fields, "faces", "extra"]) if fields else st.sampled_from(["faces", "expr", "extra"])
    body = data.draw(st.dictionaries(keys, json_values, max_size=4))
    body["type"] = action_type
    try:
        table.act(body, source="phone")
    except TablesideError as exc:
        assert exc.message and "\n" not in exc.message
        assert "could not apply" not in exc.message, exc.message  # the core's net for a bug in the rules


@pytest.mark.parametrize("system_id", sorted(SYSTEM_MODULES))
@settings(max_examples=100, deadline=None)
@given(options=st.dictionaries(st.text(max_size=20), json_values, max_size=4) | json_values)
def test_any_options_are_accepted_or_refused_cleanly(system_id, options):
    system = get_system(system_id)
    try:
        system.start(system.validate_options(options))
    except TablesideError as exc:
        assert exc.message


# Player names the documented examples use, so the walk gets past turn checks.
WALK_OPTIONS = {"venom": {"players": ["Ann", "Bob"]}, "vegas": {"players": ["Ann", "Bob", "Cy"]}}


def _nudge(value, draw):
    """An example value, sometimes changed: ints moved, lists shortened, text swapped."""
    if isinstance(value, bool) or draw(st.integers(0, 2)):
        return value
    if isinstance(value, int):
        return value + draw(st.integers(-3, 3))
    if isinstance(value, list):
        return value[: draw(st.integers(0, len(value)))]
    if isinstance(value, str):
        return draw(st.sampled_from([value, "", "Ana", "Mars", "China"]))
    return value


@pytest.mark.parametrize("system_id", sorted(SYSTEM_MODULES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_games_from_the_documented_examples_never_hit_a_rules_bug(tmp_path_factory, system_id, data):
    """Walk a game with the documented example actions, nudged: deep states, not just bad bodies."""
    system = get_system(system_id)
    table = Table(Store(tmp_path_factory.mktemp("walk") / "t.db"), rng=random.Random(data.draw(st.integers(0, 99))))
    table.create_session(system_id, WALK_OPTIONS.get(system_id))
    specs = [spec for spec in system.actions.values() if spec.type != "game_over"]  # keep the game going
    try:
        for _ in range(30):
            choice = data.draw(st.integers(0, len(specs) + 1))
            try:
                if choice == len(specs):
                    table.undo()
                elif choice == len(specs) + 1:
                    table.redo()
                else:
                    spec = specs[choice]
                    body = {k: _nudge(v, data.draw) for k, v in spec.example.items() if k != "faces"}
                    table.act({"type": spec.type, **body})
            except TablesideError as exc:
                assert "could not apply" not in exc.message, exc.message
        # The view is the public table view: a system with private data (v2140 pools) redacts it.
        assert system.redact(table.replay(table.view()["id"]), None) == table.view()["state"]
    finally:
        table.store.close()
