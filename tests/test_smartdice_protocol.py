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
from tableside.device.smartdice import godice as godice_link
from tableside.device.smartdice import pixels
from tableside.device.smartdice.godice import GoDiceLink, face_of, is_godice

PIXEL_ID = 0x1234ABCD
BUILT = 1_700_000_000  # 2023-11-14: firmware with the "bad normals" (DiceUtils.ts FW_2023_11_17)
BUILT_2024 = 1_730_985_407  # 2024-11-07 (DiceFirmware tag v2024-11-07): current face tables

# (die type byte, LED count, kind Tableside reads, pixels-js type name,
#  face index -> printed face on firmware after 2024-01-01, the same on older firmware,
#  indexes that are no face of it on newer / older firmware)
# From pixels-js @ 3fa3c1a packages/pixels-core-animation/src/DiceUtils.ts faceFromIndex / indexFromFace.
PIXELS_KINDS = [
    (1, 6, "d4", "d4", {0: 1, 1: 2, 2: 3, 3: 4}, {0: 1, 3: 2, 2: 3, 5: 4}, (4, 5, 200), (1, 4, 200)),
    (2, 6, "d6", "d6", {i: i + 1 for i in range(6)}, {0: 1, 4: 2, 3: 3, 2: 4, 1: 5, 5: 6}, (6, 200), (6,)),
    (3, 8, "d8", "d8", {0: 1, 7: 8}, {0: 1, 7: 8}, (8,), (8,)),
    (4, 10, "d10", "d10", {0: 10, 1: 1, 9: 9}, {0: 10, 9: 9}, (10,), (10,)),
    (5, 10, "d00", "d00", {0: 0, 3: 30, 9: 90}, {0: 0, 9: 90}, (10,), (10,)),
    (6, 12, "d12", "d12", {0: 1, 11: 12}, {0: 1, 11: 12}, (12,), (12,)),
    (7, 20, "d20", "d20", {0: 1, 19: 20}, {0: 1, 19: 20}, (20,), (20,)),
    (8, 21, "d6", "d6pipped", {0: 1, 4: 5, 5: 6}, {0: 1, 4: 5, 5: 6}, (6,), (6,)),  # no bad-normals table
    (9, 6, "dF", "d6fudge", {0: 1, 5: 6}, {0: 1, 5: 6}, (6,), (6,)),  # no numbered roll takes it
]
KIND_CASES = [case[:3] for case in PIXELS_KINDS]


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


@pytest.mark.parametrize("die_type, leds, kind", KIND_CASES)
def test_pixels_identity_of_every_die_kind(die_type, leds, kind):
    msg = pixels.decode(i_am_a_die(die_type, leds))
    assert isinstance(msg, pixels.Identity)
    assert (msg.kind, msg.led_count, msg.pixel_id, msg.build_timestamp) == (kind, leds, PIXEL_ID, BUILT)
    assert (msg.colour, msg.roll_state, msg.battery, msg.charging) == ("midnight galaxy", "onFace", 81, False)


@pytest.mark.parametrize("die_type, leds, kind, name, faces, old_faces, no_face, old_no_face", PIXELS_KINDS)
def test_pixels_faces_of_every_die_type_on_both_face_table_families(
    die_type, leds, kind, name, faces, old_faces, no_face, old_no_face
):
    assert pixels.type_name(die_type, leds) == name
    for built, table, refused in ((BUILT_2024, faces, no_face), (BUILT, old_faces, old_no_face)):
        for index, printed in table.items():
            msg = pixels.decode(bytes([pixels.ROLL_STATE, 1, index]))  # 1: rolled
            assert msg == pixels.RollState("rolled", index) and pixels.landed(msg)
            assert pixels.face_value(name, index, built) == printed, (name, built, index)
        for index in refused:  # no face of this die: refused, never a guessed 1
            with pytest.raises(pixels.PixelsError, match="not a face"):
                pixels.face_value(name, index, built)
    rolling = pixels.decode(bytes([pixels.ROLL_STATE, 3, 4]))
    assert rolling == pixels.RollState("rolling", 4) and not pixels.landed(rolling)
    assert not pixels.landed(pixels.decode(bytes([pixels.ROLL_STATE, 5, 4])))  # onFace: resting, not a roll


