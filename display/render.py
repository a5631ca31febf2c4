"""Pure renderer: a system's Screen -> a PIL image in the panel's own inks.

No I/O and no clock: the same Screen and Panel always give the same pixels, so
golden PNGs can be reviewed. Fonts are Pillow's built-in scalable font, so a Pi
with no fonts installed draws the same frame as a laptop.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont
from tableside.core.system import Screen
from tableside.display.panels import BLACK, WHITE, Panel


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """Cut ``text`` with an ellipsis so it fits ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


class _Canvas:
    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.image = Image.new("RGB", panel.size, WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # no anti-aliasing: e-paper has no greys, only its inks
        self.size = max(11, panel.height // 17)
        self.font = _font(self.size)
        self.big = _font(int(self.size * 1.35))
        self.line = self.size + max(2, self.size // 4)
        self.pad = max(3, self.size // 3)

    def text(self, xy, text, width, font=None, fill=BLACK) -> None:
        font = font or self.font
        self.draw.text(xy, _fit(self.draw, text, font, width), font=font, fill=fill)


def _from_model(screen) -> Screen:
    """A ``tableside.core.screen.Screen`` drawn as rows until the per-panel layouts replace this renderer."""
    from tableside.core.system import RollView, Row, Section

    rows, roll = [], None
    for e in screen.elements:
        if e.kind == "figure":
            rows.append(Row(e.label, f"{e.value}{e.unit}", accent=e.tone != "normal"))
        elif e.kind == "track":
            rows.append(Row(e.label, str(e.value), bar=(e.value - e.minimum, e.maximum - e.minimum)))
        elif e.kind == "bars":
            rows += [Row(b.label, str(b.value), bar=(b.value, b.maximum)) for b in e.bars]
        elif e.kind == "grid":
            rows += [Row(r.label, " ".join(r.cells)) for r in e.rows]
        elif e.kind == "dice":
            roll = RollView(e.label, tuple(d.face for d in e.dice), tuple(d.mark == "hit" for d in e.dice), e.verdict)
        else:
            rows.append(Row(e.text, ""))
    alert = screen.alert or screen.prompt
    return Screen(screen.title, screen.status, (Section(screen.title, tuple(rows)),) if rows else (), roll, alert)


def render(screen: Screen, panel: Panel) -> Image.Image:
    """Draw ``screen`` for ``panel``: title bar, alert, sections in columns, last roll."""
    if hasattr(screen, "elements"):
        screen = _from_model(screen)
    c = _Canvas(panel)
    w, h, pad = panel.width, panel.height, c.pad
    top = _title_bar(c, screen)
    if screen.alert:
        c.draw.rectangle((0, top, w, top + c.line + 2), fill=panel.accent)
        c.text((pad, top + 1), screen.alert, w - 2 * pad, fill=WHITE)
        top += c.line + 4
    bottom = h - _roll_height(c, screen)
    _sections(c, screen, top + pad // 2, bottom)
    if screen.roll:
        _roll(c, screen, bottom)
    return c.image


def _title_bar(c: _Canvas, screen: Screen) -> int:
    w, pad = c.panel.width, c.pad
    bar = int(c.size * 1.35) + 2 * pad
    c.draw.rectangle((0, 0, w, bar), fill=BLACK)
    title_w = int(c.draw.textlength(screen.title, font=c.big))
    c.text((pad, pad - 1), screen.title, w - 2 * pad, font=c.big, fill=WHITE)
    if screen.status:
        room = w - title_w - 4 * pad
        if room > w // 4:
            status = _fit(c.draw, screen.status, c.font, room)
            sw = c.draw.textlength(status, font=c.font)
            c.draw.text((w - pad - sw, pad + 1), status, font=c.font, fill=WHITE)
        else:
            c.draw.rectangle((0, bar, w, bar + c.line + 2), fill=BLACK)
            c.text((pad, bar), screen.status, w - 2 * pad, fill=WHITE)
            bar += c.line + 2
    return bar + 2


def _sections(c: _Canvas, screen: Screen, top: int, bottom: int) -> None:
    w, pad = c.panel.width, c.pad
    columns = 1 if w < 330 else 2 if w < 700 else 3
    lines = []
    for section in screen.sections:
        lines.append(("title", section.title, None))
        lines.extend(("row", row, None) for row in section.rows)
    per_col = max(1, (bottom - top) // c.line)
    columns = min(columns, max(1, -(-len(lines) // per_col)))
    col_w = (w - pad * (columns + 1)) // columns
    for i, (kind, item, _) in enumerate(lines[: per_col * columns]):
        col, pos = divmod(i, per_col)
        x = pad + col * (col_w + pad)
        y = top + pos * c.line
        if kind == "title":
            c.text((x, y), item, col_w, fill=c.panel.accent if c.panel.accent != BLACK else BLACK)
            tw = min(col_w, int(c.draw.textlength(item, font=c.font)))
            c.draw.line((x, y + c.size + 1, x + tw, y + c.size + 1), fill=BLACK)
        else:
            _row(c, item, x, y, col_w)
    if len(lines) > per_col * columns:
        c.draw.text((w - pad - c.size, bottom - c.line), "…", font=c.font, fill=BLACK)


def _row(c: _Canvas, row, x: int, y: int, width: int) -> None:
    fill = c.panel.accent if row.accent else BLACK
    bar_w = width // 4 if row.bar and width > 150 else 0
    label_need = int(c.draw.textlength(row.label, font=c.font))
    # The value gets what the label leaves, but never less than a third of the row.
    value_room = max(width // 3, width - label_need - bar_w - c.pad * 2)
    value = _fit(c.draw, row.value, c.font, value_room)
    value_w = int(c.draw.textlength(value, font=c.font))
    label_w = width - value_w - bar_w - c.pad * 2
    c.text((x, y), row.label, label_w, fill=fill)
    c.draw.text((x + width - value_w, y), value, font=c.font, fill=fill)
    if bar_w:
        value_now, maximum = row.bar
        bx = x + width - value_w - c.pad - bar_w
        by = y + c.size // 4
        bh = max(4, c.size // 2)
        c.draw.rectangle((bx, by, bx + bar_w, by + bh), outline=BLACK)
        if maximum > 0 and value_now > 0:
            filled = int(bar_w * min(value_now, maximum) / maximum)
            c.draw.rectangle((bx, by, bx + filled, by + bh), fill=fill if row.accent else BLACK)


def _roll_height(c: _Canvas, screen: Screen) -> int:
    return 0 if not screen.roll else c.line * 2 + c.pad * 2


def _roll(c: _Canvas, screen: Screen, top: int) -> None:
    roll = screen.roll
    assert roll is not None
    w, pad = c.panel.width, c.pad
    c.draw.line((0, top, w, top), fill=BLACK)
    y = top + pad
    label = f"{roll.label}: {roll.verdict}" if roll.verdict else roll.label
    c.text((pad, y), label, w - 2 * pad, fill=BLACK)
    y += c.line
    box = c.size + 2
    x = pad
    for i, face in enumerate(roll.faces):
        if x + box > w - pad:
            c.draw.text((x, y), "…", font=c.font, fill=BLACK)
            break
        hit = roll.hits[i] if i < len(roll.hits) else False
        if hit:
            c.draw.rectangle((x, y, x + box, y + box), fill=c.panel.accent)
        else:
            c.draw.rectangle((x, y, x + box, y + box), outline=BLACK)
        text = str(face)
        tw = c.draw.textlength(text, font=c.font)
        c.draw.text((x + (box - tw) / 2, y + 1), text, font=c.font, fill=WHITE if hit else BLACK)
        x += box + max(2, pad // 2)


def to_panel_image(image: Image.Image, panel: Panel) -> Image.Image:
    """Quantize to a mode "P" image in the panel's ink order, without dithering.

    The inky drivers take this as is (it also sidesteps the Pillow 13 RGB
    ``set_image`` bug in facts.md).
    """
    pal = Image.new("P", (1, 1))
    flat = [v for rgb in panel.palette for v in rgb]
    pal.putpalette(flat + flat[:3] * (256 - len(panel.palette)))
    return image.convert("RGB").quantize(palette=pal, dither=Image.Dither.NONE)


def to_png(image: Image.Image, panel: Panel) -> bytes:
    """The frame as the panel would show it, PNG-encoded (for /display.png and the virtual panel)."""
    import io

    buf = io.BytesIO()
    to_panel_image(image, panel).save(buf, format="PNG")
    return buf.getvalue()


def placeholder_screen(message: str) -> Screen:
    """What the panel shows with no active session."""
    from tableside.core.system import Row, Section

    return Screen(
        title="Tableside",
        status="no game",
        sections=(Section("Start", (Row(message, ""),)),),
    )
