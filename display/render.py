"""Pure renderer: a system's Screen -> a PIL image in the panel's own inks, laid out per panel class.

No I/O and no clock: the same Screen and Panel give the same pixels, so golden
PNGs can be reviewed. Three layouts share one engine, scaled per panel class:
small (pHAT), medium (wHAT, Impression 4"/5.7", Spectra 4") and large
(Impression/Spectra 7.3", Spectra 13.3"). This module draws the frame (title
bar, alert band, prompt, join hint) and hands the body to ``layout``, which
places the key figures and the other elements; ``canvas`` holds the sizes, inks
and primitives, and ``elements/`` one module per element kind with its measure
and draw. Every text is drawn whole or in a documented shorter form (docs/display.md,
``text.FORMS``); only a text no form fits (a 4,000-character name) is cut with an ellipsis. What a frame
leaves out is counted where it was ("+2 more": the last items of a list, a board's columns, the elements
under the body), and the prompt and scores are 4 mm tall on the wHAT and 7.3" (``Metrics.legible``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image, ImageFont
from tableside.core.screen import Element, Screen, Text
from tableside.display.canvas import RGB, Canvas, Inks, Metrics, TextRun, cap, line_h, metrics, top
from tableside.display.join import JoinInfo, draw_qr, qr_matrix
from tableside.display.layout import draw_body
from tableside.display.names import LETTERS, abbreviations, renamed
from tableside.display.panels import BLACK, WHITE, Panel
from tableside.display.text import (
    ELLIPSIS,
    Weight,
    clauses,
    clean,
    fit,
    font,
    largest,
    more_mark,
    shorten,
    width,
    wrap,
    wrap_whole,
)

__all__ = [
    "Layout",
    "Metrics",
    "TextRun",
    "join_hint",
    "metrics",
    "placeholder_screen",
    "render",
    "render_join",
    "render_layout",
]


# --- the frame ----------------------------------------------------------------------------------


def _header(c: Canvas, title: str, status: str) -> int:
    """The black title bar: the title (smaller, then without trailing clauses, if it must), and the status
    only where it fits whole (or without trailing clauses) beside it: the prompt below says what is due."""
    m, w = c.m, c.panel.width
    c.rect((0, 0, w - 1, m.header - 1), fill=BLACK)
    weight: Weight = "bold" if c.panel.size_class != "small" else "condensed"
    ft = font(m.title, weight)
    fs = font(m.status)
    room = w - 2 * m.pad
    gap = m.pad * 3
    if width(clean(title), ft) > room:  # a smaller title before a shorter one
        ft = largest(title, room, 10_000, ft.size, max(7, ft.size * 3 // 4), weight)
    shown = shorten(title, ft, room)
    tw = width(shown, ft)
    c.text((m.pad, (m.header - cap(ft)) // 2 + top(ft)), title, ft, room, fill=WHITE, rule="clauses")
    left = room - tw - gap
    if status and left > 0 and shorten(status, fs, left):
        sy = (m.header - cap(fs)) // 2 + top(fs)
        c.text((w - m.pad - left, sy), status, fs, left, fill=WHITE, align="right", rule="clauses")
    return m.header


def prompt_size(c: Canvas) -> int:
    """The prompt's biggest type: above every body text (the title's size; a quarter more on larger panels,
    and on a large panel whose body would leave a band empty, up to twice the title: ``render_layout``)."""
    return c.m.title if c.panel.size_class == "small" else c.m.title * c.prompt_quarters // 4


def _prompt_lines(c: Canvas, text: str) -> tuple[ImageFont.FreeTypeFont, list[str], str]:
    """The prompt's font and lines: as big as it fits whole (one line on a pHAT, then two; two above),
    else at body size on one more line, else without its trailing clauses (the documented rule)."""
    m, w = c.m, c.panel.width
    weight: Weight = "condensed" if c.panel.size_class == "small" else "bold"
    most = 1 if c.panel.size_class == "small" else 2
    least = max(m.text, m.legible)  # body size, and never under 4 mm where the glass is known (wHAT, 7.3")

    def room(f: ImageFont.FreeTypeFont) -> int:
        return w - 2 * m.pad - width("▶ ", f)

    for size in range(max(prompt_size(c), least), least - 1, -1):
        f = font(size, weight)
        lines = wrap_whole(text, f, room(f), most)
        if lines:
            return f, lines, ""
    f = font(least, weight)
    if most == 1:  # a pHAT: the whole prompt on two lines, as big as they hold it, before a shorter one
        for size in range(prompt_size(c), m.text - 1, -1):
            f = font(size, weight)
            lines = wrap_whole(text, f, room(f), 2)
            if lines:
                return f, lines, ""
        f = font(m.text, weight)
    if most == 1:  # a pHAT: the longest shorter form on one line or two ("Roll off again - Maximilianus and Cy")
        for form in clauses(text)[1:]:
            for n in (1, 2):
                lines = wrap_whole(form, f, room(f), n)
                if lines:
                    return f, lines, "clauses"
    tries = [] if most == 1 else [(3, False), (3, True)]
    for n, shorter in tries:
        for form in clauses(text)[1:] if shorter else [text]:
            lines = wrap_whole(form, f, room(f), n)
            if lines:
                return f, lines, "clauses" if shorter else ""
    return f, wrap(text, f, room(f), most + 1), ""


def _prompt(c: Canvas, y: int, text: str) -> int:
    m, w = c.m, c.panel.width
    f, lines, rule = _prompt_lines(c, text)
    line = line_h(c, f.size)
    arrow = "▶ "
    aw = width(arrow, f)
    c.put((m.pad, y + m.pad // 2), arrow, f, c.inks.accent_text)
    for i, row in enumerate(lines):
        if rule and len(lines) == 1:  # the shorter form, as one text: the test checks it is a form the rule allows
            c.put((m.pad + aw, y + m.pad // 2 + i * line), row, f, BLACK, asked=clean(text), rule=rule)
        elif rule:  # on two lines, each a whole piece of that form (as a dice verdict's)
            c.put((m.pad + aw, y + m.pad // 2 + i * line), row, f, BLACK)
        else:
            c.text((m.pad + aw, y + m.pad // 2 + i * line), row, f, w - 2 * m.pad - aw)
    h = len(lines) * line + m.pad
    c.rect((m.pad, y + h - 1, w - m.pad - 1, y + h - 1), fill=BLACK)
    c.prompt_size = f.size
    return h


def _band(c: Canvas, y: int, text: str, tone: str, lines: int) -> int:
    """A full-width band (alert) with white or black text: returns its height."""
    m, w = c.m, c.panel.width
    f = font(m.text, "bold")
    rows = wrap(text, f, w - 2 * m.pad, lines)
    h = len(rows) * m.line + m.pad
    fill = c.inks.fill(tone)
    c.rect((0, y, w - 1, y + h - 1), fill=fill)
    for i, row in enumerate(rows):
        c.text((m.pad, y + m.pad // 2 + i * m.line), row, f, w - 2 * m.pad, fill=Inks.on(fill))
    return h


def join_hint(join: JoinInfo) -> str:
    return f"Join: {join.display_url} · code {join.code}"


@dataclass(frozen=True)
class Layout:
    """Where each element of a screen went (pixel boxes), which were left out, the key figures' type size."""

    kept: tuple[tuple[Element, tuple[int, int, int, int]], ...]
    dropped: tuple[Element, ...]
    figure_size: int  # the key figures' value size in px (boxes or, on a crowded panel, one line)
    body: tuple[int, int, int, int]
    texts: tuple[TextRun, ...] = ()  # every run of text drawn, in order
    lost: tuple[str, ...] = ()  # texts that had no room at all, so nothing of them was drawn
    tightest: int = 0  # the most compact level an element of the body is drawn at (0: every one roomy)
    loose: int = 0  # priority-1 elements no layout held whole, drawn in a shorter form (``Canvas.loose``)
    # Each player's name as this frame writes it, (whole, drawn), where the frame shortens names (``names``);
    # empty where every name is whole.
    names: tuple[tuple[str, str], ...] = ()
    grew: int = 0  # px the scores' bigger rows took of the room below the body (``layout._grow_grids``)