def test_pixels_faces_that_cannot_be_read_for_certain_are_refused():
    with pytest.raises(pixels.PixelsError, match="firmware date is not known"):
        pixels.face_value("d4", 2, None)  # the two d4 tables differ: the date decides
    with pytest.raises(pixels.PixelsError, match="unknown type"):
        pixels.face_value("unknown", 9, BUILT_2024)  # type 0 and 0 LEDs: no face at all
    assert pixels.type_name(0, 0) == "unknown" and pixels.type_name(0, 21) == "d6pipped"


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


@pytest.mark.parametrize("die_type, leds, kind", KIND_CASES)
def test_pixels_identity_from_current_firmware_chunks(die_type, leds, kind):
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
    manufacturer = bytes([10, 4 << 4 | 4, 1, 7, 0x80 | 55])  # d10 (type 4), aurora sky, rolled, index 7, 55%
    service = struct.pack("<II", PIXEL_ID, BUILT)
    advert = pixels.decode_advert(manufacturer, service)
    assert (advert.kind, advert.colour, advert.roll_state, advert.face_index) == ("d10", "aurora sky", "rolled", 7)
    assert (advert.battery, advert.charging, advert.pixel_id, advert.build_timestamp) == (55, True, PIXEL_ID, BUILT)


@pytest.mark.parametrize("die_type, leds, kind", KIND_CASES)
def test_pixels_advert_byte_1_is_die_type_and_colourway(die_type, leds, kind):
    """DiceFirmware bluetooth_custom_advertising_data.cpp: ``(dieType << 4) | colourway``; a d4 and a
    Fudge die have a d6's 6 LEDs and a d00 a d10's 10, so only the die type tells them apart."""
    advert = pixels.decode_advert(bytes([leds, die_type << 4 | 3, 5, 0, 70]))
    assert (advert.kind, advert.colour) == (kind, "midnight galaxy")


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

    def showing(self, die_id, face):
        self.calls.append(("showing", die_id, face))

    def resting(self, die_id):
        self.calls.append(("resting", die_id))

    def unreadable(self, die_id, why):
        self.calls.append(("unreadable", die_id, why))

    def said(self, die_id, words):
        self.calls.append(("said", die_id, words))


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
        await client.send(bytes([pixels.ROLL_STATE, 9]))  # malformed: a roll we could not read
        await client.send(bytes([pixels.ROLL_STATE, 1, 10]))  # index 10: no face of a d10
        return hub.calls

    assert asyncio.run(go()) == [
        ("identify", "AA:01", "d10", "onyx black"),
        ("battery", "AA:01", 64, True),
        ("showing", "AA:01", 10),  # what IAmADie says it shows: index 0 of a d10, its 10
        ("rolling", "AA:01"),
        ("landed", "AA:01", 10),
        ("battery", "AA:01", 63, False),
        ("unreadable", "AA:01", "RollState has 3 bytes, this one 2"),
        ("unreadable", "AA:01", "face index 10 is not a face of a d10"),
    ]


def test_an_identity_of_type_0_and_no_leds_makes_no_face():
    """The issue's case: IAmADie saying die type 0 with 0 LEDs made two 10s log as [1, 10]."""

    async def go():
        hub, client = Hub(), StandInClient()
        link = pixels.PixelsLink(client, "AA:02", hub, kind="d10")  # paired as a d10
        await link.start()
        await client.send(i_am_a_die(0, 0))
        await client.send(bytes([pixels.ROLL_STATE, 3, 0]))
        await client.send(bytes([pixels.ROLL_STATE, 1, 0]))
        return hub.calls

    calls = asyncio.run(go())
    assert calls[0] == ("identify", "AA:02", None, "midnight galaxy")  # no kind said: the paired d10 stays
    assert calls[-1] == ("landed", "AA:02", 10)


