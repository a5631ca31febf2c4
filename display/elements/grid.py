"""Grids: rows by columns, e.g. players x tracks on the Venusian Vegas boards.

A grid wider than one column spans them all (it reads across). Tighter forms: the title in the corner
the row labels leave on the headings' line, or else label-sized rows (1), label-sized rows with the title
there or left out (2), and last, for a grid of priority 1-2, the first column alone on one line,
"VP  Ann 2  Bob 0  Cy 0" (3), wrapped onto more lines where one is too short: the first column is the
score, so a pHAT keeps every player's.
A grid of things held (``Grid.held``: Venusian Vegas's tokens) has instead, at the tightest level, the
held form: its title, then each row that holds something with the columns it holds (a count above one
after its column), "Tokens held  Bob Game, 2 Inspector  Cy Bot", on as few label-sized lines as hold every row whole;
so has a grid of one column no score line stands for (priority 3 on: VNM's Earth), each row with its value,
"Earth  China 25  India 21".
A heading too wide for its column is shortened to its first letters (``text.heading_forms``), never cut with "…".
A row that is highlighted (whose turn) gets an accent bar and bold
text; a player colour, where the panel has colours, a swatch.
"""

from __future__ import annotations

from dataclasses import replace

from tableside.core.screen import Grid, GridRow
from tableside.display.canvas import Canvas, label_line, line_h, read_size
from tableside.display.elements.base import Kind
from tableside.display.panels import BLACK
from tableside.display.text import (
    columns_mark,
    fit,
    font,
    heading_forms,
    ink_width,
    largest,
    more_mark,
    short_names,
    width,
)


def _listed(e: Grid) -> bool:
    """Whether the grid has the list form at its tightest level: things held, or one column of values
    (VNM's Earth: "China 25") that no score line stands for."""
    return e.held or (len(e.columns) == 1 and e.priority > 2)


def _holdings(e: Grid, short: bool = False) -> list[tuple[int, str]]:
    """The list form's entries, (row index, what follows its label): for a grid of things held, each row that
    holds something with what, as a person says it ("Game, 2 Inspector"); for one column, each row's value ("25")."""
    out = []
    for i, r in enumerate(e.rows):
        if not e.held:
            if r.cells and r.cells[0].strip():
                out.append((i, r.cells[0]))
            continue
        held = []
        for col, cell in zip(e.columns, r.cells, strict=False):
            n = int(cell) if cell.strip().isdigit() else 0
            name = heading_forms(col)[1 if short and len(col) > 3 else 0]
            if n:
                held.append(name if n == 1 else f"{n} {name}")
        if held:
            out.append((i, (" " if short else ", ").join(held)))
    return out


def _held_lines(c: Canvas, e: Grid, w: int) -> list[list[tuple[int, str, int]]] | None:
    """The held form's lines: each a list of (row index or -1 for the title, what it holds, x); None if a
    row does not fit a line whole. What is held is said whole ("Game, 2 Inspector"); only where its first
    three letters take fewer lines ("Gam 2 Ins", ``text.heading_forms``, as a column heading) are they used."""
    forms = [f for f in (_held_form(c, e, w, False), _held_form(c, e, w, True)) if f is not None]
    return min(forms, key=len) if forms else None


def _held_form(c: Canvas, e: Grid, w: int, short: bool) -> list[list[tuple[int, str, int]]] | None:
    fl, f, fb = font(c.m.label, "bold"), font(c.m.label), font(c.m.label, "bold")
    gap = c.m.pad * 3
    units = [(-1, "", width(e.title, fl))] if e.title else []
    for i, held in _holdings(e, short):
        units.append((i, held, width(e.rows[i].label, f) + c.m.pad + width(held, fb)))
    lines = _wrap([uw for _i, _held, uw in units], w, gap)
    if lines is None:
        return None
    return [[(units[k][0], units[k][1], x) for k, x in line] for line in lines]


