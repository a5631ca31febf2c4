"""Pixels dice: their messages decoded as the makers' firmware sends them and their own client reads them.

Sources (read at these commits; cite them when changing anything here):

- GameWithPixels/pixels-js @ 3fa3c1a7d952260b44d8411e5b7c059ad2d25d7b (2025-09-10):
  ``packages/pixels-core-connect/src/PixelsBluetoothIds.ts`` (the two service generations, the
  company id 0x0D39), ``DieMessages.ts`` (WhoAreYou 1, IAmADie 2 legacy and chunked, RollState 3,
  Blink 29, RequestBatteryLevel 33, BatteryLevel 34), ``Pixel.ts`` ``_updateRoll`` (crooked counts
  as rolled on 6-LED dice with firmware before 2024-05-22), ``PixelRollState.ts``, and
  ``packages/pixels-core-animation/src/DiceUtils.ts`` ``faceFromIndex`` / ``indexFromFace`` (the
  face of an index, per die type, with the "bad normals" table of firmware up to 2024-01-01).
- GameWithPixels/DiceFirmware @ 4daf0057862ed8fb3d028e700c603af0828ade61 (2025-07-24):
  ``src/bluetooth/bluetooth_stack.cpp`` (the advert lists 0x180A, the scan response the message
  service; service data under 0x180A is pixel id + build timestamp; company 0xFFFF up to the
  v2024-11-07 release, 0x0D39 since commit 571e0ce, 2024-09-30, on main), the message service UUID
  ``bluetooth_message_service.h`` (6e400001-... up to v2024-11-07, a6b90001-... after 571e0ce),
  ``bluetooth_custom_advertising_data.cpp`` (manufacturer data: LED count, ``(dieType << 4) |
  colourway``, roll state, face index, battery with charging in its top bit) and
  ``src/modules/accelerometer.h`` (roll states: released firmware up to v2024-10-11 has 1 OnFace,
  2 Handling, 3 Rolling, 4 Crooked; v2024-11-07 on, commit 43b416c, 1 Rolled, ..., 5 OnFace).

Decoding is pure (bytes in, plain values out); ``PixelsLink`` talks to a connected client that
``ble.py`` hands it. A face index that the die's type and firmware do not define is refused
(``PixelsError``), never guessed.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("tableside")

# The message service, newest first (pixels-js PixelsBluetoothIds: "die", then "legacyDie").
SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
SERVICES = {
    SERVICE: ("a6b90002-7a5a-43f2-a962-350c8edc9b5b", "a6b90003-7a5a-43f2-a962-350c8edc9b5b"),
    "6e400001-b5a3-f393-e0a9-e50e24dcca9e": (
        "6e400001-b5a3-f393-e0a9-e50e24dcca9e",  # the legacy notify characteristic is the service's UUID
        "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
    ),
}
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY, WRITE = SERVICES[LEGACY_SERVICE]  # what a client uses when it cannot list the die's services
INFO_SERVICE = "0000180a-0000-1000-8000-00805f9b34fb"  # Device Information: the advert's service data
COMPANY_IDS = (0x0D39, 0xFFFF)  # Systemic Games since 2024-09-30; 0xFFFF ("temporary") before

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
BLINK = 29
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34
LEGACY_I_AM_A_DIE = 22  # bytes: the document's IAmADie; current firmware sends a longer, chunked one

# pixels-js PixelDieTypeValues, in order from 0; d6pipped is a d6 with pips, d6fudge a Fudge die.
DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
KIND_OF_TYPE = {"d6pipped": "d6", "d6fudge": "dF"}
# pixels-js estimateDieType: firmware that leaves the die type 0 is known by its LED count.
TYPE_OF_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6pipped"}
# pixels-js DiceUtils.getFaceCount: the face indexes a die type reports are 0 .. count - 1.
FACE_COUNT = {"d4": 4, "d6": 6, "d6pipped": 6, "d6fudge": 6, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20}
BAD_NORMALS_UNTIL = 1_704_150_000  # FW_2023_11_17 (DiceUtils.ts, in ms there): firmware built up to then
CROOKED_FIXED = 1_716_382_800  # FW_2024_05_22 (Pixel.ts): 6-LED dice before it report crooked for rolled
# DiceUtils.faceFromIndex for firmware with bad normals: d4 3->2, 2->3, 5->4, 0->1 (indexFromFace(1) = 0);
# d6 4->2, 3->3, 2->4, 1->5, else index + 1.
BAD_NORMALS = {"d4": {0: 1, 3: 2, 2: 3, 5: 4}, "d6": {0: 1, 4: 2, 3: 3, 2: 4, 1: 5, 5: 6}}
COLOURWAYS = {
    0: "",
    1: "onyx black",
    2: "hematite grey",
    3: "midnight galaxy",
    4: "aurora sky",
    5: "clear",
    6: "white aurora",
    255: "custom",
}
# pixels-js PixelRollStateValues. Released firmware agrees on 1, 2, 3, 4: up to v2024-10-11 state 1 is
# "on a face" after any move (a roll, or a die picked up and put down) and 5 is never sent; from
# v2024-11-07 state 1 is a proper roll and 5 a die that came to rest without one.
ROLL_STATES = ("unknown", "rolled", "handling", "rolling", "crooked", "onFace")
BATTERY_STATES = ("ok", "low", "charging", "done", "badCharging", "error")


class PixelsError(ValueError):
    """A message that does not have the length or values the protocol gives it."""


@dataclass(frozen=True)
class Identity:
    """IAmADie: who the die is and what it shows now."""

    led_count: int
    colourway: int
    die_type: int
    pixel_id: int
    build_timestamp: int
    roll_state: str
    face_index: int
    battery: int
    battery_state: str

    @property
    def type_name(self) -> str:
        return type_name(self.die_type, self.led_count)

    @property
    def kind(self) -> str:
        return die_kind(self.die_type, self.led_count)

    @property
    def colour(self) -> str:
        return COLOURWAYS.get(self.colourway, "")

    @property
    def charging(self) -> bool:
        return self.battery_state in ("charging", "done")


@dataclass(frozen=True)
class RollState:
    """RollState: sent whenever the roll state or the face up changes."""

    state: str
    face_index: int


@dataclass(frozen=True)
class Battery:
    """BatteryLevel: sent whenever the level or the charging state changes."""

    level: int
    state: str

    @property
    def charging(self) -> bool:
        return self.state in ("charging", "done")


@dataclass(frozen=True)
class Advert:
    """What a Pixels die says in its advertisement, before anyone connects."""

    led_count: int
    colourway: int
    die_type: int
    roll_state: str
    face_index: int
    battery: int
    charging: bool
    pixel_id: int | None
    build_timestamp: int | None

    @property
    def kind(self) -> str:
        return die_kind(self.die_type, self.led_count)

    @property
    def colour(self) -> str:
        return COLOURWAYS.get(self.colourway, "")


def type_name(die_type: int, led_count: int) -> str:
    """pixels-js's die type name (d6pipped, d6fudge, ...); firmware that says 0 is known by its LEDs."""
    name = DIE_TYPES[die_type] if 0 <= die_type < len(DIE_TYPES) else "unknown"
    return TYPE_OF_LEDS.get(led_count, "unknown") if name == "unknown" else name


