"""``tableside doctor`` on a fake Pi with smart dice: adapter present, powered (rfkill), permissions, bleak."""

from __future__ import annotations

import grp

from tableside.device.smartdice import adapter

from tableside.doctor import run_checks
from tests.test_pi_install import fake_pi


def radio(root, name, soft="0", hard="0"):
    folder = root / "sys/class/rfkill" / name
    folder.mkdir(parents=True)
    (folder / "type").write_text("bluetooth\n")
    (folder / "soft").write_text(soft + "\n")
    (folder / "hard").write_text(hard + "\n")


def texts(checks):
    return {c.text: (c.ok, c.fix) for c in checks}


def bluetooth(tmp_path):
    path = tmp_path / "dice.toml"
    path.write_text('[dice]\nkind = "bluetooth"\n')
    return str(path)


def test_a_pi_without_an_adapter_is_told_what_to_do(tmp_path):
    pi = fake_pi(tmp_path / "pi")
    found = texts(run_checks(str(tmp_path / "data"), bluetooth(tmp_path), root=pi, hardware=False))
    ok, fix = found["smart dice: no Bluetooth adapter found"]
    assert not ok and 'kind = "none"' in fix


def test_with_kind_auto_a_missing_adapter_is_said_but_never_a_fix(tmp_path):
    """Issue 32: optional dice ([dice] kind = "auto", the default) made the doctor exit 1 on a Pi without Bluetooth."""
    pi = fake_pi(tmp_path / "pi")
    checks = run_checks(str(tmp_path / "data"), root=pi, hardware=False)
    dice = [c for c in checks if c.text.startswith("smart dice:")]
    assert dice and all(c.ok and not c.fix for c in dice)
    assert dice[0].text.startswith('smart dice: no Bluetooth adapter found (optional: [dice] kind = "auto"')


def test_a_blocked_radio_is_named_with_rfkill(tmp_path):
    pi = fake_pi(tmp_path / "pi")
    (pi / "sys/class/bluetooth/hci0").mkdir(parents=True)
    radio(pi, "rfkill0", soft="1")
    found = texts(run_checks(str(tmp_path / "data"), bluetooth(tmp_path), root=pi, hardware=False))
    assert found["smart dice: Bluetooth adapter hci0"] == (True, "")
    assert found["smart dice: Bluetooth is blocked (rfkill)"] == (False, "sudo rfkill unblock bluetooth")


def test_powered_adapter_permissions_and_bleak(tmp_path):
    root = tmp_path / "sys-root"
    (root / "sys/class/bluetooth/hci0").mkdir(parents=True)
    (root / "sys/class/bluetooth/hci0:70").mkdir(parents=True)  # a connection, not an adapter
    radio(root, "rfkill1", hard="1")
    checks = adapter.checks(root, user="root")
    assert adapter.adapters(root) == ["hci0"]
    assert (False, "smart dice: the Bluetooth radio is switched off by a hardware switch", "switch it on") in checks
    assert (True, "smart dice: user root may use BlueZ over D-Bus", "") in checks
    assert (True, "smart dice: bleak is installed", "") in checks  # the test extra has it


def test_a_user_outside_the_bluetooth_group_is_told_to_join_it(tmp_path):
    root = tmp_path / "sys-root"
    (root / "sys/class/bluetooth/hci0").mkdir(parents=True)
    try:
        in_group = "nobody" in grp.getgrnam("bluetooth").gr_mem
    except KeyError:
        in_group = False
    checks = adapter.checks(root, user="nobody")
    expected = (
        False,
        "smart dice: user nobody is not in the 'bluetooth' group, so BlueZ will refuse it",
        "sudo usermod -aG bluetooth nobody, then restart the service",
    )
    assert (expected in checks) is not in_group
    assert adapter.may_use_bluez("root")


def test_kind_none_skips_the_bluetooth_checks(tmp_path):
    pi = fake_pi(tmp_path / "pi")
    conf = tmp_path / "t.toml"
    conf.write_text('[dice]\nkind = "none"\n')
    checks = run_checks(str(tmp_path / "data"), str(conf), root=pi, hardware=False)
    assert not [c for c in checks if c.text.startswith("smart dice")]


def test_the_pi_installer_adds_the_dice_extra_and_the_bluetooth_group(tmp_path):
    from tests.test_pi_install import install

    root = fake_pi(tmp_path / "pi")
    group = root / "etc/group"
    group.write_text(group.read_text() + "bluetooth:x:112:\n")  # Pi OS has it (bluez)
    done = install("--dry-run", "--root", str(root), "--user", "pi", "--arch", "arm64", "--hostname", "tableside")
    assert done.returncode == 0, done.stderr + done.stdout
    assert "would run: usermod -aG gpio,spi,i2c,bluetooth pi" in done.stdout
    pip = next(line for line in done.stdout.splitlines() if "pip install --quiet --upgrade" in line)
    assert pip.endswith(" BUILD-FOLDER[dice]")


def test_a_die_low_on_battery_when_last_heard_is_said_by_the_doctor(tmp_path):
    """The hub writes a paired die's level to DATA/dice.json when it drops below 15% (and when charged)."""
    from tableside.device.smartdice.registry import Registry
    from tableside.device.smartdice.simulated import SimulatedDice

    data = tmp_path / "data"
    hub = SimulatedDice(Registry(data / "dice.json"), ("d10", "d6"))
    hub.scan()
    hub.pair("sim-1", name="Red d10")
    hub.pair("sim-2", name="Blue d6")
    hub.battery("sim-1", 12, False)
    hub.battery("sim-2", 40, False)
    pi = fake_pi(tmp_path / "pi")
    found = texts(run_checks(str(data), root=pi, hardware=False))
    assert found["smart dice: Red d10 had 12% battery when last heard"] == (False, "charge it")
    assert not any("Blue d6" in text for text in found)
    hub.battery("sim-1", 13, True)  # on its charger: no longer said
    found = texts(run_checks(str(data), root=pi, hardware=False))
    assert not any("Red d10" in text for text in found)
