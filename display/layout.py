"""The body of a frame: which elements fit, how compact each one is, and where it goes.

Key figures go in a strip across the top, as big as the strip allows; the other
elements flow in columns in the system's order. When something does not fit, the
elements first take tighter forms (inline tracks and dice, fewer lines, key figures
on one line, tracks as numbers side by side), then are dropped by the screen's
priority (largest number first), never drawn off the panel, and counted under the body ("+2 more",
``render._hint_line``). On a wHAT or 7.3" the scores and the exchange on the table (priority 1) keep 4 mm
type at every level (``canvas.read_size``); a board too wide for it keeps its first columns and counts the
rest (``elements.grid``). Every element kind is
measured and drawn by its own module (``elements.registry``); this module only
compares heights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tableside.core.screen import Element, KeyFigure, Track
from tableside.display.canvas import Box, Canvas, Metrics, line_h
from tableside.display.elements import dice, figure, track
from tableside.display.elements.base import LEVELS
from tableside.display.elements.registry import kind_of
from tableside.display.elements.track_row import TrackRow
from tableside.display.elements.track_stack import TrackStack, same_scale
from tableside.display.panels import BLACK

Placeable = Element | TrackRow | TrackStack


@dataclass
class Plan:
    figures: list[KeyFigure]
    strip: figure.Strip
    placed: list[tuple[Placeable, int, int, int, int]]  # element, column, y offset, width, level


def _pair_tracks(others: list[Placeable]) -> list[Placeable]:
    """Runs of two or more neighbouring tracks become one row each."""
    out: list[Placeable] = []
    run: list[Track] = []
    for e in [*others, None]:
        if e is not None and e.kind == "track":
            run.append(e)  # type: ignore[arg-type]
            continue
        if len(run) > 1:
            out.append(TrackRow(tuple(run)))
        else:
            out.extend(run)
        run = []
        if e is not None:
            out.append(e)
    return out


def _stack_tracks(others: list[Placeable]) -> list[Placeable]:
    """Runs of neighbouring tracks on the same scale become one stack each: read together, never split."""
    out: list[Placeable] = []
    for e in others:
        last = out[-1] if out else None
        if e.kind == "track" and last is not None and last.kind in ("track", "track_stack"):
            run = last.tracks if isinstance(last, TrackStack) else (last,)
            if same_scale(run[-1], e):  # type: ignore[arg-type]
                out[-1] = TrackStack((*run, e))  # type: ignore[arg-type]
                continue
        out.append(e)
    return out


def _wide(c: Canvas, e: Placeable, col_w: int) -> bool:
    """An element wider than one column at its natural width spans them all (players x tracks reads across)."""
    natural = kind_of(e).natural_width
    return natural is not None and natural(c, e) > col_w


def _plan(
    c: Canvas, chosen: list[Element], w: int, h: int, style: figure.Style, floor: int = 0, jump: bool = True
) -> Plan | None:
    """Place ``chosen`` in the screen's order, each at compactness ``floor`` or tighter; None if it overflows.

    ``jump``: an element that would be tighter where it is moves to the top of the next column if it is roomier
    there; without it (the second try, where that move leaves no room for the elements after it) it stays.
    """
    m = c.m
    figures = [e for e in chosen if isinstance(e, KeyFigure)]
    fits = figure.strip_top(c, figures, w, h, style)
    if fits is None:
        return None
    strip, top = fits
    others: list[Placeable] = [e for e in chosen if not isinstance(e, KeyFigure)]
    others = _pair_tracks(others) if floor >= LEVELS[-1] else _stack_tracks(others)
    cols = m.columns if len(others) > 1 else 1
    col_w = (w - m.pad * 2 * (cols - 1)) // cols
    placed: list[tuple[Placeable, int, int, int, int]] = []
    col, y = 0, top
    group = 0  # where the elements in the columns below the last spanning element start in ``placed``
    for i, e in enumerate(others):
        # Wider than a column, or the last element with the columns below it to itself: it takes their width.
        alone = i == len(others) - 1
        span = cols if (cols > 1 and col == 0 and y == top and (alone or _wide(c, e, col_w))) else 1
        ew = col_w * span + m.pad * 2 * (span - 1)
        spot = _fit_level(c, e, ew, h - y, floor)
        if jump and spot is not None and spot[0] > floor and span == 1 and col + 1 < cols:
            there = _fit_level(c, e, ew, h - top, floor)  # roomier at the top of the next column?
            if there is not None and there[0] < spot[0]:
                spot = None
        if spot is None:  # the next column, from the top
            if col + 1 >= cols:
                return None
            col, y = col + 1, top
            spot = _fit_level(c, e, ew, h - y, floor)
            if spot is None:
                return None
        level, eh = spot
        placed.append((e, col, y, ew, level))
        y += eh + m.pad
        if span > 1:  # the columns start below an element that spans them
            col, top = 0, y
            group = len(placed)
    _balance(c, placed, group, cols, top, h)
    return Plan(figures, strip, placed)


def _balance(
    c: Canvas, placed: list[tuple[Placeable, int, int, int, int]], group: int, cols: int, top: int, h: int
) -> None:
    """Even out the columns in the screen's order: the last element of a column moves to the top of the next
    (drawn the same) while that lowers the taller of the two, so two sides of an exchange stand side by side
    rather than one under the other beside a half-empty column."""

    def end(i: int) -> int:
        e, _col, ey, ew, level = placed[i]
        return ey + kind_of(e).height(c, e, ew, level)

    for k in range(cols - 1):
        while True:
            here = [i for i in range(group, len(placed)) if placed[i][1] == k]
            there = [i for i in range(group, len(placed)) if placed[i][1] == k + 1]
            if len(here) < 2:
                break
            e, _col, ey, ew, level = placed[here[-1]]
            eh = kind_of(e).height(c, e, ew, level)
            was = max(end(here[-1]), max((end(i) for i in there), default=top))
            after_here = end(here[-2])
            after_there = (max(end(i) for i in there) + eh + c.m.pad) if there else top + eh
            if max(after_here, after_there) >= was or after_there > h:
                break
            placed[here[-1]] = (e, k + 1, top, ew, level)
            for i in there:
                o, ocol, oy, oew, olevel = placed[i]
                placed[i] = (o, ocol, oy + eh + c.m.pad, oew, olevel)


def _fit_level(c: Canvas, e: Placeable, w: int, room: int, floor: int = 0) -> tuple[int, int] | None:
    """The roomiest compactness (``floor`` or tighter) at which ``e`` fits ``room`` px, with its height."""
    kind = kind_of(e)
    for level in LEVELS[floor:]:
        eh = kind.height(c, e, w, level)
        if eh <= room:
            return level, eh
    return None


def _key(e: Placeable) -> object:
    """An element's identity across layouts: a stack or row of tracks is made anew for each, its tracks are not."""
    tracks = getattr(e, "tracks", None)
    return tuple(id(t) for t in tracks) if tracks is not None else id(e)


