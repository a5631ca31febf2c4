"""Virtual smart dice for ``serve --simulate`` and the tests: rolled from the phone's dice page.

They are found, paired, named and assigned like real ones and report through the same hub,
so the whole flow (pairing, waiting for dice, the log) is usable without Bluetooth.
"""

from __future__ import annotations

import random
from typing import Any

from tableside.core.errors import BadRequest, RuleError
from tableside.core.words import plural
from tableside.device.smartdice.hub import DiceHub
from tableside.device.smartdice.model import KINDS, DieState

DEFAULT_SET = ("d10", "d10", "d10", "d6", "d6", "d6", "d6", "d6", "d6", "d20")
COLOURS = ("red", "blue", "green", "black", "white", "yellow", "orange", "purple")


class SimulatedDice(DiceHub):
    """Dice that exist only in this process; ``roll`` makes one land (a random face, or the one given)."""

    kind = "simulated"

    def __init__(self, registry: Any, kinds: tuple[str, ...] = DEFAULT_SET, rng: Any = None, **kw: Any) -> None:
        super().__init__(registry, **kw)
        self.rng = rng or random.SystemRandom()
        self.in_reach: dict[str, DieState] = {}
        for n, kind in enumerate(kinds, 1):
            if kind not in KINDS:
                raise ValueError(f"[dice] simulated: {kind!r} is not a kind of die ({', '.join(KINDS)})")
            colour = COLOURS[(n - 1) % len(COLOURS)]
            self.in_reach[f"sim-{n}"] = DieState(
                f"sim-{n}", "simulated", kind, colour=colour, advertised=f"Sim {kind} {n}", battery=100 - 3 * n
            )
        self.note = f"{plural(len(self.in_reach), 'simulated die')}: roll them from the dice page"
        for die_id in list(self.dice):  # paired in an earlier run: in reach again at once
            if die_id in self.in_reach:
                self.seen(self.in_reach[die_id])
                self.connection(die_id, "connected")

    def _scan(self, seconds: float) -> None:
        for die in self.in_reach.values():
            self.seen(DieState(die.id, die.family, die.kind, die.colour, die.advertised, battery=die.battery))

    def _connect(self, die: DieState) -> None:
        self.connection(die.id, "connected")

    def _disconnect(self, die: DieState) -> None:
        with self._lock:
            die.connection = "in reach"

    def roll(self, die_id: Any, face: Any = None) -> dict[str, Any]:
        """Roll a virtual die: it tumbles and lands on ``face`` (random when not given)."""
        die = self.die(die_id)
        if not die.paired:
            raise RuleError(f"pair {die.label} first: the rolls of a die nobody paired are not used")
        sides = {"d00": 10, "dF": 6}.get(die.kind) or die.sides or 6
        if face is None:
            face = self.rng.randint(1, sides)
            face = face * 10 - 10 if die.kind == "d00" else face
        elif isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise BadRequest(f"'face' must be a face of a {die.kind} (1-{sides})")
        self.rolling(die.id)
        self.landed(die.id, face)
        return die.to_dict()

    def drop(self, die_id: str) -> None:
        """The die goes out of reach (a test, or a player walking off with it)."""
        self.connection(die_id, "reconnecting")

    def back(self, die_id: str) -> None:
        self.connection(die_id, "connected")
