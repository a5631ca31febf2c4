"""The Bluetooth hub end to end: scan, pair, connect, roll into the waiting action, drop out, come back.

bleak is replaced at its own interface (``BleakScanner.discover(return_adv=True)`` and a
``BleakClient`` with ``connect``, ``disconnect``, ``start_notify``, ``write_gatt_char``,
``services`` and the ``disconnected_callback``), not deeper: the hub, the Pixels and GoDice
links (godice's own code) and the dice feed all run as they do on a Pi. The same path through
bleak itself against a mocked BlueZ is ``test_smartdice_bluezoo.py``.
"""

from __future__ import annotations

import asyncio
import random
import struct
import threading
import time
from types import SimpleNamespace

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.smartdice import pixels
from tableside.device.smartdice.ble import BluetoothDice, classify
from tableside.device.smartdice.registry import Registry

from tableside.dice_feed import DiceFeed
from tests.test_smartdice_protocol import StandInClient, i_am_a_die

PIXELS_D10 = "C0:FF:EE:00:00:10"
GODICE = "C0:FF:EE:00:00:06"


def advert(name, uuids=(), manufacturer=None, service=None, rssi=-50, company=0xFFFF):
    """As bleak reports a Pixels advert: DiceFirmware bluetooth_stack.cpp puts the pixel id and build
    date as service data under 0x180A and the manufacturer data under its company id."""
    return SimpleNamespace(
        local_name=name,
        service_uuids=list(uuids),
        manufacturer_data={company: manufacturer} if manufacturer else {},
        service_data={pixels.INFO_SERVICE: service} if service else {},
        rssi=rssi,
    )


class Scanner:
    """BleakScanner.discover(timeout, return_adv=True): address -> (device, advertisement data)."""

    found = {
        PIXELS_D10: (
            SimpleNamespace(name="Red Pixel", address=PIXELS_D10),
            advert(
                "Red Pixel",
                [pixels.INFO_SERVICE, pixels.LEGACY_SERVICE],
                bytes([10, 4 << 4 | 1, 5, 0, 90]),
                struct.pack("<II", 7, 1_730_985_407),
            ),
        ),
        GODICE: (SimpleNamespace(name=None, address=GODICE), advert("GoDice_0A1B2C_K_v04", [])),
        "C0:FF:EE:00:00:99": (SimpleNamespace(name="Headphones"), advert("Headphones", ["0000110b-0000"])),
    }

    @classmethod
    async def discover(cls, timeout, return_adv):
        assert return_adv is True and 0 < timeout <= 15
        return dict(cls.found)


class Clients:
    """A BleakClient factory that remembers each client it made, so a test can play the die."""

    def __init__(self):
        self.made: dict[str, list] = {}
        self.refuse: set[str] = set()

    def __call__(self, device, disconnected_callback=None, timeout=None, **kw):
        address = getattr(device, "address", device)  # a BLEDevice from the scan, or an address after a restart
        answers = {bytes([23]): b"Col\x02", bytes([3]): b"Bat\x33"} if address == GODICE else {}
        client = StandInClient(answers)
        client.address, client.on_drop, client.loop = address, disconnected_callback, None
        refuse = address in self.refuse

        async def connect(**kw):
            if refuse:
                raise TimeoutError(f"{address} is out of reach")
            client.connected, client.loop = True, asyncio.get_running_loop()

        client.connect = connect
        self.made.setdefault(address, []).append(client)
        return client

    def send(self, address, data):
        client = self.made[address][-1]
        asyncio.run_coroutine_threadsafe(client.send(data), client.loop).result(5)

    def drop(self, address):
        client = self.made[address][-1]
        client.loop.call_soon_threadsafe(client.on_drop, client)


def until(check, what, seconds=5.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def rig(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1))
    feed = DiceFeed(table)
    clients = Clients()
    now = [0.0]
    reports = []
    hub = BluetoothDice(
        Registry(tmp_path / "dice.json"),
        client_factory=clients,
        scanner=Scanner,
        retry_first=0.01,
        on_roll=feed.landed,
        on_word=feed.said,
        report=reports.append,
        clock=lambda: now[0],
    )
    yield SimpleNamespace(table=table, feed=feed, clients=clients, hub=hub, now=now, reports=reports, tmp=tmp_path)
    hub.close()
    table.store.close()


def test_a_scan_lists_dice_in_reach_with_kind_colour_and_battery(rig):
    dice = {d["id"]: d for d in rig.hub.scan(2)["dice"]}
    assert set(dice) == {PIXELS_D10, GODICE}  # the headphones are no die
    assert (dice[PIXELS_D10]["family"], dice[PIXELS_D10]["kind"], dice[PIXELS_D10]["battery"]) == ("pixels", "d10", 90)
    assert dice[PIXELS_D10]["colour"] == "onyx black" and dice[PIXELS_D10]["paired"] is False
    assert (dice[GODICE]["family"], dice[GODICE]["kind"]) == ("godice", "d6")


