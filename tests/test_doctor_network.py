"""``tableside doctor`` on any machine (issue 38): the firewall judged from the rule sets it reads (files
under tests/firewall/, in the formats ``nft list ruleset``, ``ufw status verbose`` and
``firewall-cmd --list-all`` print: the nftables, ufw and firewalld manuals' own layouts), with the exact
command that opens the port; the announcement heard from a real ``tableside serve``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tableside import doctor_network as net
from tableside.config import Config
from tableside.doctor import run_doctor
from tests.live import Process, free_port

RULES = Path(__file__).resolve().parent / "firewall"


def rules(name: str) -> str:
    return (RULES / name).read_text()


@pytest.mark.parametrize(
    "name, port, proto, blocked",
    [
        ("debian-default.nft", 8080, "tcp", None),
        ("laptop-drop.nft", 8080, "tcp", "chain inet filter input has policy drop and no rule accepts tcp port 8080"),
        ("laptop-drop.nft", 22, "tcp", None),
        ("laptop-drop.nft", 443, "tcp", None),  # through the jump to 'services'
        ("laptop-drop.nft", 5353, "udp", None),
        ("laptop-open.nft", 8080, "tcp", None),
        ("laptop-open.nft", 8090, "tcp", None),  # a range in a set
        ("explicit-reject.nft", 8080, "tcp", 'rule \'ip filter INPUT: iifname "wlan0" tcp dport 8080 counter'),
        ("explicit-reject.nft", 8081, "tcp", None),
    ],
)
def test_nftables_rule_sets(name, port, proto, blocked):
    why = net.nft_blocks(rules(name), port, proto)
    assert (why is None) if blocked is None else why.startswith(blocked), why


def test_the_nftables_fix_names_the_chain_and_puts_the_rule_first():
    assert net.nft_fix(rules("laptop-drop.nft"), 8080) == "sudo nft insert rule inet filter input tcp dport 8080 accept"
    fixed = rules("laptop-drop.nft").replace(
        "\t\ttcp dport 22 accept", "\t\ttcp dport 8080 accept\n\t\ttcp dport 22 accept"
    )
    assert net.nft_blocks(fixed, 8080) is None


def test_ufw():
    assert (
        net.ufw_blocks(rules("ufw-deny.txt"), 8080)
        == "ufw is active, denies incoming by default and allows no tcp port 8080"
    )
    assert net.ufw_blocks(rules("ufw-deny.txt"), 5353, "udp") is None
    assert net.ufw_blocks(rules("ufw-allowed.txt"), 8080) is None
    assert net.ufw_blocks("Status: inactive\n", 8080) is None


def test_firewalld():
    assert net.firewalld_blocks(rules("firewalld-public.txt"), 8080) == "firewalld zone public opens no tcp port 8080"
    assert net.firewalld_blocks(rules("firewalld-public.txt"), 5353, "udp") is None  # the mdns service
    assert net.firewalld_blocks(rules("firewalld-opened.txt"), 8080) is None


def test_the_doctor_reads_a_machines_nftables_conf_and_says_the_fix(tmp_path, capsys):
    """Off a Pi (a fake root), the rule set nftables loads at boot is read from its file."""
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/nftables.conf").write_text(rules("laptop-drop.nft"))
    config = tmp_path / "t.toml"
    config.write_text(f"[server]\nport = {free_port()}\n")
    code = run_doctor(str(tmp_path / "data"), str(config), root=tmp_path)
    out = capsys.readouterr().out
    port = int(config.read_text().split("= ")[1])
    assert code == 1, out
    said = "FIX  /etc/nftables.conf drops phones: chain inet filter input has policy drop and no rule accepts tcp port"
    assert f"{said} {port}" in out
    assert f"-> sudo nft insert rule inet filter input tcp dport {port} accept" in out
    assert "ok   /etc/nftables.conf lets the mDNS announcement in (udp 5353)" in out
    assert f"ok   port {port} is free" in out and f"data folder {tmp_path / 'data'} does not exist yet" in out


def test_commands_are_read_when_the_tools_answer(tmp_path):
    answers = {("ufw", "status", "verbose"): (0, rules("ufw-deny.txt"))}
    (tmp_path / "etc/ufw").mkdir(parents=True)
    (tmp_path / "etc/ufw/ufw.conf").write_text("ENABLED=yes\n")
    checks = net.check_firewall(8080, tmp_path, run=lambda argv: answers.get(tuple(argv), (1, "")))
    assert [(c.ok, c.fix) for c in checks] == [(False, "sudo ufw allow 8080/tcp"), (True, "sudo ufw allow 5353/udp")]


@pytest.mark.slow
def test_the_announcement_of_a_running_table_is_heard(tmp_path):
    server = Process(tmp_path / "data", config="[server]\nannounce = true\n").start()
    try:
        check = net.check_announcement(True, "127.0.0.1", server.port, serving=True, listen_for=20)
        assert check.ok and check.text.startswith("phones can find the table: 'Tableside on "), check
    finally:
        server.stop()
    check = net.check_announcement(True, "127.0.0.1", server.port, serving=True, listen_for=2)
    assert not check.ok and "UDP port 5353" in check.fix
    assert net.check_announcement(None, "127.0.0.1", server.port, serving=True).text.startswith("mDNS announcement off")
    assert Config().announce is None