def die_kind(die_type: int, led_count: int) -> str:
    """The die's kind (Tableside's face set) from its type byte, else (older firmware) its LED count."""
    name = type_name(die_type, led_count)
    return KIND_OF_TYPE.get(name, name)


def bad_normals(built: int | None) -> bool:
    """Firmware built up to 2024-01-01 reports some d4 and d6 faces by other indexes (DiceUtils.ts)."""
    return bool(built) and built <= BAD_NORMALS_UNTIL


def face_value(die_type: str, face_index: int, built: int | None = None) -> int:
    """The face printed on the die for a face index (pixels-js ``faceFromIndex``), or PixelsError.

    ``die_type`` is pixels-js's name (``type_name``), ``built`` the firmware's build timestamp in
    seconds. A d10 reports 0-9 and its 0 is the 10 face (Tableside's d10); a d00 shows tens. A d4 or
    d6 whose firmware date is not known cannot be read for certain (the two tables differ), and an
    index outside the die's faces is no face at all: both are refused.
    """
    count = FACE_COUNT.get(die_type)
    if count is None:
        raise PixelsError(f"a die of unknown type reported face index {face_index}")
    if die_type in BAD_NORMALS:
        if built is None:
            raise PixelsError(f"a {die_type} whose firmware date is not known yet reported face index {face_index}")
        if bad_normals(built):
            table = BAD_NORMALS[die_type]
            if face_index not in table:
                raise PixelsError(f"face index {face_index} is not a face of a {die_type} on this firmware")
            return table[face_index]
    if not 0 <= face_index < count:
        raise PixelsError(f"face index {face_index} is not a face of a {die_type}")
    if die_type == "d10":
        return face_index or 10
    if die_type == "d00":
        return face_index * 10
    return face_index + 1


