"""A random walk through Venus Needs Men games (Hypothesis stateful) through a real Table on SQLite.

Each example plays one game on its own temporary SQLite file: random legal and illegal actions,
undo and redo. After every step: population (Earth + infected + home worlds + Refuge + destroyed
= the total), Zap cards (deck + hand + discard = dealt, hands 0-3) and ships (0 <= on board <=
fleet) hold, counted here from the state itself; undo then redo gives the identical state; and
a refused action leaves the version (and the state) unchanged.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from tableside.core.errors import TablesideError
from tableside.core.store import Store
from tableside.core.systems.vnm import SYSTEM, rules
from tableside.core.table import Table

TECH = {
    w: {"weapon_dice": 1, "defense_space": 7, "defense_land": 6, "defense_ocean": 8}
    for w in ("Mars", "Pluto", "Earth", "Titan", "Venus")
}
SETUPS = [
    {"players": ["Venus", "Earth", "Pluto"]},
    {
        "players": ["Venus", "Titan", "Mars", "Earth"],
        "version": "Enhanced",
        "first_player": "Mars",
        "tech": {w: TECH[w] for w in ("Titan", "Mars", "Earth", "Venus")},
    },
    {
        "players": [
            {"name": "Wally", "home_worlds": ["Mars", "Venus"]},
            {"name": "Al", "home_worlds": ["Pluto", "Titan"]},
        ],
        "game_length": "Short",
        "land_areas": [{"name": "China", "population": 12}, {"name": "Oceania", "population": 9}],
    },
]
TURN = [
    "build",
    "move",
    "declare_target",
    "attack",
    "follow_up_roll",
    "collect",
    "infect",
    "destroy_population",
    "choose_upgrade",
    "research",
    "extend",
    "end_turn",
]
ANY_TIME = ["receive_population", "set_tech", "play_zap", "draw_zap", "destroy_ship", "correct", "nonsense"]


class Walk(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="vnm-walk-"))
        self.table = Table(Store(self.folder / "walk.db"), rng=random.Random(0))

    @initialize(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**16))
    def start(self, setup: dict, seed: int) -> None:
        self.table.rng = random.Random(seed)
        self.table.create_session("vnm", setup)

    @property
    def state(self) -> dict:
        return self.table.view()["state"]

    def attempt(self, raw: dict) -> None:
        before = self.table.view()
        try:
            self.table.act(raw)
        except TablesideError:
            after = self.table.view()
            assert after["version"] == before["version"], f"refused {raw} changed the version"
            assert after["state"] == before["state"]

    def _name(self, data: st.DataObject, names: list[str], wrong: str) -> str:
        """Mostly a real name, now and then a wrong one or one in the wrong case."""
        real = st.sampled_from(names)
        return data.draw(st.one_of(real, real, real, st.sampled_from([wrong, names[0].upper()])))

    @staticmethod
    def _count(data: st.DataObject) -> int:
        return data.draw(st.one_of(st.integers(1, 2), st.integers(1, 2), st.integers(0, 4)))

    def _action(self, data: st.DataObject, kind: str) -> dict:
        state = self.state
        worlds, areas = list(state["worlds"]), [a["name"] for a in state["land_areas"]]
        raw: dict = {"type": kind}
        if kind in ("collect", "infect", "destroy_population") or (kind == "build" and data.draw(st.booleans())):
            raw["area"] = self._name(data, areas, "Atlantis")
            raw["count"] = self._count(data)
            if kind != "infect" and data.draw(st.booleans()):
                raw["infected"] = data.draw(st.booleans())
        elif kind in ("declare_target", "attack") and data.draw(st.booleans()):
            raw["target"] = self._name(data, worlds, "Saturn")
            raw["area_type"] = data.draw(st.sampled_from(rules.AREA_TYPES))
        elif kind in ("choose_upgrade", "research"):
            raw["upgrade"] = data.draw(st.sampled_from(["Gatling Lasers", "Yttrium Alloys", "other", "Nope"]))
            if raw["upgrade"] == "other":
                raw["other_name"] = "Warp Drive"
            if data.draw(st.booleans()):
                raw["roll_needed"] = data.draw(st.integers(0, 11))
        elif kind == "extend":
            raw["cards"] = data.draw(st.integers(1, 4))
        elif kind in ("play_zap", "draw_zap", "destroy_ship", "set_tech"):
            raw["world"] = self._name(data, worlds, "Neptune")
            if kind == "draw_zap" or kind == "destroy_ship":
                raw["count"] = self._count(data)
            if kind == "set_tech":
                raw["weapon_dice"] = data.draw(st.integers(1, 3))
        elif kind == "receive_population":
            raw["gains"] = [
                {
                    "world": self._name(data, worlds, "Neptune"),
                    "count": self._count(data),
                    "area": self._name(data, areas, "Atlantis"),
                }
                for _ in range(data.draw(st.integers(1, 3)))
            ]
        elif kind == "correct":
            keys = [t.key for t in SYSTEM.tracked(state)]
            raw.update(key=data.draw(st.sampled_from(keys)), value=data.draw(st.integers(-1, 30)))
        return raw

    @rule(data=st.data(), kind=st.sampled_from(TURN))
    def a_turn_action(self, data: st.DataObject, kind: str) -> None:
        self.attempt(self._action(data, kind))

    @rule(data=st.data(), kind=st.sampled_from(ANY_TIME))
    def an_any_time_action(self, data: st.DataObject, kind: str) -> None:
        self.attempt(self._action(data, kind))

    @rule(data=st.data())
    def an_available_action(self, data: st.DataObject) -> None:
        """What GET .../actions offers now, filled in from the listed choices: mostly legal moves."""
        listed = [a for a in self.table.actions()["actions"] if a.get("available") and a["type"] != "correct"]
        if listed:
            chosen = data.draw(st.sampled_from(listed))
            self.attempt({"type": chosen["type"], **self._fill(data, chosen["fields"])})

    def _fill(self, data: st.DataObject, fields: list[dict]) -> dict:
        raw: dict = {}
        for f in fields:
            if f["kind"] == "pick" and f.get("choices") and (f["required"] or data.draw(st.booleans())):
                raw[f["name"]] = data.draw(st.sampled_from([c["value"] for c in f["choices"]]))
            elif f["kind"] == "count" and (f["required"] or data.draw(st.booleans())):
                low = int(f.get("minimum", 0))
                raw[f["name"]] = data.draw(st.integers(low, min(int(f.get("maximum", low + 3)), low + 2)))
            elif f["kind"] == "rows" and f["required"]:
                raw[f["name"]] = [self._fill(data, f["fields"])]
        if raw.get("upgrade") == "other":
            raw["other_name"] = "Warp Drive"
        return raw

    @rule(button=st.sampled_from(["A", "B", "C"]))
    def a_button(self, button: str) -> None:
        before = self.table.view()
        try:
            self.table.press(button)
        except TablesideError:
            assert self.table.view()["version"] == before["version"]

    @precondition(lambda self: self.table.view()["can_undo"])
    @rule()
    def undo_then_redo_is_identical(self) -> None:
        before = self.state
        undone = self.table.undo()
        assert undone["version"] > 0
        assert self.table.redo()["state"] == before

    @precondition(lambda self: self.table.view()["can_undo"])
    @rule()
    def undo(self) -> None:
        self.table.undo()

    @precondition(lambda self: self.table.view()["can_redo"])
    @rule()
    def redo(self) -> None:
        self.table.redo()

    @invariant()
    def conservation(self) -> None:
        if not self.table.has_active():
            return
        state = self.state
        earth = sum(a["population"] + a["infected"] for a in state["land_areas"])
        homes = sum(w["population"] for w in state["worlds"].values())
        assert earth + homes + state["destroyed"] == state["total_population"]
        assert (
            min(
                [a["population"] for a in state["land_areas"]]
                + [a["infected"] for a in state["land_areas"]]
                + [w["population"] for w in state["worlds"].values()]
                + [state["destroyed"]]
            )
            >= 0
        )
        for p in state["players"]:
            z = p["zap"]
            assert z["deck"] + z["hand"] + z["discard"] == state["zap_dealt"]
            assert 0 <= z["hand"] <= rules.ZAP_HAND and z["deck"] >= 0 and z["discard"] >= 0
        assert state["zap_dealt"] * len(state["players"]) + state["zap_set_aside"] == rules.ZAP_CARDS
        for w in state["worlds"].values():
            assert 0 <= w["on_board"] <= w["fleet"] and w["on_board"] + w["reserve"] == w["fleet"]
        assert SYSTEM.laws(state) == []

    def teardown(self) -> None:
        self.table.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)


Walk.TestCase.settings = settings(
    max_examples=10,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestVnmWalk = Walk.TestCase
