"""Venusian Vegas: one modifier token per player per trick, in every entry of a trick. The card-by-card
entries hold it by their shape (one row per player); the winner-only entry (``trick_winner`` with
``tokens``) took two tokens from one player and applied both. Each rule quotes docs/rulebooks/vegas.txt."""

from __future__ import annotations

import copy
import random
import re

import pytest
from tableside.core.errors import RuleError
from tableside.core.store import Store
from tableside.core.systems.vegas import tricks
from tableside.core.table import Table

from tests.rulebook_quotes import quoted
from tests.test_vegas_helpers import in_round

ONE_TOKEN = quoted("vegas", "You may play one modifier token face up along with your card.")
TWO_FROM_BOB = (
    "You may play one modifier token face up along with your card: Bob already played the Inspector token "
    "in this trick, so cannot also play the Game token"
)


def test_the_winner_only_entry_refuses_two_tokens_from_one_player_and_changes_nothing():
    assert ONE_TOKEN
    state = in_round(leader="Bob", track="Inspector")  # Bob holds Inspector (2) and Game tokens
    assert state["tokens"]["Bob"]["Inspector"] >= 1 and state["tokens"]["Bob"]["Game"] >= 1
    before = copy.deepcopy(state)
    two = [{"player": "Bob", "token": "Inspector"}, {"player": "Bob", "token": "Game", "trump": "Bot"}]
    with pytest.raises(RuleError, match=f"^{re.escape(TWO_FROM_BOB)}$"):
        tricks.trick_winner(state, "Cy", two)
    assert state == before


def test_one_token_from_each_of_two_players_is_still_taken():
    state = in_round(leader="Bob", track="Inspector")
    result = tricks.trick_winner(
        state, "Cy", [{"player": "Bob", "token": "Inspector"}, {"player": "Ann", "token": "Game", "trump": "Team"}]
    )
    assert result["winner"] == "Cy" and state["rank"] == "Low Wins" and state["trump"] == "Team"
    assert state["tokens"]["Ann"]["Game"] == 0


def _table(path) -> Table:
    return Table(Store(path), rng=random.Random(3))


def test_the_refusal_reaches_the_table_and_an_older_log_with_two_tokens_still_replays(tmp_path, monkeypatch):
    table = _table(tmp_path / "t.db")
    sid = table.create_session("vegas", {"players": ["Ann", "Bob", "Cy"]})["id"]
    for p, picked in {"Ann": ["Team", "Game"], "Bob": ["Inspector", "Mobster"], "Cy": ["Bot", "Mobster"]}.items():
        table.act({"type": "setup_tracks", "player": p, "tracks": picked})
    table.act({"type": "start_round"})
    if len(table.view()["state"]["furthest_behind"]) > 1:
        table.act({"type": "choose_furthest_behind", "player": "Bob"})
    table.act({"type": "free_increase", "track": "Inspector"})
    two = {
        "type": "trick_winner",
        "winner": "Cy",
        "tokens": [{"player": "Bob", "token": "Inspector"}, {"player": "Bob", "token": "Mobster"}],
    }
    with pytest.raises(RuleError, match=re.escape("You may play one modifier token face up along with your card")):
        table.act(two)
    real = tricks.trick_winner
    with monkeypatch.context() as old_rules:  # the rules as they were: two tokens from Bob accepted
        old_rules.setattr(tricks, "trick_winner", lambda s, w, t=(), **_: real(s, w, t, one_per_player=False))
        table.act(two)
    played = table.view()
    assert played["state"]["tricks_played"] == 1
    table.store.drop_snapshots(sid)  # no stored state: the log alone rebuilds it
    table.store.close()
    again = _table(tmp_path / "t.db")
    view = again.view()
    assert view["readonly"] is None and view["state"] == played["state"]
    again.store.close()
