"""What the e-paper shows now: the join screen (at start, with no game, after a button hold) or the game.

Rendering itself is pure (``tableside.display.render``); this object only
decides *which* picture, with a clock passed in. The join screen stays up for
``join_seconds`` after start or a hold, or until the table changes (a phone
joined and played); with no game it stays. ``join()`` gives the current join
link (None while the Pi has no network address: then ``waiting()`` says so);
``overlay()`` is a prompt the buttons own (shutdown, dice entry), shown first. ``round_end()`` is the last
round that ended, with its game (``webui.rounds.told_by``: the history book the phones read): until the next
action the game's screen leads with it (``core.round_summary.round_end_screen``, #34).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from tableside.core.round_summary import round_end_screen
from tableside.core.screen import Screen, Text
from tableside.display.join import JoinInfo
from tableside.display.panels import Panel
from tableside.display.render import draw, placeholder_screen

NO_GAME = "No game yet: start one on the phone panel"
log = logging.getLogger(__name__)
OFF = ("The table is off.", "Nothing here is live: the last game is kept and comes back when it starts again.")


class FrameSource:
    """Chooses and renders the picture for the panel; called from the scheduler's render thread."""

    def __init__(
        self,
        table: Any,
        panel: Panel,
        join: Callable[[], JoinInfo | None] = lambda: None,
        join_seconds: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
        overlay: Callable[[], dict[str, Any] | None] = lambda: None,
        waiting: Callable[[], str] = lambda: NO_GAME,
        round_end: Callable[[], tuple[str, Mapping[str, Any] | None] | None] = lambda: None,
    ) -> None:
        self.table = table
        self.panel = panel
        self.join = join
        self.overlay = overlay
        self.round_end = round_end
        self.waiting = waiting
        self.join_seconds = join_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._join_until: float | None = None
        self._off = False

    def turn_off(self) -> None:
        """From now on the panel says the table is off (a clean stop): never a stale game that looks live."""
        self._off = True

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
            until = self._join_until
        return self.join() is not None and (not self.table.has_active() or (until is not None and self.clock() < until))

    def next_change(self) -> float | None:
        """When the picture changes by itself (the join screen times out), for the scheduler."""
        with self._lock:
            return self._join_until

    def spec(self) -> tuple:
        """What to draw now, as plain data a worker process can draw from (``draw``): cheap to make."""
        with self._lock:
            if self._join_until is not None and self.clock() >= self._join_until:
                self._join_until = None  # timed out: the next picture is the game
        if self._off:
            return ("screen", off_screen(), None)
        prompt = self.overlay()
        if prompt is not None:
            return ("screen", prompt_screen(prompt), None)
        join = self.join()
        if join is not None and self.showing_join():
            if not self.table.has_active():
                return ("join", join, NO_GAME)
            return ("join", join, "A game is on: it comes back on the next move")
        if not self.table.has_active():
            return ("screen", placeholder_screen(self.waiting()), None)
        return ("screen", self.game(), join)

    def game(self) -> Screen:
        """The game's screen, led by the round that just ended while no action has followed it."""
        try:
            ended = self.round_end()  # before the table is held: the history book is never waited for under it
        except Exception:  # the round's summary is never worth a stale panel: the game's own screen then
            log.exception("reading the last round's summary for the e-paper")
            ended = None
        with self.table.held():  # the screen and the version it is of
            screen, position = self.table.screen(), self.table.position()
        if ended is None or position is None or ended[0] != position[0]:
            return screen
        return round_end_screen(screen, ended[1], position[1])

    def image(self) -> Image.Image:
        return draw(self.spec(), self.panel)


def prompt_screen(prompt: dict[str, Any]) -> Screen:
    """A question the buttons ask (shutdown, dice entry): its words big, nothing else."""
    lines = tuple(
        Text(str(line), priority=1, tone="alert" if i == 0 else "normal")
        for i, line in enumerate(prompt.get("lines", ()))
    )
    return Screen(title=str(prompt.get("title", "Tableside")), status=str(prompt.get("status", "")), elements=lines)


def off_screen() -> Screen:
    """What a stopped table leaves on the e-paper (it keeps its last picture without power)."""
    return Screen(title="Tableside", status="off", elements=tuple(Text(line, priority=1) for line in OFF))


def failed_screen(what: str, fix: str, address: str) -> Screen:
    """A start that failed, on the e-paper: what failed, the fix, and where the phones will find the table."""
    lines = [Text(what, priority=1, tone="alert")]
    if fix:
        lines.append(Text(f"Fix: {fix}", priority=1))
    lines.append(Text(f"Then phones open {address}", priority=2))
    return Screen(title="Tableside could not start", status="stopped", elements=tuple(lines))
