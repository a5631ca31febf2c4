"""The last hardware failures, kept where ``tableside doctor`` (another process) can read them.

A display refresh that failed (SystemExit from gpiodevice included), a button
action that crashed, a button binding that raised, a pin factory that could not
load: each is logged, kept here per component, written to
``<data>/hardware-errors.json`` (atomically) and shown by ``GET /api/hardware``.
A later success of the same component clears its entry, so the doctor reports
what is wrong now, not what was wrong once.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILENAME = "hardware-errors.json"
COMPONENTS = ("display", "buttons", "binding", "pins", "led", "shutdown")
MAX_TEXT = 500  # a traceback's first line is enough; the journal has the rest


def describe(exc: BaseException) -> str:
    """``Type: first line`` (SystemExit from gpiodevice carries its message as the code)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:MAX_TEXT] if text else type(exc).__name__


class Faults:
    """Thread-safe record of the last error per component, mirrored to a JSON file."""

    def __init__(self, folder: Path | None, clock: Callable[[], float] = time.time) -> None:
        self.path = folder / FILENAME if folder is not None else None
        self.clock = clock
        self._lock = threading.Lock()
        self._errors: dict[str, dict[str, Any]] = {}
        self._listeners: list[Callable[[str, dict | None], None]] = []

    def subscribe(self, listener: Callable[[str, dict | None], None]) -> None:
        """``listener(component, error or None)`` after every change (for the phone's stream)."""
        self._listeners.append(listener)

    def report(self, component: str, problem: BaseException | str, fix: str = "") -> dict[str, Any]:
        """Record (and log) a failure of ``component``; returns the record."""
        text = describe(problem) if isinstance(problem, BaseException) else str(problem)[:MAX_TEXT]
        record = {"component": component, "error": text, "fix": fix, "at": round(self.clock(), 3)}
        with self._lock:
            count = self._errors.get(component, {}).get("count", 0) + 1
            record["count"] = count
            self._errors[component] = record
            self._save()
        log.error("%s failed: %s%s", component, text, f" (fix: {fix})" if fix else "")
        self._tell(component, record)
        return record

    def reset(self) -> None:
        """A new run starts clean: the file then holds only this run's errors."""
        with self._lock:
            self._errors.clear()
            self._save()

    def clear(self, component: str) -> None:
        """The component worked again: forget its last error."""
        with self._lock:
            if component not in self._errors:
                return
            del self._errors[component]
            self._save()
        self._tell(component, None)

    def snapshot(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {k: dict(v) for k, v in self._errors.items()}

    def _tell(self, component: str, record: dict | None) -> None:
        for listener in list(self._listeners):
            try:
                listener(component, record)
            except Exception:
                log.exception("fault listener failed")

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self._errors, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, self.path)
        except OSError:  # a full or read-only disk must not take the table down with it
            log.exception("could not write %s", self.path)


def read(folder: Path) -> dict[str, dict[str, Any]]:
    """The last errors a running (or stopped) ``tableside serve`` left in ``folder``; {} when none."""
    try:
        data = json.loads((folder / FILENAME).read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}
