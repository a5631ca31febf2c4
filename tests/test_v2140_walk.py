"""A random walk through Venus 2140 scenes (Hypothesis stateful), with undo and redo.

After every step: every exchange conserves its dice (captured + returned + discarded + at
stake = put forward, checked by the system's laws and again here from the books and pools
themselves), pools hold only faces 1-6, and redo replays exactly what was undone.
"""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from tableside.core.errors import TablesideError
from tableside.core.system import run_action
from tableside.core.systems.v2140 import SYSTEM

NAMES = ["Shred", "Sven", "GM"]


def total_books(state: dict) -> int:
    return sum(p["books"] for p in state["participants"].values())


def dice_on_table(state: dict) -> int:
    ex = state["exchange"]
    held = sum(len(p["pool"]) for p in state["participants"].values())
    return held + (len(ex["forward"]) + len(ex["answer"] or []) if ex else 0)


class Scene(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state = SYSTEM.initial_state(SYSTEM.validate_options({"players": NAMES[:2], "gm": "GM"}))
        self.done: list[tuple[dict, dict, list]] = []  # (state before, action, recorded rolls)
        self.undone: list[tuple[dict, dict, list, dict]] = []
        self.exchanges = 0

    def run(self, raw: dict, seed: int) -> object | None:
        try:
            step = run_action(SYSTEM, self.state, raw, rng=random.Random(seed))
        except TablesideError:
            return None
        self.done.append((self.state, step.action, step.rolls))
        self.undone.clear()
        self.state = step.state
        return step

    @rule(
        who=st.sampled_from(NAMES),
        primary=st.integers(1, 3),
        circumstances=st.integers(0, 4),
        seed=st.integers(0, 2**16),
    )
    def roll_a_pool(self, who: str, primary: int, circumstances: int, seed: int) -> None:
        racks = 1 if who == "GM" else 0
        self.run(
            {
                "type": "prepare_pool",
                "participant": who,
                "primary_skills": primary,
                "circumstances": circumstances,
                "racks": racks,
            },
            seed,
        )
        self.run({"type": "roll_pool", "participant": who}, seed)

    @precondition(lambda self: self.state["exchange"] is None)
    @rule(actor=st.sampled_from(NAMES), data=st.data(), risky=st.booleans(), exception=st.booleans())
    def put_forward(self, actor: str, data: st.DataObject, risky: bool, exception: bool) -> None:
        others = [n for n in NAMES if n != actor]
        aim = data.draw(st.sampled_from(others) | st.just(actor)) if data.draw(st.booleans()) else others[0]
        held = list(self.state["participants"][actor]["pool"])
        most = max(1, math.ceil(len(held) / 2))
        count = data.draw(st.integers(1, most) | st.integers(0, len(held) + 1))
        dice = list(data.draw(st.permutations(held)))[:count] if held else []
        if data.draw(st.integers(0, 9)) == 0:  # now and then a face the pool does not hold, or no die at all
            dice.append(data.draw(st.integers(0, 7)))
        before = dice_on_table(self.state)
        step = self.run(
            {
                "type": "put_forward",
                "actor": actor,
                "target": aim,
                "dice": dice,
                "risky": risky,
                "exception": exception,
            },
            0,
        )
        if step is not None:
            assert dice_on_table(self.state) == before
            assert self.state["exchange"]["forward"] == sorted(dice, reverse=True)

    @precondition(lambda self: self.state["exchange"] is None)
    @rule(data=st.data(), risky=st.booleans(), seed=st.integers(0, 2**16))
    def whole_exchange(self, data: st.DataObject, risky: bool, seed: int) -> None:
        """Played exchanges start to finish (each step its own undoable action), rolling pools as needed."""
        for n in range(data.draw(st.integers(1, 4))):
            self.one_exchange(data, risky, seed + n)

    def one_exchange(self, data: st.DataObject, risky: bool, seed: int) -> None:
        if self.state["exchange"] is not None:
            return
        armed = [n for n in NAMES if self.state["participants"][n]["pool"]]
        if len(armed) < 2 and data.draw(st.integers(0, 3)):
            who = data.draw(st.sampled_from([n for n in NAMES if n not in armed]))
            self.roll_a_pool(who, data.draw(st.integers(1, 3)), data.draw(st.integers(0, 4)), seed)
            return
        if not armed:
            return
        actor = data.draw(st.sampled_from(armed))
        others = [n for n in armed if n != actor] or [n for n in NAMES if n != actor]
        aim = data.draw(st.sampled_from(others))
        held = self.state["participants"][actor]["pool"]
        count = data.draw(st.integers(1, math.ceil(len(held) / 2)))
        dice = list(data.draw(st.permutations(held)))[:count]
        if self.run({"type": "put_forward", "actor": actor, "target": aim, "dice": dice, "risky": risky}, 0):
            ex = self.state["exchange"]
            if ex["answer_count"]:
                held = self.state["participants"][aim]["pool"]
                self.run({"type": "answer", "dice": list(data.draw(st.permutations(held)))[: ex["answer_count"]]}, 0)
            self.resolve(seed)

    @precondition(lambda self: self.state["exchange"] is not None and self.state["exchange"]["answer"] is None)
    @rule(data=st.data())
    def answer(self, data: st.DataObject) -> None:
        ex = self.state["exchange"]
        held = list(self.state["participants"][ex["target"]]["pool"])
        picked = data.draw(st.permutations(held)) if held else []
        count = data.draw(
            st.just(ex["answer_count"]) | st.sampled_from([max(ex["answer_count"] - 1, 0), ex["answer_count"] + 1])
        )
        self.run({"type": "answer", "dice": list(picked[:count])}, 0)

    @precondition(lambda self: self.state["exchange"] is not None)
    @rule(seed=st.integers(0, 2**16))
    def resolve(self, seed: int) -> None:
        ex = self.state["exchange"]
        before_books, before_dice = total_books(self.state), dice_on_table(self.state)
        put = len(ex["forward"]) + len(ex["answer"] or [])
        step = self.run({"type": "resolve"}, seed)
        if step is None:
            return
        self.exchanges += 1
        fates = [f["fate"] for f in self.state["last_exchange"]["fates"]]
        assert len(fates) == put
        counts = {f: fates.count(f) for f in ("captured", "paired", "returned", "won", "discarded")}
        assert counts["paired"] % 2 == 0
        assert total_books(self.state) - before_books == counts["captured"] + counts["paired"] // 2
        rerolled = [f for r in step.rolls for f in r["rolls"]]
        assert all(1 <= f <= 6 for f in rerolled)
        kept = sum(1 for f in rerolled if f >= 4)
        assert sum(1 for r in step.rolls if "roll-in" not in r["label"]) <= 1
        first_wave = sum(len(r["rolls"]) for r in step.rolls if "roll-in" not in r["label"])
        assert first_wave == counts["returned"]
        assert dice_on_table(self.state) == before_dice - put + kept

    @precondition(lambda self: self.state["exchange"] is not None)
    @rule(now=st.integers(0, 3))
    def withdraw(self, now: int) -> None:
        if now:
            return
        before = dice_on_table(self.state)
        if self.run({"type": "withdraw"}, 0) is not None:
            assert dice_on_table(self.state) == before

    @rule(who=st.sampled_from(NAMES), price=st.integers(0, 4), points=st.integers(0, 2), exception=st.booleans())
    def buy_goal(self, who: str, price: int, points: int, exception: bool) -> None:
        before = total_books(self.state)
        step = self.run(
            {"type": "buy_goal", "participant": who, "price": price, "points": points, "exception": exception}, 0
        )
        if step is not None:
            assert total_books(self.state) == before - (price - points)

    @rule(who=st.sampled_from(NAMES))
    def pair_leftovers(self, who: str) -> None:
        self.run({"type": "pair_leftovers", "participant": who}, 0)

    @rule()
    def next_participant(self) -> None:
        self.run({"type": "next_participant"}, 0)

    @rule(now=st.integers(0, 9))
    def follow_up(self, now: int) -> None:
        if now:  # a follow-up empties every pool: rarely, so exchanges get played
            return
        before = {n: len(p["pool"]) for n, p in self.state["participants"].items()}
        follow = {n: p["follow_up"] for n, p in self.state["participants"].items()}
        if self.run({"type": "follow_up"}, 0) is not None:
            for n, p in self.state["participants"].items():
                assert p["pool"] == [] and p["follow_up"] == follow[n] + before[n] - before[n] // 2

    @precondition(lambda self: bool(self.done))
    @rule()
    def undo(self) -> None:
        before, action, rolls = self.done.pop()
        self.undone.append((before, action, rolls, self.state))
        self.state = before

    @precondition(lambda self: bool(self.undone))
    @rule()
    def redo(self) -> None:
        before, action, rolls, after = self.undone.pop()
        assert self.state == before
        step = run_action(SYSTEM, before, action, replay=rolls)
        assert step.state == after
        self.done.append((before, action, rolls))
        self.state = step.state

    @invariant()
    def laws_hold(self) -> None:
        assert SYSTEM.laws(self.state) == []
        for p in self.state["participants"].values():
            assert all(isinstance(f, int) and 1 <= f <= 6 for f in p["pool"])
            assert p["dice"] == len(p["pool"]) and p["books"] >= 0
        for record in self.state["ledger"]:
            assert (
                record["captured"] + record["returned"] + record["discarded"] + record["at_stake"]
                == record["put_forward"]
            )


Scene.TestCase.settings = settings(
    max_examples=60, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_dice_conservation_walk = Scene.TestCase


def test_a_broken_ledger_is_named_by_the_laws() -> None:
    state = SYSTEM.initial_state(SYSTEM.validate_options({"players": ["Shred"], "gm": "GM"}))
    state["ledger"] = [
        {
            "n": 1,
            "conflict": 1,
            "actor": "Shred",
            "target": "GM",
            "kind": "normal",
            "put_forward": 2,
            "captured": 1,
            "returned": 0,
            "discarded": 0,
            "at_stake": 0,
        }
    ]
    state["participants"]["GM"]["pool"] = [7]
    broken = SYSTEM.laws(state)
    assert any("exchange 1 (Shred against GM): dice not conserved" in b for b in broken)
    assert any("face outside 1-6: 7" in b for b in broken)
