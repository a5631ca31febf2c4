"""Smart dice played by BlueZoo's adapters: BLE peripherals on the mocked BlueZ, as each firmware is.

``python bluezoo_die.py --writes FILE SPEC [SPEC ...]`` plays one die per SPEC, each on its own
BlueZoo adapter, in one process, on the private bus it is given (``DBUS_SYSTEM_BUS_ADDRESS``);
``tests/test_smartdice_bluezoo.py`` starts it. A SPEC is ``family,key=value,...``:

- ``pixels,hci=/org/bluez/hci1,type=d4,firmware=v2024-11-07``: a Pixels die of that type
  (pixels-js ``PixelDieTypeValues`` name) on that firmware (``FIRMWARE`` below);
- ``godice,hci=/org/bluez/hci9,colour=2,answers=late``: a GoDice; ``answers=late`` says its
  colour and battery only when told (``N answer`` on stdin), as a die busy or far off does.

Each die advertises and serves its GATT service through BlueZ's own peripheral API
(``GattManager1.RegisterApplication``, ``LEAdvertisingManager1.RegisterAdvertisement``) as BlueZoo
implements it, and appends every write a central makes to it to FILE as ``N HEX`` (the Blink and
LED commands a test checks). It prints ``ready`` once all are registered and ``done CMD`` after
each stdin line ``N CMD ARGS`` (N: the die's place among the SPECs) it played:

Pixels (the sources of ``device/smartdice/pixels.py``: DiceFirmware @ 4daf005 and its release tags,
pixels-js @ 3fa3c1a): ``roll INDEX`` sends RollState rolling (3) then rolled (1) on that face
index; ``handle INDEX`` handling (2) then 1; ``crooked INDEX`` rolling then crooked (4); ``onface
INDEX`` onFace (5, firmware from v2024-11-07 only: a die moved without a roll); ``frame INDEX``
a lone rolled frame (no movement before it). WhoAreYou (1) is answered with IAmADie, the 22-byte
legacy one where the firmware defines ``LEGACY_IMADIE_MESSAGE`` (both tags) or the chunked one
(main); Blink (29) with BlinkAck (30).

GoDice (godice 0.1.2 ``godice/dice.py``; GoDiceJavaScriptAPI @ 1a0cc90 ``godice.js``): named
"GoDice_..." on the Nordic UART service; the colour request (23) is answered "Col" + colour, the
battery request (3) "Bat" + level (falling by one each time it is asked); ``stable X Y Z`` sends
"R" then "S" + x, y, z (signed bytes), ``tilt X Y Z`` "R" then "TS" + x, y, z.
"""

from __future__ import annotations

import asyncio
import struct
import sys
from pathlib import Path
from typing import Any

import sdbus
from bluezoo.interfaces.GattManager import GattManagerInterface
from bluezoo.interfaces.GattService import GattServiceInterface
from bluezoo.interfaces.LEAdvertisingManager import LEAdvertisingManagerInterface

INFO = "0000180a-0000-1000-8000-00805f9b34fb"  # Device Information: the advert's 16-bit UUID and service data
LEGACY = (
    "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
)
NEW = (
    "a6b90001-7a5a-43f2-a962-350c8edc9b5b",
    "a6b90002-7a5a-43f2-a962-350c8edc9b5b",
    "a6b90003-7a5a-43f2-a962-350c8edc9b5b",
)
UART = (
    "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    "6e400003-b5a3-f393-e0a9-e50e24dcca9e",
    "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
)

# DiceFirmware, per release: (service, notify, write), company id, build timestamp (the tag's commit
# time), chunked IAmADie. Up to v2024-11-07: bluetooth_message_service.h 6e400001, company 0xFFFF
# ("temporary"), bluetooth_messages.h LEGACY_IMADIE_MESSAGE 1. main @ 4daf005 (2025-07-24): a6b90001
# (commit 571e0ce), company 0x0D39, the chunked IAmADie.
FIRMWARE = {
    "v2023-12-22": (LEGACY, 0xFFFF, 1_703_266_107, False),  # tag v2023-12-22-app-v2.0 @ 717b3cb: bad normals
    "v2024-11-07": (LEGACY, 0xFFFF, 1_730_985_471, False),  # tag v2024-11-07 @ 0a68f6e
    "2025-07-24": (NEW, 0x0D39, 1_753_397_212, True),  # main @ 4daf005
}
# pixels-js PixelDieTypeValues and DiceUtils.getLEDCount.
DIE_TYPES = {"d4": (1, 6), "d6": (2, 6), "d8": (3, 8), "d10": (4, 10), "d00": (5, 10), "d12": (6, 12)}
DIE_TYPES |= {"d20": (7, 20), "d6pipped": (8, 21), "d6fudge": (9, 6)}
COLOURWAY = 4  # aurora sky
PIXEL_ID = 0x00C0FFEE
BATTERY = 66


