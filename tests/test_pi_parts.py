"""The Pi appliance's parts: pin factory choice, the LAN address, kept faults, the shutdown prompt, config."""

from __future__ import annotations

import random
import subprocess
import sys
import types

import pytest
from gpiozero.pins.mock import MockFactory
from tableside.core.errors import RuleError, TablesideError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import Gesture
from tableside.device.controls import Controls
from tableside.device.pins import choose_pin_factory, pi_model
from tableside.webui.app import Services, create_app

from tableside.config import ConfigError, load_config
from tableside.faults import Faults, read
from tableside.network import Addresses, AddressWatch, lan_addresses, usable
from tests import toysystem

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


# -- pin factory ---------------------------------------------------------------------------------
def test_missing_lgpio_on_a_pi_is_an_error_with_a_fix(monkeypatch):
    monkeypatch.setitem(sys.modules, "lgpio", None)  # "import lgpio" raises ImportError
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    choice = choose_pin_factory(model=PI4, env={})
    assert choice.error and "lgpio" in choice.error and "will not work" in choice.error
    assert "pip install lgpio" in choice.fix
    assert choice.simulated and isinstance(choice.factory, MockFactory)  # the phone's buttons keep working
    assert choice.to_dict()["error"] == choice.error


def test_a_fallback_factory_whose_callbacks_do_not_work_on_a_pi5_is_an_error():
    choice = choose_pin_factory(requested="rpigpio", model=PI5, env={})
    assert choice.error and "does not work on a Raspberry Pi 5" in choice.error
    native = choose_pin_factory(model=PI4, env={"GPIOZERO_PIN_FACTORY": "native"})
    assert native.error and "misses presses" in native.error and "GPIOZERO_PIN_FACTORY" in native.why


def test_off_a_pi_the_mock_factory_is_chosen_and_says_why_without_an_error():
    choice = choose_pin_factory(model=None, env={})
    assert choice.name == "mock" and choice.error is None and "not a Raspberry Pi" in choice.why
    assert choose_pin_factory(simulate=True, model=PI4).why == "started with --simulate"
    bad = choose_pin_factory(requested="banana", model=PI4, env={})
    assert bad.error == "unknown pin factory 'banana'"


def test_lgpio_is_used_on_a_pi_when_it_loads(monkeypatch):
    module = types.ModuleType("gpiozero.pins.lgpio")

    class LGPIOFactory(MockFactory):  # stands in for the real one, which needs /dev/gpiochip0
        pass

    module.LGPIOFactory = LGPIOFactory
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", module)
    choice = choose_pin_factory(model=PI4, env={})
    assert choice.name == "lgpio" and choice.error is None and PI4 in choice.why
    assert isinstance(choice.factory, LGPIOFactory) and not choice.simulated


def test_pi_model_reads_the_device_tree(tmp_path):
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_bytes(PI4.encode() + b"\0")
    assert pi_model(tmp_path) == PI4
    (tmp_path / "proc/device-tree/model").write_bytes(b"Some other board\0")
    assert pi_model(tmp_path) is None
    assert pi_model(tmp_path / "nowhere") is None


# -- address ---------------------------------------------------------------------------------------
def test_the_printed_address_is_never_loopback_even_when_the_hostname_maps_to_127_0_1_1():
    found = lan_addresses(
        interfaces=lambda: [("lo", "127.0.0.1"), ("wlan0", "192.168.1.23"), ("eth0", "169.254.3.4")],
        route=lambda: "127.0.1.1",
    )
    assert found == ["192.168.1.23", "169.254.3.4"]
    assert not usable("127.0.1.1") and not usable("0.0.0.0") and usable("10.0.0.5")
    where = Addresses("tableside", 8080, tuple(found))
    assert where.urls == ["http://192.168.1.23:8080/", "http://169.254.3.4:8080/", "http://tableside.local:8080/"]
    assert "127." not in where.url


def test_without_a_network_the_url_is_hostname_local_and_the_watch_notices_the_address():
    seen = []
    addresses = []
    watch = AddressWatch(8080, "0.0.0.0", seen.append, find=lambda: list(addresses))
    assert not watch.now.online and watch.now.url.endswith(".local:8080/") and "127." not in watch.now.url
    assert watch.check() is False and seen == []
    addresses.append("192.168.4.7")
    assert watch.check() is True
    assert seen[-1].url == "http://192.168.4.7:8080/" and seen[-1].online


def test_serving_on_loopback_says_so():
    assert Addresses("pi", 8080, (), listen="127.0.0.1").urls == ["http://127.0.0.1:8080/"]


