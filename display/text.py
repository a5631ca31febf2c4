"""Fonts and text fitting for the e-paper: shipped fonts, ellipsis cuts and wrapping in bounded time.

The fonts are DejaVu Sans (Bitstream Vera licence, display/fonts/LICENSE-DejaVu.txt),
shipped in the package so a Pi without fonts draws the same frame as a laptop.

Fitting never measures more of a text than can possibly fit: a glyph of the
font is never narrower than ``MIN_ADVANCE`` of its size (visible glyphs; a
zero-width character only makes the cut shorter, never an overflow), so a text
is first cut to the characters the width could hold and then binary-searched.
A 4,000-character name costs what a 40-character one does.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
Weight = Literal["regular", "bold", "condensed"]
_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "condensed": "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"
MIN_ADVANCE = 0.25  # narrowest visible DejaVu glyph advance is ~0.27 em ("i", "l", "'")
MAX_TEXT = 2000  # no text drawn on a panel is longer; anything longer is cut before measuring


@lru_cache(maxsize=128)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (cached: loading a TTF costs ~1 ms)."""
    return ImageFont.truetype(str(FONT_DIR / _FILES[weight]), max(6, int(size)))


def text_height(fnt: ImageFont.FreeTypeFont) -> int:
    """How tall a line of ``fnt`` reads: from the top of a capital to the bottom of a descender ("Hg" as
    drawn, no anti-aliasing), the measure the 4 mm floor for scores and the prompt is in (``canvas.metrics``)."""
    x0, y0, x1, y1 = fnt.getbbox("Hg", mode="1")
    return int(y1 - y0)


def legible_size(px: int) -> int:
    """The smallest type size whose ``text_height`` (regular weight, the smallest of the three) is ``px``."""
    size = 6
    while text_height(font(size)) < px:
        size += 1
    return size


def clean(text: object) -> str:
    """One line of printable text: control characters become spaces, length bounded."""
    s = str(text)[:MAX_TEXT]
    if s.isprintable():  # the usual case, checked in C: a layout cleans the same texts many times over
        return s
    return "".join(ch if ch.isprintable() else " " for ch in s)


def width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    """Pixel width of ``text`` as it would be drawn (cleaned and bounded first)."""
    return _width(str(text)[:MAX_TEXT], fnt)


@lru_cache(maxsize=8192)
def _width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    """``width``, remembered: a layout measures the same labels and cells at the same sizes many times over
    (every form of every element, for each layout tried); the fonts are cached objects, so a key is cheap."""
    return int(fnt.getlength(clean(text)) + 0.999)


