"""Mid-game states for the golden images and the render benchmark: real systems, real actions.

Each scenario (``tests/scenarios/<system id>.py``) starts a session of a registered system and plays documented
actions with typed-in dice (no RNG), asserting every one is accepted, so a
golden image shows what the system's own ``screen()`` gives at that point.
A system that is not registered (yet) is skipped by the golden test.

Regenerate the reference PNGs (after a deliberate change of the look):

    .venv/bin/python -m tests.golden_states --update [SYSTEM...]

then LOOK at every PNG in tests/golden/ before committing them.
"""

from __future__ import annotations

import importlib
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).parent / "golden"
# One panel per class, the tightest or most common of it: the pHAT, the wHAT, the 4" boards (the smallest
# colour ones), the 5.7", both colour 7.3" boards and the 13.3" (the largest, 1600x1200).
GOLDEN_PANELS = (
    "phat-red",
    "what-red",
    "impression-4",
    "spectra-4",
    "impression-5.7",
    "impression-7.3",
    "spectra-7.3",
    "spectra-13.3",
)
# The README shows each system's golden on this panel, copied to docs/images/ by --update (tests/test_readme.py
# checks the copies are current).
README_PANEL = "spectra-7.3"
README_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def readme_image(system: str) -> Path:
    return README_IMAGES / f"epaper-{system}.png"


JOIN = ("http://192.168.1.20:8080", "K7QX4M")

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def _scenarios() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every system's scenario, ``tests/scenarios/<system id>.py`` (its ``OPTIONS`` and ``ACTIONS``), by id."""
    out = {}
    for path in sorted(SCENARIO_DIR.glob("[!_]*.py")):
        module = importlib.import_module(f"tests.scenarios.{path.stem}")
        out[path.stem] = (module.OPTIONS, module.ACTIONS)
    return out


SCENARIOS = _scenarios()


def _fix(key: str, value: int) -> dict[str, Any]:
    return {"type": "correct", "key": key, "value": value, "reason": "counted again"}


def _hands_played_out() -> list[dict[str, Any]]:
    """Every hand set to 0 (the cards counted again): the round ends (the last holder has nothing to reveal)."""
    return [_fix(f"hand.{i}", 0) for i in range(3)]


# The end of each game its rules end (Venus 2140's scenes have no end of game), after the mid-game scenario,
# reached the way a table gets there quickly: numbers fixed, VENOM's players declaring the end.
ENDINGS: dict[str, list[dict[str, Any]]] = {
    # Venusian Vegas with three players: four rounds, VP fixed, each round's hands played out.
    "vegas": [
        {"type": "decline_bonus", "player": "Bob"},
        _fix("vp.0", 9),
        _fix("vp.2", 7),
        _fix("vp.1", 4),
        *_hands_played_out(),
        *[{"type": "start_round"}, {"type": "free_increase", "track": "Team"}, *_hands_played_out()] * 2,
        {"type": "start_round"},
        {"type": "choose_furthest_behind", "player": "Bob"},
        {"type": "free_increase", "track": "Team"},
        *_hands_played_out(),
    ],
    "venom": [{"type": "game_over", "winner": "freedom_squadron"}],
    "vnm": [
        {
            "type": "correct",
            "key": "worlds.Mars.population",
            "value": 12,
            "balance": "land_areas.0.population",
            "reason": "chips counted again",
        },
        {
            "type": "correct",
            "key": "worlds.Venus.population",
            "value": 20,
            "balance": "land_areas.1.population",
            "reason": "chips counted again",
        },
        {
            "type": "correct",
            "key": "worlds.Venus.population",
            "value": 26,
            "balance": "land_areas.2.population",
            "reason": "chips counted again",
        },
    ],
}


# The end of a round (#34), after the mid-game scenario: Vegas's round 1 played out (as ENDINGS begins), VENOM's
# turn 1 through Retirement and End of Turn, VNM's round 1 (Ann's and Bob's turns ended), Venus 2140's conflict 1
# (the exchange resolved, a goal bought, the follow-up conflict begun).
ROUND_ENDS: dict[str, list[dict[str, Any]]] = {
    "vegas": ENDINGS["vegas"][:7],
    "venom": [{"type": "next_phase"}] * 3,
    "vnm": [{"type": "end_turn"}] * 2,
    "v2140": [
        {"type": "answer", "dice": [4]},
        {"type": "resolve"},
        {"type": "buy_goal", "participant": "Shred", "goal": "Scar", "price": 1, "target": "GM"},
        {"type": "follow_up"},
    ],
}


