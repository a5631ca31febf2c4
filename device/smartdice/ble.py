"""Smart dice over Bluetooth Low Energy: bleak (BlueZ over D-Bus on a Pi) on a thread of its own.

bleak is asyncio; the table is threads. One event loop runs here for every die: a scan is a
coroutine the web request waits for (bounded), each paired die has a task that connects it,
waits until it drops out, and connects it again with a growing pause. What a die reports
goes to the hub (``hub.py``), which the table reads from any thread.

bleak is imported only inside the loop's coroutines (``serve`` builds this class only when
``[dice] kind`` asks for Bluetooth): ``import tableside.core`` and a table without dice never load it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from tableside.core.errors import RuleError
from tableside.device.smartdice import godice as godice_family
from tableside.device.smartdice import pixels
from tableside.device.smartdice.hub import DiceHub, seat_colour
from tableside.device.smartdice.model import DieState

log = logging.getLogger("tableside")

SCAN_LIMIT = 15.0  # seconds a scan may take, at most
CONNECT_TIMEOUT = 15.0
RETRY_FIRST, RETRY_MOST = 1.0, 30.0  # the pause before reconnecting doubles up to RETRY_MOST


def classify(address: str, name: str | None, adv: Any) -> DieState | None:
    """A Bluetooth device in reach as a die (GoDice by its name, Pixels by either service), else None.

    A Pixels die advertises 0x180A and (in its scan response) its message service, a6b90001-... on
    2025 firmware or 6e400001-... before; its manufacturer data comes under company 0x0D39 (0xFFFF
    before 2024-09-30) and its pixel id and build date as service data under 0x180A (pixels.py).
    """
    rssi = getattr(adv, "rssi", None)
    if godice_family.is_godice(name):
        return DieState(address, "godice", "d6", advertised=str(name), rssi=rssi)
    uuids = [u.lower() for u in (getattr(adv, "service_uuids", None) or [])]
    service = next((u for u in pixels.SERVICES if u in uuids), None)
    if service is None:
        return None
    die = DieState(address, "pixels", "unknown", advertised=str(name or ""), rssi=rssi)
    die.extra["service"] = service
    info = {k.lower(): v for k, v in (getattr(adv, "service_data", None) or {}).items()}.get(pixels.INFO_SERVICE)
    makers = getattr(adv, "manufacturer_data", None) or {}
    for company in sorted(makers, key=lambda c: c not in pixels.COMPANY_IDS):
        try:
            advert = pixels.decode_advert(bytes(makers[company]), bytes(info) if info else None)
        except pixels.PixelsError:
            continue
        die.kind = advert.kind if advert.kind != "unknown" else die.kind
        die.colour = advert.colour
        die.battery, die.charging = advert.battery, advert.charging
        if advert.build_timestamp:
            die.extra["built"] = advert.build_timestamp
        break
    return die


class BluetoothDice(DiceHub):
    """Pixels and GoDice dice through bleak; ``client_factory``/``scanner`` stand in for bleak in tests."""

    kind = "bluetooth"

    def __init__(
        self,
        registry: Any,
        *,
        adapter: str | None = None,
        client_factory: Callable[..., Any] | None = None,
        scanner: Any = None,
        retry_first: float = RETRY_FIRST,
        **kw: Any,
    ) -> None:
        super().__init__(registry, **kw)
        self.adapter = adapter
        self.client_factory, self.scanner = client_factory, scanner
        self.retry_first = retry_first
        self.note = "Bluetooth: scan from the dice page to find dice in reach"
        self.links: dict[str, Any] = {}
        self.found: dict[str, Any] = {}  # address -> the BLEDevice of the last scan (connects without scanning again)
        self._tasks: dict[str, asyncio.Task] = {}
        self._closing = False
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="smart-dice", daemon=True)
        self._thread.start()
        for die in list(self.dice.values()):  # paired in an earlier run: reconnect them quietly
            self._connect(die)

    # -- the loop ---------------------------------------------------------------------------------
    def _call(self, coro: Any, timeout: float) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self._closing = True
        if self.loop.is_closed():
            return

        async def stop_all() -> None:
            tasks = list(self._tasks.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            self._call(stop_all(), 10)
        except Exception:
            log.exception("letting go of the smart dice failed")
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()

    # -- finding dice -------------------------------------------------------------------------------
    def _scan(self, seconds: float) -> None:
        seconds = max(1.0, min(float(seconds), SCAN_LIMIT))
        try:
            found = self._call(self._discover(seconds), seconds + 10)
        except Exception as exc:
            log.warning("Bluetooth scan failed: %s", exc)
            raise RuleError(f"the Bluetooth scan failed: {exc}; run 'tableside doctor'") from exc
        for address, (device, adv) in found.items():
            die = classify(address, getattr(adv, "local_name", None) or getattr(device, "name", None), adv)
            if die is not None:
                self.found[address] = device
                self.seen(die)

    async def _discover(self, seconds: float) -> dict:
        scanner = self.scanner
        if scanner is None:
            from bleak import BleakScanner

            scanner = BleakScanner
        kw = {"bluez": {"adapter": self.adapter}} if self.adapter else {}
        return await scanner.discover(timeout=seconds, return_adv=True, **kw)

    # -- keeping paired dice connected ------------------------------------------------------------
    def _connect(self, die: DieState) -> None:
        def start() -> None:
            if die.id not in self._tasks and not self._closing:
                self._tasks[die.id] = self.loop.create_task(self._keep(die))

        self.loop.call_soon_threadsafe(start)

    def _disconnect(self, die: DieState) -> None:
        def stop() -> None:
            task = self._tasks.pop(die.id, None)
            if task is not None:
                task.cancel()

        self.loop.call_soon_threadsafe(stop)
        with self._lock:
            die.connection = "in reach"

    def _signal(self, die: DieState, outcome: str) -> None:
        """Blink the die (Pixels Blink, GoDice LED pulses) from the dice loop; a die not connected cannot."""
        link = self.links.get(die.id)
        if link is None or self.loop.is_closed():
            return
        colour = seat_colour(self.seat_colours, die.seat)

        async def show() -> None:
            try:
                await asyncio.wait_for(link.signal(outcome, colour), 5)
            except Exception as exc:  # out of reach just now: the roll itself is not affected
                log.info("smart die %s: could not blink (%s): %s", die.label, outcome, exc)

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(show()))

    def _reshell(self, die: DieState) -> None:
        link = self.links.get(die.id)
        if isinstance(link, godice_family.GoDiceLink):
            self.loop.call_soon_threadsafe(link.set_kind, die.kind)

    async def _keep(self, die: DieState) -> None:
        """Connect, wait for the die to drop out, connect again: quietly, until it is forgotten."""
        pause = self.retry_first
        first = True
        while die.paired and not self._closing:
            self.connection(die.id, "connecting" if first else "reconnecting")
            first = False
            dropped = asyncio.Event()
            client = None
            try:
                # bleak calls this on its loop; call_soon_threadsafe is right from any thread.
                client = self._client(die.id, lambda _c, ev=dropped: self.loop.call_soon_threadsafe(ev.set))
                link = self._link(die, client)
                if die.family == "pixels":
                    await asyncio.wait_for(client.connect(), CONNECT_TIMEOUT)
                await asyncio.wait_for(link.start(), CONNECT_TIMEOUT + godice_family.ANSWER_WITHIN * 2)
                self.links[die.id] = link
                self.connection(die.id, "connected")
                pause = self.retry_first
                await dropped.wait()
                log.info("smart die %s dropped out: reconnecting", die.label)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # out of reach, switched off, BlueZ busy: try again later
                log.info("smart die %s: %s: %s", die.label, type(exc).__name__, exc)
            finally:
                gone = self.links.pop(die.id, None)
                if gone is not None:
                    await gone.stop()
                if client is not None:
                    with contextlib.suppress(Exception):  # already gone
                        await asyncio.wait_for(client.disconnect(), 5)
            self.connection(die.id, "reconnecting")
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MOST)

    def _client(self, address: str, on_drop: Callable[[Any], None]) -> Any:
        factory = self.client_factory
        if factory is None:
            from bleak import BleakClient

            factory = BleakClient
        kw = {"bluez": {"adapter": self.adapter}} if self.adapter else {}
        # The device a scan found, else its address (after a restart): bleak then looks for it first.
        target = self.found.get(address, address)
        return factory(target, disconnected_callback=on_drop, timeout=CONNECT_TIMEOUT, **kw)

    def _link(self, die: DieState, client: Any) -> Any:
        if die.family == "godice":
            return godice_family.GoDiceLink(client, die.id, self, die.kind)
        return pixels.PixelsLink(client, die.id, self, die.kind)