def fit(text: object, fnt: ImageFont.FreeTypeFont, room: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``room`` pixels wide ("" if nothing fits)."""
    s = clean(text)
    if room <= 0:
        return ""
    most = int(room / (fnt.size * MIN_ADVANCE)) + 2
    if len(s) <= most and fnt.getlength(s) <= room:
        return s
    return _cut(s[:most], fnt, room)


def _cut(s: str, fnt: ImageFont.FreeTypeFont, room: int) -> str:
    """The longest prefix of ``s`` that fits with "…" after it (binary search: log n measurements)."""
    if fnt.getlength(ELLIPSIS) > room:
        return ""
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(s[:mid].rstrip() + ELLIPSIS) <= room:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + ELLIPSIS


def wrap(text: object, fnt: ImageFont.FreeTypeFont, room: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; the last one ends in "…" if text is left."""
    if max_lines <= 0 or room <= 0:
        return []
    most = (int(room / (fnt.size * MIN_ADVANCE)) + 2) * max_lines
    words = clean(text)[: most + 1].split()
    lines: list[str] = []
    line = ""
    i = 0
    while i < len(words) and len(lines) < max_lines:
        word = words[i]
        candidate = f"{line} {word}" if line else word
        if fnt.getlength(candidate) <= room:
            line, i = candidate, i + 1
            continue
        if not line:  # one word wider than the line: cut it
            lines.append(fit(word, fnt, room))
            i += 1
            continue
        lines.append(line)
        line = ""
    if line and len(lines) < max_lines:
        lines.append(line)
        line = ""
    if i < len(words) and lines and not lines[-1].endswith(ELLIPSIS):
        most_line = int(room / (fnt.size * MIN_ADVANCE)) + 2
        lines[-1] = _cut((lines[-1] + " " + words[i])[:most_line], fnt, room)
    return lines


@lru_cache(maxsize=1024)
def largest(
    text: str, room_w: int, room_h: int, biggest: int, smallest: int, weight: Weight = "bold"
) -> ImageFont.FreeTypeFont:
    """The biggest font (``smallest``..``biggest`` px) in which ``text`` fits the box; else the smallest."""
    # Longer than the box holds even at the smallest size: the rest cannot change the answer.
    s = clean(text)[: int(max(room_w, 0) / (max(smallest, 6) * MIN_ADVANCE)) + 2]
    lo, hi = smallest, max(smallest, biggest)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        f = font(mid, weight)
        # measured as ``fit`` and ``width`` measure (the advance), so what fits here is never cut there
        if f.getlength(s or "0") <= room_w and f.getmetrics()[0] <= room_h:
            lo = mid
        else:
            hi = mid - 1
    return font(lo, weight)


# --- the abbreviation rules (docs/display.md): shorter forms a text may take instead of being cut ----

CLAUSE_BREAKS = (" · ", "; ", ", then ", ", ", " - ", " (")


def clauses(text: object) -> list[str]:
    """The text, then shorter forms without its trailing clauses, then without its names' worlds.

    A clause starts at " · ", "; ", ", then ", ", ", " - " or " (" (a parenthesised part goes
    whole): "Ann: apply the Combat Abilities, then next phase" -> "Ann: apply the Combat Abilities";
    "R1 Ann (Venus): Attack (1 left)" -> "R1 Ann (Venus): Attack" (a parenthesis inside the text, as
    in "Ann (Venus):", is not a clause). Then a player's short name: every parenthesis that opens
    with a capital letter goes ("Cy (Pluto)'s spaceship destroyed" -> "Cy's spaceship destroyed",
    "Wally (Mars, Venus)" -> "Wally"), with the same trailing clauses dropped. No form is shorter
    than its first clause, and none ends in "…": what is drawn is a whole phrase of the text.
    """
    s = clean(text).strip()
    forms = _trailing(s)
    short = short_names(s)
    if short != s:
        forms += [f for f in _trailing(short) if f not in forms]
    return forms


def short_names(text: object) -> str:
    """The text with its players' short names ("Cy (Pluto)'s turn" -> "Cy's turn"): the one form of
    ``clauses`` that loses nothing but a world the name already stands for."""
    return _NAMED.sub("", clean(text).strip())


# " (Venus)", " (Mars, Venus)": a player's world(s) after their name, the e-paper's short form drops it
_NAMED = re.compile(r" \([A-Z][^()]*\)")


def _outside(s: str, brk: str) -> int:
    """Where ``brk`` last starts outside any parenthesis ("Wally (Mars, Venus)" has no ", " break); -1 if nowhere."""
    at = s.rfind(brk)
    while at > 0 and s.count("(", 0, at) > s.count(")", 0, at):
        at = s.rfind(brk, 0, at)
    return at


def _trailing(s: str) -> list[str]:
    forms = [s]
    while True:
        # " (" opens a clause only when its parenthesis closes the text: "Ann (Venus): build" keeps "(Venus)"
        cut = max(
            [_outside(s, b) for b in CLAUSE_BREAKS if b != " ("] + ([s.rfind(" (")] if s.endswith(")") else []),
            default=-1,
        )
        if cut <= 0:
            return forms
        s = s[:cut].rstrip(" ,;:-·")
        if s and s != forms[-1]:
            forms.append(s)


def heading_forms(text: object) -> list[str]:
    """A column heading, then its first three, two and one letters ("Leaders" -> "Lea", "Le", "L")."""
    s = clean(text).strip()
    return [s] + [s[:n] for n in (3, 2, 1) if n < len(s)]


ITEM_BREAK = "; "


def items(text: object) -> tuple[str, list[str]] | None:
    """A list's head and items, "Effects: A; B" -> ("Effects:", ["A", "B"]); None for a text of one item.
    A trailing clause after " · " ("Active Events: A; B · 36 cards in the Event deck") is not an item."""
    s = clean(text).strip().split(" · ")[0]
    head, sep, rest = s.partition(": ")
    parts = rest.split(ITEM_BREAK) if sep else []
    if len(parts) < 2 or not all(p.strip() for p in parts):
        return None
    return head + ":", parts


def more_mark(left: int) -> str:
    """What a panel leaves out, counted: "+3 more" (the last items of a list, the elements the body had no room
    for; a board's columns are ``columns_mark``; docs/display.md, "Counted, never dropped unmarked")."""
    return f"+{left} more"


def columns_mark(left: int) -> str:
    """A board's columns left out, counted as what they are: "+2 columns" ("+2 more" after the scores read as two
    more players); the phones show the whole board."""
    return f"+{left} column" if left == 1 else f"+{left} columns"


def item_forms(text: object) -> list[str]:
    """A list, then without its trailing " · " clause, then its first items with the rest counted, down to the
    count alone: "Effects: A; B; C", "Effects: A; B +1 more", "Effects: A +2 more", "Effects: +3 more". No item
    is left out unmarked (the Effects line once dropped "Sven: Knock Out by GM" as a trailing clause), none cut."""
    whole = clean(text).strip()
    found = items(text)
    if found is None:
        return [whole]
    head, parts = found
    n = len(parts)
    listed = f"{head} {ITEM_BREAK.join(parts)}"
    return (
        [whole]
        + ([listed] if listed != whole else [])
        + [
            f"{head} {ITEM_BREAK.join(parts[:k])} {more_mark(n - k)}".replace(":  +", ": +")
            for k in range(n - 1, -1, -1)
        ]
    )


FORMS = {"clauses": clauses, "heading": heading_forms, "items": item_forms}


def shorten(text: object, fnt: ImageFont.FreeTypeFont, room: int, rule: str = "clauses") -> str:
    """The longest form of ``text`` under ``rule`` that fits ``room`` px whole ("" if none does)."""
    for form in FORMS[rule](text):
        if ink_width(form, fnt) <= room:
            return form
    return ""


def wrap_whole(text: object, fnt: ImageFont.FreeTypeFont, room: int, max_lines: int) -> list[str] | None:
    """Word wrap into at most ``max_lines`` lines with every word whole, or None if it does not fit
    (measured by the ink, so a line that fits here is never cut when drawn)."""
    if max_lines <= 0 or room <= 0:
        return None
    words = clean(text).split()
    if len(" ".join(words)) > (int(room / (fnt.size * MIN_ADVANCE)) + 2) * max_lines:
        return None  # longer than the lines could hold even in the narrowest glyphs
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if ink_width(candidate, fnt) <= room:
            line = candidate
            continue
        if not line or ink_width(word, fnt) > room:
            return None
        lines.append(line)
        line = word
        if len(lines) >= max_lines:
            return None
    if line:
        lines.append(line)
    return lines if len(lines) <= max_lines else None


def wrap_items(text: object, fnt: ImageFont.FreeTypeFont, room: int, max_lines: int) -> list[str] | None:
    """``wrap_whole`` for a list whose items are joined by " · " ("VP Ann 2 · Bob 0"): lines break between items,
    each line but the last ending in "·", so a player's name stays beside their score; where the items do not
    fit that way (or the text is no such list), the words are wrapped as ``wrap_whole`` wraps them."""
    items = clean(text).split(" · ")
    if len(items) < 2:
        return wrap_whole(text, fnt, room, max_lines)
    units = [item + " ·" for item in items[:-1]] + items[-1:]
    lines: list[str] = []
    for unit in units:
        candidate = f"{lines[-1]} {unit}" if lines else unit
        if lines and ink_width(candidate, fnt) <= room:
            lines[-1] = candidate
        elif ink_width(unit, fnt) <= room and len(lines) < max_lines:
            lines.append(unit)
        else:
            return wrap_whole(text, fnt, room, max_lines)
    return lines


def ink_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    """The room ``text`` needs drawn whole: its advance, or its ink where a glyph reaches past it."""
    return _ink_width(str(text)[:MAX_TEXT], fnt)


@lru_cache(maxsize=8192)
def _ink_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    s = clean(text)
    if not s:
        return 0
    x0, _y0, x1, _y1 = fnt.getbbox(s)
    return int(max(width(s, fnt), x1) - min(0, x0))
