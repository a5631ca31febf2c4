"""Systemd done the way the platform expects (issue 32): journal priorities, Type=notify with a watchdog,
and a device allow list that keeps the unit's exposure at 2.0 or lower.

The journal reads a ``<N>`` prefix on each line of a service's stderr as its priority
(systemd.exec(5) ``SyslogLevelPrefix=``); ``$JOURNAL_STREAM`` is the "DEVICE:INODE" of that stream
(sd_journal_stream_fd(3)). sd_notify(3): datagrams to ``$NOTIFY_SOCKET``; ``WATCHDOG_USEC``.
Here the journal is a file whose device and inode the test puts in ``$JOURNAL_STREAM``, and systemd's
notify socket is a datagram socket the test binds.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from tableside import service
from tests.test_pi_install import _filled_unit


def journal_env(path):
    st = os.stat(path)
    return {**os.environ, "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}", "TABLESIDE_JOIN_CODE": "PLAY42"}


def test_an_error_line_reaches_the_journal_with_error_priority(tmp_path):
    journal = tmp_path / "journal"
    journal.touch()
    code = (
        "import logging; from tableside.service import setup_logging; setup_logging();"
        "log = logging.getLogger('tableside'); log.error('display failed: SPI is busy');"
        "log.warning('button B refused'); log.info('button A: rolled 4')"
    )
    with open(journal, "a") as err:
        subprocess.run([sys.executable, "-c", code], stderr=err, env=journal_env(journal), check=True, timeout=60)
    lines = journal.read_text().splitlines()
    assert lines == ["<3>display failed: SPI is busy", "<4>button B refused", "<6>button A: rolled 4"]


def test_a_start_error_of_the_cli_has_error_priority_and_a_terminal_sees_plain_words(tmp_path):
    (tmp_path / "tableside.db").write_bytes(b"not a database at all, " * 200)
    journal = tmp_path / "journal"
    journal.touch()
    run = [sys.executable, "-m", "tableside", "serve", "--simulate", "--data", str(tmp_path), "--port", "8124"]
    with open(journal, "a") as err:
        done = subprocess.run(run, stderr=err, stdout=subprocess.DEVNULL, env=journal_env(journal), timeout=60)
    assert done.returncode != 0
    assert re.search(r"^<3>tableside: the database .* is damaged", journal.read_text(), re.M)
    plain = subprocess.run(run, capture_output=True, text=True, env={**os.environ, "JOURNAL_STREAM": "1:2"}, timeout=60)
    assert plain.stderr.startswith("tableside: the database")  # not the journal: no prefix


def test_serve_says_ready_pings_the_watchdog_while_it_answers_and_says_stopping(tmp_path):
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(60)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "400000", "TABLESIDE_JOIN_CODE": "PLAY42"}
    cmd = [sys.executable, "-m", "tableside", "serve", "--simulate", "--data", str(tmp_path / "d"), "--port", str(port)]
    cmd += ["--host", "127.0.0.1"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        said = [sock.recv(4096).decode()]
        assert said == ["READY=1"]
        pings = 0
        deadline = time.monotonic() + 30
        while pings < 3 and time.monotonic() < deadline:
            state = sock.recv(4096).decode()
            pings += state == "WATCHDOG=1"
        assert pings == 3  # each one after /healthz answered
        proc.send_signal(signal.SIGTERM)
        while (state := sock.recv(4096).decode()) == "WATCHDOG=1":
            pass
        assert state == "STOPPING=1"
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()


def test_no_watchdog_without_watchdog_usec_and_notify_is_quiet_outside_systemd():
    assert service.watchdog_interval({}) is None
    assert service.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert service.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # another's
    assert service.notify("READY=1", {}) is False


def test_a_hung_server_stops_the_pings(tmp_path):
    """The watchdog pings only when /healthz answers: a server that no longer answers gets none."""
    with socket.socket() as silent:  # listens, never answers: a hung server
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        dog = service.Watchdog(silent.getsockname()[1], "127.0.0.1", 0.2)
        assert dog.alive() is False


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None and not os.environ.get("CI"),
    reason="systemd-analyze is not installed here (.ci/run installs it; in CI this test never skips)",
)
def test_the_units_exposure_is_at_most_2_0_with_gpio_spi_and_i2c_allowed(tmp_path):
    unit = _filled_unit(tmp_path)
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)], capture_output=True, text=True, timeout=60
    )
    level = re.search(r"Overall exposure level for tableside.service: ([\d.]+)", done.stdout + done.stderr)
    assert level, done.stdout + done.stderr
    assert float(level.group(1)) <= 2.0, done.stdout
    text = unit.read_text()
    for device in ("char-gpiochip rw", "char-spi rw", "char-i2c rw"):
        assert f"DeviceAllow={device}" in text
    assert "DevicePolicy=closed" in text and "Type=notify" in text and re.search(r"^WatchdogSec=\d+", text, re.M)
