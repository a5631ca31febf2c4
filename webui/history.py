"""The game so far, for people: a chart per system drawn as inline SVG, and a luck report.

The chart is drawn here, on the Pi, so the phone needs no chart library: a few
polylines and labels, a couple of kB gzipped. Each system gets the series a
table cares about (VNM: population per player; VENOM: the Event Track and
captured Leaders; Venusian Vegas: VP; Venus 2140: books); a system not listed
here gets its tracked numbers, so any new system still has a chart.

The luck report reads every logged die: each face is compared with a fair die
of the same size (a z-score over all of a player's dice), so a table can settle
whose dice are cursed with numbers instead of memories.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from html import escape
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from tableside.core import dice

bp = Blueprint("history", __name__)
log = logging.getLogger(__name__)

Series = dict[str, float]
PALETTE = ("#d32f2f", "#1e6fd9", "#2e9d3a", "#8e44c9", "#ef7d00", "#00909e", "#7a7a7a", "#b5006e")
_cache: dict[str, Any] = {}
_cache_lock = threading.Lock()


def _services():
    return current_app.extensions["tableside"]


# -- series per system --------------------------------------------------------------------------
def _vnm(state: dict) -> Series:
    players = state.get("players") or []
    totals = {str(p.get("name", i)): 0.0 for i, p in enumerate(players)}
    names = list(totals)
    for world in (state.get("worlds") or {}).values():
        i = world.get("player")
        if isinstance(i, int) and 0 <= i < len(names):
            totals[names[i]] += world.get("population") or 0
    return totals


def _venom(state: dict) -> Series:
    out: Series = {"Event Track": float(state.get("event_track") or 0)}
    for p in state.get("players") or []:
        out[f"{p.get('name', '?')}: Leaders captured"] = float(len(p.get("leaders") or []))
    return out


def _named_numbers(state: dict, words: tuple[str, ...]) -> Series:
    """Per player, the first number whose key contains one of ``words`` (vp, books...)."""
    out: Series = {}
    players = state.get("players") or state.get("participants") or []
    items = players.items() if isinstance(players, dict) else enumerate(players)
    for key, p in items:
        if not isinstance(p, dict):
            continue
        name = str(p.get("name", key))
        for k, v in p.items():
            if any(w in k.lower() for w in words) and isinstance(v, int | float) and not isinstance(v, bool):
                out[name] = float(v)
                break
            if any(w in k.lower() for w in words) and isinstance(v, list):
                out[name] = float(len(v))
                break
    return out


def _vegas(state: dict) -> Series:
    vp = state.get("vp")
    if isinstance(vp, dict):
        return {str(k): float(v) for k, v in vp.items() if isinstance(v, int | float)}
    return _named_numbers(state, ("vp", "victory"))


def _v2140(state: dict) -> Series:
    people = state.get("participants")
    if isinstance(people, dict):
        return {str(k): float(p.get("books") or 0) for k, p in people.items() if isinstance(p, dict)}
    return _named_numbers(state, ("book",))


SERIES: dict[str, tuple[str, Callable[[dict], Series]]] = {
    "vnm": ("Population per player", _vnm),
    "venom": ("Event Track and captured Leaders", _venom),
    "vegas": ("Victory Points per player", _vegas),
    "v2140": ("Books per participant", _v2140),
}


def _tracked_series(system: Any) -> Callable[[dict], Series]:
    def series(state: dict) -> Series:
        try:
            return {t.label: float(t.value) for t in system.tracked(state)[:8]}
        except Exception:  # a system without tracked numbers: no chart, never a 500
            return {}

    return series


def _round(state: dict) -> int | None:
    for key in ("round", "turn"):
        value = state.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _states(table: Any, session_id: str) -> list[dict]:
    """The state after every version, folded forward from the start through the core's own replay."""
    try:
        return table.states(session_id)
    except Exception:  # a game whose rules changed since: chart what is stored, never a 500
        log.exception("chart: could not replay %s", session_id)
        try:
            return [table.state_of(session_id)]
        except Exception:
            log.exception("chart: no stored state for %s", session_id)
            return []