def test_crooked_is_rolled_only_on_old_six_led_dice():
    """pixels-js Pixel.ts _updateRoll: 6-LED dice on firmware before FW_2024_05_22 report crooked
    when they rolled fine; on any other die crooked is refused (roll it again)."""

    async def go(die_type, leds, built):
        hub, client = Hub(), StandInClient()
        link = pixels.PixelsLink(client, "AA:03", hub)
        await link.start()
        await client.send(i_am_a_die(die_type, leds)[:-8] + struct.pack("<I", built) + bytes([5, 0, 80, 0]))
        await client.send(bytes([pixels.ROLL_STATE, 3, 0]))
        await client.send(bytes([pixels.ROLL_STATE, 4, 3]))
        return hub.calls[-1]

    assert asyncio.run(go(2, 6, 1_716_000_000)) == ("landed", "AA:03", 4)  # an old d6: index 3 is its 4
    assert asyncio.run(go(2, 6, 1_720_000_000))[0] == "unreadable"
    assert asyncio.run(go(7, 20, 1_700_000_000))[0] == "unreadable"


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
        await client.send(b"TS" + struct.pack(">bbb", 0, 0, 64))  # tilt-stable: not a roll, said
        await client.send(b"FS" + struct.pack(">bbb", 0, 0, 64))  # fake stable: turned by hand
        await client.send(b"MS" + struct.pack(">bbb", 0, 0, 64))  # moved after landing
        return hub.calls

    assert asyncio.run(go()) == [
        ("identify", "GD:06", None, "red"),
        ("battery", "GD:06", 88, False),
        ("rolling", "GD:06"),
        ("landed", "GD:06", 3),
        ("landed", "GD:06", 1),
        ("landed", "GD:06", 6),
        ("said", "GD:06", "is tilted (leaning on something): roll it again on the flat table"),
        ("said", "GD:06", "was set down by hand, not rolled: roll it"),
        ("said", "GD:06", "was moved after it landed: roll it again"),
    ]


def test_a_godice_that_answers_late_or_with_an_unknown_colour_still_connects(monkeypatch):
    """godice Dice.get_color waits for "Col" for ever and ``Color(9)`` raises: the link does neither."""
    monkeypatch.setattr(godice_link, "ANSWER_WITHIN", 0.05)

    async def go():
        hub, client = Hub(), StandInClient()  # answers nothing at first
        link = GoDiceLink(client, "GD:07", hub, "d20")
        await link.start()  # connected, without colour or battery
        assert hub.calls == []
        await client.send(b"Col" + bytes([9]))  # a colour byte godice has no name for
        await client.send(b"Bat" + bytes([12]))  # the battery answer, late
        await asyncio.sleep(0)
        await client.send(b"R")
        await client.send(stable(64, 0, 22))  # the d20 table's 20
        await link.stop()
        return hub.calls

    assert asyncio.run(go()) == [
        ("identify", "GD:07", None, "colour 9"),
        ("battery", "GD:07", 12, False),
        ("rolling", "GD:07"),
        ("landed", "GD:07", 20),
    ]


def test_a_godice_battery_is_read_again_while_connected(monkeypatch):
    monkeypatch.setattr(godice_link, "BATTERY_EVERY", 0.01)
    levels = iter([40, 39, 14])

    async def go():
        hub, client = Hub(), StandInClient()

        async def answer(char, data, response=None):
            client.written.append(bytes(data))
            if bytes(data) == bytes([3]):
                await client.send(b"Bat" + bytes([next(levels, 14)]))

        client.write_gatt_char = answer
        link = GoDiceLink(client, "GD:08", hub, "d6")
        await link.start()
        for _ in range(100):
            if len([c for c in hub.calls if c[0] == "battery"]) >= 3:
                break
            await asyncio.sleep(0.01)
        await link.stop()
        return [c[2] for c in hub.calls if c[0] == "battery"][:3]

    assert asyncio.run(go()) == [40, 39, 14]


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
