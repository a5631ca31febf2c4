"""Players' names on a panel too small for them: one shortened form per player, the same in every text.

The rule (docs/display.md, "Names on a small panel"): where a frame does not hold the players' names whole,
every name longer than ``letters`` + 1 characters is written as its first ``letters`` letters and a full
stop ("Maximilianus" -> "Maxim."), or its first word and a full stop where that is shorter ("Anna Maria" ->
"Anna."). Two names that would read alike (the same letters, a full stop aside: "Chris." twice, "Max." beside
"Max") each take more letters of the whole name until they differ ("Christa.", "Christo."). The renderer
writes that one form wherever the name appears on the panel: the prompt, the bars, a score line, a verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import fields, is_dataclass, replace
from typing import Any

from tableside.core.screen import Screen

LETTERS = (5, 3)  # tried in turn: the longest form every text of the frame holds
_UNREAD = {"tone", "mark", "note", "style", "kind"}  # screen-model fields that say how to draw, not what to read


def abbreviate(name: str, letters: int) -> str:
    """``name`` in at most ``letters`` letters and a full stop; whole where that would not be shorter."""
    if len(name) <= letters + 1:
        return name
    words = name.split()
    if len(words) > 1 and len(words[0]) <= letters:
        return words[0] + "."
    return _cut(name, letters)


def _cut(name: str, letters: int) -> str:
    """The first ``letters`` characters of ``name`` and a full stop (``name`` itself once that is all of it)."""
    head = name[:letters].rstrip()
    return name if len(head) >= len(name.rstrip()) else head + "."


def _key(form: str) -> str:
    """What a reader tells forms apart by: the letters, without the full stop or case ("Max." reads as "Max")."""
    return form.rstrip(".").strip().casefold()


def abbreviations(names: Iterable[str], letters: int) -> dict[str, str]:
    """Each name's form at ``letters`` (``abbreviate``), two that would read alike lengthened until they differ."""
    whole = list(dict.fromkeys(str(n) for n in names if str(n).strip()))
    forms = {n: abbreviate(n, letters) for n in whole}
    for _ in range(max((len(n) for n in whole), default=0)):  # each round lengthens some form by a letter
        seen: dict[str, list[str]] = {}
        for n in whole:
            seen.setdefault(_key(forms[n]), []).append(n)
        clash = [group for group in seen.values() if len(group) > 1]
        grown = False
        for group in clash:
            for n in group:
                if forms[n] != n:
                    forms[n] = _longer(n, forms[n])
                    grown = True
        if not grown:
            break
    return forms


def _longer(name: str, form: str) -> str:
    """``form`` of ``name`` with one more letter of it (a space is passed over, never the last thing shown)."""
    k = len(form.rstrip("."))
    while True:
        k += 1
        longer = _cut(name, k)
        if longer == name or _key(longer) != _key(form):
            return longer


def renamed(screen: Screen, forms: dict[str, str]) -> Screen:
    """``screen`` with every text writing each player's name in its form (the whole name only where it is a
    word of its own: "Ann" in "Ann (Venus): build", not in "Anna")."""
    changed = {n: f for n, f in forms.items() if f != n}
    if not changed:
        return screen
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(changed, key=len, reverse=True)) + r")(?!\w)"
    )
    return _swap(screen, lambda s: pattern.sub(lambda m: changed[m.group(0)], s))


def _swap(value: Any, text: Any) -> Any:
    """``value`` with ``text`` applied to every string in it that is read (the screen model: frozen dataclasses
    of strings, numbers and tuples of each other); the words that say how to draw (a tone, a die's mark, a bar's
    note) and the players' own list (``Screen.players``) stay as they are."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, tuple):
        return tuple(_swap(v, text) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: _swap(getattr(value, f.name), text)
            for f in fields(value)
            if f.init and f.name not in _UNREAD and not (isinstance(value, Screen) and f.name == "players")
        }
        return replace(value, **changes)
    return value
