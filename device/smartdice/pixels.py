"""Pixels dice: their messages decoded from the makers' published protocol.

Source: GameWithPixels/.github, ``doc/CommunicationsProtocol.md`` ("Advertisement",
"Services & Characteristics", "Messages Send By Pixels"): little-endian messages whose first
byte is the id; WhoAreYou = 1, IAmADie = 2, RollState = 3, BatteryLevel = 34. The document's
IAmADie leaves its fourth byte "N/A"; the makers' own client (pixels-js, ``LegacyIAmADie``)
reads it as the die type, and lists the enums used here (die types, colourways, roll and
battery states) and how a face index becomes the face printed on the die (``faceFromIndex``).
Current firmware answers WhoAreYou with a longer IAmADie made of sized chunks (pixels-js
``IAmADie``): both are read.

Decoding is pure (bytes in, plain values out); ``PixelsLink`` talks to a connected client that
``ble.py`` hands it.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("tableside")

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"  # the document: the die's messages arrive here
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34
LEGACY_I_AM_A_DIE = 22  # bytes: the document's IAmADie; current firmware sends a longer, chunked one

# pixels-js PixelDieTypeValues, in order from 0; d6pipped is a d6 with pips, d6fudge a Fudge die.
DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
KIND_OF_TYPE = {"d6pipped": "d6", "d6fudge": "dF"}
# pixels-js estimateDieType: firmware that leaves the die type 0 is known by its LED count.
KIND_OF_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6"}
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
# pixels-js PixelRollStateValues (current firmware): 1 "rolled" is a roll that just ended on a face.
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
    roll_state: str
    face_index: int
    battery: int
    charging: bool
    pixel_id: int | None
    build_timestamp: int | None

    @property
    def kind(self) -> str:
        return die_kind(0, self.led_count)

    @property
    def colour(self) -> str:
        return COLOURWAYS.get(self.colourway, "")


def die_kind(die_type: int, led_count: int) -> str:
    """The die's kind from its type byte, else (older firmware) from its LED count."""
    name = DIE_TYPES[die_type] if 0 <= die_type < len(DIE_TYPES) else "unknown"
    if name == "unknown":
        return KIND_OF_LEDS.get(led_count, "unknown")
    return KIND_OF_TYPE.get(name, name)


def face_value(kind: str, face_index: int) -> int:
    """The face printed on the die for a face index (pixels-js ``faceFromIndex``).

    A d10 reports 0-9 and its 0 is the 10 face (Tableside's d10); a d00 shows tens; a d4
    (built on a d6's electronics) names its four faces by indexes 0, 2, 3, 5. A Fudge
    die reports 1-6 like a d6 (no numbered roll takes it: its kind has no sides).
    """
    if kind == "d4":
        return {2: 2, 3: 3, 5: 4}.get(face_index, 1)
    if kind == "d10":
        return face_index if face_index else 10
    if kind == "d00":
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
    """The advertisement's manufacturer data (5 bytes) and Pixels service data (8 bytes, optional)."""
    if len(manufacturer) != 5:
        raise PixelsError(f"Pixels manufacturer data has 5 bytes, this one {len(manufacturer)}")
    leds, colourway, roll, face, battery = manufacturer
    pixel_id = built = None
    if service is not None:
        if len(service) != 8:
            raise PixelsError(f"Pixels service data has 8 bytes, this one {len(service)}")
        pixel_id, built = struct.unpack("<II", service)
    return Advert(
        leds,
        colourway,
        _state(ROLL_STATES, roll, "roll state"),
        face,
        battery & 0x7F,
        bool(battery & 0x80),
        pixel_id,
        built,
    )


def landed(msg: RollState) -> bool:
    """A roll that ended on a face: the moment its face counts."""
    return msg.state == "rolled"


class PixelsLink:
    """A connected Pixels die: listens on its notify characteristic and asks who it is.

    ``client`` is a connected bleak client (or anything with its ``start_notify`` and
    ``write_gatt_char``); ``hub`` gets what the die reports. Bleak is not imported here.
    """

    def __init__(self, client: Any, die_id: str, hub: Any, kind: str = "unknown") -> None:
        self.client, self.die_id, self.hub, self.kind = client, die_id, hub, kind

    async def start(self) -> None:
        await self.client.start_notify(NOTIFY, self.on_message)
        await self.client.write_gatt_char(WRITE, bytes([WHO_ARE_YOU]), response=True)

    def on_message(self, _characteristic: Any, data: bytes | bytearray) -> None:
        try:
            msg = decode(bytes(data))
        except PixelsError as exc:
            log.warning("Pixels die %s sent a message the protocol does not describe: %s", self.die_id, exc)
            return
        if isinstance(msg, Identity):
            self.kind = msg.kind
            self.hub.identify(self.die_id, kind=msg.kind, colour=msg.colour)
            self.hub.battery(self.die_id, msg.battery, msg.charging)
        elif isinstance(msg, RollState):
            if landed(msg):
                self.hub.landed(self.die_id, face_value(self.kind, msg.face_index))
            elif msg.state in ("rolling", "handling"):
                self.hub.rolling(self.die_id)
        elif isinstance(msg, Battery):
            self.hub.battery(self.die_id, msg.level, msg.charging)
