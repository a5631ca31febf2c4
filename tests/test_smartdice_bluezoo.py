"""Smart dice through bleak itself, against BlueZoo (a mock of BlueZ's D-Bus API) on a private D-Bus bus.

The test starts its own ``dbus-daemon`` (never the machine's buses, with a config of its own),
BlueZoo on it with an adapter for Tableside and one per die, and ``tests/bluezoo_die.py`` playing
the dice as each firmware is (its docstring cites the makers' sources): every Pixels die type on
the 2023-12-22 release (legacy service, the "bad normals" face tables), the 2024-11-07 release
(legacy service, current tables) and DiceFirmware main of 2025 (the a6b90001 service, company
0x0D39, the chunked IAmADie), and GoDice (one answering late). Tableside's Bluetooth hub then runs
unchanged, bleak and godice and all: it scans, pairs, connects, asks who they are, reads their
rolls, and blinks them.

Skipped, saying why, where ``dbus-daemon`` (Debian's ``dbus-daemon`` package; .ci/run
installs it) or BlueZoo (``bluezoo`` on PyPI, in the test extra) is missing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.smartdice.ble import BluetoothDice
from tableside.device.smartdice.registry import Registry

from tableside.dice_feed import DiceFeed

DIE_SCRIPT = Path(__file__).with_name("bluezoo_die.py")

if shutil.which("dbus-daemon") is None:
    pytest.skip("no dbus-daemon here (Debian package 'dbus-daemon'): BlueZoo needs a bus", allow_module_level=True)
if importlib.util.find_spec("bluezoo") is None or importlib.util.find_spec("sdbus") is None:
    pytest.skip("bluezoo is not installed (pip install bluezoo)", allow_module_level=True)


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=FOLDER</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="service_start_timeout">120000</limit>
  <limit name="auth_timeout">240000</limit>
  <limit name="pending_fd_timeout">150000</limit>
  <limit name="max_completed_connections">100000</limit>
  <limit name="max_incomplete_connections">10000</limit>
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_pending_service_starts">10000</limit>
  <limit name="max_names_per_connection">50000</limit>
  <limit name="max_match_rules_per_connection">50000</limit>
  <limit name="max_replies_per_connection">50000</limit>
</busconfig>
"""


