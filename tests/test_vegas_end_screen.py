"""Venusian Vegas at its end (#34): the e-paper leads with the winner and the ranking, not the round's last trick.

Seen in a playthrough: a trick played in the last round stayed on the game-over screen ("Trick 1: Bob (Mobster 13,
highest of the led suit (Mobster))"), on the pHAT the only line under the final scores: stale content at the moment
the issue asks to be the winner's.
"""

from __future__ import annotations

import random
from pathlib import Path

from tableside.core.screen import Text
from tableside.core.store import Store
from tableside.core.table import Table

from tests.golden_states import ENDINGS, SCENARIOS

TRICK = {
    "type": "play_trick",
    "cards": [
        {"player": "Bob", "suit": "Mobster", "number": 13},
        {"player": "Cy", "suit": "Mobster", "number": 2},
        {"player": "Ann", "suit": "Bot", "number": 12},
    ],
}


def test_the_last_trick_of_the_last_round_is_not_on_the_game_over_screen(tmp_path: Path):
    options, actions = SCENARIOS["vegas"]
    last_round, hands = ENDINGS["vegas"][:-3], ENDINGS["vegas"][-3:]
    table = Table(Store(tmp_path / "vegas.db"), rng=random.Random(1))
    try:
        table.create_session("vegas", options)
        for action in [*actions, *last_round, TRICK, {"type": "decline_bonus", "player": "Bob"}]:
            table.act(action, source="cli")
        playing = [e.text for e in table.screen().elements if isinstance(e, Text)]
        assert any(t.startswith("Trick 1: Bob") for t in playing)  # while the round lasts, the last trick shows
        for action in hands:  # the hands played out: the last round, and the game, end
            table.act(action, source="cli")
        assert table.current_state()["phase"] == "Game over"
        shown = table.screen()
        words = [e.text for e in shown.elements if isinstance(e, Text)]
        assert not any(t.startswith("Trick") for t in words), words
        assert shown.alert == "Ann wins" and any(t.startswith("1. Ann 9 VP") for t in words)
    finally:
        table.store.close()
