"""Smart dice messages, built byte by byte from the makers' published descriptions, decoded.

Pixels: GameWithPixels/.github, ``doc/CommunicationsProtocol.md`` -- "Messages Send By Pixels"
(IAmADie id 2, RollState id 3, BatteryLevel id 34), "Advertisement" (manufacturer data: LED
count, design & colour, roll state, face, battery with charging in its top bit; service data:
Pixel id, build timestamp), "Services & Characteristics" (notify 6e400001, write 6e400002,
WhoAreYou = 0x01). The document's IAmADie byte 4 ("N/A") is the die type in the makers' own
client (pixels-js ``LegacyIAmADie``, ``PixelDieTypeValues``: unknown, d4, d6, d8, d10, d00, d12,
d20, d6pipped, d6fudge), which also gives the roll states (unknown, rolled, handling, rolling,
crooked, onFace), battery states (ok, low, charging, done, badCharging, error),
``faceFromIndex``, and current firmware's chunked IAmADie (``IAmADie``, ``VersionInfoChunk``,
``DieInfoChunk``, ``StatusInfoChunk``; ``ChunkMessage.ts``).

GoDice: Particula's ``godice`` package decodes them (``godice/dice.py``, ``_handle_upd``): "R"
(0x52) rolling; "S" (0x53) stable followed by x, y, z as signed bytes; "Bat" + level; "Col" +
colour (0 black ... 5 orange); a shell decides what a position means (``godice/xyzinterpret.py``:
a d6 lies with (0, 64, 0) up on its 3; the d10 shell reads the d20 table then ``d10Transform``).
These tests feed the bytes through godice's own code over a stand-in bleak client.
"""

from __future__ import annotations

import asyncio
import struct

import pytest
from tableside.device.smartdice import pixels
from tableside.device.smartdice.godice import GoDiceLink, face_of, is_godice

PIXEL_ID = 0x1234ABCD
BUILT = 1_700_000_000

# (die type byte, LED count, kind Tableside reads, face index -> printed face for a few indexes)
PIXELS_KINDS = [
    (1, 6, "d4", {0: 1, 2: 2, 3: 3, 5: 4}),
    (2, 6, "d6", {0: 1, 5: 6}),
    (3, 8, "d8", {0: 1, 7: 8}),
    (4, 10, "d10", {0: 10, 1: 1, 9: 9}),
    (5, 10, "d00", {0: 0, 3: 30, 9: 90}),
    (6, 12, "d12", {0: 1, 11: 12}),
    (7, 20, "d20", {0: 1, 19: 20}),
    (8, 21, "d6", {0: 1, 5: 6}),  # d6pipped: a d6 with pips
    (9, 6, "dF", {0: 1}),  # d6fudge: no numbered roll takes it
]


def i_am_a_die(die_type, leds, colourway=3, roll=5, face=0, level=81, state=0):
    """IAmADie, field by field as the document's table lists them (little endian)."""
    return (
        bytes([pixels.I_AM_A_DIE, leds, colourway, die_type])
        + struct.pack("<I", 0xDEADBEEF)  # data set hash
        + struct.pack("<I", PIXEL_ID)
        + struct.pack("<H", 1024)  # available flash
        + struct.pack("<I", BUILT)
        + bytes([roll, face, level, state])
    )


@pytest.mark.parametrize("die_type, leds, kind, faces", PIXELS_KINDS)
def test_pixels_identity_of_every_die_kind(die_type, leds, kind, faces):
    msg = pixels.decode(i_am_a_die(die_type, leds))
    assert isinstance(msg, pixels.Identity)
    assert (msg.kind, msg.led_count, msg.pixel_id, msg.build_timestamp) == (kind, leds, PIXEL_ID, BUILT)
    assert (msg.colour, msg.roll_state, msg.battery, msg.charging) == ("midnight galaxy", "onFace", 81, False)


@pytest.mark.parametrize("die_type, leds, kind, faces", PIXELS_KINDS)
def test_pixels_roll_and_rolling_of_every_die_kind(die_type, leds, kind, faces):
    for index, printed in faces.items():
        msg = pixels.decode(bytes([pixels.ROLL_STATE, 1, index]))  # 1: rolled
        assert msg == pixels.RollState("rolled", index) and pixels.landed(msg)
        assert pixels.face_value(kind, index) == printed
    rolling = pixels.decode(bytes([pixels.ROLL_STATE, 3, 4]))
    assert rolling == pixels.RollState("rolling", 4) and not pixels.landed(rolling)
    assert not pixels.landed(pixels.decode(bytes([pixels.ROLL_STATE, 5, 4])))  # onFace: resting, not a roll