def _state(names: tuple[str, ...], value: int, what: str) -> str:
    if not 0 <= value < len(names):
        raise PixelsError(f"{what} {value} is not one the protocol defines")
    return names[value]


def decode(data: bytes) -> Identity | RollState | Battery | None:
    """One message from the die's notify characteristic; None for the ones the table does not use."""
    if not data:
        raise PixelsError("an empty message")
    msg = data[0]
    if msg == I_AM_A_DIE and len(data) > LEGACY_I_AM_A_DIE:
        return _chunked_identity(data)
    if msg == I_AM_A_DIE:
        if len(data) != LEGACY_I_AM_A_DIE:
            raise PixelsError(f"IAmADie has 22 bytes, this one {len(data)}")
        leds, colourway, die_type, _hash, pixel_id, _flash, built, roll, face, level, bstate = struct.unpack(
            "<BBBIIHIBBBB", data[1:]
        )
        return Identity(
            leds,
            colourway,
            die_type,
            pixel_id,
            built,
            _state(ROLL_STATES, roll, "roll state"),
            face,
            level,
            _state(BATTERY_STATES, bstate, "battery state"),
        )
    if msg == ROLL_STATE:
        if len(data) != 3:
            raise PixelsError(f"RollState has 3 bytes, this one {len(data)}")
        return RollState(_state(ROLL_STATES, data[1], "roll state"), data[2])
    if msg == BATTERY_LEVEL:
        if len(data) != 3:
            raise PixelsError(f"BatteryLevel has 3 bytes, this one {len(data)}")
        if data[1] > 100:
            raise PixelsError(f"battery level {data[1]}% is over 100%")
        return Battery(data[1], _state(BATTERY_STATES, data[2], "battery state"))
    return None


def _chunked_identity(data: bytes) -> Identity:
    """IAmADie of current firmware: chunks, each led by its own size in bytes (pixels-js ``IAmADie``,
    ``deserializeChunkedMessage``): version info, die info, design name, die name, settings, status."""
    chunks, at = [], 1
    while at < len(data):
        size = data[at]
        if size < 1 or at + size > len(data):
            raise PixelsError(f"an IAmADie chunk of {size} bytes runs past the message's {len(data)}")
        chunks.append(data[at : at + size])
        at += size
    if len(chunks) < 6:
        raise PixelsError(f"IAmADie has 6 chunks, this one {len(chunks)}")
    version, die, *_names, _settings, status = chunks[:6]
    if len(version) < 7 or len(die) < 9 or len(status) < 5:
        raise PixelsError("an IAmADie chunk is shorter than the protocol gives it")
    (built,) = struct.unpack_from("<I", version, 3)  # size, firmware version (2), build timestamp (4)
    (pixel_id,) = struct.unpack_from("<I", die, 1)  # size, pixel id (4), chip model, die type, LEDs, colourway
    return Identity(
        die[7],
        die[8],
        die[6],
        pixel_id,
        built,
        _state(ROLL_STATES, status[3], "roll state"),  # size, battery %, battery state, roll state, face index
        status[4],
        status[1],
        _state(BATTERY_STATES, status[2], "battery state"),
    )


def decode_advert(manufacturer: bytes, service: bytes | None = None) -> Advert:
    """The advert's manufacturer data (5 bytes) and service data under 0x180A (8 bytes, optional).

    Byte 1 is ``(dieType << 4) | colourway`` (bluetooth_custom_advertising_data.cpp); firmware
    before die types leaves the high half 0, and the LED count tells the kind.
    """
    if len(manufacturer) != 5:
        raise PixelsError(f"Pixels manufacturer data has 5 bytes, this one {len(manufacturer)}")
    leds, design, roll, face, battery = manufacturer
    pixel_id = built = None
    if service is not None:
        if len(service) != 8:
            raise PixelsError(f"Pixels service data has 8 bytes, this one {len(service)}")
        pixel_id, built = struct.unpack("<II", service)
    return Advert(
        leds,
        design & 0x0F,
        design >> 4,
        _state(ROLL_STATES, roll, "roll state"),
        face,
        battery & 0x7F,
        bool(battery & 0x80),
        pixel_id,
        built,
    )


def landed(msg: RollState) -> bool:
    """A roll that ended on a face: the moment its face counts (if the die was seen moving first)."""
    return msg.state == "rolled"