def chart_points(system_id: str, system: Any, states: list[dict]) -> tuple[str, str, list[str], list[dict]]:
    """(title, x label, series names, points) with one point per round (its last state)."""
    title, fn = SERIES.get(system_id, ("Tracked numbers", _tracked_series(system)))
    rounds = [_round(s) for s in states]
    by_round = all(r is not None for r in rounds) and len(set(rounds)) > 1
    picked: list[tuple[int, dict]] = []
    if by_round:
        for i, r in enumerate(rounds):
            if i + 1 == len(rounds) or rounds[i + 1] != r:
                picked.append((int(r or 0), states[i]))
    else:
        step = max(1, len(states) // 60)
        picked = [(i, s) for i, s in enumerate(states) if i % step == 0 or i == len(states) - 1]
    points = []
    names: list[str] = []
    for x, s in picked:
        values = fn(s) if isinstance(s, dict) else {}
        for n in values:
            if n not in names:
                names.append(n)
        points.append({"x": x, "values": values})
    return title, ("Round" if by_round else "Action"), names[:8], points


def chart_svg(title: str, xlabel: str, names: list[str], points: list[dict]) -> str:
    """A line chart, one line per series, sized for a phone; plain SVG, no script."""
    w, h, left, right, top, bottom = 360, 220, 34, 8, 26, 28
    per_row = 2 if all(len(n) <= 16 for n in names) else 1
    legend_h = 18 * ((len(names) + per_row - 1) // per_row)
    total_h = h + legend_h
    values = [p["values"].get(n) for p in points for n in names if p["values"].get(n) is not None]
    if not points or not values:
        return ""
    lo, hi = min(0.0, min(values)), max(values)
    if hi == lo:
        hi = lo + 1
    xs = [p["x"] for p in points]
    x0, x1 = min(xs), max(xs)
    span = (x1 - x0) or 1

    def px(x: float) -> float:
        return left + (x - x0) / span * (w - left - right)

    def py(v: float) -> float:
        return top + (1 - (v - lo) / (hi - lo)) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {total_h}" role="img" '
        f'aria-label="{escape(title)} by {xlabel.lower()}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
        f'<g stroke="#8888" stroke-width="1"><line x1="{left}" y1="{py(lo):.1f}" x2="{w - right}" y2="{py(lo):.1f}"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{py(lo):.1f}"/></g>',
        f'<g font-size="11"><text x="{left - 4}" y="{py(hi) + 4:.1f}" text-anchor="end">{_num(hi)}</text>'
        f'<text x="{left - 4}" y="{py(lo) + 4:.1f}" text-anchor="end">{_num(lo)}</text>'
        f'<text x="{left}" y="{h - 8}">{xlabel} {_num(x0)}</text>'
        f'<text x="{w - right}" y="{h - 8}" text-anchor="end">{xlabel} {_num(x1)}</text></g>',
    ]
    for i, name in enumerate(names):
        colour = PALETTE[i % len(PALETTE)]
        pts = [(px(p["x"]), py(p["values"][name])) for p in points if p["values"].get(name) is not None]
        if not pts:
            continue
        dash = ' stroke-dasharray="5 3"' if i >= len(PALETTE) // 2 and len(names) > 4 else ""
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dash} points="{line}"/>')
        lx, ly = (8 if i % per_row == 0 else w // 2 + 4), h + 4 + 18 * (i // per_row)
        last = pts[-1]
        out.append(f'<circle cx="{last[0]:.1f}" cy="{last[1]:.1f}" r="3" fill="{colour}"/>')
        final = points[-1]["values"].get(name)
        short = name if len(name) <= 40 else name[:39] + "…"
        shown = f"{escape(short)}: {_num(final)}" if final is not None else escape(short)
        out.append(
            f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"/>'
            f'<text x="{lx + 16}" y="{ly + 11}" font-size="12">{shown}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _num(v: float | None) -> str:
    if v is None:
        return ""
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


@bp.get("/api/panel/chart.svg")
def chart():
    """The active game's chart, redrawn only when the version changed."""
    table = _services().table
    view_id, version = table.position() or (None, None)
    if view_id is None:
        return Response("", mimetype="image/svg+xml", status=404)
    key = f"chart:{view_id}:{version}"
    with _cache_lock:
        svg = _cache.get(key)
    if svg is None:
        system_id = table.view()["system"]
        system = table._get_system(system_id)
        svg = chart_svg(*chart_points(system_id, system, _states(table, view_id)))
        with _cache_lock:
            _cache.clear()
            _cache[key] = svg
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


# -- luck -------------------------------------------------------------------------------------------
def entry_rolls(entry: dict) -> list[dict]:
    """Every recorded roll of a log entry: ``rolls`` (interface v2) or the first interface's ``action.roll``."""
    if entry.get("kind") in ("undo", "redo"):  # a redo replays the same faces: count them once
        return []
    rolls = entry.get("rolls")
    if isinstance(rolls, list):
        return [r for r in rolls if isinstance(r, dict)]
    action = entry.get("action") or {}
    if isinstance(action, dict) and isinstance(action.get("roll"), dict):
        return [action["roll"]]
    return []


def _who(entry: dict) -> str:
    if entry.get("seat"):
        return str(entry["seat"])
    action = entry.get("action") if isinstance(entry.get("action"), dict) else {}
    for key in ("player", "attacker", "participant", "by"):
        if isinstance(action.get(key), str) and action[key]:
            return action[key]
    return "The table"


def _sides(roll: dict) -> int | None:
    if isinstance(roll.get("sides"), int):
        return roll["sides"]
    try:
        return dice.parse(str(roll.get("expr", ""))).sides
    except Exception:
        return None


def luck_report(entries: list[dict]) -> dict:
    """Per player: dice rolled, average face against a fair die's, and a verdict from the z-score."""
    acc: dict[str, list[float]] = {}
    for e in entries:
        who = _who(e)
        for r in entry_rolls(e):
            sides = _sides(r)
            faces = r.get("rolls") if isinstance(r.get("rolls"), list) else r.get("faces")
            if not sides or sides < 2 or not isinstance(faces, list):
                continue
            mean, sd = (sides + 1) / 2, math.sqrt((sides * sides - 1) / 12)
            a = acc.setdefault(who, [0.0, 0.0, 0.0, 0.0])  # dice, z sum, face/mean sum, faces sum
            for f in faces:
                if isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides:
                    a[0] += 1
                    a[1] += (f - mean) / sd
                    a[2] += f / mean
    players = []
    for who, (n, zsum, ratio, _) in sorted(acc.items(), key=lambda kv: -kv[1][1] / math.sqrt(max(kv[1][0], 1))):
        if not n:
            continue
        z = zsum / math.sqrt(n)
        pct = (ratio / n - 1) * 100
        players.append(
            {
                "name": who,
                "dice": int(n),
                "average": f"{pct:+.0f}% against a fair die",
                "expected": "0%",
                "z": round(z, 2),
                "verdict": _verdict(z, int(n)),
            }
        )
    note = (
        ("Each face is compared with a fair die of its size; a verdict needs about 20 dice before it means much.")
        if players
        else ""
    )
    return {"players": players, "note": note}


def _verdict(z: float, n: int) -> str:
    if n < 10:
        return "Too few dice to tell"
    if z >= 2:
        return "Hot dice (rarely this lucky)"
    if z >= 1:
        return "Lucky"
    if z <= -2:
        return "Cursed (rarely this unlucky)"
    if z <= -1:
        return "Unlucky"
    return "Fair"


@bp.get("/api/panel/luck")
def luck():
    table = _services().table
    entries = table.log()
    return jsonify(luck_report(entries))
