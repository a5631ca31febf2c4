"""Dice groups: dice drawn as faces (pips on a d6), each with its mark, and one verdict.

Marks: hit and kept filled in the accent ink, captured and stake filled black, tossed
struck through, committed with an inner border, rolled-in with a corner notch. Roomy:
a label line over the dice, the verdict beside them; compact: label, dice and verdict
on one row when the dice fit whole (the verdict on two lines beside them, or without its trailing
clauses, where one line is too short for it); tightest, where not even that fits: the verdict alone,
the outcome the table reads (the dice are left out).
"""

from __future__ import annotations

from tableside.core.screen import DiceGroup
from tableside.display.canvas import Canvas, Inks, cap, line_h, top
from tableside.display.elements.base import Kind
from tableside.display.panels import BLACK
from tableside.display.text import clauses, font, ink_width, largest, short_names, width, wrap, wrap_whole

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def _layout(c: Canvas, e: DiceGroup, w: int) -> tuple[int, int, int]:
    """(die size, dice per row, rows): shrink the dice before wrapping, at most two rows."""
    n = max(1, len(e.dice))
    size = c.die_size.get(id(e), c.m.die)  # bigger where the layout gave the moment's dice the room
    gap = max(2, size // 6)
    while size > max(10, c.m.die // 2) and n * (size + gap) > w:
        size -= 1
        gap = max(2, size // 6)
    per_row = max(1, (w + gap) // (size + gap))
    rows = min(2, -(-n // per_row))
    return size, per_row, rows


def die_size(c: Canvas, e: DiceGroup, w: int) -> int:
    """The size the dice are drawn at in ``w`` px (smaller than asked where they would not fit)."""
    return _layout(c, e, w)[0]


def _inline(c: Canvas, e: DiceGroup, w: int) -> tuple[int, int, int, list[str], str] | None:
    """(die size, label room, verdict room, verdict lines, their rule) for label, dice and verdict on one row;
    None if the dice need more.

    The dice stay whole, then the verdict (the outcome): on one line beside them (the dice smaller for it, down
    to the line's height), else on two (the row is then two lines tall), else without its trailing
    clauses (``text.clauses``); the label takes what is left, or is left out when that is less than a few characters.
    """
    n = len(e.dice)
    if not n:
        return None
    size, per_row, _rows = _layout(c, e, w)
    if per_row < n:
        return None
    f = font(c.m.label, "bold")
    need_l = width(e.label, f) if e.label else 0
    need_v = ink_width(e.verdict, f) if e.verdict else 0

    def room(die: int) -> int:
        return w - n * (die + max(2, die // 6)) - c.m.pad * 2

    smallest = max(10, line_h(c, c.m.label))  # a die as tall as the verdict's line, no smaller
    while need_v > room(size) and size > smallest:  # smaller dice before the outcome takes two lines
        size -= 1
    if need_v > room(size):
        size = _layout(c, e, w)[0]
    rest = room(size)
    if rest < min(need_l + need_v, c.m.label * 3):
        return None
    lines, rule = ([e.verdict] if e.verdict else []), ""
    short = short_names(e.verdict) if e.verdict else ""
    if need_v > rest and short != e.verdict and ink_width(short, f) <= rest:  # "Cy's spaceship destroyed"
        lines, rule, need_v = [short], "clauses", ink_width(short, f)  # one line beside the dice: they stay
    if need_v > rest:  # the outcome is read whole (on two lines, or a whole shorter phrase) or not at all
        found = None
        for i, form in enumerate(clauses(e.verdict)):
            for most in (1, 2):
                found = wrap_whole(form, f, rest, most)
                if found:
                    break
            if found:
                lines, rule = found, "clauses" if i else ""
                break
        if not found:
            return None
        need_v = max(ink_width(line, f) for line in lines)
    verdict = need_v
    label = rest - verdict
    if label < need_l:  # a label that is not whole is left out (the dice and the outcome say it)
        label = 0
    return size, label, verdict, lines, rule


def _inline_row(c: Canvas, size: int, lines: list[str]) -> int:
    """The one-row form's height: the dice, or the verdict's lines beside them if taller."""
    return max(line_h(c, c.m.label) * max(1, len(lines)), size)


def _verdict(c: Canvas, e: DiceGroup, w: int) -> tuple[str, list[str]]:
    """Where the verdict goes in the roomy form, every word whole: beside the dice (one or two lines),
    on the label line (right), or on lines of its own under the dice; and its lines."""
    if not e.verdict:
        return "none", []
    f = font(c.m.label, "bold")
    size, per_row, rows = _layout(c, e, w)
    used = min(len(e.dice), per_row) * (size + max(2, size // 6))
    beside = w - used - c.m.pad
    if rows == 1 and beside >= max(w // 4, c.m.label * 4):
        lines = wrap_whole(e.verdict, f, beside, max(1, min(2, (size + c.m.pad) // line_h(c, c.m.label))))
        if lines:
            return "beside", lines
    if ink_width(e.label, f) + c.m.pad * 2 + ink_width(e.verdict, f) <= w:
        return "label", [e.verdict]
    return "below", wrap_whole(e.verdict, f, w, 2) or wrap(e.verdict, f, w, 2)


def _compact(c: Canvas, e: DiceGroup, w: int, compact: int) -> tuple[int, int, int, list[str], str] | None:
    """The one-row form at levels 1-2; at the tightest level only where its verdict takes one line (else the
    verdict alone, ``_outcome``, is shorter)."""
    inline = _inline(c, e, w) if compact else None
    if inline is not None and compact >= 3 and len(inline[3]) > 1 and _outcome(c, e, w) is not None:
        return None
    return inline


def _outcome(c: Canvas, e: DiceGroup, w: int) -> tuple[list[str], str] | None:
    """The tightest form's lines where the dice and the verdict do not fit one row: the verdict alone (the
    outcome is what the table reads), on one line, else without its trailing clauses, else on two lines."""
    if not e.verdict:
        return None
    f = font(c.m.label, "bold")
    for i, form in enumerate(clauses(e.verdict)):
        if ink_width(form, f) <= w:
            return [form], "clauses" if i else ""
    lines = wrap_whole(e.verdict, f, w, 2)
    return (lines, "") if lines else None


def measure(c: Canvas, e: DiceGroup, w: int, compact: int = 0) -> int:
    inline = _compact(c, e, w, compact)
    if inline is not None:
        return _inline_row(c, inline[0], inline[3]) + c.m.pad
    outcome = _outcome(c, e, w) if compact >= 3 else None
    if outcome is not None:
        return len(outcome[0]) * line_h(c, c.m.label) + c.m.pad
    size, _per, rows = _layout(c, e, w)
    gap = max(2, size // 6)
    where, lines = _verdict(c, e, w)
    below = len(lines) * line_h(c, c.m.label) if where == "below" else 0
    return line_h(c, c.m.label) + rows * (size + gap) + below + c.m.pad


def _draw_inline(
    c: Canvas,
    e: DiceGroup,
    x: int,
    y: int,
    w: int,
    size: int,
    label_w: int,
    verdict_w: int,
    lines: list[str],
    rule: str,
) -> None:
    """One row: the label, the dice, the verdict (one or two lines, or its shorter form)."""
    f = font(c.m.label, "bold")
    row = _inline_row(c, size, lines)
    ty = y + (row - cap(f)) // 2 + top(f)
    whole = label_w > 0 and width(e.label, f) <= label_w  # a label that would be cut is left out: the dice say it
    used = c.text((x, ty), e.label, f, label_w) if whole else 0
    dx = x + (used + c.m.pad if used else 0)
    if not whole and label_w > 0:
        verdict_w += label_w  # the room the label leaves goes to the verdict
    gap = max(2, size // 6)
    for die in e.dice:
        draw_die(c, dx, y + (row - size) // 2, size, die.face, die.mark, e.sides)
        dx += size + gap
    if lines and verdict_w > 0:
        ink = c.inks.text(e.tone if e.tone != "normal" else "accent")
        lh = line_h(c, c.m.label)
        ly = y + (row - len(lines) * lh) // 2 + top(f) if len(lines) > 1 else ty
        one = rule and len(lines) == 1  # a shorter form on one line is checked against the verdict it stands for
        for i, line in enumerate(lines):  # (on two lines, each is a whole piece of that form)
            c.text(
                (dx + c.m.pad - gap, ly + i * lh),
                line,
                f,
                verdict_w,
                fill=ink,
                rule=rule if one else "",
                asked=e.verdict if one else None,
            )


def draw_die(c: Canvas, x: int, y: int, size: int, face: int, mark: str, sides: int) -> None:
    """One die, ``size`` px square: pips on a d6 big enough for them, else the number; then its mark."""
    filled = mark in ("hit", "captured", "kept")
    fill = c.inks.fill("accent") if mark in ("hit", "kept") else BLACK if mark in ("captured", "stake") else None
    if mark == "stake":
        filled = True
    box = (x, y, x + size - 1, y + size - 1)
    r = max(2, size // 6)
    if filled:
        c.draw.rounded_rectangle(box, radius=r, fill=fill, outline=BLACK, width=1)
    else:
        c.draw.rounded_rectangle(box, radius=r, outline=BLACK, width=2 if size > 20 else 1)
    if mark == "committed":  # set aside: a second, inner border
        inset = max(3, size // 8)
        c.draw.rounded_rectangle(
            (x + inset, y + inset, x + size - 1 - inset, y + size - 1 - inset), radius=max(1, r // 2), outline=BLACK
        )
    ink = Inks.on(fill) if filled and fill is not None else BLACK
    if sides == 6 and 1 <= face <= 6 and size >= 14:
        pr = max(1, size // 11)
        for px, py in _PIPS[face]:
            cx, cy = x + round(px * (size - 1)), y + round(py * (size - 1))
            c.draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=ink)
    else:
        f = largest(str(face), size - 6, size - 6, size * 3 // 5, 7, "bold")
        s = str(face)
        c.put((x + (size - width(s, f)) // 2, y + (size - cap(f)) // 2 + top(f)), s, f, ink)
    if mark == "tossed":  # tossed: struck through
        c.draw.line((x + 2, y + size - 3, x + size - 3, y + 2), fill=c.inks.alert_text, width=max(2, size // 12))
    if mark == "rolled_in":  # a die that rolled in (exploded): a corner notch
        k = max(4, size // 4)
        c.draw.polygon([(x + size - 1 - k, y), (x + size - 1, y), (x + size - 1, y + k)], fill=c.inks.fill("accent"))


def draw(c: Canvas, e: DiceGroup, x: int, y: int, w: int, compact: int = 0) -> None:
    inline = _compact(c, e, w, compact)
    if inline is not None:
        _draw_inline(c, e, x, y, w, *inline)
        return
    outcome = _outcome(c, e, w) if compact >= 3 else None
    if outcome is not None:
        lines, rule = outcome
        f, ink = font(c.m.label, "bold"), c.inks.text(e.tone if e.tone != "normal" else "accent")
        for i, line in enumerate(lines):
            c.text(
                (x, y + i * line_h(c, c.m.label)), line, f, w, fill=ink, rule=rule, asked=e.verdict if rule else None
            )
        return
    size, per_row, rows = _layout(c, e, w)
    gap = max(2, size // 6)
    f = font(c.m.label, "bold")
    verdict_ink = c.inks.text(e.tone if e.tone != "normal" else "accent")
    shown = e.dice[: per_row * rows]
    used = min(len(shown), per_row) * (size + gap)
    where, verdict_lines = _verdict(c, e, w)
    label_room = w
    if where == "label":  # no room beside the dice: on the label line, right
        vw = ink_width(e.verdict, f)
        c.text((x + w - vw, y), e.verdict, f, vw, fill=verdict_ink)
        label_room = w - vw - c.m.pad * 2
    c.text((x, y), e.label, f, label_room, rule="clauses")
    y += line_h(c, c.m.label)
    if where == "beside":
        for i, line in enumerate(verdict_lines):
            y0 = y + (size - len(verdict_lines) * line_h(c, c.m.label)) // 2 + i * line_h(c, c.m.label)
            c.text((x + used + c.m.pad, y0), line, f, w - used - c.m.pad, fill=verdict_ink)
    if where == "below":
        yb = y + rows * (size + gap)
        for i, line in enumerate(verdict_lines):
            c.text((x, yb + i * line_h(c, c.m.label)), line, f, w, fill=verdict_ink)
    for i, die in enumerate(shown):
        row, col = divmod(i, per_row)
        if len(shown) < len(e.dice) and i == len(shown) - 1:  # no room for all: say how many more
            more = f"+{len(e.dice) - i}"
            c.text((x + col * (size + gap), y + row * (size + gap) + (size - c.m.label) // 2), more, f, size)
            break
        draw_die(c, x + col * (size + gap), y + row * (size + gap), size, die.face, die.mark, e.sides)


KIND = Kind("dice", measure, draw)