def blink(colour: int, count: int = 1, duration_ms: int = 1000, loops: int = 1) -> bytes:
    """Blink (DieMessages.ts ``Blink``; DiceFirmware ``MessageBlink``): count, duration (ms), colour
    0xRRGGBB, face mask (all faces), fade, loop count."""
    return struct.pack("<BBHIIBB", BLINK, count, duration_ms, colour & 0xFFFFFF, 0xFFFFFFFF, 0, loops)


class PixelsLink:
    """A connected Pixels die: listens on its notify characteristic and asks who it is.

    ``client`` is a connected bleak client (or anything with its ``services``, ``start_notify`` and
    ``write_gatt_char``); ``hub`` gets what the die reports. The service generation is the one the
    die serves (a6b90001 since 2024-09-30, else 6e400001). Bleak is not imported here.
    """

    def __init__(self, client: Any, die_id: str, hub: Any, kind: str = "unknown") -> None:
        self.client, self.die_id, self.hub, self.kind = client, die_id, hub, kind
        self.die_type = {"dF": "d6fudge"}.get(kind, kind)  # until IAmADie says (pixels-js names)
        self.led_count = 0
        self.built: int | None = None
        self.notify, self.write = NOTIFY, WRITE
        self.service = LEGACY_SERVICE

    async def start(self) -> None:
        services = getattr(self.client, "services", None)
        for uuid, (notify, write) in SERVICES.items():
            if services is not None and hasattr(services, "get_service") and services.get_service(uuid):
                self.service, self.notify, self.write = uuid, notify, write
                break
        await self.client.start_notify(self.notify, self.on_message)
        await self.client.write_gatt_char(self.write, bytes([WHO_ARE_YOU]), response=True)

    async def signal(self, outcome: str, colour: int) -> None:
        """Taken: one blink in the seat's colour; refused or ignored: three quick red ones; identify:
        five white ones (the Blink message; pixels-js ``Pixel.blink`` sends the same fields)."""
        if outcome == "taken":
            msg = blink(colour, count=1, duration_ms=800)
        elif outcome == "identify":
            msg = blink(0xFFFFFF, count=5, duration_ms=2500)
        else:
            msg = blink(0xFF0000, count=3, duration_ms=600)
        await self.client.write_gatt_char(self.write, msg, response=True)

    async def stop(self) -> None:
        """Nothing runs beside the notifications."""

    def on_message(self, _characteristic: Any, data: bytes | bytearray) -> None:
        try:
            msg = decode(bytes(data))
        except PixelsError as exc:
            log.warning("Pixels die %s sent a message the protocol does not describe: %s", self.die_id, exc)
            if data and data[0] == ROLL_STATE:
                self.hub.unreadable(self.die_id, str(exc))
            return
        if isinstance(msg, Identity):
            self.led_count, self.built = msg.led_count, msg.build_timestamp
            if msg.type_name != "unknown":
                self.die_type, self.kind = msg.type_name, msg.kind
            self.hub.identify(self.die_id, kind=msg.kind if msg.kind != "unknown" else None, colour=msg.colour)
            self.hub.battery(self.die_id, msg.battery, msg.charging)
            try:
                face = face_value(self.die_type, msg.face_index, self.built) if msg.roll_state != "crooked" else None
            except PixelsError:
                face = None
            self.hub.showing(self.die_id, face)
        elif isinstance(msg, RollState):
            self._roll(msg)
        elif isinstance(msg, Battery):
            self.hub.battery(self.die_id, msg.level, msg.charging)

    def _roll(self, msg: RollState) -> None:
        state = msg.state
        if state == "crooked" and self.led_count == 6 and self.built is not None and self.built < CROOKED_FIXED:
            state = "rolled"  # Pixel.ts _updateRoll: the tilted accelerometer of early d6/d4/Fudge
        if state in ("rolling", "handling"):
            self.hub.rolling(self.die_id)
        elif state == "crooked":
            self.hub.unreadable(self.die_id, "it landed crooked (not flat on a face)")
        elif landed(RollState(state, msg.face_index)):
            try:
                face = face_value(self.die_type, msg.face_index, self.built)
            except PixelsError as exc:
                log.warning("Pixels die %s: %s", self.die_id, exc)
                self.hub.unreadable(self.die_id, str(exc))
                return
            self.hub.landed(self.die_id, face)
        elif state == "onFace":
            self.hub.resting(self.die_id)