def test_pixels_battery_level_and_charging():
    assert pixels.decode(bytes([pixels.BATTERY_LEVEL, 77, 2])) == pixels.Battery(77, "charging")
    assert pixels.decode(bytes([pixels.BATTERY_LEVEL, 77, 2])).charging
    assert not pixels.decode(bytes([pixels.BATTERY_LEVEL, 12, 1])).charging  # low


def chunked_i_am_a_die(die_type, leds, colourway=5, roll=1, face=2, level=42, state=2):
    """Current firmware's IAmADie, chunk by chunk as pixels-js ``IAmADie`` lists them; each chunk starts
    with its own size in bytes (``deserializeChunkedMessage``)."""
    version = struct.pack("<BHIHHHH", 15, 0x0300, BUILT, 1, 2, 3, 4)  # VersionInfoChunk
    die = struct.pack("<BIBBBB", 9, PIXEL_ID, 1, die_type, leds, colourway)  # DieInfoChunk
    design = bytes([2, 0])  # CustomDesignAndColorNameChunk: "" and its terminator
    name = bytes([6]) + b"Lula\0"  # DieNameChunk
    settings = struct.pack("<BIII", 13, 0xFEED, 1000, 2000)  # SettingsInfoChunk
    status = bytes([5, level, state, roll, face])  # StatusInfoChunk: battery %, battery state, roll state, face
    return bytes([pixels.I_AM_A_DIE]) + version + die + design + name + settings + status


@pytest.mark.parametrize("die_type, leds, kind, faces", PIXELS_KINDS)
def test_pixels_identity_from_current_firmware_chunks(die_type, leds, kind, faces):
    msg = pixels.decode(chunked_i_am_a_die(die_type, leds))
    assert (msg.kind, msg.led_count, msg.pixel_id, msg.build_timestamp) == (kind, leds, PIXEL_ID, BUILT)
    assert (msg.colour, msg.roll_state, msg.face_index, msg.battery, msg.charging) == ("clear", "rolled", 2, 42, True)


def test_pixels_chunks_that_do_not_add_up_are_named():
    whole = chunked_i_am_a_die(2, 6)
    with pytest.raises(pixels.PixelsError, match="runs past"):
        pixels.decode(whole[:-2])
    with pytest.raises(pixels.PixelsError, match="6 chunks"):
        pixels.decode(whole[: 1 + 15 + 9])


def test_pixels_old_firmware_is_known_by_its_led_count():
    assert pixels.decode(i_am_a_die(0, 20)).kind == "d20"
    assert pixels.decode(i_am_a_die(0, 21)).kind == "d6"  # pipped d6: 21 LEDs


def test_pixels_advertisement_before_connecting():
    manufacturer = bytes([10, 4, 1, 7, 0x80 | 55])  # d10, aurora sky, rolled, face index 7, charging 55%
    service = struct.pack("<II", PIXEL_ID, BUILT)
    advert = pixels.decode_advert(manufacturer, service)
    assert (advert.kind, advert.colour, advert.roll_state, advert.face_index) == ("d10", "aurora sky", "rolled", 7)
    assert (advert.battery, advert.charging, advert.pixel_id, advert.build_timestamp) == (55, True, PIXEL_ID, BUILT)


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "empty"),
        (bytes([pixels.ROLL_STATE, 1]), "RollState has 3 bytes"),
        (bytes([pixels.ROLL_STATE, 9, 0]), "roll state 9"),
        (bytes([pixels.BATTERY_LEVEL, 101, 0]), "over 100%"),
        (bytes([pixels.I_AM_A_DIE, 6, 1]), "IAmADie has 22 bytes"),
    ],
)
def test_pixels_malformed_messages_are_named(data, words):
    with pytest.raises(pixels.PixelsError, match=words):
        pixels.decode(data)


def test_pixels_messages_the_table_does_not_use_are_ignored():
    assert pixels.decode(bytes([pixels.WHO_ARE_YOU])) is None
    assert pixels.decode(bytes([30, 0])) is None  # BlinkAck


class Hub:
    """What a link reports, in order."""

    def __init__(self):
        self.calls = []

    def identify(self, die_id, kind=None, colour=None):
        self.calls.append(("identify", die_id, kind, colour))

    def battery(self, die_id, level, charging):
        self.calls.append(("battery", die_id, level, charging))

    def landed(self, die_id, face):
        self.calls.append(("landed", die_id, face))

    def rolling(self, die_id):
        self.calls.append(("rolling", die_id))


class Characteristic:
    def __init__(self, uuid):
        self.uuid = uuid


class Services:
    def get_characteristic(self, uuid):
        return Characteristic(uuid)


