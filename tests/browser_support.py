"""A real browser for the phone panel's tests: Debian's chromium driven by Playwright for Python.

Never a browser Playwright downloads: CI installs Debian's ``chromium`` (``.ci/run``).
Without it the tests skip, saying how to install it, except under ``CI=true``, where a
missing browser is a failure (the phone panel must be tested there). Pages open at a phone's size
(390 x 844, touch) against a real ``tableside serve --simulate`` on loopback.
"""

from __future__ import annotations

import gzip
import http.client
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.test_serve_process import CODE, Server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
OUTPUT = Path(__file__).parent / "_output"
# The config of a module-scoped server whose every test starts its own game (the rate limit is not what they test).
MANY_NEW_GAMES = "[server]\nnew_games_per_minute = 1000  # every test here starts its own game\n"
# An action sent from a phone's own page (its seat's cookie), as its forms send them: [status, body]
# (``page.evaluate(POST, action)``).
POST = """async (body) => {
  const r = await fetch("/api/sessions/active/actions", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  return [r.status, await r.json()];
}"""


def launch(playwright):
    if not os.access(CHROMIUM, os.X_OK):
        why = (
            f"{CHROMIUM} is missing: the phone panel's browser tests need Debian's chromium (apt-get install chromium)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{why}; CI=true, so they must run (.ci/run installs it)")
        pytest.skip(f"{why}; skipped here, a failure under CI=true")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def chromium() -> Iterator:
    """One browser for a test module: ``yield from chromium()`` in a module-scoped fixture."""
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def served(folder: Path, config: str | None = None) -> Iterator[Server]:
    """A ``tableside serve --simulate`` with its data in ``folder/data`` (and ``config``, if any, as its
    ``--config`` file in ``folder``), stopped afterwards: ``yield from served(...)`` in a fixture."""
    s = Server(folder / "data")
    if config is not None:
        path = folder / "tableside.toml"
        path.write_text(config)
        s.extra = ["--config", str(path)]
    s.start()
    s.code = CODE
    yield s
    if s.proc and s.proc.stdout and not s.proc.stdout.closed:
        s.kill(signal.SIGTERM)


def phone(browser, server, join: bool = True):
    """A new phone (browser context) that has joined the table with its code."""
    context = browser.new_context(**PHONE, base_url=f"http://127.0.0.1:{server.port}")
    context.set_default_timeout(20_000)
    page = context.new_page()
    if join:
        page.goto(f"/join?code={server.code}")
        page.wait_for_selector("#link.live")
    return page


def fetched_elsewhere(page, server) -> list[str]:
    """The addresses ``page`` asks for from anywhere but the table, as it asks (a rulebook shown offline: none)."""
    away: list[str] = []
    table = f"http://127.0.0.1:{server.port}/"
    page.on("request", lambda r: None if r.url.startswith(table) else away.append(r.url))
    return away


# The README's phone pictures: these screenshots are also written to docs/images/ (the phone's screen,
# not the full page) whenever they look different from the one there, so the README shows the panel as it is.
# "vnm-game" is taken by tests/test_panel_browser.py::test_set_up_and_play_a_game_with_a_second_phone_watching[vnm]
# (``shot(page, f"{system}-game")``): a real VNM game set up and played on a 390 x 844 phone.
README_SHOTS = {"vnm-game": "phone-vnm.png"}  # a game whose steps roll no dice: the same picture each run
README_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
README_TOLERANCE = 0.03  # share of pixels that may differ (a die's face, a time) before the picture is rewritten


def shot(page, name: str, full_page: bool = True) -> Path:
    """A screenshot kept as a test artifact under tests/_output: the full page, or (``full_page=False``) the
    screen as the phone shows it, with the sticky send buttons where they stand."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if name in README_SHOTS:
        readme_shot(page.screenshot(full_page=False), README_IMAGES / README_SHOTS[name])
    return path


def readme_shot(png: bytes, path: Path) -> bool:
    """Write ``png`` to ``path`` unless the picture there is the same but for a few pixels; True if written."""
    import io

    from PIL import Image, ImageChops

    if path.exists():
        with Image.open(path) as old, Image.open(io.BytesIO(png)) as new:
            if old.size == new.size:
                diff = ImageChops.difference(old.convert("RGB"), new.convert("RGB")).convert("L")
                changed = sum(diff.point(lambda v: 255 if v else 0).histogram()[255:]) / (old.width * old.height)
                if changed <= README_TOLERANCE:
                    return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return True


class Transfer:
    """Bytes a page really received (compressed, headers included), from the DevTools protocol."""

    def __init__(self, page) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.urls: dict[str, str] = {}
        self.sizes: dict[str, int] = {}
        self.stream_bytes = 0
        self.cdp.on("Network.requestWillBeSent", lambda e: self.urls.__setitem__(e["requestId"], e["request"]["url"]))
        self.cdp.on("Network.loadingFinished", lambda e: self.sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.send("Network.enable")

    def _data(self, e) -> None:
        if "/api/stream" in self.urls.get(e["requestId"], ""):
            self.stream_bytes += e.get("encodedDataLength") or e.get("dataLength") or 0

    def reset(self) -> None:
        self.sizes.clear()
        self.stream_bytes = 0

    def by_url(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for rid, size in self.sizes.items():
            url = self.urls.get(rid, rid)
            out[url] = out.get(url, 0) + size
        return out

    def total(self, skip: tuple[str, ...] = ()) -> int:
        return sum(n for url, n in self.by_url().items() if not any(s in url for s in skip)) + self.stream_bytes


def gzip_size(port: int, path: str, code: str) -> int:
    """What a phone transfers for ``path`` (body as sent, gzip accepted, plus headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip", "Authorization": f"Bearer {code}"})
    r = conn.getresponse()
    body = r.read()
    headers = sum(len(k) + len(v) + 4 for k, v in r.getheaders()) + 17
    conn.close()
    if r.getheader("Content-Encoding") == "gzip":
        gzip.decompress(body)  # proves it really is gzip
    return len(body) + headers


def all_actions(page) -> None:
    """Open the moment card's "All actions" sheet (one tap), unless it is open already: every action off the
    moment (the phases' groups, "Fix a number", the physical-dice switch) is in it (#36)."""
    if not page.evaluate("document.getElementById('all-actions').open"):
        page.tap("#all-open")
    page.wait_for_selector("#all-actions[open]")


def close_all_actions(page) -> None:
    """Close the All actions sheet if it is open (a test going back to the moment card)."""
    if page.evaluate("document.getElementById('all-actions').open"):
        page.tap("#all-close")