def _squeezes(plan: Plan, before: Plan) -> bool:
    """Whether ``plan`` draws an element of ``before`` more compactly than ``before`` did."""
    was = {_key(e): level for e, _col, _y, _w, level in before.placed}
    return any(level > was.get(_key(e), level) for e, _col, _y, _w, level in plan.placed)


def _to_scores(c: Canvas, plan: Plan, before: Plan, priority: int) -> bool:
    """Whether ``plan`` reduces a grid of priority 1 that ``before`` drew whole to its scores (the tightest
    level) where an element of ``priority`` may not: to scores on two lines or more, never (that form is
    for a board that fits no other way: five long names on a pHAT); to one line, only an element of
    priority 1 above a pHAT (five players' Vegas boards stay whole on a wHAT rather than give way to the
    tokens held; on a pHAT one line of scores makes room for the moment's others)."""
    was = {_key(e): level for e, _col, _y, _w, level in before.placed}
    one_line = line_h(c, c.m.text) + c.m.pad
    for e, _col, _y, ew, level in plan.placed:
        if e.kind != "grid" or e.priority > 1 or level < LEVELS[-1] or was.get(_key(e), level) >= LEVELS[-1]:
            continue
        if kind_of(e).height(c, e, ew, level) > one_line:
            return True
        if priority > 1 and c.panel.size_class != "small":
            return True
    return False


