"""Plain text: wrapped to its width with every word whole, never cut.

Up to four lines when roomy, three at level 1, two at level 2, and one line in label-sized type at
level 3, without its trailing clauses if it must (``text.clauses``, the documented abbreviation), else
two label-sized lines; a priority-1 text (the moment's scores) is whole there, on up to three label-sized lines,
and takes a shorter form only where no layout holds it whole (``layout.choose``);
a text that needs more lines than its level allows does not fit there (the layout tries a tighter
level, then leaves it out) rather than being cut with "…".
A list ("Effects: A; B; C", ``text.items``) is whole on up to four and three lines at levels 0 and 1, and from
level 2 on one line with its last items counted ("Effects: A +2 more", ``text.item_forms``), priority 1 too:
a list drawn whole on two lines left no room for the exchange on the table on a wHAT.
"""

from __future__ import annotations

from PIL import ImageFont
from tableside.core.screen import Text
from tableside.display.canvas import Canvas, line_h, read_size
from tableside.display.elements.base import Kind
from tableside.display.text import clauses, clean, font, ink_width, item_forms, items, wrap_items, wrap_whole

NO_ROOM = 1 << 30


def _size(c: Canvas, e: Text, compact: int) -> int:
    return read_size(c, e.priority, c.m.label if compact >= 3 else c.m.text)


def _lines(c: Canvas, e: Text, w: int, compact: int) -> tuple[list[str] | None, str]:
    """The lines, every word whole, and the abbreviation rule they follow ("" for the whole text)."""
    f = font(_size(c, e, compact), "bold" if e.tone != "normal" else "regular")
    listed = items(e.text) is not None
    if compact < 2 or (compact < 3 and not listed):
        return wrap_items(e.text, f, w, (4, 3, 2)[int(compact)]), ""
    if listed:  # a list ("Effects: A; B; C") from level 2: its first items and "+N more" on a line, never one
        return _counted(e, f, w)  # dropped; a priority-1 one too, so the moment's other lines keep their room
    if e.priority <= 1 and id(e) not in c.loose:
        # What the moment needs (VENOM's "VP Ann 5 · Bob 0 · ..."): whole, on up to three lines, wherever any
        # layout holds it that way (the key figures go on one line for it), before a form that drops a score.
        line = clean(e.text)  # printable: a control character in a name must not reach the font engine
        if f.getlength(line) <= w:
            return [line], ""
        return wrap_items(e.text, f, w, 3), ""
    for i, form in enumerate(clauses(e.text)):
        if f.getlength(form) <= w:
            return [form], "clauses" if i else ""
    return wrap_items(e.text, f, w, 2), ""


def _counted(e: Text, f: ImageFont.FreeTypeFont, w: int) -> tuple[list[str] | None, str]:
    """A list at the tightest level: the longest ``text.item_forms`` form that fits one line (the items it leaves
    out counted, "Effects: Shred: Wound by GM +2 more"), else two lines, never fewer than its first item; only a
    list the moment needs (priority 1: Venus 2140's effects on a pHAT) may be its count alone ("Effects: +3 more")."""
    forms = item_forms(e.text)
    shown = list(enumerate(forms[:-1]))
    for i, form in shown:
        if ink_width(form, f) <= w:
            return [form], "items" if i else ""
    for _i, form in shown:
        lines = wrap_whole(form, f, w, 2)
        if lines:
            return lines, ""  # each line a whole piece of the form (as the prompt's two lines)
    if e.priority <= 1 and ink_width(forms[-1], f) <= w:
        return [forms[-1]], "items"
    return None, ""


def measure(c: Canvas, e: Text, w: int, compact: int = 0) -> int:
    lines, _rule = _lines(c, e, w, compact)
    if lines is None:
        return NO_ROOM
    return len(lines) * line_h(c, _size(c, e, compact)) + c.m.pad // 2


def draw(c: Canvas, e: Text, x: int, y: int, w: int, compact: int = 0) -> None:
    size = _size(c, e, compact)
    f = font(size, "bold" if e.tone != "normal" else "regular")
    lines, rule = _lines(c, e, w, compact)
    for line in lines or []:  # a shorter form is checked against the text it stands for
        c.text((x, y), line, f, w, fill=c.inks.text(e.tone), rule=rule, asked=e.text if rule else None)
        y += line_h(c, size)


def natural_width(c: Canvas, e: Text) -> int:
    """A line the screen can never drop (priority 1: the exchange on the table, the scores) reads across:
    where it comes first below an element that spans the columns, it spans them too."""
    return c.panel.width if e.priority <= 1 else 0


KIND = Kind("text", measure, draw, natural_width=natural_width)
