"""``tableside doctor`` on any machine: can a phone on the same Wi-Fi reach the table?

Two things stop a phone at a friend's house more than anything else: a firewall that drops the table's
port (a laptop's ufw or firewalld, a hand-written nftables rule set) and a guest Wi-Fi that keeps devices
apart (docs: Troubleshooting). The first is read here: nftables' rule set (``nft list ruleset``, else
``/etc/nftables.conf``), ``ufw status verbose`` and firewalld's zone, each judged for a new TCP
connection to the port (and UDP 5353 for the mDNS announcement), with the exact command that opens it.
The second cannot be seen from the table; the doctor says how to tell. The parsers are plain functions
over the text, so the tests give them rule sets from files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tableside.doctor_pi import Check

MDNS_PORT = 5353


@dataclass
class Chain:
    family: str
    table: str
    name: str
    hook: str | None = None
    policy: str = "accept"
    rules: list[str] | None = None


def parse_nft(text: str) -> dict[tuple[str, str, str], Chain]:
    """The chains of an ``nft list ruleset`` text (or an nftables.conf), keyed by (family, table, chain)."""
    chains: dict[tuple[str, str, str], Chain] = {}
    family = table = None
    chain: Chain | None = None
    depth = 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        opened = re.match(r"table\s+(\w+)\s+(\S+)\s*\{$", line) or re.match(r"table\s+(\S+)\s*\{$", line)
        if opened and depth == 0:
            family, table = (opened.group(1), opened.group(2)) if opened.lastindex == 2 else ("ip", opened.group(1))
            depth = 1
            continue
        named = re.match(r"chain\s+(\S+)\s*\{$", line)
        if named and depth == 1:
            chain = chains.setdefault((family, table, named.group(1)), Chain(family, table, named.group(1), rules=[]))
            depth = 2
            continue
        if line.endswith("{") and depth >= 1:  # a set, map, flowtable...: skipped whole
            depth += 1
            continue
        if line == "}":
            depth -= 1
            if depth <= 1:
                chain = None
            continue
        if chain is not None and depth == 2:
            hook = re.search(r"\bhook\s+(\w+)", line)
            if hook and line.startswith("type "):
                chain.hook = hook.group(1)
                policy = re.search(r"\bpolicy\s+(\w+)", line)
                chain.policy = policy.group(1) if policy else "accept"
            else:
                chain.rules.append(line)
    return chains


def _ports(text: str) -> set[int]:
    out: set[int] = set()
    for part in text.strip("{} ").split(","):
        part = part.strip()
        if re.fullmatch(r"\d+-\d+", part):
            low, high = map(int, part.split("-"))
            out |= set(range(low, high + 1))
        elif part.isdigit():
            out.add(int(part))
        elif part in ("http", "https", "mdns"):
            out.add({"http": 80, "https": 443, "mdns": MDNS_PORT}[part])
    return out


def _applies(rule: str, port: int, proto: str) -> bool:
    """Would a new connection from a phone on the LAN to ``port``/``proto`` match this rule?"""
    if re.search(r"\bct state\b", rule) and not re.search(r"\bnew\b", rule):
        return False  # established/related only: a phone's first packet is new
    if re.search(r'\biif(name)?\s+"?lo"?\b', rule):
        return False  # loopback only
    dport = re.search(r"\b(tcp|udp|th|sctp)\s+dport\s+(\{[^}]*\}|[\w-]+)", rule)
    if dport:
        return dport.group(1) in (proto, "th") and port in _ports(dport.group(2))
    l4 = re.search(r"\b(?:meta l4proto|ip protocol)\s+(\w+)|^(tcp|udp|icmp|icmpv6)\b", rule)
    if l4:
        return (l4.group(1) or l4.group(2)) == proto
    return not re.search(r"\b(icmp|icmpv6|arp)\b", rule)


def _verdict(rule: str) -> str | None:
    found = re.search(r"\b(accept|drop|reject|return|(?:jump|goto)\s+\S+)(?:\s+with\s+[\w -]+)?\s*$", rule)
    return found.group(1) if found else None


def _walk(chains, family: str, table: str, name: str, port: int, proto: str, depth: int = 0):
    """(verdict, rule) for the first rule of a chain that decides, following jumps; (None, None) at its end."""
    chain = chains.get((family, table, name))
    if chain is None or depth > 16:
        return None, None
    for rule in chain.rules:
        verdict = _verdict(rule)
        if verdict is None or not _applies(rule, port, proto):
            continue
        if verdict.startswith(("jump", "goto")):
            decided, why = _walk(chains, family, table, verdict.split()[1], port, proto, depth + 1)
            if decided is not None or verdict.startswith("goto"):
                return decided, why
            continue
        if verdict == "return":
            return None, None
        return verdict, f"{family} {table} {name}: {rule}"
    return None, None


def nft_blocks(text: str, port: int, proto: str = "tcp") -> str | None:
    """Why an nftables rule set drops a phone's new connection to ``port``/``proto``, or None if it lets it in."""
    chains = parse_nft(text)
    for (family, table, name), chain in chains.items():
        if chain.hook != "input" or family not in ("inet", "ip"):
            continue
        verdict, rule = _walk(chains, family, table, name, port, proto)
        if verdict in ("drop", "reject"):
            return f"rule '{rule}'"
        if verdict is None and chain.policy in ("drop", "reject"):
            return f"chain {family} {table} {name} has policy {chain.policy} and no rule accepts {proto} port {port}"
    return None