# -- faults ----------------------------------------------------------------------------------------
def test_faults_are_kept_in_the_data_folder_for_the_doctor(tmp_path):
    faults = Faults(tmp_path, clock=lambda: 5.0)
    heard = []
    faults.subscribe(lambda component, record: heard.append((component, record and record["error"])))
    faults.report("display", SystemExit("Woah there, some pins we need are in use!"), fix="reboot")
    assert read(tmp_path)["display"] == {
        "component": "display",
        "at": 5.0,
        "count": 1,
        "fix": "reboot",
        "error": "SystemExit: Woah there, some pins we need are in use!",
    }
    faults.clear("display")
    assert read(tmp_path) == {} and heard[-1] == ("display", None)
    assert read(tmp_path / "missing") == {}


# -- shutdown prompt and overrides -------------------------------------------------------------------
class Ran:
    def __init__(self, returncode=0, stderr=""):
        self.calls = []
        self.returncode, self.stderr = returncode, stderr

    def __call__(self, command, **kw):
        self.calls.append(command)
        return subprocess.CompletedProcess(command, self.returncode, "", self.stderr)


@pytest.fixture
def table(tmp_path):
    t = Table(Store(tmp_path / "t.db"), rng=random.Random(2), systems=toysystem.get)
    t.create_session("toy")
    yield t
    t.store.close()


def controls(table, **kw):
    kw.setdefault("simulated", False)
    kw.setdefault("run", Ran())
    return Controls(table, schedule=lambda delay, callback: None, **kw)


def g(name: str, at: float) -> Gesture:
    if "+" in name:
        return Gesture("chord", tuple(name.split("+")), at)
    if name.startswith("hold "):
        return Gesture("hold", (name[5:],), at)
    return Gesture("press", (name,), at)


def release(name: str, at: float) -> Gesture:
    return Gesture("release", tuple(name.split("+")), at)


def test_the_chord_held_on_while_the_light_blinks_then_let_go_runs_the_shutdown_command(table):
    c = controls(table, shutdown_command=("sudo", "-n", "poweroff"))
    asked = c.handle(g("A+D", 10.0))
    assert "Keep holding A+D while the light blinks" in asked["result"]["summary"]
    assert c.overlay()["kind"] == "shutdown"
    assert c.handle(release("A+D", 12.5))["result"]["summary"] == "Shutting down"
    assert c.run.calls == [["sudo", "-n", "poweroff"]]
    assert c.overlay()["title"] == "Shutting down"  # drawn once decided
    assert table.view()["state"]["score"] == 0


def test_letting_go_early_or_another_button_cancels_and_after_the_deadline_nothing_plays(table):
    c = controls(table)
    c.handle(g("A+D", 10.0))
    assert c.handle(release("A+D", 11.0))["result"]["summary"].startswith("Shutdown cancelled")
    assert c.overlay() is None and c.run.calls == []
    c.handle(g("A+D", 20.0))
    assert c.handle(g("B", 21.0))["result"]["summary"].startswith("Shutdown cancelled")
    c.handle(g("A+D", 30.0))
    late = c.handle(release("A+D", 40.0))  # past 2 + 5 s: the question had lapsed
    assert "lapsed: nothing happened" in late["result"]["summary"] and c.run.calls == []
    assert table.view()["state"]["score"] == 0


def test_a_shutdown_button_asks_press_a_and_a_late_a_never_rolls(table):
    c = controls(table, overrides={"hold D": "shutdown"})
    asked = c.handle(g("hold D", 10.0))
    assert "Press A within 5 s" in asked["result"]["summary"]
    late = c.handle(g("A", 15.5))
    assert "lapsed: nothing happened" in late["result"]["summary"]
    assert c.run.calls == [] and table.view()["state"]["score"] == 0  # A did not roll
    c.handle(g("hold D", 20.0))
    assert c.handle(g("A", 24.9))["result"]["summary"] == "Shutting down"


def test_shutdown_refuses_in_simulation(table):
    c = controls(table, simulated=True)
    c.handle(g("A+D", 1.0))
    with pytest.raises(RuleError, match="simulated"):
        c.handle(release("A+D", 3.5))
    assert c.run.calls == [] and c.overlay() is None


def test_a_failing_shutdown_command_is_a_fault(table, tmp_path):
    faults = Faults(tmp_path)
    c = controls(table, run=Ran(returncode=1, stderr="Access denied"), faults=faults)
    c.handle(g("A+D", 1.0))
    with pytest.raises(RuntimeError, match="Access denied"):
        c.handle(release("A+D", 3.5))
    assert "Access denied" in read(tmp_path)["shutdown"]["error"]


