"""A real browser for the phone panel's tests: Debian's chromium driven by Playwright for Python.

Never a browser Playwright downloads: CI installs Debian's ``chromium`` (``.ci/run``)
and the tests fail, not skip, when it is missing. Pages open at a phone's size
(390 x 844, touch) against a real ``tableside serve --simulate`` on loopback.
"""

from __future__ import annotations

import gzip
import http.client
import os
from pathlib import Path

import pytest

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


def launch(playwright):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def phone(browser, server, join: bool = True):
    """A new phone (browser context) that has joined the table with its code."""
    context = browser.new_context(**PHONE, base_url=f"http://127.0.0.1:{server.port}")
    context.set_default_timeout(20_000)
    page = context.new_page()
    if join:
        page.goto(f"/join?code={server.code}")
        page.wait_for_selector("#link.live")
    return page


def shot(page, name: str) -> Path:
    """A full-page screenshot kept as a test artifact under tests/_output."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


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
