"""Every system's scores stay on every pHAT at every table size: each golden scenario played by 2 players up to the
system's most (Venus 2140: 1 to 11 player characters and the GM), each step drawn on the seven pHAT boards.

The golden scenarios (tests/golden_states.py) have three or four players; a fifth VENOM player once pushed the
players' VP off the pHAT during the Event Phase, and a fifth Venus 2140 participant reduced the scene pools to
their dice, without the books. Each frame is measured as tests/test_display_text_fit.py measures the goldens:
every text whole (or in a documented shorter form) and every player's score beside their name.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy
import pytest
from PIL import Image, ImageDraw
from tableside.display.panels import PANELS, get_panel
from tableside.display.render import render_layout

from tests.golden_states import SCENARIOS, registered
from tests.test_display_text_fit import JOIN, check_scores, check_whole, measured, scores

PHATS = sorted(p for p, panel in PANELS.items() if panel.size_class == "small")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim")
LONG = (  # twelve characters each, enough for every seat of every system
    "Maximilianus",
    "Konstantinos",
    "Christabella",
    "Bartholomeww",
    "Wilhelminaaa",
    "Ferdinandina",
    "Gwendolynnee",
    "Hildegardine",
    "Isidorussson",
    "Jacquelinnee",
    "Leopoldinaaa",
)
# The vnm worlds in seating order; two players each play two planets as a team.
WORLDS = ("Venus", "Mars", "Pluto", "Titan", "Ganymede", "Earth")


def _table_sizes(system_id: str) -> range:
    """Every table size the system's ``players`` option allows (its Field's minimum and maximum)."""
    from tableside.core.systems import get_system

    players = next(o for o in get_system(system_id).options if o.name == "players")
    return range(players.minimum, players.maximum + 1)


COUNTS = {s: _table_sizes(s) for s in SCENARIOS if s in registered()}


def _vnm_target(state: dict[str, Any]) -> str:
    """A world of another player with spaceships to attack (who is up depends on the turn order)."""
    from tableside.core.systems.vnm.state import current_player, player_of

    me = current_player(state)
    return next(w for w in state["turn_order"] if player_of(state, w)["name"] != me and w != "Earth")


def scenario(system: str, names: tuple[str, ...]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The golden scenario of ``system`` played by ``names`` (the first plays the golden's first player's part)."""
    options, actions = SCENARIOS[system]
    n = len(names)
    if system == "venom":
        return {"players": list(names), "commander": names[0]}, actions
    if system == "v2140":
        swap = {"Shred": names[0]}
        played = [{k: swap.get(v, v) if isinstance(v, str) else v for k, v in a.items()} for a in actions]
        return {"players": list(names), "gm": "GM"}, played
    if system == "vnm":
        if n == 2:
            players = [
                {"name": names[0], "home_worlds": ["Venus", "Mars"]},
                {"name": names[1], "home_worlds": ["Pluto", "Titan"]},
            ]
        else:
            players = [{"name": p, "home_worlds": [w]} for p, w in zip(names, WORLDS, strict=False)]
        played = [a for a in actions if a["type"] not in ("declare_target", "attack")]
        played += [
            {"type": "declare_target", "target": None, "area_type": "land"},
            {"type": "attack", "target": None, "area_type": "land", "faces": [9, 3]},
        ]
        return {"players": players}, played
    if system == "vegas":
        picks = (
            ["Team", "Game", "Bot"],
            ["Game", "Inspector", "Team"],
            ["Bot", "Mobster", "Game"],
            ["Inspector", "Bot", "Mobster"],
            ["Mobster", "Team", "Inspector"],
        )
        k = 3 if n == 5 else 2
        played = [{"type": "setup_tracks", "player": p, "tracks": picks[i][:k]} for i, p in enumerate(names)]
        played += [
            {"type": "start_round"},
            {"type": "choose_furthest_behind", "player": names[1]},
            {"type": "free_increase", "track": "Team"},
        ]
        order = names[1:] + names[:1]  # the second player leads; the first plays last and trumps with Bot
        cards = [("Game", 9), ("Team", 7), ("Mobster", 5), ("Inspector", 4)]
        trick = [{"player": p, "suit": s, "number": num} for p, (s, num) in zip(order[:-1], cards, strict=False)]
        trick.append({"player": names[0], "suit": "Bot", "number": 2, "token": "Game", "trump": "Bot"})
        played.append({"type": "play_trick", "cards": trick})
        if n > 2:  # the second card's bonus (Team 7: draw a card); at two players only a steal, which costs VP
            played.append({"type": "claim_bonus", "player": names[0], "suit": "Team", "number": 7})
        return {"players": list(names), "vp_spaces": options["vp_spaces"]}, played
    return _renamed(options, actions, names)


