"""What the phones and the e-paper are shown of the game on the table, as each seat may see it.

The parts every seat shares (screen, seats, prompts, tracked numbers, what Undo takes back) are built
once per version and seat claims: after each change ten phones read them, and the e-paper's frame needs
the same screen. Callers must not change what is returned.
"""

from __future__ import annotations

from typing import Any

from tableside.core import privacy, rulebook_refs
from tableside.core.live import Live, entry_of
from tableside.core.roll import TableRoll
from tableside.core.soft_clock import clock_on
from tableside.core.store import Store


class Views:
    """The view of the game on the table, its shared parts made once per version."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._public: tuple[tuple, dict] | None = None  # (key, the seat-independent part of the view)
        self._screen: tuple[tuple, Any] | None = None  # (key, the public screen of one version)
        self._switches: tuple[str, int, list[tuple[int, str]]] | None = None  # (session, read up to, clock switches)

    def view(self, live: Live, seat: str | None, claims_mark: int, *, with_state: bool = True) -> dict:
        """``live`` as ``seat`` may see it (``Table.view``); ``claims_mark`` moves whenever a seat changes
        hands (the "claimed" flags are built once per mark)."""
        system = live.system
        public = self._public_view(live, claims_mark)
        roll = roll_for(live, seat)
        view = {
            "id": live.id,
            "system": system.id,
            "version": live.version,
            "state": privacy.state(system, live.state, seat) if with_state else None,
            "roll": roll.describe() if roll else None,
            "screen": public["screen"],
            "seat": seat,
            "seats": public["seats"],
            "pending": public["pending"],
            "next": public["next"],
            "round": public["round"],
            "tracked": public["tracked"],
            "can_undo": bool(live.applied),
            "can_redo": bool(live.undone),
            "undo": public["undo"],
            "readonly": live.readonly,
            "clock": public["clock"],
        }
        if not with_state:
            del view["state"]
        return view

    def _public_view(self, live: Live, claims_mark: int) -> dict:
        """Screen, seats, prompts and tracked numbers: the same for every phone at a version, so built
        once per (session, version, seat claims). Callers must not change what it returns."""
        key = (live.id, live.version, claims_mark, live.readonly)
        if self._public is None or self._public[0] != key:
            system = live.system
            claims = self.store.seat_claims(live.id)
            self._public = (
                key,
                {
                    "screen": self.screen(live).to_dict(),
                    "seats": [{**s.describe(), "claimed": s.name in claims} for s in system.seats(live.state)],
                    "pending": rulebook_refs.prompts(system, live.state),
                    "next": None if live.readonly else system.up_next(live.state),
                    "round": system.round_name(live.state),
                    "tracked": [t.describe() for t in system.tracked(live.state)],
                    "undo": self._undo_target(live),
                    "clock": clock_on(self._clock_switches(live), live.applied),
                },
            )
        return self._public[1]

    def _clock_switches(self, live: Live) -> list[tuple[int, str]]:
        """The session's soft clock switches, read on from the last look (the log only grows)."""
        known = self._switches
        if known is None or known[0] != live.id or known[1] > live.version:
            known = (live.id, 0, [])
        found = known[2] + self.store.clock_switches(live.id, known[1], live.version)
        self._switches = (live.id, live.version, found)
        return found

    def _undo_target(self, live: Live) -> dict | None:
        """What Undo would take back now, and whose change it was: a seated phone asks before
        undoing another seat's change. The public summary only (a private entry stays private)."""
        if not live.applied:
            return None
        seq = live.applied[-1][0]
        entry = privacy.entry(entry_of(self.store, live.id, seq), None)
        return {"seq": seq, "seat": entry.get("seat"), "summary": (entry["result"] or {}).get("summary", "")}

    def screen(self, live: Live) -> Any:
        """The public screen, made once per version: the phones' view and the e-paper's frame both need it
        after each change (on a Pi each is milliseconds). Callers must not change what it returns."""
        key = (live.id, id(live), live.version, live.readonly)
        if self._screen is None or self._screen[0] != key:
            system = live.system
            made = system.screen(privacy.state(system, live.state, None), roll=roll_for(live, None))
            self._screen = (key, made)
        return self._screen[1]


def roll_for(live: Live, seat: str | None) -> TableRoll | None:
    """The roll on the table as ``seat`` may see it: while the game is still in what it belongs
    to, and not private to another seat (None: the public table view)."""
    roll = live.roll
    if roll is None or not roll.visible_to(seat) or not roll.current(live.system.roll_belongs_to(live.state)):
        return None
    return roll