def until(check, what, seconds=20.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def address(n: int) -> str:
    return f"C0:FF:EE:00:01:{n:02X}"


class Zoo:
    """The dice process: ``play(n, "roll 3")`` plays a line on die n; ``writes(n)`` what the hub wrote to it."""

    def __init__(self, proc: subprocess.Popen, writes: Path, specs: list[str]) -> None:
        self.proc, self.path, self.specs = proc, writes, specs

    def play(self, n: int, line: str) -> None:
        self.proc.stdin.write(f"{n} {line}\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == f"done {line.split()[0]}"

    def writes(self, n: int) -> list[bytes]:
        if not self.path.exists():
            return []
        lines = [line.split() for line in self.path.read_text().splitlines()]
        return [bytes.fromhex(h) for k, h in lines if int(k) == n]


@pytest.fixture
def zoo(tmp_path, monkeypatch, request):
    """A private bus, BlueZoo on it (an adapter for Tableside, one per die), and the dice process."""
    specs: list[str] = request.param
    started: list[subprocess.Popen] = []
    config = tmp_path / "bus.conf"  # our own: no system or session policy of this machine is used
    config.write_text(BUS_CONFIG.replace("FOLDER", str(tmp_path)))
    daemon = subprocess.Popen(
        ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    started.append(daemon)
    zoo_log = open(tmp_path / "bluezoo.log", "w")  # noqa: SIM115 (closed below)
    try:
        bus = daemon.stdout.readline().strip()
        assert bus.startswith("unix:"), bus
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": bus}
        adapters = ["--adapter", "00:AA:00:00:00:01"]
        for n in range(len(specs)):
            adapters += ["--adapter", address(n)]
        zoo = subprocess.Popen(
            [sys.executable, "-c", "import sys; from bluezoo.bluezoo import main; sys.exit(main())"]
            + ["--auto-enable", "--scan-interval", "1", *adapters],
            env=env,
            stdout=zoo_log,
            stderr=subprocess.STDOUT,
        )
        started.append(zoo)
        writes = tmp_path / "writes.txt"
        dice = subprocess.Popen(
            [sys.executable, str(DIE_SCRIPT), "--writes", str(writes)]
            + [f"{spec},hci=/org/bluez/hci{n + 1}" for n, spec in enumerate(specs)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(dice)
        ready = dice.stdout.readline().strip()
        assert ready == "ready", (ready, dice.stderr.read() if dice.poll() is not None else "")
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", bus)  # bleak's dbus-fast reads it when it connects
        yield Zoo(dice, writes, specs)
    finally:
        for proc in reversed(started):
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        zoo_log.close()


# Every Pixels die type: (pixels-js type name, Tableside's kind, face index rolled -> face read on
# current tables, the same on the bad-normals firmware); DiceUtils.ts faceFromIndex @ 3fa3c1a.
TYPES = [
    ("d4", "d4", (2, 3), (2, 3)),  # current: index + 1; bad normals: 2 -> 3 (the old SDK table said 2)
    ("d6", "d6", (1, 2), (1, 5)),  # bad normals: 1 -> 5
    ("d8", "d8", (7, 8), (7, 8)),
    ("d10", "d10", (0, 10), (0, 10)),  # its 0 is the 10
    ("d00", "d00", (3, 30), (3, 30)),  # read, tens; no numbered roll takes it
    ("d12", "d12", (11, 12), (11, 12)),
    ("d20", "d20", (19, 20), (19, 20)),
    ("d6pipped", "d6", (4, 5), (4, 5)),  # 21 LEDs; no bad-normals table
    ("d6fudge", "dF", (5, 6), (5, 6)),
]
FAMILIES = ["v2023-12-22", "v2024-11-07", "2025-07-24"]


def all_types(firmware: str) -> list[str]:
    return [f"pixels,type={name},firmware={firmware}" for name, *_ in TYPES]


def connected_hub(tmp_path, count, feed=None, **kw):
    hub = BluetoothDice(
        Registry(tmp_path / "dice.json"),
        adapter="hci0",
        retry_first=0.2,
        on_roll=feed.landed if feed else (lambda die, face, moved: None),
        on_word=feed.said if feed else (lambda die, words: None),
        **kw,
    )
    listed = {d["id"]: d for d in hub.scan(3)["dice"]}
    assert set(listed) == {address(n) for n in range(count)}, listed
    return hub, listed


@pytest.mark.parametrize("zoo", [all_types(f) for f in FAMILIES], ids=FAMILIES, indirect=True)
def test_every_pixels_die_type_on_each_firmware_lists_connects_and_reads_its_faces(zoo, tmp_path):
    firmware = zoo.specs[0].rsplit("=", 1)[1]
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1))
    feed = DiceFeed(table)
    hub, listed = connected_hub(tmp_path, len(TYPES), feed)
    try:
        for n, (_name, kind, _now, _old) in enumerate(TYPES):  # the advert alone says kind and colour
            die = listed[address(n)]
            assert (die["family"], die["kind"], die["colour"], die["battery"]) == ("pixels", kind, "aurora sky", 66)
        for n in range(len(TYPES)):
            hub.pair(address(n), name=f"Zoo {n}")
        until(lambda: all(d.connection == "connected" for d in hub.dice.values()), "bleak to connect them all", 60)
        until(lambda: all(d.battery == 64 for d in hub.dice.values()), "IAmADie from each (the advert said 66%)")
        for n, (_name, _kind, now, old) in enumerate(TYPES):
            index, face = old if firmware == "v2023-12-22" else now
            zoo.play(n, f"roll {index}")
            until(lambda n=n, face=face: hub.dice[address(n)].last_face == face, f"die {n} to read {face}")
        # A face index that is no face of the d10: refused in words, never a face.
        zoo.play(3, "roll 10")
        until(lambda: "Zoo 3 sent a roll we could not read: roll it again" in (feed.message or ""), "the refusal")
        assert hub.dice[address(3)].last_face == 10
        d6 = 1
        if firmware == "v2023-12-22":  # a 6-LED die before FW_2024_05_22: crooked is its rolled
            zoo.play(d6, "crooked 2")
            until(lambda: hub.dice[address(d6)].last_face == 4, "crooked read as rolled (bad normals: 2 -> 4)")
        else:
            zoo.play(d6, "crooked 2")
            until(lambda: "Zoo 1 sent a roll we could not read" in (feed.message or ""), "crooked refused")
        if firmware != "v2023-12-22":  # onFace (from v2024-11-07): moved without a roll, nothing read
            zoo.play(d6, "onface 4")
            zoo.play(d6, "frame 5")  # a lone "rolled" frame: not seen moving, a free roll at most
            until(lambda: hub.dice[address(d6)].last_face == 6, "the lone frame")
            assert feed.message == "Zoo 1 shows 6: Zoo 1 was not seen rolling, so it is a free roll"
        served = {address(n): hub.links[address(n)].service for n in range(len(TYPES))}
        want = "a6b90001" if firmware == "2025-07-24" else "6e400001"
        assert all(s.startswith(want) for s in served.values()), served
    finally:
        hub.close()
        table.store.close()


BLINK = 29


@pytest.mark.parametrize(
    "zoo", [["pixels,type=d10,firmware=2025-07-24", "pixels,type=d6,firmware=v2024-11-07"]], indirect=True
)
def test_the_die_blinks_once_for_a_taken_face_another_way_for_a_refusal_and_for_identify(zoo, tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1))
    feed = DiceFeed(table)
    hub, _ = connected_hub(tmp_path, 2, feed)
    try:
        hub.pair(address(0), name="Pluto d10", seat="Pluto")
        hub.pair(address(1), name="Mars d6", seat="Mars")
        until(lambda: all(d.connection == "connected" for d in hub.dice.values()), "both connected")
        until(lambda: all(d.battery == 64 for d in hub.dice.values()), "IAmADie")
        table.create_session("vnm", {})
        table.act({"type": "declare_target", "target": "Mars"})
        feed.wait({"type": "attack"})
        zoo.play(0, "roll 4")  # taken: Pluto's d10 for Pluto's attack
        until(lambda: feed.status()["waiting"]["landed"] == 1, "the face taken")
        zoo.play(1, "roll 2")  # refused: a d6, and Mars's
        until(lambda: "is a d6" in (feed.message or ""), "the refusal")
        hub.blink(address(0))  # Identify from the dice page
        until(lambda: len([w for w in zoo.writes(0) if w[:1] == bytes([BLINK])]) == 2, "two blinks on the d10")
        until(lambda: [w for w in zoo.writes(1) if w[:1] == bytes([BLINK])], "a blink on the d6")
        blinks = {n: [w for w in zoo.writes(n) if w[:1] == bytes([BLINK])] for n in (0, 1)}
        # DiceFirmware MessageBlink: id, count, duration (ms), colour 0xRRGGBB, face mask, fade, loop count
        fields = {n: [struct.unpack("<BBHIIBB", w) for w in ws] for n, ws in blinks.items()}
        taken, identify = fields[0]
        (refused,) = fields[1]
        assert taken[1] == 1 and taken[3] == 0x00FF00  # one blink; Pluto has no colour here: green
        assert refused[1] == 3 and refused[3] == 0xFF0000  # three red
        assert identify[1] == 5 and identify[3] == 0xFFFFFF  # five white
        assert zoo.writes(0)[0] == b"\x01" and zoo.writes(1)[0] == b"\x01"  # WhoAreYou first, on each
    finally:
        hub.close()
        table.store.close()


GODICE_SPECS = ["pixels,type=d10,firmware=v2024-11-07", "godice,colour=2", "godice,colour=3,answers=late"]


@pytest.mark.parametrize("zoo", [GODICE_SPECS], indirect=True)
def test_pixels_and_godice_d10_and_d20_on_mocked_bluez_fill_a_vnm_attack_through_bleak(zoo, tmp_path, monkeypatch):
    from tableside.device.smartdice import godice as godice_link

    monkeypatch.setattr(godice_link, "ANSWER_WITHIN", 0.5)  # the late die connects without its answers
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1))
    feed = DiceFeed(table)
    hub, listed = connected_hub(tmp_path, 3, feed)
    pixel, godice, late = address(0), address(1), address(2)
    try:
        assert (listed[godice]["family"], listed[godice]["kind"]) == ("godice", "d6")
        hub.pair(pixel, name="Zoo Pixel")
        hub.pair(godice, name="Zoo GoDice", kind="d10")  # it wears its d10 shell
        hub.pair(late, name="Late GoDice", kind="d20")
        until(lambda: all(d.connection == "connected" for d in hub.dice.values()), "bleak to connect all three")
        until(lambda: hub.dice[godice].battery == 77, "the GoDice's battery level")
        assert hub.dice[godice].colour == "green"
        assert hub.dice[late].colour == "" and hub.dice[late].battery is None  # connected, answers pending
        zoo.play(2, "answer")  # the late answers come: read, not fatal
        until(lambda: hub.dice[late].colour == "blue" and hub.dice[late].battery == 77, "the late answers")
        zoo.play(2, "tilt 0 0 64")  # leaning on a book: said, not a roll
        until(
            lambda: feed.message == "Late GoDice is tilted (leaning on something): roll it again on the flat table",
            "the tilt",
        )
        zoo.play(2, "stable 64 0 22")  # the d20 table's 20
        until(lambda: hub.dice[late].last_face == 20, "the d20's 20")

        table.create_session("vnm", {})
        table.act({"type": "declare_target", "target": "Mars"})
        feed.wait({"type": "attack"})
        zoo.play(0, "roll 0")  # face index 0 of a d10: its "0", the 10
        until(lambda: feed.status()["waiting"]["landed"] == 1, "the Pixels face")
        zoo.play(1, "stable -64 0 -22")  # the d20 table's 1: the d10 shell's 8
        until(lambda: feed.status()["waiting"] is None, "the attack to run")
        entry = table.log()[-1]
        assert (entry["type"], entry["source"]) == ("attack", "dice")
        assert entry["rolls"][0]["rolls"] == [10, 8] and entry["rolls"][0]["dice"] == ["Zoo Pixel", "Zoo GoDice"]
        sid, _ = table.position()
        replayed = json.dumps(table.replay(sid), sort_keys=True)
        assert replayed == json.dumps(table.current_state(), sort_keys=True)
        until(lambda: any(w[:1] == bytes([16]) for w in zoo.writes(1)), "the GoDice's LED pulse for its taken face")
    finally:
        hub.close()
        table.store.close()
