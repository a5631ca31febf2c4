"""What changed in the round that just ended (#34), told from the log's states: pure functions, no I/O.

A round end is a moment: Vegas rounds, VNM rounds, VENOM turns and Venus 2140 conflicts each end with a short
summary of what changed, one line per player. The log is the truth: the summary is folded over the states the
log replays to (``core.replay``), an undo's state among them, so a round end that is undone is no longer told,
and an undone round start (back to the round before, at the numbers it began with) is never told as its end.
Each system says, in its ``state`` role module, which round is being played (``round_name``: the rulebook's
word, e.g. "Round 2", "Turn 3", "Conflict 1"; None between rounds or once the game is over) and the public
numbers of each player (``round_numbers``: e.g. ``{"Ann": {"VP": 4}}``); a system without them has nothing to
say. The numbers are read from the public view of each state (``core.privacy.state(system, state, None)``), so
a Venus 2140 pool or a Vegas hand never reaches a summary.

What a round's numbers cannot tell is told from what its states recorded one at a time (``round_events``: who
won each Vegas trick, the goals bought in a Venus 2140 conflict), gathered over the round's states, so the stored
state keeps no second ledger (#37): an undone trick drops out as the state after the undo records one fewer.
The system words them (``round_outcome``): a few words on a player's line, and a sentence for the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tableside.core import privacy
from tableside.core.screen import Element, Screen, Text
from tableside.core.text import N_

Numbers = dict[str, dict[str, int]]
MAX_LINES = 12  # players and table lines a summary lists
MAX_CHANGES = 6  # numbers a line names
MAX_EVENTS = 500  # events a round records (tricks, goals bought): past this the rest are not told
MAX_WORDS = 4  # a system's word groups on one line
SHOWN_KINDS = ("grid", "bars", "text")  # the board kept under a round's summary on the e-paper, where there is room


def numbers_of(system: Any, state: Mapping[str, Any]) -> tuple[str | None, Numbers]:
    """(the round being played, each player's public numbers) of ``state``; (None, {}) where the system
    has no round hooks."""
    name = system.round_name(state)
    if name is None and system.role("state", "round_numbers") is None:
        return None, {}
    public = privacy.state(system, state, None)
    return name, system.round_numbers(public)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}"


def lines(before: Numbers, after: Numbers, told: Mapping[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """One line per player, in the order the system names them: each number that changed, signed ("VP +3,
    tokens \u22122"), or "no change"; then the system's words for what the round recorded of them (``told``:
    "won 2 tricks"), each after a semicolon. A name only ``told`` knows gets a line of its own."""
    told = told or {}
    out = []
    names = list(after) + [who for who in told if who not in after]
    for who in names[:MAX_LINES]:
        now, was = after.get(who, {}), before.get(who, {})
        changes = [
            {"label": label, "change": value - was.get(label, 0), "now": value}
            for label, value in now.items()
            if value != was.get(label, 0)
        ][:MAX_CHANGES]
        said = [
            N_("{label} {change} (now {now})", label=c["label"], change=_signed(c["change"]), now=c["now"])
            if c["label"]
            else N_("{change} (now {now})", change=_signed(c["change"]), now=c["now"])  # a row that is one number
            for c in changes
        ]
        words = [", ".join(said) if said else N_("no change"), *told.get(who, [])[:MAX_WORDS]]
        out.append(
            {
                "name": who,
                "changes": changes,
                "told": list(told.get(who, [])[:MAX_WORDS]),
                "text": N_("{name}: {words}", name=who, words="; ".join(words)),
            }
        )
    return out


def phone_lines(told_lines: Iterable[Mapping[str, Any]]) -> list[str]:
    """What the phones list: each line that tells something, then the lines with nothing to tell on one ("No
    change: Bob, Cy"), as the e-paper says it, or "Nothing changed" alone when no line tells anything: never a
    wall of "no change"."""
    told_lines = list(told_lines)[:MAX_LINES]
    out = [line["text"] for line in told_lines if line.get("changes") or line.get("told")]  # Marked: translated
    unchanged = [str(line["name"]) for line in told_lines if not line.get("changes") and not line.get("told")]
    if not out:
        return [N_("Nothing changed")] if told_lines else []
    return [*out, N_("No change: {names}", names=", ".join(unchanged))] if unchanged else out


class RoundFold:
    """The summary of the last round that ended, folded forward one state at a time (a state after an undo
    included), so a long game is read once and each new entry costs one step."""

    def __init__(self, system: Any, first: Mapping[str, Any]) -> None:
        self.system = system
        self.name, self.numbers = numbers_of(system, first)
        self.starts: dict[str, Numbers] = {} if self.name is None else {self.name: self.numbers}
        self.events: dict[str, dict[int, Any]] = {}  # per round, what its states recorded, by number
        self.last: dict[str, Any] | None = None
        # per round being played: the round named before it began and the summary told then, so a return there
        # with the round's starting numbers and nothing it recorded is its start undone, never its end
        self.entered: dict[str, tuple[str | None, dict[str, Any] | None]] = {}
        self._record(first)

    def _record(self, state: Mapping[str, Any]) -> None:
        """The events ``state`` records of each round it names: those past its count are gone (undone)."""
        if self.system.role("state", "round_events") is None:
            return
        for name, (count, shown) in self.system.round_events(privacy.state(self.system, state, None)).items():
            count = min(int(count), MAX_EVENTS)
            kept = {n: e for n, e in self.events.get(name, {}).items() if n <= count}
            kept.update({n: e for n, e in shown.items() if 1 <= n <= count})
            if kept:
                self.events[name] = kept
            else:
                self.events.pop(name, None)

    def _told(self, name: str, start: Numbers, numbers: Numbers, seq: int) -> dict[str, Any]:
        """The summary of round ``name``, ended by entry ``seq``: its lines and the system's sentence."""
        record = self.events.get(name, {})
        told, outcome = self.system.round_outcome([record[n] for n in sorted(record)], list(numbers))
        told_lines = lines(start, numbers, told)
        return {"round": name, "seq": seq, "lines": told_lines, "said": phone_lines(told_lines), "outcome": outcome}

    def add(self, seq: int, state: Mapping[str, Any]) -> None:
        """The state after log entry ``seq``."""
        name, numbers = numbers_of(self.system, state)
        self._record(state)
        if name != self.name:
            began = self.entered.get(self.name) if self.name is not None else None
            undone = began is not None and began[0] == name and numbers == self.starts.get(self.name)
            if undone and not self.events.get(self.name):  # back where the round began: its start was undone
                self.last = began[1]
                self.starts.pop(self.name, None)
                self.entered.pop(self.name, None)
            else:
                told_before = self.last
                if self.name is not None:
                    self.last = self._told(self.name, self.starts.get(self.name, {}), numbers, seq)
                if name is not None and name not in self.starts:
                    self.starts[name] = self.numbers
                    self.entered[name] = (self.name, told_before)
                if self.last is not None and name == self.last["round"]:
                    self.last = None  # the round's end was undone: it is being played again
        self.name, self.numbers = name, numbers

    def summary(self) -> dict[str, Any] | None:
        """The last round that ended, as {"round", "seq" (the entry that ended it), "lines", "said" (the lines the
        phones list, ``phone_lines``), "outcome" (the system's sentence for the table, or None)}; None if none has."""
        return self.last


def last_round(system: Any, first: Mapping[str, Any], states: Iterable[tuple[int, Mapping[str, Any]]]) -> Any:
    """The summary of the last round that ended in ``states`` (``(seq, state after it)`` in log order, from
    ``first``, the game's starting state), or None."""
    fold = RoundFold(system, first)
    for seq, state in states:
        fold.add(seq, state)
    return fold.summary()


def shown_lines(summary: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The summary's lines as short as a pHAT needs them, each whole: what changed, "Ann: VP +9, tokens −1 · won
    1 trick" (the numbers now are the board's, below where there is room; the phones say both; " · ", not the
    phones' "; ", which the e-paper reads as a list it may count short, display.text.items), and the players
    with nothing to tell on one line, as a list ("No change: Bob; Cy"), so a line without room for every name
    keeps the first with the rest counted ("No change: Bob +1 more"); what changed at priority 1, that line at 2
    (a pHAT may have room only for what changed; the scores keep theirs on a wHAT). "Nothing changed" alone,
    at 1, when no line tells anything."""
    out: list[tuple[str, int]] = []
    unchanged: list[str] = []
    for line in summary.get("lines", ())[:MAX_LINES]:
        said = [
            N_("{label} {change}", label=c["label"], change=_signed(int(c["change"])))
            if c["label"]
            else _signed(int(c["change"]))
            for c in line.get("changes", ())[:MAX_CHANGES]
        ]
        told = [str(t) for t in line.get("told", ())[:MAX_WORDS]]
        if not said and not told:
            unchanged.append(str(line["name"]))
            continue
        words = [", ".join(said)] if said else []
        out.append((N_("{name}: {words}", name=line["name"], words=" · ".join([*words, *told])), 1))
    if unchanged and not out:  # nothing changed at all: said once, never a list of every name
        return [(N_("Nothing changed"), 1)]
    if unchanged:  # a list ("; "): where a line has no room for every name it counts the rest ("+1 more")
        out.append((N_("No change: {names}", names="; ".join(unchanged)), 2))
    return out


def round_end_screen(screen: Screen, summary: Mapping[str, Any] | None, version: int) -> Screen:
    """``screen`` led by the round that just ended, for the e-paper: a "Round 1 is over" alert and the lines of
    what changed at priority 1, so a pHAT gives them the room over the round's stale content; the players it left
    alone and the system's sentence follow where there is room, then the board (its grids, bars and lines), and
    last turn's news (key figures, tracks, dice) goes. Only while ``summary["seq"]`` is ``version``, the table's
    newest entry: after any action the system's screen is back. A game its rules ended keeps its result
    (``core.recap_screen``): the winner outranks the last round."""
    if summary is None or summary.get("seq") != version or screen.result is not None:
        return screen
    told: list[Element] = [Text(line, priority=priority) for line, priority in shown_lines(summary)]
    if summary.get("outcome"):
        told.append(Text(str(summary["outcome"]), priority=2, tone="accent"))
    if screen.alert:  # the system's own news stays, below what the round changed
        told.append(Text(screen.alert, priority=2, tone="alert"))
    rest = tuple(replace(e, priority=e.priority + 1) for e in screen.elements if e.kind in SHOWN_KINDS)
    return replace(screen, alert=N_("{round} is over", round=summary["round"]), elements=(*told, *rest))