def choose(c: Canvas, elements: Sequence[Element], w: int, h: int) -> Plan:
    """Keep the most important elements that fit: add them by priority, keep each one that still fits.

    Key figures start as big as their strip allows and the other elements as roomy as they can be.
    To find room, an element of priority 1 or 2 may make every element more compact (inline tracks and
    dice, fewer text lines, smaller rows); only one of priority 1 may also shrink the key figures, down
    to one line, or reduce a priority-1 grid drawn whole to one line of scores (on a pHAT any element may).
    A less important element is added only where it squeezes nothing already kept.
    Priority 1 is what players need mid-turn: it is dropped only when it cannot fit at all.
    """
    ranked = sorted(range(len(elements)), key=lambda i: (elements[i].priority, i))
    keep: set[int] = set()
    styles = figure.styles(c)
    best = Plan([], figure.Strip(0, 0, 0), [])
    style, floor = 0, 0
    for i in ranked:
        trial = keep | {i}
        chosen = [elements[j] for j in sorted(trial)]
        priority = elements[i].priority
        found = _add(c, chosen, w, h, best, priority, styles, style, floor)
        if found is None and priority <= 1 and elements[i].kind in ("text", "grid"):
            # Whole fits nowhere: a shorter form rather than none at all (a text on up to three lines without
            # its trailing clauses, text.clauses, or a list with its last items counted, text.item_forms; a
            # grid's scores form with its score alone, elements.grid).
            c.loose.add(id(elements[i]))
            c.heights = {}
            found = _add(c, chosen, w, h, best, priority, styles, style, floor)
        if found:
            best, style, floor = found
            keep = trial
    return best


def _styles(c: Canvas, styles: list[figure.Style], style: int, priority: int) -> range | tuple[int]:
    """The key figures' styles an element of ``priority`` may try, from the one kept so far: every one for
    priority 1; on a medium panel, for priority 2, down to one line at the class minimum (big
    values still: five players' Vegas tokens held beside their whole boards on a wHAT); else the kept one."""
    if priority <= 1:
        return range(style, len(styles))
    if priority == 2 and c.panel.size_class == "medium":
        big = [i for i, st in enumerate(styles) if not (st.line and st.size < c.m.figure_min)]
        return range(style, max(big, default=style) + 1)
    return (style,)


def _add(
    c: Canvas,
    chosen: list[Element],
    w: int,
    h: int,
    best: Plan,
    priority: int,
    styles: list[figure.Style],
    style: int,
    floor: int,
) -> tuple[Plan, int, int] | None:
    """The roomiest plan that places ``chosen`` (the kept elements and one more of ``priority``), with its
    key figures' style and compactness floor; None if it does not fit without squeezing what it may not."""
    figures = [e for e in chosen if isinstance(e, KeyFigure)]
    for s in _styles(c, styles, style, priority):
        if figure.strip_top(c, figures, w, h, styles[s]) is None:
            continue  # the figures alone do not fit in this style: no compactness can help
        for f in range(floor, len(LEVELS)) if priority <= 2 else (floor,):
            # Tighter where it is rather than left out: VNM's Earth as a list under "Earth: 99 left" on
            # the 13.3", where at the top of the next column, roomier, it left no room for the Ships.
            plan = _plan(c, chosen, w, h, styles[s], f) or _plan(c, chosen, w, h, styles[s], f, jump=False)
            if plan is None or _to_scores(c, plan, best, priority):
                continue
            if priority <= 2 or not _squeezes(plan, best):
                return plan, s, f
    return None


ZOOMS = (1.15, 1.3, 1.45, 1.6)  # the body's type and cells, bigger, where a medium or large panel has room


def _used(c: Canvas, plan: Plan) -> int:
    """How far down the body ``plan``'s elements reach (the key figures' strip is above them)."""
    return max((ey + kind_of(e).height(c, e, ew, level) for e, _col, ey, ew, level in plan.placed), default=0)


