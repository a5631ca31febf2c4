"""Smart dice through bleak itself, against BlueZoo (a mock of BlueZ's D-Bus API) on a private D-Bus bus.

The test starts its own ``dbus-daemon`` (never the machine's buses, with a config of its own),
BlueZoo on it with three adapters (hci0 for Tableside, hci1 and hci2 for the dice), and
``tests/bluezoo_die.py`` twice: a Pixels d10 and a GoDice, each advertising and serving its
GATT service the way a peripheral does on BlueZ. Tableside's Bluetooth hub then runs
unchanged, bleak and godice and all: it scans, pairs both dice (the GoDice in its d10 shell),
connects, asks who they are (Pixels: WhoAreYou -> IAmADie; GoDice: colour and battery), and
their rolls fill a VNM attack through ``Table.act``, replayed from the log.

Skipped, saying why, where ``dbus-daemon`` (Debian's ``dbus-daemon`` package; .ci/run
installs it) or BlueZoo (``bluezoo`` on PyPI, in the test extra) is missing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
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

PIXELS = "C0:FF:EE:00:00:10"
GODICE = "C0:FF:EE:00:00:06"
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


@pytest.fixture
def bus(tmp_path, monkeypatch):
    """A private bus, BlueZoo on it, and the die; everything started here is stopped here."""
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
    try:
        address = daemon.stdout.readline().strip()
        assert address.startswith("unix:"), address
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": address}
        zoo_log = open(tmp_path / "bluezoo.log", "w")  # noqa: SIM115 (closed below)
        zoo = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from bluezoo.bluezoo import main; sys.exit(main())",
                "--auto-enable",
                "--scan-interval",
                "1",
                "--adapter",
                "00:AA:00:00:00:01",
                "--adapter",
                PIXELS,
                "--adapter",
                GODICE,
            ],
            env=env,
            stdout=zoo_log,
            stderr=subprocess.STDOUT,
        )
        started.append(zoo)
        dice = {}
        for family, adapter in (("pixels", "/org/bluez/hci1"), ("godice", "/org/bluez/hci2")):
            die = subprocess.Popen(
                [sys.executable, str(DIE_SCRIPT), family, adapter],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            started.append(die)
            ready = die.stdout.readline().strip()
            assert ready == "ready", (family, ready, die.stderr.read() if die.poll() is not None else "")
            dice[family] = die
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", address)  # bleak's dbus-fast reads it when it connects
        yield dice
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
        if "zoo_log" in locals():
            zoo_log.close()


def play(die: subprocess.Popen, line: str) -> None:
    die.stdin.write(line + "\n")
    die.stdin.flush()
    assert die.stdout.readline().strip() == f"done {line.split()[0]}"


def test_a_pixels_die_and_a_godice_on_mocked_bluez_fill_a_vnm_attack_through_bleak(bus, tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(1))
    feed = DiceFeed(table)
    hub = BluetoothDice(Registry(tmp_path / "dice.json"), adapter="hci0", retry_first=0.2, on_roll=feed.landed)
    try:
        listed = {d["id"]: d for d in hub.scan(3)["dice"]}
        assert set(listed) == {PIXELS, GODICE}, listed
        pixel, godice = listed[PIXELS], listed[GODICE]
        assert (pixel["family"], pixel["kind"], pixel["colour"]) == ("pixels", "d10", "aurora sky")
        assert pixel["battery"] == 66 and pixel["advertised"] == "Pixel d10"
        assert (godice["family"], godice["kind"], godice["advertised"]) == ("godice", "d6", "GoDice_C0FFEE_K_v04")
        hub.pair(PIXELS, name="Zoo Pixel")
        hub.pair(GODICE, name="Zoo GoDice", kind="d10")  # it wears its d10 shell
        until(lambda: all(d.connection == "connected" for d in hub.dice.values()), "bleak to connect both")
        until(lambda: hub.dice[PIXELS].battery == 64, "IAmADie, the answer to WhoAreYou (the advert said 66%)")
        assert hub.registry.get(PIXELS)["kind"] == "d10"
        until(lambda: hub.dice[GODICE].battery == 77, "the GoDice's battery level")
        assert hub.dice[GODICE].colour == "green"

        table.create_session("vnm", {})
        table.act({"type": "declare_target", "target": "Mars"})
        feed.wait({"type": "attack"})
        play(bus["pixels"], "roll 0")  # face index 0 of a d10: its "0", the 10
        until(lambda: feed.status()["waiting"]["landed"] == 1, "the Pixels face")
        play(bus["godice"], "stable -64 0 -22")  # the d20 table's 1: the d10 shell's 8
        until(lambda: feed.status()["waiting"] is None, "the attack to run")
        entry = table.log()[-1]
        assert (entry["type"], entry["source"]) == ("attack", "dice")
        assert entry["rolls"][0]["rolls"] == [10, 8] and entry["rolls"][0]["dice"] == ["Zoo Pixel", "Zoo GoDice"]
        sid, _ = table.position()
        replayed = json.dumps(table.replay(sid), sort_keys=True)
        assert replayed == json.dumps(table.current_state(), sort_keys=True)
    finally:
        hub.close()
        table.store.close()
