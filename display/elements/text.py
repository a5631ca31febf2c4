"""Plain text: wrapped to its width with every word whole, never cut.

Up to four lines when roomy, three at level 1, two at level 2, and one line in label-sized type at
level 3, without its trailing clauses if it must (``text.clauses``, the documented abbreviation), else
two label-sized lines; a priority-1 text (the moment's scores) is whole there, on up to three label-sized lines,
and takes a shorter form only where no layout holds it whole (``layout.choose``);
a text that needs more lines than its level allows does not fit there (the layout tries a tighter
level, then leaves it out) rather than being cut with "…".
"""

from __future__ import annotations

from tableside.core.screen import Text
from tableside.display.canvas import Canvas, line_h
from tableside.display.elements.base import Kind
from tableside.display.text import clauses, clean, font, wrap_items

NO_ROOM = 1 << 30


def _size(c: Canvas, compact: int) -> int:
    return c.m.label if compact >= 3 else c.m.text


def _lines(c: Canvas, e: Text, w: int, compact: int) -> tuple[list[str] | None, str]:
    """The lines, every word whole, and the abbreviation rule they follow ("" for the whole text)."""
    f = font(_size(c, compact), "bold" if e.tone != "normal" else "regular")
    if compact < 3:
        return wrap_items(e.text, f, w, (4, 3, 2)[int(compact)]), ""
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


def measure(c: Canvas, e: Text, w: int, compact: int = 0) -> int:
    lines, _rule = _lines(c, e, w, compact)
    if lines is None:
        return NO_ROOM
    return len(lines) * line_h(c, _size(c, compact)) + c.m.pad // 2


def draw(c: Canvas, e: Text, x: int, y: int, w: int, compact: int = 0) -> None:
    size = _size(c, compact)
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
