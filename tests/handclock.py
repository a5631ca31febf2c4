"""A clock moved by hand, for the code that takes a ``clock`` callable (the join guard, a table, backups)."""

from __future__ import annotations


class Clock:
    """Says ``now``, in seconds, until a test moves it (``clock.now += 60``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
