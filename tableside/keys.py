"""Keys a/b/c/d press the virtual buttons when ``tableside serve`` runs in a terminal.

Upper case holds the button (A/B/C/D). The terminal is put back as it was on stop.
"""

from __future__ import annotations

import logging
import os
import select
import sys
import threading

log = logging.getLogger(__name__)


class KeyReader:
    def __init__(self, buttons) -> None:
        self.buttons = buttons
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="keys", daemon=True)
        self._saved = None

    def start(self) -> None:
        import termios
        import tty

        fd = sys.stdin.fileno()
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd, termios.TCSANOW)  # keep keys typed while the buttons were starting
        self._thread.start()

    def stop(self) -> None:
        import termios

        self._stop.set()
        if self._saved is not None:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._saved)

    def _run(self) -> None:
        fd = sys.stdin.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            key = os.read(fd, 1).decode(errors="ignore")
            if key.lower() not in ("a", "b", "c", "d"):
                continue
            try:
                result = self.buttons.simulate(key.upper(), hold=key.isupper())
                print(f"[{key}] {result['result'].get('summary', '')}", flush=True)
            except Exception as exc:
                print(f"[{key}] {getattr(exc, 'message', exc)}", flush=True)