class StandInClient:
    """bleak's BleakClient as the dice libraries use it: connect, services, start_notify, write_gatt_char.

    ``answers`` maps a written message to the notification the die sends back.
    """

    def __init__(self, answers=None):
        self.services = Services()
        self.notify = {}
        self.written = []
        self.answers = answers or {}
        self.connected = False

    async def connect(self, **kw):
        self.connected = True

    async def disconnect(self):
        self.connected = False

    async def start_notify(self, char, callback, **kw):
        self.notify[getattr(char, "uuid", char)] = callback

    async def write_gatt_char(self, char, data, response=None):
        self.written.append((getattr(char, "uuid", char), bytes(data)))
        answer = self.answers.get(bytes(data))
        if answer is not None:
            await self.send(answer)

    async def send(self, data):
        (callback,) = self.notify.values()
        result = callback(Characteristic("notify"), bytearray(data))
        if asyncio.iscoroutine(result):
            await result


def test_a_pixels_link_asks_who_the_die_is_then_reports_its_rolls():
    async def go():
        hub, client = Hub(), StandInClient()
        link = pixels.PixelsLink(client, "AA:01", hub)
        await link.start()
        assert list(client.notify) == [pixels.NOTIFY] and client.written == [(pixels.WRITE, b"\x01")]
        await client.send(i_am_a_die(4, 10, colourway=1, level=64, state=3))  # a d10, onyx black, charged
        await client.send(bytes([pixels.ROLL_STATE, 3, 2]))
        await client.send(bytes([pixels.ROLL_STATE, 1, 0]))  # landed on index 0: the d10's "0", its 10
        await client.send(bytes([pixels.BATTERY_LEVEL, 63, 0]))
        await client.send(bytes([pixels.ROLL_STATE, 9]))  # malformed: logged, ignored
        return hub.calls

    assert asyncio.run(go()) == [
        ("identify", "AA:01", "d10", "onyx black"),
        ("battery", "AA:01", 64, True),
        ("rolling", "AA:01"),
        ("landed", "AA:01", 10),
        ("battery", "AA:01", 63, False),
    ]


GODICE_TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_RX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"


def godice_client(colour=1, level=88):
    """A GoDice that answers the colour request (23) with "Col" and the battery request (3) with "Bat"."""
    return StandInClient({bytes([23]): b"Col" + bytes([colour]), bytes([3]): b"Bat" + bytes([level])})


def stable(x, y, z):
    return b"S" + struct.pack(">bbb", x, y, z)


def test_a_godice_d6_reports_its_colour_battery_rolling_and_faces():
    async def go():
        hub, client = Hub(), godice_client(colour=1, level=88)
        link = GoDiceLink(client, "GD:06", hub, "d6")
        await link.start()
        assert client.connected and list(client.notify) == [GODICE_RX]
        assert [w[1] for w in client.written] == [bytes([23]), bytes([3])] and client.written[0][0] == GODICE_TX
        await client.send(b"R")
        await client.send(stable(0, 64, 0))  # face 3 up
        await client.send(stable(-64, 0, 0))  # face 1 up
        await client.send(stable(62, -3, 2))  # near (64, 0, 0): face 6
        await client.send(b"TS" + struct.pack(">bbb", 0, 0, 64))  # tilt-stable: not a roll
        return hub.calls

    assert asyncio.run(go()) == [
        ("identify", "GD:06", None, "red"),
        ("battery", "GD:06", 88, False),
        ("rolling", "GD:06"),
        ("landed", "GD:06", 3),
        ("landed", "GD:06", 1),
        ("landed", "GD:06", 6),
    ]


def test_a_godice_in_its_d10_shell_reads_the_d10_faces_and_its_0_is_10():
    async def go():
        hub, client = Hub(), godice_client(colour=3, level=40)
        link = GoDiceLink(client, "GD:10", hub, "d10")
        await link.start()
        await client.send(stable(64, 0, -22))  # the d20 table's 8: the d10 shell's 0
        await client.send(stable(-64, 0, -22))  # the d20 table's 1: the d10 shell's 8
        await client.send(stable(0, 22, -64))  # 3 -> 6
        link.set_kind("d6")  # the shell came off: the same position now reads as a d6
        await client.send(stable(0, 64, 0))
        return hub.calls

    assert asyncio.run(go())[1:] == [
        ("battery", "GD:10", 40, False),
        ("landed", "GD:10", 10),
        ("landed", "GD:10", 8),
        ("landed", "GD:10", 6),
        ("landed", "GD:10", 3),
    ]
    assert face_of("d10", 0) == 10 and face_of("d00", 0) == 0 and face_of("d10", 7) == 7


def test_godice_are_known_by_their_advertised_name():
    assert is_godice("GoDice_0A1B2C_K_v04") and not is_godice("PXL20") and not is_godice(None)