def test_paired_dice_roll_into_a_vnm_attack_and_a_drop_out_is_reconnected_quietly(rig):
    rig.hub.scan(2)
    rig.hub.pair(PIXELS_D10, name="Red d10")
    rig.hub.pair(GODICE, name="Green GoDice", kind="d10")  # it wears its d10 shell
    until(lambda: all(d.connection == "connected" for d in rig.hub.dice.values()), "both dice connected")
    assert rig.clients.made[PIXELS_D10][-1].written == [(pixels.WRITE, b"\x01")]  # WhoAreYou
    rig.clients.send(PIXELS_D10, i_am_a_die(4, 10, colourway=2, level=77))
    until(lambda: rig.hub.dice[PIXELS_D10].battery == 77, "the Pixels identity")
    assert rig.hub.dice[GODICE].colour == "green" and rig.hub.dice[GODICE].battery == 0x33

    rig.table.create_session("vnm", {})
    rig.table.act({"type": "declare_target", "target": "Mars"})
    rig.feed.wait({"type": "attack"})
    rig.clients.send(PIXELS_D10, bytes([pixels.ROLL_STATE, 1, 0]))  # the d10's 0: 10
    rig.clients.send(GODICE, b"S" + struct.pack(">bbb", -64, 0, -22))  # the d10 shell's 8
    until(lambda: rig.feed.status()["waiting"] is None, "the attack to run")
    entry = rig.table.log()[-1]
    assert entry["source"] == "dice" and entry["rolls"][0]["rolls"] == [10, 8]
    assert entry["rolls"][0]["dice"] == ["Red d10", "Green GoDice"]

    rig.clients.drop(PIXELS_D10)  # out of reach for a moment: reconnected, nobody told
    until(lambda: len(rig.clients.made[PIXELS_D10]) == 2, "a second connection")
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "connected", "the die back")
    assert rig.reports == []


def test_a_roll_made_while_a_die_was_out_of_reach_is_said_when_it_comes_back(rig):
    rig.hub.scan(2)
    rig.hub.pair(PIXELS_D10, name="Red d10")
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "connected", "connected")
    rig.clients.send(PIXELS_D10, i_am_a_die(4, 10, face=2))  # on its 2 (a d10 reads its index)
    rig.clients.send(PIXELS_D10, bytes([pixels.ROLL_STATE, 3, 2]))
    rig.clients.send(PIXELS_D10, bytes([pixels.ROLL_STATE, 1, 4]))  # rolled a 4: a free roll
    until(lambda: rig.hub.dice[PIXELS_D10].last_face == 4, "the 4")
    rig.clients.drop(PIXELS_D10)
    until(lambda: len(rig.clients.made[PIXELS_D10]) == 2, "a second connection")
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "connected", "the die back")
    rig.clients.send(PIXELS_D10, i_am_a_die(4, 10, face=6))  # it shows 6 now: rolled while away
    words = "Red d10 came back showing 6: a roll made while it was out of reach was not used, roll it again"
    until(lambda: rig.feed.status()["message"] == words, "the lost roll said")
    assert rig.hub.dice[PIXELS_D10].last_face == 4  # not taken as a roll


def test_a_die_that_stays_away_is_reported_and_its_return_too(rig):
    rig.hub.scan(2)
    rig.hub.pair(PIXELS_D10, name="Red d10")
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "connected", "connected")
    rig.clients.refuse.add(PIXELS_D10)
    rig.clients.drop(PIXELS_D10)
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "reconnecting", "reconnecting")
    rig.now[0] += 31  # half a minute later, still away: the next failed reconnection says so
    until(lambda: rig.reports, "the report")
    assert rig.reports == ["Red d10 is out of reach (away 31 s): bring it closer"]
    assert rig.hub.status()["dice"][0]["connection"] == "away"
    rig.clients.refuse.clear()
    until(lambda: rig.hub.dice[PIXELS_D10].connection == "connected", "back", seconds=10)
    assert rig.reports[-1] == "Red d10 is back"


def test_paired_dice_are_reconnected_after_a_restart(rig):
    rig.hub.scan(2)
    rig.hub.pair(PIXELS_D10, name="Red d10", seat="Ann")
    rig.hub.close()
    clients = Clients()
    again = BluetoothDice(Registry(rig.tmp / "dice.json"), client_factory=clients, scanner=Scanner, retry_first=0.01)
    try:
        until(lambda: again.dice[PIXELS_D10].connection == "connected", "reconnected without a scan")
        die = again.dice[PIXELS_D10]
        assert (die.name, die.seat, die.family, die.kind) == ("Red d10", "Ann", "pixels", "d10")
    finally:
        again.close()


@pytest.mark.parametrize(
    "uuids, company",
    [
        ([pixels.INFO_SERVICE, "a6b90001-7a5a-43f2-a962-350c8edc9b5b"], 0x0D39),  # DiceFirmware main, 2025
        ([pixels.INFO_SERVICE, "6e400001-b5a3-f393-e0a9-e50e24dcca9e"], 0xFFFF),  # v2024-11-07 and before
    ],
)
def test_classify_finds_both_pixels_service_generations_with_kind_and_colour(uuids, company):
    die = classify(
        "A", "PXL", advert("PXL", uuids, bytes([6, 1 << 4 | 2, 5, 0, 44]), struct.pack("<II", 9, 5), company=company)
    )
    assert (die.family, die.kind, die.colour, die.battery) == ("pixels", "d4", "hematite grey", 44)
    assert die.extra["service"] == uuids[1] and die.extra["built"] == 5


def test_classify_ignores_a_pixels_advert_it_cannot_read():
    die = classify("A", "PXL", advert("PXL", [pixels.SERVICE], bytes([1, 2])))
    assert (die.family, die.kind) == ("pixels", "unknown")


def test_closing_stops_the_dice_thread(rig):
    rig.hub.close()
    assert not any(t.name == "smart-dice" and t.is_alive() for t in threading.enumerate() if t is rig.hub._thread)
