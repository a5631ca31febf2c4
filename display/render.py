"""Pure renderer: a system's Screen -> a PIL image in the panel's own inks, laid out per panel class.

No I/O and no clock: the same Screen and Panel give the same pixels, so golden
PNGs can be reviewed. Three layouts share one engine, scaled per panel class:
small (pHAT), medium (wHAT, Impression 4"/5.7", Spectra 4") and large
(Impression/Spectra 7.3", Spectra 13.3"). This module draws the frame (title
bar, alert band, prompt, join hint) and hands the body to ``layout``, which
places the key figures and the other elements; ``canvas`` holds the sizes, inks
and primitives, and ``elements/`` one module per element kind with its measure
and draw. Every text is cut to its room with an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageFont
from tableside.core.screen import Element, Screen, Text
from tableside.display.canvas import RGB, Canvas, Inks, Metrics, TextRun, cap, line_h, metrics, top
from tableside.display.join import JoinInfo, draw_qr, qr_matrix
from tableside.display.layout import draw_body
from tableside.display.panels import BLACK, WHITE, Panel
from tableside.display.text import ELLIPSIS, clean, fit, font, largest, width, wrap

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
    m, w = c.m, c.panel.width
    c.rect((0, 0, w - 1, m.header - 1), fill=BLACK)
    ft = font(m.title, "bold" if c.panel.size_class != "small" else "condensed")
    fs = font(m.status)
    ty = (m.header - cap(ft)) // 2 + top(ft)
    room = w - 2 * m.pad
    gap = m.pad * 3
    need_t, need_s = width(clean(title), ft), width(clean(status), fs) if status else 0
    if need_t + gap + need_s <= room:
        title_room, status_room = need_t, need_s
    else:  # the title wins; the status keeps what is left, if that is worth drawing
        title_room = min(need_t, max(room - need_s - gap, room - gap - m.status * 5))
        status_room = room - title_room - gap
        if status_room < m.status * 3:
            title_room, status_room = room, 0
    weight = "bold" if c.panel.size_class != "small" else "condensed"
    if title_room < need_t:  # a smaller title before an ellipsis
        ft = largest(title, title_room, 10_000, ft.size, max(7, ft.size * 3 // 4), weight)
        if width(clean(title), ft) > title_room and " - " in title:
            # Abbreviation rule (docs/display.md): "Venus 2140 - conflict 1, round 1" keeps its name.
            title = title.split(" - ")[0]
            ft = largest(title, title_room, 10_000, font(m.title, weight).size, max(7, m.title * 3 // 4), weight)
        ty = (m.header - cap(ft)) // 2 + top(ft)
    c.text((m.pad, ty), title, ft, title_room, fill=WHITE)
    if status and status_room > 0:
        if width(clean(status), fs) > status_room:  # smaller, else left out: the prompt says what is waited for
            fs = largest(status, status_room, 10_000, fs.size, max(7, fs.size * 3 // 4), "regular")
        if width(clean(status), fs) <= status_room:
            c.text(
                (w - m.pad - status_room, (m.header - cap(fs)) // 2 + top(fs)),
                status,
                fs,
                status_room,
                fill=WHITE,
                align="right",
            )
    return m.header


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


def _prompt(c: Canvas, y: int, text: str) -> int:
    """What the table waits for, whole: the biggest bold size (up to the title's) that holds it on one
    line, else on two or three at the text size or a little smaller (a pHAT: one line, down to 7 px);
    cut only if even that cannot hold it."""
    m, w = c.m, c.panel.width
    arrow = "▶ "
    smallest = max(7, m.text * 3 // 4)
    if c.panel.size_class == "small":  # a pHAT has no second line to spare: one line, down to 7 px
        tries = [(1, size) for size in range(m.text, 6, -1)]
    else:
        tries = [(1, size) for size in range(max(m.title, m.text), m.text - 1, -1)]
        tries += [(lines, size) for lines in (2, 3) for size in range(m.text, smallest - 1, -1)]
        tries.append((1, smallest))
    for lines, size in tries:
        f = font(size, "bold")
        rows = wrap(text, f, w - 2 * m.pad - width(arrow, f), lines)
        if rows and not rows[-1].endswith(ELLIPSIS) and not any(r.endswith(ELLIPSIS) for r in rows):
            break
    lh = size + max(2, size // 4)
    aw = width(arrow, f)
    c.put((m.pad, y + m.pad // 2), arrow, f, c.inks.accent_text)
    for i, row in enumerate(rows):
        c.text((m.pad + aw, y + m.pad // 2 + i * lh), row, f, w - 2 * m.pad - aw)
    h = len(rows) * lh + m.pad
    c.rect((m.pad, y + h - 1, w - m.pad - 1, y + h - 1), fill=BLACK)
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


def render(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> Image.Image:
    """Draw ``screen`` for ``panel``: header, alert, prompt, key figures, elements; a join hint if room."""
    return render_layout(screen, panel, join)[0]


def render_layout(screen: Screen, panel: Panel, join: JoinInfo | None = None) -> tuple[Image.Image, Layout]:
    """``render`` and the layout it chose (for tests and the phone's preview)."""
    c = Canvas(panel)
    m = c.m
    w, h = panel.width, panel.height
    y = _header(c, screen.title, screen.status)
    if screen.alert:
        y += _band(c, y, screen.alert, "alert", 1 if panel.size_class == "small" else 2)
    if screen.prompt:
        y += _prompt(c, y, screen.prompt)
    bottom = h
    if join is not None and m.hint:
        fh = font(m.label)
        bottom = h - line_h(c, m.label) - m.pad // 2
        c.rect((0, bottom, w - 1, bottom), fill=BLACK)
        hint = join_hint(join)
        hy = min(bottom + m.pad // 2 + 1, h - fh.getbbox(hint)[3])  # its descenders stay on the panel
        c.text((m.pad, hy), hint, fh, w - 2 * m.pad, align="right")
        bottom -= m.pad // 2
    y += m.pad
    elements = list(screen.elements)
    kept, figure_size = draw_body(c, elements, m.pad, y, w - 2 * m.pad, bottom)
    kept_ids = {id(e) for e, _box in kept}
    dropped = tuple(e for e in elements if id(e) not in kept_ids)
    return c.image, Layout(tuple(kept), dropped, figure_size, (m.pad, y, w - m.pad, bottom), tuple(c.runs), tuple(c.lost))


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


def placeholder_screen(message: str) -> Screen:
    """What the panel shows with no active session and no join link known."""
    return Screen(title="Tableside", status="no game", elements=(Text(message),))
