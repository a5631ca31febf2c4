"""What the e-paper shows now: the join screen (at start, with no game, after a button hold) or the game.

Rendering itself is pure (``tableside.display.render``); this object only
decides *which* picture, with a clock passed in. The join screen stays up for
``join_seconds`` after start or a hold, or until the table changes (a phone
joined and played); with no game it stays. ``set_join`` takes a new panel URL
when the Pi's address appears or changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from tableside.display.join import JoinInfo
from tableside.display.panels import Panel
from tableside.display.render import placeholder_screen, render, render_join

NO_GAME = "No game yet: start one on the phone panel"


class FrameSource:
    """Chooses and renders the picture for the panel; called from the scheduler's render thread."""

    def __init__(self, table: Any, panel: Panel, join: JoinInfo | None, join_seconds: float = 120.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.panel = panel
        self.join_seconds = join_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._join = join
        self._join_until: float | None = clock() + join_seconds if join is not None else None

    def set_join(self, join: JoinInfo | None) -> None:
        """A new panel URL (the address changed); the caller then asks the scheduler to redraw."""
        with self._lock:
            self._join = join

    def show_join(self, seconds: float | None = None) -> None:
        """Put the join screen up (a button hold) for ``seconds`` or until the table changes."""
        with self._lock:
            self._join_until = self.clock() + (self.join_seconds if seconds is None else seconds)

    def changed(self, _event: Any = None) -> None:
        """The table changed: someone is playing, the game takes the panel back."""
        with self._lock:
            self._join_until = None

    def showing_join(self) -> bool:
        with self._lock:
            return self._join is not None and (
                not self.table.has_active() or (self._join_until is not None and self.clock() < self._join_until))

    def next_change(self) -> float | None:
        """When the picture changes by itself (the join screen times out), for the scheduler."""
        with self._lock:
            return self._join_until

    def image(self) -> Image.Image:
        with self._lock:
            join = self._join
            if self._join_until is not None and self.clock() >= self._join_until:
                self._join_until = None  # timed out: the next picture is the game
        if join is not None and self.showing_join():
            if not self.table.has_active():
                return render_join(self.panel, join, NO_GAME)
            return render_join(self.panel, join, "A game is on: it comes back on the next move")
        if not self.table.has_active():
            return render(placeholder_screen(NO_GAME), self.panel)
        return render(self.table.screen(), self.panel, join)