class Service(GattServiceInterface):
    def __init__(self, uuid: str) -> None:
        super().__init__()
        self.uuid = uuid

    @sdbus.dbus_property_async_override()
    def UUID(self) -> str:
        return self.uuid

    @sdbus.dbus_property_async_override()
    def Primary(self) -> bool:
        return True

    @sdbus.dbus_property_async_override()
    def Device(self) -> str:
        return "/"

    @sdbus.dbus_property_async_override()
    def Includes(self) -> list[str]:
        return []

    @sdbus.dbus_property_async_override()
    def Handle(self) -> int:
        return 0

    @Handle.setter
    def Handle_setter(self, value: int) -> None:
        pass


class Characteristic(sdbus.DbusInterfaceCommonAsync, interface_name="org.bluez.GattCharacteristic1"):
    """BlueZ's GattCharacteristic1 as a peripheral serves it, without NotifyAcquired/WriteAcquired: notifications
    go as PropertiesChanged on Value, writes come as WriteValue (BlueZoo's interface class has every member)."""

    def __init__(self, uuid: str, flags: list[str], service: str, on_write: Any = None) -> None:
        super().__init__()
        self.uuid, self.flags, self.service, self.on_write = uuid, flags, service, on_write
        self.value = b""
        self.handle = 0

    @sdbus.dbus_method_async(input_signature="a{sv}", result_signature="ay", flags=sdbus.DbusUnprivilegedFlag)
    async def ReadValue(self, options: dict[str, tuple[str, Any]]) -> bytes:
        return self.value

    @sdbus.dbus_method_async(input_signature="aya{sv}", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def WriteValue(self, value: bytes, options: dict[str, tuple[str, Any]]) -> None:
        if self.on_write is not None:
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self.on_write(bytes(value))))

    @sdbus.dbus_method_async(input_signature="", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def StartNotify(self) -> None:
        return None

    @sdbus.dbus_method_async(input_signature="", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def StopNotify(self) -> None:
        return None

    @sdbus.dbus_method_async(input_signature="", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def Confirm(self) -> None:
        return None

    @sdbus.dbus_property_async(property_signature="s")
    def UUID(self) -> str:
        return self.uuid

    @sdbus.dbus_property_async(property_signature="o")
    def Service(self) -> str:
        return self.service

    @sdbus.dbus_property_async(property_signature="ay")
    def Value(self) -> bytes:
        return self.value

    @Value.setter_private
    def Value_setter(self, value: bytes) -> None:
        self.value = value

    @sdbus.dbus_property_async(property_signature="as")
    def Flags(self) -> list[str]:
        return self.flags

    @sdbus.dbus_property_async(property_signature="q")
    def Handle(self) -> int:
        return self.handle

    @Handle.setter
    def Handle_setter(self, value: int) -> None:
        self.handle = value


class Advertisement(sdbus.DbusInterfaceCommonAsync, interface_name="org.bluez.LEAdvertisement1"):
    """What the die advertises. ManufacturerData is keyed by a string here, as BlueZoo declares it (a{sv});
    BlueZ merges the advert and the scan response, so the message service is listed with 0x180A."""

    def __init__(self, name: str, uuids: list[str], manufacturer: dict, service_data: dict) -> None:
        super().__init__()
        self.name, self.uuids, self.manufacturer, self.service_data = name, uuids, manufacturer, service_data

    @sdbus.dbus_method_async(input_signature="", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def Release(self) -> None:
        return None

    @sdbus.dbus_property_async(property_signature="s")
    def Type(self) -> str:
        return "peripheral"

    @sdbus.dbus_property_async(property_signature="as")
    def ServiceUUIDs(self) -> list[str]:
        return self.uuids

    @sdbus.dbus_property_async(property_signature="a{sv}")
    def ManufacturerData(self) -> dict[str, tuple[str, object]]:
        return self.manufacturer

    @sdbus.dbus_property_async(property_signature="a{sv}")
    def ServiceData(self) -> dict[str, tuple[str, object]]:
        return self.service_data

    @sdbus.dbus_property_async(property_signature="s")
    def LocalName(self) -> str:
        return self.name

    @sdbus.dbus_property_async(property_signature="b")
    def Discoverable(self) -> bool:
        return True


class Die:
    """One die: its advert, its GATT service, its answers and what ``N CMD`` plays."""

    def __init__(self, n: int, spec: str, writes: Path) -> None:
        family, *pairs = spec.split(",")
        self.n, self.family, self.opts, self.writes = n, family, dict(p.split("=", 1) for p in pairs), writes
        self.path = f"/die{n}"
        if family == "pixels":
            (self.uuids, company, self.built, self.chunked) = FIRMWARE[self.opts["firmware"]]
            self.die_type, self.leds = DIE_TYPES[self.opts["type"]]
            # bluetooth_custom_advertising_data.cpp: LED count, (dieType << 4) | colourway, roll state 5, face, battery
            manufacturer = bytes([self.leds, self.die_type << 4 | COLOURWAY, 1, 0, BATTERY])
            self.advert = Advertisement(
                f"Pixel {self.opts['type']} {n}",
                [INFO, self.uuids[0]],
                {str(company): ("ay", manufacturer)},
                {INFO: ("ay", struct.pack("<II", PIXEL_ID + n, self.built))},  # bluetooth_stack.cpp CustomServiceData
            )
        else:
            self.uuids = UART
            self.colour, self.level = int(self.opts.get("colour", 2)), 77
            self.late = self.opts.get("answers") == "late"
            self.asked: list[int] = []
            self.advert = Advertisement(f"GoDice_C0FFEE{n:02d}_K_v04", [UART[0]], {}, {})
        self.notify = Characteristic(self.uuids[1], ["notify"], f"{self.path}/service0")
        self.write = Characteristic(
            self.uuids[2], ["write", "write-without-response"], f"{self.path}/service0", self.on_write
        )

    def i_am_a_die(self) -> bytes:
        """IAmADie: the 22-byte legacy layout, or the chunks of main (pixels-js IAmADie's chunk classes)."""
        if not self.chunked:
            return (
                bytes([2, self.leds, COLOURWAY, self.die_type])
                + struct.pack("<IIHI", 0xABCD, PIXEL_ID + self.n, 4096, self.built)
                + bytes([5, 0, 64, 0])  # onFace, index 0, 64%, battery ok
            )
        version = struct.pack("<BHIHHHH", 15, 0x0300, self.built, 1, 0x100, 0x100, 0x100)
        die = struct.pack("<BIBBBBB", 10, PIXEL_ID + self.n, 1, self.die_type, self.leds, COLOURWAY, 0)
        names = bytes([1]) + bytes([6]) + b"Zoo\0\0"
        settings = struct.pack("<BIII", 13, 0xFEED, 1000, 2000)
        return bytes([2]) + version + die + names + settings + bytes([5, 64, 0, 5, 0])

    async def send(self, data: bytes) -> None:
        await self.notify.Value.set_async(data)

    async def on_write(self, data: bytes) -> None:
        with self.writes.open("a") as f:
            f.write(f"{self.n} {data.hex()}\n")
        if self.family == "pixels":
            if data == b"\x01":  # WhoAreYou
                await self.send(self.i_am_a_die())
            elif data[:1] == b"\x1d":  # Blink: BlinkAck
                await self.send(b"\x1e")
        elif data in (bytes([23]), bytes([3])):
            self.asked.append(data[0])
            if not self.late:
                await self.answer()

    async def answer(self) -> None:
        """The GoDice answers what it was asked, in order: "Col" + colour, "Bat" + level."""
        while self.asked:
            asked = self.asked.pop(0)
            if asked == 23:
                await self.send(b"Col" + bytes([self.colour]))
            else:
                self.level -= 1
                await self.send(b"Bat" + bytes([self.level + 1]))

    async def play(self, cmd: str, args: list[str]) -> None:
        if cmd == "answer":
            self.late = False
            await self.answer()
            return
        if self.family == "godice":
            xyz = struct.pack(">bbb", *map(int, args))
            await self.send(b"R")
            await self.send((b"S" if cmd == "stable" else b"TS") + xyz)
            return
        index = int(args[0])
        first = {"roll": [3], "handle": [2], "crooked": [3], "onface": [2], "frame": []}[cmd]
        last = {"crooked": 4, "onface": 5}.get(cmd, 1)
        for state in first:
            await self.send(bytes([3, state, index]))
        await self.send(bytes([3, last, index]))

    async def register(self) -> None:
        manager = sdbus.DbusObjectManagerInterfaceAsync()
        manager.export_to_dbus(self.path)
        self.manager = manager
        manager.export_with_manager(f"{self.path}/service0", Service(self.uuids[0]))
        manager.export_with_manager(f"{self.path}/service0/char0", self.notify)
        manager.export_with_manager(f"{self.path}/service0/char1", self.write)
        self.advert.export_to_dbus(f"{self.path}/adv0")
        adapter = self.opts["hci"]
        for _ in range(100):  # BlueZoo may still be starting
            try:
                await GattManagerInterface.new_proxy("org.bluez", adapter).RegisterApplication(self.path, {})
                break
            except (sdbus.DbusServiceUnknownError, sdbus.DbusUnknownObjectError):  # not up, or adapters being added
                await asyncio.sleep(0.1)
        else:
            raise SystemExit(f"no {adapter} on the bus after 10 s")
        await LEAdvertisingManagerInterface.new_proxy("org.bluez", adapter).RegisterAdvertisement(
            f"{self.path}/adv0", {}
        )


async def main(argv: list[str]) -> None:
    sdbus.set_default_bus(sdbus.sd_bus_open_system())
    writes = Path(argv[argv.index("--writes") + 1])
    specs = [a for i, a in enumerate(argv) if a != "--writes" and (i == 0 or argv[i - 1] != "--writes")]
    dice = [Die(n, spec, writes) for n, spec in enumerate(specs)]
    for die in dice:
        await die.register()
    print("ready", flush=True)

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().split():
        await dice[int(line[0])].play(line[1], line[2:])
        print("done", line[1], flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