def _wrap(widths: list[int], w: int, gap: int) -> list[list[tuple[int, int]]] | None:
    """Pieces of these widths laid left to right, ``gap`` apart, onto lines of ``w``: per line (piece index,
    x); None if a piece is wider than a whole line (it would be cut)."""
    lines: list[list[tuple[int, int]]] = [[]]
    x = 0
    for k, uw in enumerate(widths):
        if uw > w:
            return None
        if lines[-1] and x + gap + uw > w:
            lines.append([])
            x = 0
        x += gap if lines[-1] else 0
        lines[-1].append((k, x))
        x += uw
    return lines


def _draw_held(c: Canvas, e: Grid, x0: int, y: int, w: int) -> None:
    fl, f, fb = font(c.m.label, "bold"), font(c.m.label), font(c.m.label, "bold")
    row = line_h(c, c.m.label)
    for line in _held_lines(c, e, w) or []:
        for i, held, x in line:
            if i < 0:
                c.text((x0 + x, y), e.title, fl, width(e.title, fl), fill=c.inks.text(e.tone))
                continue
            r = e.rows[i]
            lw = width(r.label, f)
            if r.highlight:  # whose turn: underlined in the accent ink
                c.rect((x0 + x, y + row - 2, x0 + x + lw - 1, y + row - 1), fill=c.inks.accent)
            elif r.next:  # whose turn follows: underlined in dashes
                c.dashes((x0 + x, y + row - 2, x0 + x + lw - 1, y + row - 1), c.inks.accent)
            c.text((x0 + x, y), r.label, f, lw)
            c.text((x0 + x + lw + c.m.pad, y), held, fb, width(held, fb))
        y += row


def _scores(e: Grid) -> int:
    """How many leading columns the scores form carries (``Grid.score_columns``, at most every column)."""
    return max(1, min(e.score_columns, len(e.columns)))


def _score_cells(c: Canvas, e: Grid, r: GridRow) -> list[str]:
    """The cells a row shows in the scores form: its ``score_columns`` first, or, where those fit nowhere
    (``Canvas.loose``: twelve Venus 2140 participants on a pHAT), the last of them alone, the score ("1 book")."""
    k = _scores(e)
    return list(r.cells[k - 1 : k] if k > 1 and id(e) in c.loose else r.cells[:k])


def _inline(c: Canvas, e: Grid, w: int) -> tuple[list[list[tuple[int, int]]], bool, int] | None:
    """The scores form's lines, whether its row labels take their short form and its type size, or None where
    it does not apply: the first column's heading, then each row's label and first cell (its ``score_columns``
    first cells, which say what they count, "Ann 7 dice 1 book", without a heading), (row index or -1 for the
    heading, x) on one line, or wrapped onto more where one is too short (five long names on a pHAT): every
    score stays, none is cut. Where the players' short names (``text.short_names``: "Ann (Cmdr)" -> "Ann"),
    then label-sized type, take fewer lines, the form takes them (every row its short name, as bars do)."""
    if e.held or e.priority > 2 or not e.columns or not e.rows or not all(r.cells for r in e.rows):
        return None  # only a grid the screen needs (priority 1-2) is read by its first column, the score
    key = ("grid-inline", id(e), w, id(e) in c.loose)
    if key not in c.memo:
        c.memo[key] = _inline_lines(c, e, w)
    return c.memo[key]  # type: ignore[return-value]


def _unit(c: Canvas, e: Grid, r: GridRow, short: bool, size: int) -> int:
    f, fb = font(size), font(size, "bold")
    cells = _score_cells(c, e, r)
    return (
        ink_width(_row_label(r, short), f)
        + c.m.pad
        + sum(ink_width(cell, fb) + c.m.pad * 2 for cell in cells)
        - c.m.pad * 2
    )


def _row_label(r: GridRow, short: bool) -> str:
    return short_names(r.label) if short else r.label