def nft_fix(text: str, port: int, proto: str = "tcp") -> str:
    for (family, table, name), chain in parse_nft(text).items():
        if chain.hook == "input" and family in ("inet", "ip"):
            return f"sudo nft insert rule {family} {table} {name} {proto} dport {port} accept"
    return f"allow {proto} port {port} in the input chain"


def ufw_blocks(status: str, port: int, proto: str = "tcp") -> str | None:
    """Why ``ufw status verbose`` output drops ``port``/``proto`` from the LAN, or None."""
    if not re.search(r"^Status:\s*active", status, re.M):
        return None
    default = re.search(r"^Default:\s*(\w+)\s*\(incoming\)", status, re.M)
    if not default or default.group(1) not in ("deny", "reject"):
        return None
    for line in status.splitlines():
        rule = re.match(r"(\d+(?::\d+)?(?:,\d+)*)(?:/(tcp|udp))?\s+(?:\(v6\)\s+)?(ALLOW|DENY|REJECT|LIMIT)", line)
        if not rule or (rule.group(2) and rule.group(2) != proto):
            continue
        listed = set()
        for part in rule.group(1).split(","):
            low, _, high = part.partition(":")
            listed |= set(range(int(low), int(high or low) + 1))
        if port in listed:
            return None if rule.group(3) in ("ALLOW", "LIMIT") else f"ufw rule '{line.strip()}'"
    return f"ufw is active, denies incoming by default and allows no {proto} port {port}"


# firewalld's services that open a port the table may use
FIREWALLD_SERVICES = {"http": (80, "tcp"), "https": (443, "tcp"), "http-alt": (8080, "tcp"), "mdns": (5353, "udp")}


def firewalld_blocks(listing: str, port: int, proto: str = "tcp") -> str | None:
    """Why ``firewall-cmd --list-all`` (the zone of the Wi-Fi) drops ``port``/``proto``, or None."""
    zone = (listing.split() or ["the zone"])[0]
    target = re.search(r"^\s*target:\s*(\S+)", listing, re.M)
    if target and target.group(1).upper() == "ACCEPT":
        return None
    ports = re.search(r"^\s*ports:\s*(.*)$", listing, re.M)
    for item in ports.group(1).split() if ports else []:
        numbers, _, item_proto = item.partition("/")
        low, _, high = numbers.partition("-")
        if item_proto == proto and low.isdigit() and int(low) <= port <= int(high or low):
            return None
    services = re.search(r"^\s*services:\s*(.*)$", listing, re.M)
    if any(FIREWALLD_SERVICES.get(s) == (port, proto) for s in (services.group(1).split() if services else [])):
        return None
    return f"firewalld zone {zone} opens no {proto} port {port}"


Runner = Callable[[list[str]], tuple[int, str]]


