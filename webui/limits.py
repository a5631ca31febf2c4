"""The limits the phone server applies, each a ``[server]`` key of the config file (``tableside.config``
reads them; ``webui.server`` applies them). Here, below the app package, so the server needs nothing above it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ServerLimits:
    """Every limit the server applies; each is a ``[server]`` key in the config file."""

    # Request workers (webui/server.py). Python runs one of them at a time: after each change ten phones ask
    # at once, and eight workers passing the interpreter around answer them later than two do
    # (benchmarks/results.md); two keep one free while another makes a long answer (an export, a game's
    # history), which the event loop then sends as fast as the phone reads, holding no worker.
    threads: int = 2
    connection_limit: int = 128
    per_client_connections: int = 16
    channel_timeout: float = 30.0  # idle keep-alive connection (streams send a keepalive every 15 s)
    header_timeout: float = 10.0  # a whole request must arrive within this
    max_request_body_size: int = 64 * 1024
    max_request_header_size: int = 16 * 1024
    max_streams: int = 64
    stream_backlog: int = 256 * 1024  # bytes a phone may fall behind before its stream is closed
    trusted_clients: tuple[str, ...] = ("127.0.0.1", "::1")  # the table itself: no per-client cap
    # Connections that have not yet shown the join code (a guest, or a phone's first request): at most
    # this many at once (the oldest idle one makes room for a newcomer), closed after guest_idle seconds
    # idle or slow, so guests cannot hold the connections phones with the code need (docs/api.md).
    guest_connections: int = 32
    guest_idle: float = 5.0
    cleanup_interval: float = 1.0
    # New games a minute, table-wide: a guest cannot fill the card with games faster than a table plays.
    new_games_per_minute: int = 6