def _inline_lines(c: Canvas, e: Grid, w: int) -> tuple[list[list[tuple[int, int]]], bool, int] | None:
    """``_inline``'s lines: with the columns the form leaves out counted last ("+7 columns"), on a panel with the 4 mm
    floor always, elsewhere where that mark fits on the lines the scores take anyway (same lines, size and
    names); else the scores alone (a pHAT's five long names keep their one line, eleven Venus 2140 participants
    their board)."""
    left = _inline_left(c, e)
    bare = _score_lines(c, e, w, [])
    if not left or bare is None:
        return bare
    fl = font(c.m.label, "bold")
    marked = _score_lines(c, e, w, [(-2, ink_width(columns_mark(left), fl))])
    if marked is not None and (c.m.legible or (len(marked[0]), marked[1], marked[2]) == (len(bare[0]), *bare[1:])):
        return marked  # on a panel with the 4 mm floor always, a line more if it must
    return bare


def _score_lines(
    c: Canvas, e: Grid, w: int, mark: list[tuple[int, int]]
) -> tuple[list[list[tuple[int, int]]], bool, int] | None:
    fl = font(c.m.label, "bold")
    gap = c.m.pad * 3
    head = [(-1, width(e.columns[0], fl))] if _scores(e) == 1 else []
    shorter = any(short_names(r.label) != r.label for r in e.rows)
    found = None
    for size in sorted({read_size(c, e.priority, c.m.text), read_size(c, e.priority, c.m.label)}, reverse=True):
        for short in (False, True) if shorter else (False,):
            units = head + [(i, _unit(c, e, r, short, size)) for i, r in enumerate(e.rows)] + mark
            lines = _wrap([uw for _i, uw in units], w, gap)
            if lines is not None and (found is None or len(lines) < len(found[0])):
                found = ([[(units[k][0], x) for k, x in line] for line in lines], short, size)
            if found is not None and len(found[0]) == 1:
                return found
    return found


def _inline_left(c: Canvas, e: Grid) -> int:
    """How many columns the scores form leaves out (Vegas's tracks beside its VP): counted at its end."""
    return len(e.columns) - len(_score_cells(c, e, e.rows[0])) if e.rows else 0


def _draw_inline(c: Canvas, e: Grid, x0: int, y: int, w: int) -> None:
    lines, short, size = _inline(c, e, w) or ([], False, read_size(c, e.priority, c.m.text))
    fl, f, fb = font(c.m.label, "bold"), font(size), font(size, "bold")
    row = line_h(c, size)
    for line in lines:
        base = y + fb.getmetrics()[0]
        for i, x in line:
            if i < 0:
                head = e.columns[0] if i == -1 else columns_mark(_inline_left(c, e))
                c.text((x0 + x, base - fl.getmetrics()[0]), head, fl, ink_width(head, fl))
                continue
            r = e.rows[i]
            label = _row_label(r, short)
            lw = ink_width(label, f)
            if r.highlight:  # whose turn: underlined in the accent ink
                c.rect((x0 + x, y + row - 2, x0 + x + lw - 1, y + row - 1), fill=c.inks.accent)
            elif r.next:  # whose turn follows: underlined in dashes
                c.dashes((x0 + x, y + row - 2, x0 + x + lw - 1, y + row - 1), c.inks.accent)
            c.text((x0 + x, base - f.getmetrics()[0]), label, f, lw, rule="clauses" if short else "", asked=r.label)
            cx = x0 + x + lw + c.m.pad
            for cell in _score_cells(c, e, r):  # a wider gap between cells than after the name: "Bob 0 dice  0 books"
                cw = ink_width(cell, fb)
                c.text((cx, y), cell, fb, cw)
                cx += cw + c.m.pad * 2
        y += row


def _room(c: Canvas, w: int, left: int) -> int:
    """The width the columns drawn take where ``left`` are counted at the end of the headings' line."""
    return w - ink_width(more_mark(left), font(c.m.label, "bold")) - c.m.pad * 2 if left else w


def _title_beside(c: Canvas, e: Grid, w: int, size: int) -> bool:
    """Whether the title fits whole in the corner the row labels leave on the headings' line ("Players  VP Tm"):
    then it takes no line of its own."""
    if not e.title or not any(e.columns):
        return False
    key = ("grid-title", id(e), w, size)
    if key not in c.memo:
        part, left = _fewer(c, e, w, size)
        label_w = _geometry(c, part, _room(c, w, left), size)[0]
        c.memo[key] = width(e.title, font(c.m.label, "bold")) + c.m.pad <= label_w
    return c.memo[key]  # type: ignore[return-value]


