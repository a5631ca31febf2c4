"""The paired dice, kept across restarts: ``DATA/dice.json``, written atomically.

A small JSON file beside the database rather than a table in it: the dice belong to the
table, not to a game, and a damaged or missing file only forgets names (it is reported, and
the dice can be paired again); the game log is never touched.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger("tableside")

FIELDS = ("family", "kind", "name", "seat", "colour", "advertised", "battery")
MAX_DICE = 64


class Registry:
    """Dice the players paired: id -> name, seat, family, kind (a GoDice's shell)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.problem: str | None = None
        self.dice: dict[str, dict[str, Any]] = {}
        if path is not None and path.exists():
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                dice = raw.get("dice", {}) if isinstance(raw, dict) else None
                if not isinstance(dice, dict):
                    raise ValueError("no 'dice' table")
                self.dice = {
                    str(k): {f: v.get(f) for f in FIELDS}
                    for k, v in list(dice.items())[:MAX_DICE]
                    if isinstance(v, dict)
                }
            except (OSError, ValueError) as exc:
                self.problem = f"{path} could not be read ({exc}): pair the dice again"
                log.warning("paired dice: %s", self.problem)

    def get(self, die_id: str) -> dict[str, Any] | None:
        return self.dice.get(die_id)

    def put(self, die_id: str, **values: Any) -> None:
        entry = self.dice.setdefault(die_id, {f: None for f in FIELDS})
        entry.update({k: v for k, v in values.items() if k in FIELDS})
        self._save()

    def forget(self, die_id: str) -> None:
        self.dice.pop(die_id, None)
        self._save()

    def _save(self) -> None:
        """Write a temporary file in the same folder, flush it to disk, then rename it over the old one."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".dice-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"dice": self.dice}, f, indent=1, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def battery_checks(folder: Path) -> list[tuple[bool, str, str]]:
    """For ``tableside doctor``: each paired die that was low on battery when last heard (the hub writes
    the level when it goes below ``LOW_BATTERY`` %, and clears it once charging or charged)."""
    from tableside.device.smartdice.model import LOW_BATTERY

    registry = Registry(folder / "dice.json")
    out = []
    for die_id, die in sorted(registry.dice.items()):
        level = die.get("battery")
        if isinstance(level, int) and level < LOW_BATTERY:
            name = die.get("name") or die.get("advertised") or die_id
            out.append((False, f"smart dice: {name} had {level}% battery when last heard", "charge it"))
    return out
