"""The table's smart dice, chosen from ``[dice] kind`` at start-up and wired to the table.

``auto`` (the default) means: simulated dice with ``serve --simulate``; Bluetooth when this
machine has an adapter and the 'dice' extra (bleak) is installed; otherwise none. With none,
nothing of ``device.smartdice`` is imported and the table is exactly as it was without dice.

``tableside serve`` opens them on the hardware thread, after its first answer (a phone joining
needs no dice); until then ``DiceStarting`` stands in and says so.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tableside.core.errors import NotFound, RuleError, TablesideError

log = logging.getLogger("tableside")


class SmartDice:
    """The hub (dice in reach and paired) and the feed (what waits for them), for the web and the e-paper."""

    def __init__(self, hub: Any, feed: Any) -> None:
        self.hub, self.feed = hub, feed
        self._seats: tuple[Any, list[str]] | None = None  # (table position, the game's seats)

    def status(self, seat: str | None = None) -> dict[str, Any]:
        """``GET /api/dice``: the dice, and what the table waits for as ``seat``'s phone may see it.

        A die whose last face went into another seat's private pool shows "rolled", not the face.
        """
        from tableside.device.smartdice.model import low_battery

        hub = self.hub.status()
        for d in hub["dice"]:
            if self.feed.hidden_from(d["id"], seat):
                d["last_face"], d["shows"] = None, "rolled"
            else:
                d["shows"] = "" if d["last_face"] is None else str(d["last_face"])
            d["low_battery"] = low_battery(d)
        seats = self.seats()
        for d in hub["dice"]:  # assigned in an earlier game to a seat this one does not have: pick again
            d["seat_gone"] = bool(seats) and d["seat"] is not None and d["seat"] not in seats
        return {**hub, **self.feed.status(seat)}

    def seats(self) -> list[str]:
        """The seats of the game on the table (none without one)."""
        table = self.feed.table
        position = table.position()  # read again only when the table moved
        if self._seats is None or self._seats[0] != position:
            try:
                names = [s["name"] for s in table.view().get("seats", []) if s.get("name")]
            except TablesideError:  # no game: any seat name goes, checked when a game names its seats
                names = []
            self._seats = (position, names)
        return self._seats[1]

    def check_seat(self, seat: Any) -> None:
        """A die is assigned to a seat of this game, or to anyone (null): a name no seat has is refused."""
        seats = self.seats()
        if isinstance(seat, str) and seats and seat not in seats:
            raise RuleError(f"{seat[:40]!r} is not a seat of this game: pick one of {', '.join(seats)}, or anyone")

    def hardware(self) -> dict[str, Any]:
        """The dice part of ``GET /api/hardware``: each paired die's connection and battery."""
        from tableside.device.smartdice.model import low_battery

        hub = self.hub.status()
        paired = [d for d in hub["dice"] if d["paired"]]
        return {
            "kind": hub["kind"],
            "note": hub["note"],
            "problem": hub["problem"],
            "dice": [
                {k: d[k] for k in ("id", "label", "family", "kind", "seat", "connection", "battery", "charging")}
                | {"low_battery": low_battery(d)}
                for d in paired
            ],
        }

    def close(self) -> None:
        self.hub.close()


class DiceStarting:
    """Stands in for the smart dice until the hardware thread has opened them (``opened``).

    Reads say "starting" at once (the dice page, ``/api/hardware``); a request that uses the dice
    waits for them, bounded (the moment after start when they are being opened), then is served by
    the dice that opened, or refused in words: still starting (503) or none after all (404).
    """

    note = "the smart dice are starting"

    def __init__(self, wait: float = 10.0) -> None:
        self.wait = wait
        self._open = threading.Event()
        self._dice: SmartDice | None = None

    def opened(self, dice: SmartDice | None) -> None:
        """The hardware thread opened the dice (None: none found, or opening failed)."""
        self._dice = dice
        self._open.set()

    def _opened(self) -> SmartDice:
        from tableside.hardware import StillStarting
        from tableside.webui.dice import no_dice

        if not self._open.wait(self.wait):
            raise StillStarting("the smart dice are starting: try again in a moment")
        if self._dice is None:
            raise NotFound(no_dice())
        return self._dice

    @property
    def hub(self) -> Any:
        return self._opened().hub

    @property
    def feed(self) -> Any:
        return self._opened().feed

    def check_seat(self, seat: Any) -> None:
        self._opened().check_seat(seat)

    def status(self, seat: str | None = None) -> dict[str, Any]:
        if self._dice is not None:  # a request that waited for the dice reads them
            return self._dice.status(seat)
        return {**self._starting(), "waiting": None, "free": [], "message": None}

    def hardware(self) -> dict[str, Any]:
        return self._dice.hardware() if self._dice is not None else self._starting()

    def _starting(self) -> dict[str, Any]:
        return {"kind": "starting", "note": self.note, "problem": None, "dice": []}

    def close(self) -> None:
        """Nothing was opened here (the dice that opened are closed by their owner)."""


def seat_colours(table: Any) -> dict[str, int]:
    """Each seat's colour in the game on the table (``core.screen.PLAYER_INKS`` index), for the dice's blinks."""
    from tableside.core import privacy

    position = table.position()
    row = next((r for r in table.sessions() if position and r["id"] == position[0]), None)
    state = table.current_state()
    if row is None or state is None:
        return {}
    system = table.system_of(row)
    return dict(system.seat_colours(privacy.state(system, state, None)))


def open_dice(
    cfg: Any,
    simulate: bool,
    folder: Path,
    table: Any,
    *,
    on_change: Callable[[], None],
    on_wait_change: Callable[[], None],
    report: Callable[[str], None],
    root: Path = Path("/"),
) -> tuple[SmartDice | None, str]:
    """The smart dice this table uses, and a line saying which (or why none)."""
    kind = cfg.dice
    if kind == "none":
        return None, "off ([dice] kind = none)"
    if kind == "auto":
        if simulate:
            kind = "simulated"
        else:
            from tableside.device.smartdice.adapter import adapters, bleak_installed

            if not adapters(root):
                return None, "none (no Bluetooth adapter)"
            if not bleak_installed():
                return None, "none (Bluetooth is there but the 'dice' extra is not installed)"
            kind = "bluetooth"
    from tableside.device.smartdice.registry import Registry
    from tableside.dice_feed import DiceFeed

    registry = Registry(folder / "dice.json")
    feed = DiceFeed(table, on_change=on_wait_change)
    hooks = {"on_roll": feed.landed, "on_word": feed.said, "on_change": on_change, "report": report}
    if kind == "simulated":
        from tableside.device.smartdice.simulated import DEFAULT_SET, SimulatedDice

        hub: Any = SimulatedDice(registry, cfg.dice_simulated or DEFAULT_SET, **hooks)
    else:
        from tableside.device.smartdice.ble import BluetoothDice

        hub = BluetoothDice(registry, adapter=cfg.dice_adapter, **hooks)
    hub.seat_colours = lambda: seat_colours(table)
    hub.private_face = lambda die_id: feed.hidden_from(die_id, None)
    paired = sum(1 for d in hub.dice.values() if d.paired)
    return SmartDice(hub, feed), f"{hub.note}; {paired} paired"