def _form(c: Canvas, e: Grid, w: int, compact: int) -> tuple[int, str]:
    """The rows' type size and where the title goes ("line", "beside" the headings, or "" for none) at a level:
    0 a title line over text-sized rows; 1 the title beside the headings over text-sized rows where it fits
    there, else a title line over label-sized rows; 2 and 3 label-sized rows, the title beside or left out."""
    text, label = read_size(c, e.priority, c.m.text), read_size(c, e.priority, c.m.label)  # scores: 4 mm at least
    if compact == 0:  # bigger where the layout gave the grid its column's room (a large panel's scores)
        return c.grid_size.get(id(e), text), "line" if e.title else ""
    if compact == 1:
        if _title_beside(c, e, w, text):
            return text, "beside"
        return label, "line" if e.title else ""
    return label, "beside" if _title_beside(c, e, w, label) else ""


def measure(c: Canvas, e: Grid, w: int, compact: int = 0) -> int:
    scores = _inline(c, e, w) if compact >= 3 else None
    if scores is not None:
        return len(scores[0]) * line_h(c, scores[2]) + c.m.pad
    if compact >= 3 and _listed(e):
        lines = _held_lines(c, e, w)
        return 1 << 30 if lines is None else len(lines) * line_h(c, c.m.label) + c.m.pad // 2
    size, title = _form(c, e, w, compact)
    if not _whole(c, e, w, size) and not _fewer(c, e, w, size)[1]:  # never a cut name or value
        return 1 << 30
    row = line_h(c, size)
    header = line_h(c, c.m.label) if any(e.columns) else 0
    return (line_h(c, c.m.label) if title == "line" else 0) + header + len(e.rows) * row + c.m.pad


def _widths(c: Canvas, e: Grid, size: int, w: int) -> tuple[int, int, bool]:
    """(widest cell or heading, room the row labels need, whether rows carry a mark); kept on the canvas for
    the layouts tried (the title's corner, the wholeness check and the drawing all ask)."""
    key = ("grid-widths", id(e), size, w)
    if key not in c.memo:
        c.memo[key] = _measure_widths(c, e, size, w)
    return c.memo[key]  # type: ignore[return-value]


