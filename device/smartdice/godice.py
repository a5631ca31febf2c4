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
ANSWER_WITHIN = 5.0  # seconds the connection waits for the colour and battery answers (late ones still count)
BATTERY_EVERY = 300.0  # seconds between battery readings while connected (the level falls as the die is used)
# godice.Color / GoDiceJavaScriptAPI diceColour: the colour byte of "Col".
COLOURS = {0: "black", 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange"}
# What godice hands to the application without a face (dice.py _handle_upd; GoDiceJavaScriptAPI
# godice.js parseMessage: onTiltStable, onFakeStable, onMoveStable), said to the players.
NOT_A_ROLL = {
    "TILT_STABLE": "is tilted (leaning on something): roll it again on the flat table",
    "FAKE_STABLE": "was set down by hand, not rolled: roll it",
    "MOVE_STABLE": "was moved after it landed: roll it again",
}
TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # godice Dice.connect: the die's write characteristic
LED_SET, LED_PULSE = 8, 16  # godice Dice.set_led / pulse_led (GoDiceJavaScriptAPI messageIdentifiers)


def is_godice(name: str | None) -> bool:
    """GoDice advertise a name starting "GoDice" (godice's demo ``filter_godice_devices``; the JS API's
    ``namePrefix: 'GoDice_'``)."""
    return bool(name) and str(name).startswith(NAME_PREFIX)


def face_of(kind: str, value: int) -> int:
    """The face printed on the die for the number godice reports (a d10's 0 is its 10 face)."""
    if kind == "d10" and value == 0:
        return 10
    return int(value)


def rgb(colour: int) -> tuple[int, int, int]:
    return (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF


class _Sieve:
    """The bleak client as godice sees it, with the die's notifications read first here.

    godice leaves "Char" (charging) to the application and raises on a "Col" byte it has no colour
    for (``Color(data[3])``): both are answered here, the rest goes on to godice unchanged.
    """

    def __init__(self, client: Any, link: GoDiceLink) -> None:
        self._client, self._link = client, link

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def start_notify(self, char: Any, callback: Any, **kw: Any) -> None:
        async def sieve(sender: Any, data: bytearray) -> None:
            if self._link.heard(bytes(data)):
                await callback(sender, data)

        await self._client.start_notify(char, sieve, **kw)


class GoDiceLink:
    """One connected GoDice: ``godice.Dice`` over a bleak client, reporting into the hub."""

    def __init__(self, client: Any, die_id: str, hub: Any, kind: str = "d6") -> None:
        self.client, self.die_id, self.hub = client, die_id, hub
        self.kind = kind if kind in SHELLS else "d6"
        self.dice: Any = None
        self._answers: asyncio.Task | None = None

    async def start(self) -> None:
        """Connect through godice and subscribe to numbers; the colour and the battery are asked then,
        and read whenever they come: a die that answers late (or not at all) is still connected."""
        import godice

        self.dice = godice.Dice(_Sieve(self.client, self))
        godice.set_shell(self.dice, godice.Shell[SHELLS[self.kind]])
        await self.dice.subscribe_number_notification(self.on_number)
        await self.dice.connect()
        answered = asyncio.Event()
        self._answers = asyncio.get_running_loop().create_task(self._ask(answered))
        try:
            await asyncio.wait_for(answered.wait(), ANSWER_WITHIN)
        except TimeoutError:
            log.info("GoDice %s has not said its colour and battery yet: connected without them", self.die_id)

    async def _ask(self, answered: asyncio.Event) -> None:
        """The colour once, then the battery now and every ``BATTERY_EVERY`` seconds while connected."""
        try:
            await self.client.write_gatt_char(TX, bytearray([23]))  # godice Dice._fetch_color's request
            while True:
                level = await self.dice.get_battery_level()
                self.hub.battery(self.die_id, int(level), False)
                answered.set()
                await asyncio.sleep(BATTERY_EVERY)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the die dropped out: the connection's own task reconnects it
            log.info("GoDice %s: stopped asking its battery: %s", self.die_id, exc)

    def heard(self, data: bytes) -> bool:
        """A notification before godice reads it: False when it is answered here."""
        if data[:3] == b"Col" and len(data) >= 4:
            self.hub.identify(self.die_id, colour=COLOURS.get(data[3], f"colour {data[3]}"))
            return False
        if data[:4] == b"Char":
            self.hub.battery(self.die_id, None, True)
            return False
        return True

    async def stop(self) -> None:
        if self._answers is not None:
            self._answers.cancel()

    def set_kind(self, kind: str) -> None:
        """The die now wears another shell: its positions mean other numbers."""
        import godice

        self.kind = kind
        if self.dice is not None:
            godice.set_shell(self.dice, godice.Shell[SHELLS[kind]])

    async def signal(self, outcome: str, colour: int) -> None:
        """Taken: one long pulse in the seat's colour; refused or ignored: three short red ones;
        identify: five white ones (godice ``pulse_led``: count, on and off time in 10 ms units, RGB)."""
        count, on, off, shown = {"taken": (1, 60, 10, colour), "identify": (5, 20, 20, 0xFFFFFF)}.get(
            outcome, (3, 10, 10, 0xFF0000)
        )
        await self.dice.pulse_led(count, on, off, rgb(shown))

    async def on_number(self, value: int, stability: Any) -> None:
        """godice's callback: ROLLING while it tumbles, STABLE when it came to rest on a face.

        A tilted, moved or "fake" stable (the die slid or was turned by hand) is not a roll: said so.
        """
        name = getattr(stability, "name", None)
        if name == "ROLLING":
            self.hub.rolling(self.die_id)
        elif name == "STABLE":
            self.hub.landed(self.die_id, face_of(self.kind, value))
        elif name in NOT_A_ROLL:
            self.hub.said(self.die_id, NOT_A_ROLL[name])
        else:
            self.hub.unreadable(self.die_id, f"a stable message godice could not name ({stability!r})")