def _zoomed(m: Metrics, z: float) -> Metrics:
    def k(v: int) -> int:
        return round(v * z)

    text = k(m.text)
    return replace(
        m,
        text=text,
        label=k(m.label),
        figure=k(m.figure),
        figure_min=k(m.figure_min),
        track=k(m.track),
        die=k(m.die),
        line=text + max(2, text // 4),
    )


def _left_out(c: Canvas, plan: Plan) -> int:
    """How many parts the placed elements leave out, counted ("+3 more": a board's columns on a wHAT)."""
    total = 0
    for e, _col, _y, ew, level in plan.placed:
        count = kind_of(e).left_out
        total += count(c, e, ew, level) if count is not None else 0
    return total


def _use_the_space(c: Canvas, elements: Sequence[Element], w: int, h: int, plan: Plan) -> Plan:
    """On a medium or large panel whose body leaves room (below, or beside a short column), it is drawn bigger:
    the biggest zoom at which the same elements are kept, none more compact, and the body text stays
    smaller than the prompt (the prompt and the key figures stay the largest things on the panel), and no board
    leaves out more of its columns for it (``Kind.left_out``)."""
    if c.panel.size_class == "small" or not plan.placed:
        return plan
    if any(e.kind == "track_row" for e, _col, _y, _w, _level in plan.placed):
        return plan  # tracks as numbers side by side take the class's figure size: a zoom would shrink them
    if _used(c, plan) >= h - c.m.line:  # full to the bottom already
        return plan
    base = c.m
    was = {_key(e): level for e, _col, _y, _w, level in plan.placed}
    was_left = _left_out(c, plan)
    cap = c.prompt_size or base.title
    best: tuple[Plan, Metrics] | None = None
    for z in ZOOMS:  # smallest first: the first zoom that does not hold them all ends the search
        zoomed = _zoomed(base, z)
        if zoomed.text >= cap:
            break
        c.m, c.heights, c.memo = zoomed, {}, {}
        track.prepare(c, elements)
        trial = choose(c, elements, w, h)
        now = {_key(e): level for e, _col, _y, _w, level in trial.placed}
        same = set(now) == set(was) and len(trial.figures) == len(plan.figures)
        if not (same and all(now[i] <= was[i] for i in was) and trial.strip.line <= plan.strip.line):
            break
        if _left_out(c, trial) > was_left:  # bigger type, fewer of a board's columns: not worth it
            break
        best = (trial, zoomed)
    c.m, c.heights, c.memo = best[1] if best else base, {}, {}
    track.prepare(c, elements)
    return best[0] if best else plan


def _largest(lo: int, hi: int, ok: Callable[[int], bool]) -> int | None:
    """The largest ``n`` in ``lo..hi`` with ``ok(n)``, for an ``ok`` that holds up to some ``n`` and not after
    (a size that fits the room): a bisection, a few measurements instead of one per pixel."""
    if lo > hi or not ok(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _grow_figures(c: Canvas, plan: Plan, w: int, h: int) -> Plan:
    """On a medium or large panel, the room left below the body goes to the key figures (the moment's
    numbers): their boxes grow as far as that room and their width allow, up to half again their size,
    and the elements below move down with them. No band is left empty while the figures could use it."""
    strip = plan.strip
    if c.panel.size_class == "small" or not strip.rows or strip.line:
        return plan
    spare = h - _used(c, plan)
    was = figure.strip_top(c, plan.figures, w, h, figure.Style(False, strip.size))
    if spare <= c.m.pad or was is None:
        return plan

    def grown(size: int) -> tuple[figure.Strip, int] | None:
        found = figure.strip_top(c, plan.figures, w, h, figure.Style(False, size))
        if found is None or (found[0].rows, found[0].per_row) != (strip.rows, strip.per_row):
            return None
        return found if found[1] - was[1] <= spare else None

    size = _largest(strip.size + 1, c.m.figure * 3 // 2, lambda n: grown(n) is not None)
    best = grown(size) if size is not None else None
    if best is None or best[0].size <= strip.size:
        return plan
    down = best[1] - was[1]
    placed = [(e, col, ey + down, ew, level) for e, col, ey, ew, level in plan.placed]
    return Plan(plan.figures, best[0], placed)


def _room_below(c: Canvas, placed: list, i: int, col_w: int, h: int) -> tuple[list[int], int] | None:
    """The elements sharing element ``i``'s column (``i`` among them) and the room left under the lowest of
    them, or None where an element across the columns lies below it (that room is not this column's alone)."""
    _e, col, ey, ew, _level = placed[i]
    spans = ew > col_w
    mine = [k for k, p in enumerate(placed) if spans or p[1] == col or p[3] > col_w]
    if any(placed[k][2] > ey and placed[k][3] > col_w and not spans for k in mine):
        return None
    end = max(placed[k][2] + kind_of(placed[k][0]).height(c, placed[k][0], placed[k][3], placed[k][4]) for k in mine)
    return mine, h - end


def _move_below(placed: list, mine: list[int], ey: int, grow: int) -> None:
    for k in mine:
        o, ocol, oy, oew, olevel = placed[k]
        if oy > ey:
            placed[k] = (o, ocol, oy + grow, oew, olevel)


def _grow_in_columns(
    c: Canvas,
    plan: Plan,
    w: int,
    h: int,
    wanted: Callable[[Placeable, int], bool],
    sizes: dict[int, int],
    span: tuple[int, int],
    whole: Callable[[Placeable, int, int], bool] = lambda _e, _w, _size: True,
) -> tuple[Plan, int]:
    """Each placed element ``wanted`` takes a size in ``span`` (kept in ``sizes`` by its id, read by its kind)
    as large as the room its column leaves below allows and ``whole`` holds; the elements under it move
    down. Returns the plan and the most px one of them grew."""
    cols = c.m.columns if len(plan.placed) > 1 else 1
    col_w = (w - c.m.pad * 2 * (cols - 1)) // cols
    placed = list(plan.placed)
    most = 0
    for i in range(len(placed)):
        e, _col, ey, ew, level = placed[i]  # read anew: an element above may have moved it down
        if not wanted(e, level):
            continue
        room = _room_below(c, placed, i, col_w, h)
        if room is None:
            continue
        mine, spare = room
        kind = kind_of(e)
        was = kind.measure(c, e, ew, level)

        def fits(
            size: int, e: Placeable = e, ew: int = ew, level: int = level, was: int = was, spare: int = spare
        ) -> bool:
            sizes[id(e)] = size
            return whole(e, ew, size) and kind_of(e).measure(c, e, ew, level) - was <= spare

        best = _largest(span[0], span[1], fits)
        if best is None:
            sizes.pop(id(e), None)
            continue
        sizes[id(e)] = best
        grow = kind.measure(c, e, ew, level) - was
        most = max(most, grow)
        _move_below(placed, mine, ey, grow)
    c.heights = {}  # what grew is measured anew
    return Plan(plan.figures, plan.strip, placed), most


def _grow_dice(c: Canvas, plan: Plan, w: int, h: int) -> Plan:
    """On a medium or large panel, the moment's dice (a priority-1 dice group, drawn roomy) grow into the
    room their column leaves below it, up to twice the class's die; the elements under them move down."""
    if c.panel.size_class == "small":
        return plan

    def wanted(e: Placeable, level: int) -> bool:
        return e.kind == "dice" and e.priority <= 1 and level == 0 and bool(e.dice)

    def whole(e: Placeable, ew: int, size: int) -> bool:
        return dice.die_size(c, e, ew) >= size

    return _grow_in_columns(c, plan, w, h, wanted, c.die_size, (c.m.die + 1, c.m.die * 2), whole)[0]


def _grow_grids(c: Canvas, plan: Plan, w: int, h: int) -> Plan:
    """On a large panel, a priority-1 grid drawn roomy (the scores) takes the room its column leaves below
    it in bigger rows, up to half again the text size, every name and value still whole: a table reads its
    scores from across the room, and no third of the panel is left blank while they could use it."""
    if c.panel.size_class != "large":
        return plan

    def wanted(e: Placeable, level: int) -> bool:
        return e.kind == "grid" and e.priority <= 1 and level == 0 and bool(e.rows)

    plan, c.grid_grew = _grow_in_columns(c, plan, w, h, wanted, c.grid_size, (c.m.text + 1, c.m.text * 3 // 2))
    return plan


def draw_body(
    c: Canvas, elements: Sequence[Element], x0: int, y: int, w: int, bottom: int
) -> tuple[list[tuple[Element, Box]], int]:
    """Choose and draw the elements in ``w`` px from ``y`` down to ``bottom``.

    Returns each kept element with its box, and the key figures' value size.
    """
    track.prepare(c, elements)
    plan = choose(c, elements, w, bottom - y)
    plan = _use_the_space(c, elements, w, bottom - y, plan)
    plan = _grow_figures(c, plan, w, bottom - y)
    plan = _grow_dice(c, plan, w, bottom - y)
    plan = _grow_grids(c, plan, w, bottom - y)
    m = c.m
    kept: list[tuple[Element, Box]] = []
    if plan.strip.rows:
        boxes = figure.draw(c, plan.figures, x0, y, w, plan.strip)
        kept.extend(zip(plan.figures, boxes, strict=True))
    cols = max([col for _e, col, _y, _w, _c in plan.placed] + [0]) + 1
    ncols = m.columns if len(plan.placed) > 1 else 1
    col_w = (w - m.pad * 2 * (ncols - 1)) // ncols
    for e, col, ey, ew, level in plan.placed:
        x = x0 + col * (col_w + m.pad * 2)
        kept.extend(kind_of(e).place(c, e, x, y + ey, ew, level))
    for col in range(1, cols):  # a rule between columns, from the column's first element down
        x = x0 + col * (col_w + m.pad * 2) - m.pad
        top = y + min(ey for _e, ecol, ey, _w, _c in plan.placed if ecol == col)
        c.rect((x, top, x, bottom - m.pad), fill=BLACK)
    c.tightest = max((level for _e, _col, _y, _w, level in plan.placed), default=0)
    return kept, plan.strip.size
