"""How a newcomer reaches the phone panel: the join link, as text and as a QR code.

The URL is the Pi's LAN address (or ``http://HOSTNAME.local:PORT``), found by
the caller; a loopback address is refused here, because a phone across the
table can never open it. The QR code comes from ``segno`` (pure Python) and is
drawn module by module in black on white, so it stays sharp in every palette.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote, urlsplit

from PIL import ImageDraw

MAX_URL = 200


@dataclass(frozen=True)
class JoinInfo:
    """The panel URL (``http://192.168.1.20:8080``) and the table's join code."""

    url: str
    code: str
    key: str = ""  # the table's signed key (webui.auth.join_key): the QR code gets in even during guessing

    def __post_init__(self) -> None:
        if len(self.url) > MAX_URL:
            raise ValueError(f"join URL longer than {MAX_URL} characters")
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"join URL {self.url!r} is not an http:// address")
        try:
            loopback = ipaddress.ip_address(parts.hostname).is_loopback
        except ValueError:
            loopback = parts.hostname == "localhost"
        if loopback:
            raise ValueError(f"join URL {self.url!r} is a loopback address no phone can open")
        if not self.code or len(self.code) > 32:
            raise ValueError("join code must be 1-32 characters")

    @property
    def link(self) -> str:
        """What the QR code holds: opening it joins (sets the join cookie)."""
        key = f"&key={quote(self.key, safe='')}" if self.key else ""
        return f"{self.url.rstrip('/')}/join?code={quote(self.code, safe='')}{key}"

    @property
    def display_url(self) -> str:
        """The URL as a person types it: no scheme, no trailing slash."""
        return self.url.split("://", 1)[-1].rstrip("/")


@lru_cache(maxsize=8)
def qr_matrix(link: str) -> tuple[tuple[bool, ...], ...]:
    """The QR modules of ``link`` (True = dark), error correction as high as the size allows."""
    import segno  # lazy: only the join screen needs it

    qr = segno.make(link, error="m", boost_error=True, micro=False)
    return tuple(tuple(bool(v) for v in row) for row in qr.matrix)


def draw_qr(
    draw: ImageDraw.ImageDraw, matrix: tuple[tuple[bool, ...], ...], x: int, y: int, module: int, quiet: int
) -> None:
    """Draw ``matrix`` at (x, y) with ``module`` px per module and a white quiet zone of ``quiet`` modules."""
    n = len(matrix)
    side = module * (n + 2 * quiet)
    draw.rectangle((x, y, x + side - 1, y + side - 1), fill=(255, 255, 255))
    ox, oy = x + quiet * module, y + quiet * module
    for r, row in enumerate(matrix):
        for col, dark in enumerate(row):
            if dark:
                draw.rectangle(
                    (ox + col * module, oy + r * module, ox + (col + 1) * module - 1, oy + (r + 1) * module - 1),
                    fill=(0, 0, 0),
                )
