"""Mid-game states for the golden images and the render benchmark: real systems, real actions.

Each scenario starts a session of a registered system and plays documented
actions with typed-in dice (no RNG), asserting every one is accepted, so a
golden image shows what the system's own ``screen()`` gives at that point.
A system that is not registered (yet) is skipped by the golden test.

Regenerate the reference PNGs (after a deliberate change of the look):

    .venv/bin/python -m tests.golden_states --update

then LOOK at every PNG in tests/golden/ before committing them.
"""

from __future__ import annotations

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

SCENARIOS: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "vegas": (  # docs/systems/vegas.md, up to the second trick
        {"players": ["Ann", "Bob", "Cy"], "vp_spaces": ["Game 3"]},
        [
            {"type": "setup_tracks", "player": "Ann", "tracks": ["Team", "Game"]},
            {"type": "setup_tracks", "player": "Bob", "tracks": ["Game", "Inspector"]},
            {"type": "setup_tracks", "player": "Cy", "tracks": ["Bot", "Mobster"]},
            {"type": "start_round"},
            {"type": "choose_furthest_behind", "player": "Bob"},
            {"type": "free_increase", "track": "Team"},
            {
                "type": "play_trick",
                "cards": [
                    {"player": "Bob", "suit": "Game", "number": 9},
                    {"player": "Cy", "suit": "Team", "number": 7},
                    {"player": "Ann", "suit": "Bot", "number": 2, "token": "Game", "trump": "Bot"},
                ],
            },
            {"type": "claim_bonus", "player": "Ann", "suit": "Team", "number": 7},
            {
                "type": "trick_winner",
                "winner": "Bob",
                "tokens": [{"player": "Cy", "token": "Mobster", "take": "Team 3"}],
            },
        ],
    ),
    "v2140": (  # docs/systems/v2140.md: Shred against Alamo Jack, an exchange pending
        {"players": ["Shred", "Sven"], "gm": "GM"},
        [
            {
                "type": "prepare_pool",
                "participant": "Shred",
                "primary_skills": 3,
                "secondary_skills": 3,
                "secondary_assist_quality": 4,
            },
            {"type": "roll_pool", "participant": "Shred", "faces": {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}},
            {"type": "prepare_pool", "participant": "GM", "racks": 1},
            {"type": "roll_pool", "participant": "GM", "faces": [6, 4, 3, 2, 2, 1, 1]},
            {"type": "bid_initiative", "participant": "Shred", "dice": [4]},
            {"type": "settle_initiative"},
            {
                "type": "put_forward",
                "actor": "Shred",
                "target": "GM",
                "dice": [6],
                "says": "I snap a shot on top of him",
            },
            {"type": "answer", "dice": [4], "says": "Jack lurches to the side"},
            {"type": "resolve"},
            {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]},
        ],
    ),
    "venom": (
        {"players": ["Ann", "Bob", "Cy"], "commander": "Ann"},
        [
            {"type": "draw_event", "kind": "venom_strikes", "name": "Red Rockets of Doom!"},
            {"type": "next_phase"},
            {"type": "next_phase"},
            {
                "type": "choose_leader",
                "name": "Vipress",
                "zone": "VENOM Mountain Defense",
                "zone_type": "Arctic",
                "health": 2,
                "defense": 4,
                "support": 2,
            },
            {"type": "allocate_dice", "combat_value": 2, "support_dice": 3, "combat_leader": "Dropzone"},
            {"type": "next_phase"},
            {"type": "combat_roll", "faces": [4, 6, 4, 2, 1]},
        ],
    ),
    "vnm": (
        {
            "players": [
                {"name": "Ann", "home_worlds": ["Venus"]},
                {"name": "Bob", "home_worlds": ["Mars"]},
                {"name": "Cy", "home_worlds": ["Pluto"]},
                {"name": "Dee", "home_worlds": ["Titan"]},
            ]
        },
        [
            {"type": "collect", "area": "China", "count": 2},
            {"type": "end_turn"},
            {"type": "build", "count": 1},
            {"type": "end_turn"},
            {"type": "declare_target", "target": "Pluto", "area_type": "land"},
            {"type": "attack", "target": "Pluto", "area_type": "land", "faces": [9, 3]},
        ],
    ),
}


def registered() -> set[str]:
    from tableside.core.systems import SYSTEM_MODULES

    return set(SYSTEM_MODULES)


def build(system: str, upto: str | None = None) -> Any:
    """The system's screen after its scenario (every action must be accepted), or right after the
    scenario's first action of type ``upto``."""
    return play(system, upto)[0]


def play(system: str, upto: str | None = None) -> tuple[Any, dict]:
    """``build``'s screen and the state it was drawn from."""
    from tableside.core.store import Store
    from tableside.core.table import Table

    options, actions = SCENARIOS[system]
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(Path(folder) / "golden.db"), rng=random.Random(1))
        try:
            table.create_session(system, options)
            for action in actions:
                table.act(action, source="cli")
                if action["type"] == upto:
                    return table.screen(), table.current_state()
            if upto is not None:
                raise AssertionError(f"{upto} is not in the {system} scenario")
            return table.screen(), table.current_state()
        finally:
            table.store.close()


SCREENS: dict[str, Callable[[], Any]] = {name: (lambda n=name: build(n)) for name in SCENARIOS}


def render_golden(system: str, panel_id: str):
    from tableside.display.join import JoinInfo
    from tableside.display.panels import get_panel
    from tableside.display.quantize import to_panel_image
    from tableside.display.render import render

    panel = get_panel(panel_id)
    return to_panel_image(render(build(system), panel, JoinInfo(*JOIN)), panel)


def golden_path(system: str, panel_id: str) -> Path:
    return GOLDEN_DIR / f"{system}-{panel_id}.png"


def update() -> list[Path]:
    GOLDEN_DIR.mkdir(exist_ok=True)
    written = []
    for system in sorted(set(SCENARIOS) & registered()):
        for panel_id in GOLDEN_PANELS:
            path = golden_path(system, panel_id)
            render_golden(system, panel_id).save(path, optimize=True)
            written.append(path)
        README_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(golden_path(system, README_PANEL), readme_image(system))
        written.append(readme_image(system))
    return written


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python -m tests.golden_states --update")
    for path in update():
        print(path)
