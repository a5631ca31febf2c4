"""A smart die played by one of BlueZoo's adapters: a BLE peripheral on the mocked BlueZ, for the tests.

``python bluezoo_die.py pixels /org/bluez/hci1`` plays a Pixels d10, ``... godice /org/bluez/hci2``
a GoDice. Run as a process by ``tests/test_smartdice_bluezoo.py`` on the private bus it started
(the ``DBUS_SYSTEM_BUS_ADDRESS`` it is given). It advertises like the real die and serves its
GATT service through BlueZ's own peripheral API (``GattManager1.RegisterApplication``,
``LEAdvertisingManager1.RegisterAdvertisement``) as BlueZoo implements it.

- Pixels (GameWithPixels/.github ``doc/CommunicationsProtocol.md``): the Pixels service with
  manufacturer data (LED count, colourway, roll state, face, battery); WhoAreYou written to it
  is answered with IAmADie; ``roll INDEX`` on stdin sends RollState "rolling" then "rolled" on
  that face index.
- GoDice (the messages godice decodes, ``godice/dice.py``): named "GoDice_..."; the colour
  request (23) is answered "Col" + colour, the battery request (3) "Bat" + level; ``stable X Y Z``
  on stdin sends "R" (rolling) then "S" with those signed bytes.

It prints ``ready`` once registered, and ``done`` after each line it played.
"""

from __future__ import annotations

import asyncio
import struct
import sys
from typing import Any

import sdbus
from bluezoo.interfaces.GattManager import GattManagerInterface
from bluezoo.interfaces.GattService import GattServiceInterface
from bluezoo.interfaces.LEAdvertisingManager import LEAdvertisingManagerInterface

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"  # both families use this service
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = {"pixels": "6e400001-b5a3-f393-e0a9-e50e24dcca9e", "godice": "6e400003-b5a3-f393-e0a9-e50e24dcca9e"}
APP = "/die"


class Service(GattServiceInterface):
    @sdbus.dbus_property_async_override()
    def UUID(self) -> str:
        return SERVICE

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

    def __init__(self, uuid: str, flags: list[str], on_write: Any = None) -> None:
        super().__init__()
        self.uuid, self.flags, self.on_write = uuid, flags, on_write
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
        return f"{APP}/service0"

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
    """What the die advertises. ManufacturerData is keyed by a string here, as BlueZoo declares it (a{sv})."""

    def __init__(self, family: str) -> None:
        super().__init__()
        self.family = family

    @sdbus.dbus_method_async(input_signature="", result_signature="", flags=sdbus.DbusUnprivilegedFlag)
    async def Release(self) -> None:
        return None

    @sdbus.dbus_property_async(property_signature="s")
    def Type(self) -> str:
        return "peripheral"

    @sdbus.dbus_property_async(property_signature="as")
    def ServiceUUIDs(self) -> list[str]:
        return [SERVICE]

    @sdbus.dbus_property_async(property_signature="a{sv}")
    def ManufacturerData(self) -> dict[str, tuple[str, object]]:
        if self.family != "pixels":
            return {}
        # LED count 10 (a d10), colourway 4 (aurora sky), roll state 5 (on face), face index 3, battery 66%
        return {"65535": ("ay", bytes([10, 4, 5, 3, 66]))}

    @sdbus.dbus_property_async(property_signature="a{sv}")
    def ServiceData(self) -> dict[str, tuple[str, object]]:
        if self.family != "pixels":
            return {}
        return {SERVICE: ("ay", struct.pack("<II", 0x00C0FFEE, 1_700_000_000))}

    @sdbus.dbus_property_async(property_signature="s")
    def LocalName(self) -> str:
        return "Pixel d10" if self.family == "pixels" else "GoDice_C0FFEE_K_v04"

    @sdbus.dbus_property_async(property_signature="b")
    def Discoverable(self) -> bool:
        return True


def i_am_a_die() -> bytes:
    """IAmADie: a d10 (die type 4, 10 LEDs), aurora sky, on face index 3, 64% (the advert said 66), not charging."""
    return bytes([2, 10, 4, 4]) + struct.pack("<IIHI", 0xABCD, 0x00C0FFEE, 4096, 1_700_000_000) + bytes([5, 3, 64, 0])


async def main(family: str, adapter: str) -> None:
    sdbus.set_default_bus(sdbus.sd_bus_open_system())
    notify = Characteristic(NOTIFY[family], ["notify"])

    async def on_write(data: bytes) -> None:
        if family == "pixels" and data == b"\x01":  # WhoAreYou
            await notify.Value.set_async(i_am_a_die())
        elif family == "godice" and data == bytes([23]):  # the colour, please
            await notify.Value.set_async(b"Col" + bytes([2]))  # green
        elif family == "godice" and data == bytes([3]):  # the battery level, please
            await notify.Value.set_async(b"Bat" + bytes([77]))

    write = Characteristic(WRITE, ["write", "write-without-response"], on_write)
    manager = sdbus.DbusObjectManagerInterfaceAsync()
    manager.export_to_dbus(APP)
    service = Service()
    manager.export_with_manager(f"{APP}/service0", service)
    manager.export_with_manager(f"{APP}/service0/char0", notify)
    manager.export_with_manager(f"{APP}/service0/char1", write)
    advert = Advertisement(family)
    advert.export_to_dbus(f"{APP}/adv0")
    for _ in range(100):  # BlueZoo may still be starting
        try:
            await GattManagerInterface.new_proxy("org.bluez", adapter).RegisterApplication(APP, {})
            break
        except sdbus.DbusServiceUnknownError:
            await asyncio.sleep(0.1)
        except sdbus.DbusUnknownObjectError:  # the adapters are being added
            await asyncio.sleep(0.1)
    else:
        raise SystemExit(f"no {adapter} on the bus after 10 s")
    await LEAdvertisingManagerInterface.new_proxy("org.bluez", adapter).RegisterAdvertisement(f"{APP}/adv0", {})
    print("ready", flush=True)

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().split():
        if line[0] == "roll":
            await notify.Value.set_async(bytes([3, 3, 0]))  # rolling
            await notify.Value.set_async(bytes([3, 1, int(line[1])]))  # rolled, on that face index
        elif line[0] == "stable":
            await notify.Value.set_async(b"R")
            await notify.Value.set_async(b"S" + struct.pack(">bbb", *map(int, line[1:4])))
        print("done", line[0], flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
