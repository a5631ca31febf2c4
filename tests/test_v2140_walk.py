"""A random walk through a Venus 2140 campaign (Hypothesis stateful), with undo and redo.

Scenes and sessions follow each other, characters (players and NPCs) take effects that are treated,
end, heal in downtime and count as circumstance dice; training, Connections and the full-sleeve point
happen between exchanges. After every step: every exchange conserves its dice (captured + returned +
discarded + at stake = put forward, checked by the system's laws and again here from the books and
pools themselves), pools hold only faces 1-6, a knocked-out character holds no dice, and redo replays
exactly what was undone. The walk prints what it tried, accepted and refused (by reason), and every
action this campaign added is accepted at least once.
"""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from tableside.core.errors import TablesideError
from tableside.core.system import run_action
from tableside.core.systems.v2140 import SYSTEM, effects

from tests.walkstats import WalkStats

NAMES = ["Shred", "Sven", "GM"]
CHARACTERS = [*NAMES, "Jack"]  # Jack is an NPC the GM plays
EFFECTS = ["Wound", "Scar", "Knock Out", "Cripple"]
SKILLS = ["Coordination: Projectiles: Airgun", "Physique: Athletics: Running", "Cognition: Physics", "Authority"]
# Every action the campaign added, and the circumstance dice an effect gives a pool (prepare_pool+effects).
NEW_ACTIONS = (
    "set_skills",
    "add_effect",
    "treat_effect",
    "end_effect",
    "new_scene",
    "new_session",
    "downtime",
    "heal",
    "train",
    "connections",
    "outnumbered_point",
    "prepare_pool+effects",
    "buy_goal+chart_goal",
    "buy_goal+restricted",
    "fly_dice+skill",
)
WALK = WalkStats("Venus 2140 campaign walk", CHARACTERS)


def total_books(state: dict) -> int:
    return sum(p["books"] for p in state["participants"].values())


def dice_on_table(state: dict) -> int:
    ex = state["exchange"]
    held = sum(len(p["pool"]) for p in state["participants"].values())
    return held + (len(ex["forward"]) + len(ex["answer"] or []) if ex else 0)