def registered() -> set[str]:
    from tableside.core.systems import SYSTEM_MODULES

    return set(SYSTEM_MODULES)


def build(system: str, upto: str | None = None) -> Any:
    """The system's screen after its scenario (every action must be accepted), or right after the
    scenario's first action of type ``upto``."""
    return play(system, upto)[0]


def play(
    system: str, upto: str | None = None, end: bool = False, more: tuple[dict, ...] = (), told: bool = False
) -> tuple[Any, dict]:
    """``build``'s screen and the state it was drawn from; ``more``: actions played after the last one
    (Venus 2140's effects on a moment of the scenario); ``told``: the screen as the e-paper shows it with the
    last round's summary (``core.round_summary``, folded from the log as the history book does)."""
    from tableside.core.replay import Replay
    from tableside.core.round_summary import last_round, round_end_screen
    from tableside.core.store import Store
    from tableside.core.table import Table

    options, actions = SCENARIOS[system]
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(Path(folder) / "golden.db"), rng=random.Random(1))
        try:
            table.create_session(system, options)
            for action in [*actions, *(ENDINGS[system] if end else ())]:
                table.act(action, source="cli")
                if action["type"] == upto:
                    break
            else:
                if upto is not None:
                    raise AssertionError(f"{upto} is not in the {system} scenario")
            for action in more:
                table.act(action, source="cli")
            if told:
                session_id, version = table.position()
                row = table.store_row(session_id)
                rules = table.system_of(row)
                steps = Replay(table.store, rules, row).steps(row["initial_state"], 0, version)
                summary = last_round(rules, row["initial_state"], steps)
                return round_end_screen(table.screen(), summary, version), table.current_state()
            return table.screen(), table.current_state()
        finally:
            table.store.close()


SCREENS: dict[str, Callable[[], Any]] = {name: (lambda n=name: build(n)) for name in SCENARIOS}


def round_end(system: str) -> tuple[Any, dict]:
    """The e-paper's screen at the end of the scenario's round (``ROUND_ENDS``) and the state it was drawn from."""
    return play(system, more=tuple(ROUND_ENDS[system]), told=True)


def render_golden(system: str, panel_id: str, end: bool = False, rounded: bool = False):
    from tableside.display.join import JoinInfo
    from tableside.display.panels import get_panel
    from tableside.display.quantize import to_panel_image
    from tableside.display.render import render

    panel = get_panel(panel_id)
    shown = play(system, end=True)[0] if end else round_end(system)[0] if rounded else build(system)
    return to_panel_image(render(shown, panel, JoinInfo(*JOIN)), panel)


def golden_path(system: str, panel_id: str, end: bool = False, rounded: bool = False) -> Path:
    return GOLDEN_DIR / f"{system}{'-end' if end else '-round' if rounded else ''}-{panel_id}.png"


def update(systems: list[str] | None = None) -> list[Path]:
    """Draw the golden images (and the README's copy) of ``systems``, or of every system with a scenario."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    written = []
    for system in sorted(set(systems or SCENARIOS) & set(SCENARIOS) & registered()):
        for panel_id in GOLDEN_PANELS:
            path = golden_path(system, panel_id)
            render_golden(system, panel_id).save(path, optimize=True)
            written.append(path)
            if system in ENDINGS:
                path = golden_path(system, panel_id, end=True)
                render_golden(system, panel_id, end=True).save(path, optimize=True)
                written.append(path)
            if system in ROUND_ENDS:
                path = golden_path(system, panel_id, rounded=True)
                render_golden(system, panel_id, rounded=True).save(path, optimize=True)
                written.append(path)
        README_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(golden_path(system, README_PANEL), readme_image(system))
        written.append(readme_image(system))
    return written


if __name__ == "__main__":
    if sys.argv[1:2] != ["--update"] or not set(sys.argv[2:]) <= set(SCENARIOS):
        sys.exit(f"usage: python -m tests.golden_states --update [SYSTEM...] (systems: {', '.join(SCENARIOS)})")
    for path in update(sys.argv[2:]):
        print(path)
