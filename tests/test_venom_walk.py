"""A Hypothesis walk through VENOM Assault on a real Table and SQLite file.

Random legal and illegal actions (most of them what the phone would offer now,
with values from the fields' own choices and limits; some unavailable, out of
range or not a choice), undo and redo. After every step: the Event cards are
conserved and the tracks stay in range; undo then redo gives the identical
state; a refused action leaves the version and the state unchanged. At the end
the session replays from its log alone.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from tableside.core.errors import TablesideError
from tableside.core.store import Store
from tableside.core.systems.venom import SYSTEM, rules
from tableside.core.table import Table

from tests.conftest import check_replays

NAMES = ["", "Vipress", "Cobra", "Dr. Mind"]


def _bucket(deck: dict, kind: str) -> str:
    if kind in deck:
        return kind
    return rules.FS_OR_VENOM


def check_venom_laws(state: dict) -> None:
    """The issue's laws, written out again here rather than trusting the system's own ``laws``."""
    drawn = Counter(_bucket(state["event_deck"], c["kind"]) for c in state["active_events"] + state["event_discard"])
    for bucket, built in state["event_deck_start"].items():
        assert state["event_deck"][bucket] >= 0
        assert state["event_deck"][bucket] + drawn[bucket] == built, (bucket, state["event_deck"], drawn)
    assert set(drawn) <= set(state["event_deck_start"])
    assert 0 <= state["event_track"] <= 5
    assert 1 <= state["health_track"] <= 8 and 1 <= state["defense_track"] <= 8
    captured = [c["name"].casefold() for p in state["players"] for c in p["leaders"]]
    assert len(captured) == len(set(captured)), captured
    assert SYSTEM.laws(state) == []


def _value(data, field: dict, legal: bool):
    """A value for one described field: from its choices and limits, or (illegal) just outside them."""
    kind = field["kind"]
    if "choices" in field:
        values = [c["value"] for c in field["choices"]]
        if kind == "picks":
            if not legal or not values:
                return data.draw(st.lists(st.integers(-1, 9), max_size=3))
            return data.draw(st.lists(st.sampled_from(values), min_size=1, max_size=len(values), unique=True))
        if not legal or not values:
            return data.draw(st.sampled_from(["nobody", 0, 99]))
        return data.draw(st.sampled_from(values))
    if kind == "count":
        low = int(field.get("minimum", -12))
        high = int(field.get("maximum", 12))
        high = min(high, low + 12)
        return data.draw(st.integers(low - 1, high + 1) if not legal else st.integers(low, high))
    if kind == "text":
        return data.draw(st.sampled_from(NAMES))
    if kind == "flag":
        return data.draw(st.booleans())
    return None


class VenomWalk(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # A real SQLite file, fresh per example; in memory-backed /dev/shm where there is one, since every
        # action is fsynced (synchronous=FULL) and the walk makes hundreds of them.
        shm = Path("/dev/shm")
        self.folder = Path(tempfile.mkdtemp(prefix="venom-walk-", dir=shm if shm.is_dir() else None))
        self.table = Table(Store(self.folder / "walk.db"), rng=random.Random(4))
        self.table.create_session("venom", {"players": ["Ann", "Bob", "Cy"]})
        self.seen = self.table.view()

    @initialize(
        start=st.sampled_from(["setup", "attacking"]),
        health=st.integers(1, 4),
        defense=st.integers(2, 6),
        dice=st.integers(1, 6),
    )
    def start(self, start: str, health: int, defense: int, dice: int) -> None:
        """Half the walks start from a Leader under attack, so Combat is walked as often as setup."""
        if start == "setup":
            return
        for body in (
            {"type": "set_commander", "player": "Bob"},
            {"type": "draw_event", "kind": "venom_strikes"},
            {"type": "next_phase"},
            {"type": "next_phase"},
            {
                "type": "choose_leader",
                "name": "Vipress",
                "zone": "VENOM Mountain Defense",
                "health": health,
                "defense": defense,
                "support": 2,
            },
            {"type": "allocate_dice", "combat_value": dice, "support_dice": 1},
        ):
            self.table.act(body)
        self._view()

    def _view(self) -> tuple[int, str]:
        self.seen = self.table.view()
        return self.seen["version"], json.dumps(self.seen["state"], sort_keys=True)

    @rule(data=st.data(), legal=st.integers(0, 9))
    def act(self, data, legal: int) -> None:
        """Mostly an available action with legal values; sometimes anything at all."""
        offered = self.table.actions()
        actions = [a for a in offered["actions"] if a["type"] != "roll"]
        # Ending the game ends the walk: only now and then.
        available = [a for a in actions if a["available"] and (a["type"] != "game_over" or legal == 0)]
        pending = {p["type"] for p in offered["pending"]}
        preferred = [a for a in available if a["type"] in pending]
        pool = preferred if legal < 6 and preferred else available if legal < 8 and available else actions
        spec = data.draw(st.sampled_from(pool))
        body = {"type": spec["type"]}
        for field in spec["fields"]:
            if not field["required"] and data.draw(st.booleans()):
                continue
            body[field["name"]] = _value(data, field, legal < 8)
        if spec["type"] == "correct" and body.get("key") and legal < 8:  # a value within the number's range
            number = next(t for t in self.seen["tracked"] if t["key"] == body["key"])
            low = number["minimum"] if number["minimum"] is not None else 0
            high = number["maximum"] if number["maximum"] is not None else low + 10
            body["value"] = data.draw(st.integers(low, high))
        before = self._view()
        try:
            self.table.act(body, source="api")
        except TablesideError:
            assert self._view() == before, f"refused {body} but the session changed"
        self._view()

    @precondition(lambda self: self.seen["can_undo"])
    @rule()
    def undo_then_redo_is_identical(self) -> None:
        version, state = self._view()
        self.table.undo()
        self.table.redo()
        assert self._view() == (version + 2, state)

    @precondition(lambda self: self.seen["can_undo"])
    @rule()
    def undo(self) -> None:
        self.table.undo()
        self._view()

    @precondition(lambda self: self.seen["can_redo"])
    @rule()
    def redo(self) -> None:
        self.table.redo()
        self._view()

    @rule(button=st.sampled_from(["A", "B", "C"]))
    def press(self, button: str) -> None:
        before = self._view()
        try:
            self.table.press(button)
        except TablesideError:
            assert self._view() == before
        self._view()

    @invariant()
    def laws_hold(self) -> None:
        check_venom_laws(self.seen["state"])

    def teardown(self) -> None:
        try:
            check_replays(self.table)
        finally:
            self.table.store.close()
            shutil.rmtree(self.folder, ignore_errors=True)


VenomWalk.TestCase.settings = settings(
    max_examples=15, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_venom_walk = VenomWalk.TestCase
