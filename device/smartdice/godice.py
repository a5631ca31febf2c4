"""GoDice through Particula's own Python API (``godice`` on PyPI, built on bleak).

The library decodes the die's messages (rolling, stable with its x/y/z, battery "Bat", colour
"Col") and turns a position into a number for the shell the die wears; Tableside only says
which shell (a GoDice is a d6 until a player says it wears a d10 shell) and maps the library's
answers onto the table's dice: its d10 shell reports 0-9, and that 0 is the 10 face.

``godice`` is imported inside the link, never at module level.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("tableside")

NAME_PREFIX = "GoDice"
# Tableside's kind -> godice.Shell member (godice/factory.py: D6, D20, D10, D10X, D4, D8, D12).
SHELLS = {"d6": "D6", "d20": "D20", "d10": "D10", "d00": "D10X", "d4": "D4", "d8": "D8", "d12": "D12"}
ANSWER_WITHIN = 5.0  # seconds for the colour and battery answers after connecting


def is_godice(name: str | None) -> bool:
    """GoDice advertise a name starting "GoDice" (godice's own demo, ``filter_godice_devices``, finds them so)."""
    return bool(name) and str(name).startswith(NAME_PREFIX)


def face_of(kind: str, value: int) -> int:
    """The face printed on the die for the number godice reports (a d10's 0 is its 10 face)."""
    if kind == "d10" and value == 0:
        return 10
    return int(value)


class GoDiceLink:
    """One connected GoDice: ``godice.Dice`` over a bleak client, reporting into the hub."""

    def __init__(self, client: Any, die_id: str, hub: Any, kind: str = "d6") -> None:
        self.client, self.die_id, self.hub = client, die_id, hub
        self.kind = kind if kind in SHELLS else "d6"
        self.dice: Any = None

    async def start(self) -> None:
        """Connect through godice, subscribe to numbers, then ask the colour and the battery."""
        import godice

        self.dice = godice.Dice(self.client)
        godice.set_shell(self.dice, godice.Shell[SHELLS[self.kind]])
        await self.dice.subscribe_number_notification(self.on_number)
        await self.dice.connect()
        colour = await asyncio.wait_for(self.dice.get_color(), ANSWER_WITHIN)
        self.hub.identify(self.die_id, colour=colour.name.lower())
        level = await asyncio.wait_for(self.dice.get_battery_level(), ANSWER_WITHIN)
        self.hub.battery(self.die_id, int(level), False)

    def set_kind(self, kind: str) -> None:
        """The die now wears another shell: its positions mean other numbers."""
        import godice

        self.kind = kind
        if self.dice is not None:
            godice.set_shell(self.dice, godice.Shell[SHELLS[kind]])

    async def on_number(self, value: int, stability: Any) -> None:
        """godice's callback: ROLLING while it tumbles, STABLE when it came to rest on a face.

        A tilted, moved or "fake" stable (the die slid or was turned by hand) is not a roll.
        """
        name = getattr(stability, "name", None)
        if name == "ROLLING":
            self.hub.rolling(self.die_id)
        elif name == "STABLE":
            self.hub.landed(self.die_id, face_of(self.kind, value))