def _measure_widths(c: Canvas, e: Grid, size: int, w: int) -> tuple[int, int, bool]:
    fb, fh = font(size, "bold"), font(c.m.label)
    widest = max(
        [width(fit(cell, fb, w // 3), fb) for r in e.rows for cell in r.cells]
        + [width("00", fb)]
        + [width(col, fh) for col in e.columns]
    )  # a column's heading is read too
    marks = any(r.highlight for r in e.rows) or (len(c.inks.players) > 1 and any(r.colour is not None for r in e.rows))
    sw = size // 2 if marks else 0
    label_need = (
        max([width(fit(r.label, fb, w // 2), fb) for r in e.rows] + [0]) + (2 * sw + 3 if marks else 0) + c.m.pad
    )
    return widest, label_need, marks


def _geometry(c: Canvas, e: Grid, w: int, size: int) -> tuple[int, int, int, bool, str]:
    """(label column, cell width, swatch size, whether rows carry a mark, cell alignment) at ``size``."""
    fb = font(size, "bold")
    ncol = max(1, len(e.columns))
    widest, label_need, marks = _widths(c, e, size, w)
    sw = size // 2 if marks else 0
    # Cells as wide as their widest entry, else what the row labels leave; never narrower than three digits
    # unless the row labels (the players' names) would be cut for it while the entries still fit.
    leave = (w - label_need) // ncol
    values = max([width(cell, fb) for r in e.rows for cell in r.cells] + [0]) + c.m.pad
    cell_w = max(min(widest + c.m.pad * 2, leave), min(w // (ncol + 1), width("000", fb), max(values, leave)))
    if ncol == 1 and not any(e.columns):  # label: value rows, the value takes what the label leaves
        label_need = max([width(fit(r.label, fb, w // 2), fb) for r in e.rows] + [0]) + 2 * sw + c.m.pad * 2
        cell_w = max(w // 3, w - label_need)
    align = "right" if ncol == 1 and not any(e.columns) else "center"
    return w - cell_w * ncol, cell_w, sw, marks, align


def _columns(c: Canvas, e: Grid, w: int, size: int) -> list[tuple[int, int]]:
    """Each column's (x from the grid's left, width) at ``size``: equal cells, unless a heading would be drawn
    smaller than its neighbours there ("Rewards" beside "Leaders" on a 13.3" panel) while each column as wide
    as its own heading and values, plus a gap, fits the same room: then the room is shared that way."""
    key = ("grid-columns", id(e), w, size)
    if key not in c.memo:
        label_w, cell_w, _sw, _marks, _align = _geometry(c, e, w, size)
        ncol = max(1, len(e.columns))
        widths = [cell_w] * ncol
        fh, fb = font(c.m.label), font(size, "bold")
        if any(width(col, fh) > cell_w - 2 for col in e.columns):
            needs = [
                max([width(col, fh), width("00", fb)] + [width(r.cells[j], fb) for r in e.rows if j < len(r.cells)])
                + c.m.pad
                for j, col in enumerate(e.columns)
            ]
            spare = cell_w * ncol - sum(needs)
            if spare >= 0:
                widths = [n + spare // ncol for n in needs]
                widths[-1] += cell_w * ncol - sum(widths)
        xs = [label_w + sum(widths[:j]) for j in range(ncol)]
        c.memo[key] = list(zip(xs, widths, strict=True))
    return c.memo[key]  # type: ignore[return-value]


def _whole(c: Canvas, e: Grid, w: int, size: int) -> bool:
    """Whether every row label and cell fits its room whole at ``size`` (a highlighted row is bold)."""
    key = ("grid-whole", id(e), w, size)
    if key not in c.memo:
        label_w, cell_w, sw, marks, align = _geometry(c, e, w, size)
        cols = _columns(c, e, w, size)
        ok = True
        for r in e.rows:
            fr = font(size, "bold" if r.highlight else "regular")
            ok = ok and all(ink_width(cell, fr) <= cw - 2 for cell, (_x, cw) in zip(r.cells, cols, strict=False))
            room = label_w - (2 * sw + 3 if marks else 0) - c.m.pad // 2
            if align == "right" and r.cells:
                room = w - width(r.cells[0], fr) - c.m.pad * 2 - (2 * sw + 3 if marks else 0) - c.m.pad // 2
            ok = ok and ink_width(r.label, fr) <= room
        c.memo[key] = ok
    return c.memo[key]  # type: ignore[return-value]


def _fewer(c: Canvas, e: Grid, w: int, size: int) -> tuple[Grid, int]:
    """The grid as drawn ``w`` px wide at ``size``: whole, or, for the scores (priority 1) on a panel with the
    4 mm floor (``Metrics.legible``: the wHAT), its first columns that fit whole at that size with the columns
    after them counted at the end of the headings' line ("+3 more"), never fewer than its score columns: a
    board read across the table in big rows rather than a full one too small to read. ``(grid, columns left out)``."""
    if _whole(c, e, w, size) or not c.m.legible or e.priority > 1 or len(e.columns) <= _scores(e):
        return e, 0
    key = ("grid-fewer", id(e), w, size)
    if key not in c.memo:
        found: tuple[Grid, int] = (e, 0)
        for k in range(len(e.columns) - 1, _scores(e) - 1, -1):
            left = len(e.columns) - k
            rows = tuple(replace(r, cells=r.cells[:k], fix=r.fix[:k]) for r in e.rows)
            part = replace(e, columns=e.columns[:k], rows=rows)
            c.memo[("grid-part", id(e), w, size, k)] = part  # kept while its id keys the memo
            if _whole(c, part, _room(c, w, left), size):
                found = (part, left)
                break
        c.memo[key] = found
    return c.memo[key]  # type: ignore[return-value]


def natural_width(c: Canvas, e: Grid) -> int:
    """The width at which every label and cell is whole: wider than a column, the grid spans the columns."""
    widest, label_need, _marks = _widths(c, e, read_size(c, e.priority, c.m.text), c.panel.width)
    return label_need + max(1, len(e.columns)) * (widest + c.m.pad * 2)


def draw(c: Canvas, e: Grid, x: int, y: int, w: int, compact: int = 0) -> None:
    if compact >= 3 and _inline(c, e, w) is not None:
        _draw_inline(c, e, x, y, w)
        return
    if compact >= 3 and _listed(e):
        _draw_held(c, e, x, y, w)
        return
    size, title = _form(c, e, w, compact)
    if title == "line":
        label_line(c, x, y, w, e.title, "", e.tone)
        y += line_h(c, c.m.label)
    e, left = _fewer(c, e, w, size)
    if left:  # the columns left out, counted at the end of the headings' line
        # among the headings it reads as more of them; "+5 columns" would cost a column on a 7.3" (4 mm rows)
        mark, fm = more_mark(left), font(c.m.label, "bold")
        c.text((x + w - ink_width(mark, fm), y), mark, fm, ink_width(mark, fm), fill=c.inks.text(e.tone))
        w = _room(c, w, left)
    f, fb, fh = font(size), font(size, "bold"), font(c.m.label)
    row = line_h(c, size)
    ncol = max(1, len(e.columns))
    label_w, cell_w, sw, marks, align = _geometry(c, e, w, size)
    cols = _columns(c, e, w, size)
    if any(e.columns):
        if title == "beside":  # the title in the corner the row labels leave
            label_line(c, x, y, label_w - c.m.pad, e.title, "", e.tone)
        for col, (cx, cw) in zip(e.columns, cols, strict=False):
            fc = largest(col, cw - 2, 10_000, fh.size, max(7, fh.size * 4 // 5), "regular")
            c.text((x + cx, y), col, fc, cw - 2, align="center", rule="heading")
        y += line_h(c, c.m.label)
        c.rect((x, y - 2, x + w - 1, y - 2), fill=BLACK)
    for r in e.rows:
        ink = c.inks.player(r.colour)
        fr = fb if r.highlight else f
        if r.highlight:  # whose turn: a bar in the accent ink down the left edge, bold row
            c.rect((x, y + 1, x + max(2, sw // 2), y + row - 2), fill=c.inks.accent)
        elif r.next:  # whose turn follows: the same bar in dashes
            c.dashes((x, y + 1, x + max(2, sw // 2), y + row - 2), c.inks.accent)
        if r.colour is not None and len(c.inks.players) > 1:  # a swatch only where players have colours
            c.rect((x + sw, y + (row - sw) // 2 - 1, x + 2 * sw - 1, y + (row - sw) // 2 + sw - 2), fill=ink)
        lx = x + (2 * sw + 3 if marks else 0)
        room = label_w
        if align == "right" and r.cells:  # the label may use whatever its own value leaves
            room = w - width(fit(r.cells[0], fr, cell_w - 2), fr) - c.m.pad * 2
        c.text((lx, y), r.label, fr, room - (lx - x) - c.m.pad // 2)
        for cell, (cx, cw) in zip(r.cells[:ncol], cols, strict=False):
            c.text((x + cx, y), cell, fr, cw - 2, align=align)
        y += row


def left_out(c: Canvas, e: Grid, w: int, compact: int = 0) -> int:
    """The columns ``e`` leaves out, counted, at a level: in its board form (``_fewer``) or its scores form."""
    if compact >= 3 and _inline(c, e, w) is not None:
        return _inline_left(c, e)
    if compact >= 3 and _listed(e):
        return 0
    return _fewer(c, e, w, _form(c, e, w, compact)[0])[1]


KIND = Kind("grid", measure, draw, natural_width=natural_width, left_out=left_out)