def test_config_overrides_the_systems_button_map(table):
    c = controls(table, overrides={"A": "undo", "hold C": "add", "B": "none"})
    table.press("B", False)  # +1 through the system's own map
    assert c.handle(g("A", 1.0))["state"]["score"] == 0  # A now undoes
    with pytest.raises(RuleError, match="switched off"):
        c.handle(g("B", 2.0))
    with pytest.raises(TablesideError, match="points"):  # an action type: its fields are still checked
        c.handle(g("hold C", 3.0))


def test_without_overrides_the_system_decides(table):
    c = controls(table)
    assert c.handle(g("B", 1.0))["state"]["score"] == 1
    assert c.handle(g("D", 2.0))["state"]["score"] == 0
    with pytest.raises(RuleError, match="together do nothing"):
        c.handle(g("B+C", 3.0))


# -- config ----------------------------------------------------------------------------------------
def write(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(text)
    return str(path)


def test_config_reads_the_pi_settings(tmp_path):
    cfg = load_config(
        write(
            tmp_path,
            """
[buttons]
pins = { C = 25 }
debounce_ms = 8
pin_factory = "lgpio"
shutdown_chord = ["D", "A"]
map = { "hold  c" = "dice", "d+b" = "undo" }
[led]
pin = 12
pwm = true
[system]
shutdown_command = "sudo -n /usr/sbin/poweroff"
""",
        )
    )
    assert cfg.buttons == {"A": 5, "B": 6, "C": 25, "D": 24} and cfg.debounce_ms == 8
    assert cfg.button_map == {"hold C": "dice", "B+D": "undo"} and cfg.shutdown_chord == ("A", "D")
    assert (cfg.led_pin, cfg.led_pwm, cfg.pin_factory) == (12, True, "lgpio")
    assert cfg.shutdown_command == ("sudo", "-n", "/usr/sbin/poweroff")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[buttons]\npins = { A = 17 }", "BUSY"),
        ("[buttons]\npins = { A = 6 }", "share a pin"),
        ("[buttons]\npins = { E = 12 }", "unknown button"),
        ("[buttons]\npins = { A = 40 }", "0-27"),
        ("[buttons]\ndebounce_ms = 0", "debounce_ms"),
        ('[buttons]\nmap = { X = "undo" }', "not a gesture"),
        ('[buttons]\nmap = { A = "rm -rf" }', "neither an action type"),
        ('[buttons]\nshutdown_chord = ["A", "A"]', "two different buttons"),
        ("[led]\npin = 5", "[led] pin"),
        ("[system]\nshutdown_command = []", "shutdown_command"),
    ],
)
def test_bad_pi_settings_name_the_problem(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        load_config(write(tmp_path, text))


# -- GET /api/hardware -----------------------------------------------------------------------------
def test_hardware_route_shows_the_pin_factory_and_live_errors(table, tmp_path):
    from tableside.webui.stream import Broker

    from tableside.pi import Appliance

    faults = Faults(tmp_path)
    appliance = Appliance(load_config(None), table, Broker(), faults, simulate=False, model=PI5)
    try:
        services = Services(
            table=table, join_code="K7TQ2M", frame_png=lambda: b"", press=appliance.press, hardware=appliance.status
        )
        client = create_app(services, {"TESTING": True}).test_client()
        auth = {"Authorization": "Bearer K7TQ2M"}
        body = client.get("/api/hardware", headers=auth).get_json()
        assert body["pins"]["model"] == PI5 and body["pins"]["pin_factory"] in ("lgpio", "mock")
        if body["pins"]["pin_factory"] == "mock":  # no lgpio here: an error, not a silent fallback
            assert "lgpio" in body["errors"]["pins"]["error"]
        faults.report("display", SystemExit("pins in use"))
        body = client.get("/api/hardware", headers=auth).get_json()
        assert body["errors"]["display"]["error"] == "SystemExit: pins in use"
    finally:
        appliance.close()


def test_lgpio_with_nowhere_to_make_its_pipe_is_an_error_naming_the_working_directory(monkeypatch, tmp_path):
    """Issue 19: lgpio makes '.lgd-nfyN' where the service runs; "/" gave FileNotFoundError and the fix said
    "run 'tableside doctor'", which saw nothing wrong. Now the error names the folder and the fix the unit."""
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setenv("LG_WD", str(tmp_path / "gone"))
    choice = choose_pin_factory(model="Raspberry Pi Zero 2 W Rev 1.0", env={})
    assert choice.simulated and "the lgpio pin factory failed to load" in choice.error
    assert f"LG_WD={tmp_path / 'gone'}" in choice.error and "cannot write" in choice.error
    assert "WorkingDirectory" in choice.fix and "doctor" not in choice.fix
    assert "gpiozero.pins.lgpio" not in sys.modules  # refused before lgpio was imported (it would chdir)