def _run(argv: list[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, str(exc)
    return done.returncode, done.stdout + done.stderr


def check_firewall(port: int, root: Path = Path("/"), run: Runner = _run) -> list[Check]:
    """Every firewall found on this machine, judged for the table's port (TCP) and mDNS (UDP 5353)."""
    checks: list[Check] = []
    wanted = [(port, "tcp", "phones"), (MDNS_PORT, "udp", "the mDNS announcement")]
    if shutil.which("ufw") or (root / "etc/ufw/ufw.conf").is_file():
        code, status = run(["ufw", "status", "verbose"])
        if code == 0:
            for p, proto, who in wanted:
                why = ufw_blocks(status, p, proto)
                fix = f"sudo ufw allow {p}/{proto}"
                checks.append(Check(why is None, f"ufw lets {who} in ({proto} {p})" if why is None else why, fix))
        elif re.search(r"^ENABLED=yes", _read(root / "etc/ufw/ufw.conf"), re.M):
            checks.append(
                Check(True, "ufw is enabled; its rules need root to read: 'sudo tableside doctor' checks them")
            )
    code, state = run(["firewall-cmd", "--state"]) if shutil.which("firewall-cmd") else (1, "")
    if code == 0 and state.strip() == "running":
        code, listing = run(["firewall-cmd", "--list-all"])
        for p, proto, who in wanted:
            why = firewalld_blocks(listing, p, proto) if code == 0 else None
            fix = f"sudo firewall-cmd --permanent --add-port={p}/{proto} && sudo firewall-cmd --reload"
            checks.append(Check(why is None, f"firewalld lets {who} in ({proto} {p})" if why is None else why, fix))
    code, ruleset = run(["nft", "list", "ruleset"]) if shutil.which("nft") else (1, "")
    source = "nftables"
    if code != 0:
        ruleset, source = _read(root / "etc/nftables.conf"), "/etc/nftables.conf"
    if ruleset.strip() and not checks:  # ufw and firewalld write nftables rules of their own: said above
        for p, proto, who in wanted:
            why = nft_blocks(ruleset, p, proto)
            text = f"{source} lets {who} in ({proto} {p})" if why is None else f"{source} drops {who}: {why}"
            checks.append(Check(why is None, text, nft_fix(ruleset, p, proto)))
    if not checks:
        checks.append(Check(True, "no firewall found on this machine (ufw, firewalld, nftables)"))
    return checks


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def check_announcement(setting: bool | None, listen: str, port: int, serving: bool, listen_for: float = 3.0) -> Check:
    """Is the running table's ``_http._tcp`` announcement heard on this machine?"""
    from tableside import announce

    if not announce.wanted(setting, listen):
        why = "[server] announce = false" if setting is False else f"the table listens on {listen} only"
        return Check(True, f"mDNS announcement off ({why}): phones use the printed address")
    if not serving:
        return Check(True, "mDNS announcement: checked while 'tableside serve' runs")
    heard = _heard(port, listen_for, ["127.0.0.1"] if listen in announce.LOOPBACK else None)
    if heard:
        return Check(True, f"phones can find the table: '{heard}' is announced (mDNS, _http._tcp)")
    return Check(
        False,
        f"tableside serve runs on port {port} but its mDNS announcement was not heard",
        "allow UDP port 5353 (mDNS) in the firewall (see the firewall lines), or restart the table "
        "('sudo systemctl restart tableside')",
    )


def _heard(port: int, seconds: float, interfaces: list[str] | None = None) -> str | None:
    import time

    from zeroconf import InterfaceChoice, ServiceBrowser, Zeroconf

    from tableside.announce import SERVICE

    names: list[str] = []

    class Listener:
        def add_service(self, zc, type_, name):
            names.append(name)

        def remove_service(self, zc, type_, name):
            pass

        def update_service(self, zc, type_, name):
            pass

    zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All)
    try:
        ServiceBrowser(zc, SERVICE, Listener())
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for name in list(names):
                info = zc.get_service_info(SERVICE, name, timeout=500)
                if info is not None and info.port == port and name.startswith("Tableside"):
                    return name.removesuffix(f".{SERVICE}")
            time.sleep(0.2)
    finally:
        zc.close()
    return None


def _nothing(argv: list[str]) -> tuple[int, str]:
    return 1, "not run: the doctor reads a machine under another root"


def network_checks(cfg, root: Path = Path("/")) -> list[Check]:
    """The firewall and the announcement, then what the doctor cannot see: a guest Wi-Fi's isolation.
    Under another ``root`` (a test's fake Pi) only its files are read: this machine's commands are not run."""
    from tableside.doctor_data import _is_tableside

    here = root == Path("/")
    serving = here and _is_tableside(cfg.port)
    return [
        *check_firewall(cfg.port, root, _run if here else _nothing),
        check_announcement(cfg.announce, cfg.host, cfg.port, serving),
        Check(
            True,
            "a guest Wi-Fi may keep phones from the table (client isolation): if the page does not open on a phone, "
            "see Troubleshooting in the README",
        ),
    ]