def _renamed(options: dict[str, Any], actions: list[dict[str, Any]], names: tuple[str, ...]):
    """Any other system's scenario with ``names`` at the table: its players' names in the options are
    replaced, in order, wherever an action names them too (a scenario with names left over keeps them)."""
    old = list(options["players"])
    swap = dict(zip(old, names, strict=False))
    played = [{k: swap.get(v, v) if isinstance(v, str) else v for k, v in a.items()} for a in actions]
    return {**options, "players": list(names)}, played


def moments(system: str, names: tuple[str, ...]) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(step, screen, state) at the start and after every action of ``scenario``."""
    from tableside.core.store import Store
    from tableside.core.table import Table

    options, actions = scenario(system, names)
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(Path(folder) / "sizes.db"), rng=random.Random(1))
        try:
            table.create_session(system, options)
            yield "start", table.screen(), table.current_state()
            for action in actions:
                if "target" in action and action["target"] is None:
                    action = {**action, "target": _vnm_target(table.current_state())}
                table.act(action, source="cli")
                yield action["type"], table.screen(), table.current_state()
        finally:
            table.store.close()


CASES = [(s, n) for s in sorted(COUNTS) for n in COUNTS[s]]


@pytest.mark.parametrize(("system", "players"), CASES, ids=[f"{s}-{n}" for s, n in CASES])
def test_every_score_stays_on_every_phat_at_every_table_size(system, players):
    check_every_phat(system, NAMES[:players], f"{players}")


# Twelve-character names (the roll-off tests' own) on every system up to its most players: where the whole names do
# not fit, the frame shortens every name one documented way (docs/display.md, "Names on a small panel").
LONG_COUNTS = COUNTS
LONG_CASES = [(s, n) for s in sorted(LONG_COUNTS) for n in LONG_COUNTS[s]]


@pytest.mark.parametrize(("system", "players"), LONG_CASES, ids=[f"{s}-{n}" for s, n in LONG_CASES])
def test_every_score_stays_on_every_phat_with_twelve_character_names(system, players):
    check_every_phat(system, LONG[:players], f"{players} long names")


def check_every_phat(system: str, names: tuple[str, ...], who: str) -> None:
    """Each moment of ``system`` played by ``names``, drawn on every pHAT board: every text whole and every
    score beside its name; ``who`` says the players in a failure ("3", "3 long names")."""
    if system not in registered():
        pytest.skip(f"{system} is not registered")
    for step, screen, state in moments(system, names):
        pairs = scores(system, state)
        for panel_id in PHATS:
            where = f"{system} with {who} after {step} on {panel_id}"
            image, layout = render_layout(screen, get_panel(panel_id), JOIN)
            check_whole(image, layout, where)
            check_scores(layout, pairs, where)


def _foreign_ink(image, run) -> int:
    """Pixels within 1 px of ``run``'s ink box that are neither white nor the run's own glyphs (drawn alone)."""
    x0, y0, x1, y1 = measured(run)
    box = (max(0, x0 - 1), max(0, y0 - 1), min(image.width, x1 + 1), min(image.height, y1 + 1))
    alone = Image.new("1", image.size, 0)
    draw = ImageDraw.Draw(alone)
    draw.fontmode = "1"
    draw.text(run.xy, run.text, font=run.font, fill=1)
    glyphs = numpy.array(alone.crop(box), dtype=bool)
    frame = numpy.array(image.convert("RGB").crop(box))
    inked = (frame != 255).any(axis=2)
    return int((inked & ~glyphs).sum())


@pytest.mark.parametrize("names", [NAMES, LONG], ids=["short names", "twelve-character names"])
def test_the_threshold_mark_stays_clear_of_the_population_title_line(names):
    """The threshold mark reached 3 px above the first bar, into the title line: on a pHAT it crossed the last
    digit of "wins at 34" (seen on every pHAT board, in black or red)."""
    if "vnm" not in registered():
        pytest.skip("vnm is not registered")
    for players in COUNTS["vnm"]:
        for step, screen, _state in moments("vnm", names[:players]):
            for panel_id in [*PHATS, "what-red"]:
                image, layout = render_layout(screen, get_panel(panel_id), JOIN)
                for run in layout.texts:
                    if run.text.startswith("wins at ") or run.text == "Population":
                        foreign = _foreign_ink(image, run)
                        assert not foreign, f"{players} after {step} on {panel_id}: {foreign} px touch {run.text!r}"