def render(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> Image.Image:
    """Draw ``screen`` for ``panel``: header, alert, prompt, key figures, elements; a join hint if room."""
    return render_layout(screen, panel, join)[0]


PROMPT_QUARTERS = (5, 6, 7, 8)  # the prompt's biggest type in quarters of the title's; more only where room is left


def render_layout(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> tuple[Image.Image, Layout]:
    """``render`` and the layout it chose (for tests and the phone's preview).

    Where the players' whole names leave a text cut or a score out (``_trouble``: twelve-character names on a
    pHAT), every name is shortened the same way in every text of the frame, as little as that holds them
    (``names``, docs/display.md "Names on a small panel").
    """
    drawn = _grown(screen, panel, join)
    trouble = _trouble(screen, drawn[1])
    if not any(trouble) or not screen.players:
        return drawn
    for letters in LETTERS:  # the longest forms first: the first that holds everything is kept
        forms = abbreviations(screen.players, letters)
        if all(form == name for name, form in forms.items()):
            continue
        shorter = renamed(screen, forms)
        image, layout = _grown(shorter, panel, join)
        less = _trouble(shorter, layout)
        if less < trouble:
            drawn, trouble = (image, replace(layout, names=tuple(forms.items()))), less
        if not any(less):
            break
    return drawn


def _trouble(screen: Screen, layout: Layout) -> tuple[int, tuple[bool, ...], int]:
    """What a frame fails to hold whole, worst first: texts cut with "…" or left out for want of any room;
    which priority-1 elements are left out, in the screen's order (an earlier one outweighs any later ones,
    as the layout adds them: Venus 2140's scene pools before the dice put forward); how many are drawn in a
    shorter form (a score line without its last scores)."""
    cut = sum(ELLIPSIS in run.text for run in layout.texts) + len(layout.lost)
    out = {id(e) for e in layout.dropped}
    return cut, tuple(id(e) in out for e in screen.elements if e.priority <= 1), layout.loose


def _grown(screen: Screen, panel: Panel, join: JoinInfo | None) -> tuple[Image.Image, Layout]:
    """The frame of ``screen`` as it is. On a large panel whose body leaves more than two lines empty at the
    bottom, the prompt (the moment) is drawn bigger, step by step, as long as no element is left out for it;
    the body's type may then grow too."""
    image, layout = _render_layout(screen, panel, join, PROMPT_QUARTERS[0])
    line = metrics(panel).line
    empty = _left_empty(layout) + layout.grew  # the prompt first: the scores grow into what it leaves
    if panel.size_class != "large" or not screen.prompt or empty <= 2 * line:
        return image, layout
    now = _prompt_height(panel, screen.prompt, PROMPT_QUARTERS[0])
    tried: set[int] = set()
    for quarters in reversed(PROMPT_QUARTERS[1:]):  # the biggest prompt that costs the body nothing
        grow = _prompt_height(panel, screen.prompt, quarters) - now
        if grow <= 0 or grow in tried or grow > layout.body[3] - layout.body[1] - 2 * line:
            continue  # no bigger than the last one tried, or room for hardly any body left
        tried.add(grow)
        bigger = _render_layout(screen, panel, join, quarters)
        b = bigger[1]
        if (
            len(b.dropped) <= len(layout.dropped)
            and b.tightest <= layout.tightest
            and b.figure_size >= layout.figure_size
            and _left_empty(b) >= 0
        ):
            return bigger
    return image, layout


def _left_empty(layout: Layout) -> int:
    """Pixel rows left below the lowest element of the body."""
    return layout.body[3] - max((box[3] for _e, box in layout.kept), default=layout.body[1])


def _prompt_height(panel: Panel, text: str, quarters: int) -> int:
    """The height the prompt takes with its biggest type at ``quarters`` of the title's (as ``_prompt`` draws it)."""
    c = Canvas(panel)
    c.prompt_quarters = quarters
    f, lines, _rule = _prompt_lines(c, text)
    return len(lines) * line_h(c, f.size) + c.m.pad


def _player_colours(screen: Screen) -> list[int]:
    """Every player colour the screen's bars and rows carry."""
    rows = (r for e in screen.elements for r in (*getattr(e, "bars", ()), *getattr(e, "rows", ())))
    return [r.colour for r in rows if getattr(r, "colour", None) is not None]


def _render_layout(screen: Screen, panel: Panel, join: JoinInfo | None, quarters: int) -> tuple[Image.Image, Layout]:
    c = Canvas(panel)
    c.prompt_quarters = quarters
    c.inks.share(_player_colours(screen))  # players apart on this screen, whatever inks the panel lacks
    m = c.m
    w, h = panel.width, panel.height
    # A pHAT has room for the moment, not for the game's name: with a prompt it takes the title bar's place.
    y = 0 if panel.size_class == "small" and screen.prompt else _header(c, screen.title, screen.status)
    if screen.alert:
        y += _band(c, y, screen.alert, "alert", 1 if panel.size_class == "small" else 2)
    if screen.prompt:
        y += _prompt(c, y, screen.prompt)
    bottom = h
    hinted = join is not None and m.hint
    if hinted:
        bottom = h - line_h(c, m.label) - m.pad // 2
        c.rect((0, bottom, w - 1, bottom), fill=BLACK)
    y += m.pad
    elements = list(screen.elements)
    kept, figure_size = draw_body(c, elements, m.pad, y, w - 2 * m.pad, bottom - (m.pad // 2 if hinted else 0))
    kept_ids = {id(e) for e, _box in kept}
    dropped = tuple(e for e in elements if id(e) not in kept_ids)
    if join is not None and hinted:
        _hint_line(c, m, bottom, join, len(dropped))  # the frame's sizes, not the body's zoom
        bottom -= m.pad // 2
    return c.image, Layout(
        tuple(kept),
        dropped,
        figure_size,
        (m.pad, y, w - m.pad, bottom),
        tuple(c.runs),
        tuple(c.lost),
        c.tightest,
        len(c.loose),
        grew=c.grid_grew,
    )


def _hint_line(c: Canvas, m: Metrics, bottom: int, join: JoinInfo, left_out: int) -> None:
    """The line under the body: the elements the body left out counted on the left ("+2 more": the phones show
    them; nothing leaves the panel unmarked), the join hint on the right, without its code if it must."""
    w, h = c.panel.width, c.panel.height
    fh, fm = font(m.label), font(m.label, "bold")
    y = min(bottom + m.pad // 2 + 1, h - 1 - fh.getbbox(join_hint(join))[3])  # descenders stay on
    used = 0
    if left_out:
        mark = more_mark(left_out)
        c.text((m.pad, y), mark, fm, width(mark, fm) + 1, fill=c.inks.alert_text)
        used = width(mark, fm) + m.pad * 3
    c.text((m.pad + used, y), join_hint(join), fh, w - 2 * m.pad - used, align="right", rule="clauses")


# --- the join screen ----------------------------------------------------------------------------


def render_join(panel: Panel, join: JoinInfo, note: str = "", title: str = "Join the table") -> Image.Image:
    """The join screen: a QR code of the join link, the panel URL and the join code, big."""
    c = Canvas(panel)
    m = c.m
    w, h = panel.width, panel.height
    small = panel.size_class == "small"
    head = 0 if small else _header(c, title, "Tableside")
    matrix = qr_matrix(join.link)
    n = len(matrix)
    quiet = 2 if small else 4
    room = min(h - head - 2 * m.pad, int(w * (0.45 if small else 0.5)))
    module = max(1, room // (n + 2 * quiet))
    qr_px = module * (n + 2 * quiet)
    qx, qy = m.pad, head + (h - head - qr_px) // 2
    draw_qr(c.draw, matrix, qx, qy, module, quiet)
    x = qx + qr_px + m.pad * 2
    tw = w - x - m.pad
    y = head + m.pad
    fl = font(m.label)
    ft = font(m.text)
    if small:
        lines: list[tuple[str, ImageFont.FreeTypeFont, RGB]] = [("Scan to join, or open", fl, BLACK)]
    else:
        lines = [("Scan with a phone camera,", ft, BLACK), ("or open in a browser:", ft, BLACK)]
    for s, f, ink in lines:
        c.text((x, y), s, f, tw, fill=ink)
        y += line_h(c, f.size)
    fu = largest(join.display_url, tw, 10_000, m.text + (m.text // 2 if not small else 0), 7, "bold")
    c.text((x, y), join.display_url, fu, tw, fill=c.inks.accent_text)
    y += line_h(c, fu.size) + m.pad
    c.text((x, y), "Join code", fl, tw)
    y += line_h(c, fl.size)
    code_room_h = max(10, (h - y - m.pad) - (line_h(c, m.text) * 2 if note and not small else 0))
    fc = largest(join.code, tw, code_room_h, m.figure, 10, "bold")
    c.draw.text((x, y + top(fc)), fit(join.code, fc, tw), font=fc, fill=BLACK)
    y += cap(fc) + m.pad * 2
    if note:
        for line in wrap(note, ft if not small else fl, tw, 2 if not small else 1):
            if y + m.line > h:
                break
            c.text((x, y), line, ft if not small else fl, tw, fill=c.inks.alert_text)
            y += m.line
    return c.image


def draw(spec: tuple, panel: Panel) -> Image.Image:
    """The picture a frame spec describes: ``("join", JoinInfo, note)`` or ``("screen", Screen, join or None)``
    (``tableside.frames`` chooses which; this runs in the render worker process, ``device.display``)."""
    kind, first, second = spec
    if kind == "join":
        return render_join(panel, first, second)
    return render(first, panel, second)


def placeholder_screen(message: str) -> Screen:
    """What the panel shows with no active session and no join link known."""
    return Screen(title="Tableside", status="no game", elements=(Text(message),))
