"""What every family of smart die reports, in one shape: who it is, what it shows, its battery.

A die's *kind* is the face set printed on it ("d6", "d10", ...); ``sides`` is what a roll of
the game asks for (``2d10`` wants dice with 10 sides). A d00 (tens) or a Fudge die has no
``sides``: no numbered roll takes its faces, so it is refused in words.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS: dict[str, int | None] = {
    "d4": 4,
    "d6": 6,
    "d8": 8,
    "d10": 10,
    "d00": None,  # 00, 10, ... 90: the tens of a d100, not a d10
    "d12": 12,
    "d20": 20,
    "dF": None,  # Fudge: -, blank, +
}


LOW_BATTERY = 15  # percent: below it the phones and the doctor say so


def low_battery(die: dict[str, Any]) -> bool:
    """A die (as ``DieState.to_dict`` lists it) whose battery is below ``LOW_BATTERY`` and not charging."""
    return die.get("battery") is not None and die["battery"] < LOW_BATTERY and not die.get("charging")


def sides_of(kind: str) -> int | None:
    """The sides a numbered roll needs from this kind of die, or None if no roll takes it."""
    return KINDS.get(kind)


@dataclass
class DieState:
    """One die as the table knows it: identity from the die, name and seat from the players."""

    id: str  # the Bluetooth address (or "sim-N" for a simulated die)
    family: str  # "pixels" | "godice" | "simulated"
    kind: str  # a key of KINDS
    colour: str = ""
    advertised: str = ""  # the name the die advertises
    name: str = ""  # the name players gave it ("" until paired)
    seat: str | None = None
    battery: int | None = None  # percent
    charging: bool = False
    rssi: int | None = None
    paired: bool = False
    connection: str = "in reach"  # "in reach" | "connecting" | "connected" | "away" | "reconnecting"
    away_since: float | None = None
    last_face: int | None = None
    rolling: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def sides(self) -> int | None:
        return sides_of(self.kind)

    @property
    def label(self) -> str:
        return self.name or self.advertised or self.id

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("extra")
        out["label"] = self.label
        out["sides"] = sides_of(self.kind)
        return out