class Scene(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state = SYSTEM.start(SYSTEM.validate_options({"players": NAMES[:2], "gm": "GM"}))
        self.done: list[tuple[dict, dict, list]] = []  # (state before, action, recorded rolls)
        self.undone: list[tuple[dict, dict, list, dict]] = []
        self.exchanges = 0

    def run(self, raw: dict, seed: int, faces: list[int] | None = None) -> object | None:
        kind = raw["type"]
        extra = {"prepare_pool": "effects", "buy_goal": ("chart_goal", "restricted"), "fly_dice": "skill"}.get(kind, ())
        for key in (extra,) if isinstance(extra, str) else extra:
            if raw.get(key):
                kind = f"{kind}+{key}"
        try:
            step = run_action(SYSTEM, self.state, raw, rng=random.Random(seed), faces=faces)
        except TablesideError as refused:
            WALK.record(kind, refused)
            return None
        WALK.record(kind)
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
        racks = 1 + seed % 3 if who == "GM" else 0
        offered = [c["value"] for c in effects.candidates(self.state, who)]
        raw = {
            "type": "prepare_pool",
            "participant": who,
            "primary_skills": primary,
            "circumstances": circumstances,
            "racks": racks,
        }
        if offered and seed % 4:  # the player confirms some of the effects offered
            raw["effects"] = offered[: 1 + seed % len(offered)]
        if seed % 17 == 0:  # now and then an effect that is not this pool's
            raw["effects"] = [f"Nobody:{seed}:wound"]
        self.run(raw, seed)
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

    @rule(
        who=st.sampled_from(NAMES),
        price=st.integers(0, 4),
        points=st.integers(0, 2),
        exception=st.booleans(),
        data=st.data(),
    )
    def buy_goal(self, who: str, price: int, points: int, exception: bool, data: st.DataObject) -> None:
        before = total_books(self.state)
        raw = {"type": "buy_goal", "participant": who, "price": price, "points": points, "exception": exception}
        restricted = 0
        if data.draw(st.booleans()):
            raw["chart_goal"] = data.draw(st.sampled_from([f"{r['root']}: {r['goal']}" for r in self.state["charts"]]))
            raw["target"] = data.draw(st.sampled_from(NAMES))
            if raw["target"] == "GM":
                raw["character"] = "Jack"
        if data.draw(st.integers(0, 3)) == 0:
            restricted = raw["restricted"] = data.draw(st.integers(1, 2))
        step = self.run(raw, 0)
        if step is not None:
            assert total_books(self.state) == before - (price - points - restricted)

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

    # --- the campaign: effects, scenes, sessions, downtime, training, Connections ----------------------

    @rule(primary=st.sampled_from(SKILLS), secondary=st.sampled_from(["", *SKILLS]))
    def set_skills(self, primary: str, secondary: str) -> None:
        self.run({"type": "set_skills", "primary": primary, "secondary": secondary}, 0)

    @rule(
        who=st.sampled_from(CHARACTERS),
        effect=st.sampled_from(EFFECTS),
        by=st.sampled_from(["", *NAMES]),
        level=st.integers(1, 3),
    )
    def add_effect(self, who: str, effect: str, by: str, level: int) -> None:
        before = {n: len(p["pool"]) for n, p in self.state["participants"].items()}
        step = self.run({"type": "add_effect", "character": who, "effect": effect, "by": by, "level": level}, 0)
        if step is not None and effect == "Knock Out" and who in before:
            assert self.state["participants"][who]["pool"] == []

    @rule(data=st.data())
    def treat_or_end(self, data: st.DataObject) -> None:
        standing = [e["id"] for e in effects.active(self.state)] or [99]
        chosen = data.draw(st.sampled_from(standing))
        self.run({"type": data.draw(st.sampled_from(["treat_effect", "end_effect"])), "effect": chosen}, 0)

    @rule(session=st.booleans(), now=st.integers(0, 4))
    def new_scene_or_session(self, session: bool, now: int) -> None:
        if now:  # rarely, so scenes get played
            return
        kept = [e["id"] for e in effects.active(self.state) if e["reads"] != effects.STOPPED]
        if self.run({"type": "new_session" if session else "new_scene"}, 0) is not None:
            assert [e["id"] for e in effects.active(self.state)] == kept  # effects stay; knocked out ends
            assert all(p["pool"] == [] for p in self.state["participants"].values())

    @rule(
        who=st.sampled_from(["Shred", "Sven"]),
        level=st.integers(1, 2),
        dice=st.integers(1, 8),
        seed=st.integers(0, 2**16),
    )
    def downtime(self, who: str, level: int, dice: int, seed: int) -> None:
        wounds = [e["id"] for e in effects.active(self.state) if e["reads"] == "wound" and not e["permanent"]]
        if not wounds:
            self.add_effect(who, "Wound", "GM", level)
            wounds = [e["id"] for e in effects.active(self.state) if e["reads"] == "wound" and not e["permanent"]]
        buy = "get rid of it" if seed % 2 else "make it permanent"
        self.run({"type": "downtime", "effect": wounds[-1] if wounds else 99, "dice": dice, "buy": buy}, seed)

    @rule(who=st.sampled_from(["Shred", "Sven"]), heal=st.integers(0, 3))
    def healing_downtime(self, who: str, heal: int) -> None:
        """Four scars make the next downtime a healing one: half of the permanent effects disappear."""
        for by in ("GM", "GM", "Shred", "Sven"):
            self.add_effect(who, "Scar", by, 1)
        permanent = [e["id"] for e in effects.active(self.state) if e["character"] == who and e["permanent"]]
        self.run({"type": "heal", "character": who, "effects": permanent[: len(permanent) // 2 + heal - 1]}, 0)

    @rule(
        who=st.sampled_from(["Shred", "Sven", "GM"]),
        skill=st.sampled_from(SKILLS),
        dice=st.integers(1, 8),
        seed=st.integers(0, 2**16),
    )
    def train(self, who: str, skill: str, dice: int, seed: int) -> None:
        self.run({"type": "train", "participant": who, "skill": skill, "dice": dice}, seed)

    @rule(
        who=st.sampled_from(["Shred", "Sven"]),
        lifestyles=st.integers(0, 3),
        network=st.booleans(),
        against=st.integers(0, 8),
        seed=st.integers(0, 2**16),
    )
    def connections(self, who: str, lifestyles: int, network: bool, against: int, seed: int) -> None:
        raw = {
            "type": "connections",
            "participant": who,
            "lifestyles": lifestyles,
            "network": network,
            "against": against,
        }
        self.run(raw, seed)

    @rule(who=st.sampled_from(NAMES), seed=st.integers(0, 2**16))
    def outnumbered(self, who: str, seed: int) -> None:
        """A fresh scene where the GM draws three racks against one small pool: a full sleeve."""
        if self.state["exchange"] is not None:
            return
        self.run({"type": "new_scene"}, 0)
        self.roll_a_pool("Sven", 1, 0, seed)
        self.run({"type": "prepare_pool", "participant": "GM", "racks": 3}, seed)
        self.run({"type": "roll_pool", "participant": "GM"}, seed)
        self.run({"type": "outnumbered_point", "participant": who}, 0)

    @rule(who=st.sampled_from(NAMES), books=st.integers(0, 2))
    def knocked_out(self, who: str, books: int) -> None:
        """Knocked out: the pool is gone, drawing dice is refused, spending books is still open."""
        self.add_effect(who, "Knock Out", "GM", 1)
        self.run({"type": "prepare_pool", "participant": who, "primary_skills": 1, "racks": 1}, 0)
        self.run({"type": "buy_goal", "participant": who, "goal": "last words", "price": books, "exception": True}, 0)

    @rule(who=st.sampled_from(["Shred", "Sven"]), goal=st.sampled_from(["Wound", "Scar", "Knock Out", "Cripple"]))
    def trained_goal(self, who: str, goal: str) -> None:
        """Training pays next session: two restricted points buy a Coordination goal with that skill."""
        if self.state["exchange"] is not None:
            self.run({"type": "withdraw"}, 0)
        against = 2 * self.state["participants"]["GM"]["rack"]
        faces = [5, 5, 5, 5, 4, 4, *[1] * (against - 2)]  # 5555 against 44: two books
        self.run({"type": "train", "participant": who, "skill": "Coordination: Projectiles", "dice": 4}, 0, faces)
        self.run({"type": "new_session"}, 0)
        self.run({"type": "set_skills", "primary": "Coordination: Projectiles: Airgun"}, 0)
        raw = {
            "type": "buy_goal",
            "participant": who,
            "chart_goal": f"Coordination: {goal}",
            "target": "GM",
            "character": "Jack",
            "price": 2,
            "restricted": 2,
            "exception": True,
        }
        self.run(raw, 0)

    @rule(skill=st.sampled_from(SKILLS), seed=st.integers(0, 2**16), data=st.data())
    def fly_dice(self, skill: str, seed: int, data: st.DataObject) -> None:
        attacker, defender = data.draw(st.permutations(NAMES))[:2]
        raw = {"type": "fly_dice", "attacker": attacker, "defender": defender, "attack_dice": 3, "defense_dice": 3}
        if data.draw(st.booleans()):
            raw["skill"] = skill
        self.run(raw, seed)

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
        for name, p in self.state["participants"].items():
            assert all(isinstance(f, int) and 1 <= f <= 6 for f in p["pool"])
            assert p["dice"] == len(p["pool"]) and p["books"] >= 0
            assert not (effects.is_stopped(self.state, name) and p["pool"])
            assert all(r["points"] > 0 for r in p["restricted"])
        for record in self.state["ledger"]:
            assert (
                record["captured"] + record["returned"] + record["discarded"] + record["at_stake"]
                == record["put_forward"]
            )


def test_dice_conservation_walk_over_a_campaign() -> None:
    """The walk, then what it did: every action the campaign added is accepted at least once."""
    run_state_machine_as_test(
        Scene,
        settings=settings(
            max_examples=60,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
            derandomize=True,  # the coverage asserts below read what the walk did: the same walk every run
        ),
    )
    print(WALK.report())
    assert WALK.never_accepted(NEW_ACTIONS) == [], WALK.report()
    assert WALK.refusals_matching("is stopped"), WALK.report()  # the knocked out tried to act and could not


def test_a_broken_ledger_is_named_by_the_laws() -> None:
    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Shred"], "gm": "GM"}))
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
