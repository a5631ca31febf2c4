"""Text fitting: cut with an ellipsis to the pixel, wrapped within its lines, in bounded work."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tableside.display import text as text_mod
from tableside.display.text import ELLIPSIS, fit, font, wrap


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300), st.integers(min_value=0, max_value=500), st.sampled_from([9, 14, 22, 60]))
def test_fit_never_exceeds_its_room_and_keeps_what_fits(s, room, size):
    f = font(size)
    out = fit(s, f, room)
    assert f.getlength(out) <= max(room, 0)
    cleaned = text_mod.clean(s)
    if f.getlength(cleaned) <= room:
        assert out == cleaned
    elif out:
        assert out.endswith(ELLIPSIS) and cleaned.startswith(out[:-1].rstrip())


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=20, max_value=400), st.integers(min_value=1, max_value=4))
def test_wrap_stays_within_the_width_and_the_line_count(s, room, lines):
    f = font(15)
    out = wrap(s, f, room, lines)
    assert len(out) <= lines
    assert all(f.getlength(line) <= room for line in out)


def test_a_4000_character_name_costs_no_more_measuring_than_a_40_character_one(monkeypatch):
    calls = {"n": 0}
    real = type(font(20)).getlength

    def counting(self, *args, **kwargs):
        calls["n"] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(font(20)), "getlength", counting)
    counts = {}
    for n in (40, 4000, 400_000):
        calls["n"] = 0
        out = fit("Ω" * n, font(20), 300)
        counts[n] = calls["n"]
        assert out.endswith(ELLIPSIS)
    assert counts[400_000] <= counts[40] + 2 <= 20  # a binary search over what can fit, not over the text


def test_control_characters_never_reach_the_panel():
    assert fit("a\nb\tc\x00", font(14), 500) == "a b c "
