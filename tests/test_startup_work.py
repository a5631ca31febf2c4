"""What ``tableside serve`` leaves out before its first answer, and that nothing a phone uses goes with it.

Start-up time itself is measured in benchmarks/ (pi-sized, pi_render ready), never here; these tests
pin the behaviour the savings rely on.
"""

from __future__ import annotations

import random

import pytest
from flask import url_for
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import BuildOnUseRule, Services, create_app
from werkzeug.routing import Map, Rule

from tests import toysystem


@pytest.fixture
def app(tmp_path):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    yield create_app(Services(table=table, join_code="K7TQ2M", frame_png=lambda: b"", press=lambda *a: {}))
    table.store.close()


def test_no_route_compiles_its_url_builder_at_start_up(app):
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 30 and all(isinstance(r, BuildOnUseRule) for r in rules)
    assert all(r._build.__name__ == "build_on_use" for r in rules)
    assert all(r._build_unknown.__name__ == "build_on_use" for r in rules)


def test_urls_built_on_use_are_werkzeugs_own(app):
    """Every route builds the URL werkzeug's eagerly compiled rule builds, with and without extra arguments."""
    eager = Map([Rule(r.rule, endpoint=r.endpoint, methods=r.methods) for r in app.url_map.iter_rules()]).bind(
        "table.local"
    )
    with app.test_request_context(base_url="http://table.local"):
        for rule in app.url_map.iter_rules():
            values = {name: "s-1" if name != "size" else 192 for name in rule.arguments}
            for extra in ({}, {"seat": "A"}):
                expected = eager.build(rule.endpoint, {**values, **extra})
                assert url_for(rule.endpoint, **values, **extra) == expected
                assert url_for(rule.endpoint, **values, **extra) == expected  # the compiled builder, second time
        assert url_for("api.saved_log", session_id="s 1") == "/api/sessions/s%201/log"
