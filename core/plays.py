"""A finished game as a play for the apps where players keep their plays (#34): BG Stats' import format, and CSV.

BG Stats publishes one format for a play another app hands it (``FORMAT_URL``: "Push plays to BG Stats from
other apps or websites"): a JSON object with ``sourceName``, ``sourcePlayId``, ``playDate``
("2020-10-23 19:16:58"), ``durationMin``, ``game`` (``name``, ``sourceGameId``, ``highestWins``, ``noPoints``,
``bggId``) and ``players`` (``name``, ``sourcePlayerId``, ``score``, ``winner``, ``rank``, ``startPlayer``,
``role``), which the app opens from ``https://app.bgstatsapp.com/createPlay.html?data=<the JSON, URL-encoded>``.
Only those fields are written; what the table does not know is left out, never guessed: the game's
BoardGameGeek id, the location (BG Stats sets it to the app that sent the play), the board, comments.
Pure functions, no I/O: ``webui.plays`` reads the games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

FORMAT_URL = "https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Tableside"
CSV_COLUMNS = (
    "date",
    "duration_min",
    "game",
    "system",
    "session",
    "player",
    "role",
    "score",
    "rank",
    "winner",
    "start_player",
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def score_number(text: object) -> int | float | None:
    """The number a final score starts with ("12 VP" is 12; the screen writes scores with their unit), or None."""
    found = _NUMBER.match(str(text).strip())
    if found is None:
        return None
    value = float(found.group())
    return int(value) if value.is_integer() else value


def play_date(at: str) -> str:
    """BG Stats' ``playDate`` ("YYYY-MM-DD HH:MM:SS"), in the table's local time: the log keeps UTC."""
    return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def minutes(started: str, ended: str) -> int:
    """Whole minutes from the game's set-up to its last logged move (at least 1: a play has a length)."""
    spent = (datetime.fromisoformat(ended) - datetime.fromisoformat(started)).total_seconds()
    return max(1, round(spent / 60))


def _ranks(scores: Sequence[tuple[str, str]]) -> list[int]:
    """Each score's place in the ranking order the result gives; equal scores share a place (1, 2, 2, 4)."""
    ranks: list[int] = []
    for i, (_name, score) in enumerate(scores):
        ranks.append(ranks[-1] if i and score == scores[i - 1][1] else i + 1)
    return ranks


def _role(name: str, label: str) -> str:
    """What the board adds to a player's name ("Ann (Venus)": Venus), BG Stats' ``role``; "" when nothing."""
    if label.startswith(f"{name} (") and label.endswith(")"):
        return label[len(name) + 2 : -1]
    return ""


def play(
    *,
    session_id: str,
    system_id: str,
    game_name: str,
    result: Mapping[str, Any],
    labels: Mapping[str, str],
    started_at: str,
    ended_at: str,
    start_player: str | None = None,
) -> dict[str, Any]:
    """The finished game as BG Stats' play. ``result``: the screen's (``label``, ``winners``, ``scores`` in ranking
    order, by the board's names); ``labels``: seat -> the board's name, so a player is the person ("Ann"), the
    board's addition the role ("Venus")."""
    seat_of = {label: seat for seat, label in labels.items()}
    scores = [(str(n), str(s)) for n, s in result["scores"]]
    players = []
    for (label, score), rank in zip(scores, _ranks(scores), strict=True):
        name = seat_of.get(label, label)
        player: dict[str, Any] = {"name": name, "sourcePlayerId": name}
        number = score_number(score)
        if number is not None:
            player["score"] = number
        player.update(
            rank=rank,
            winner=label in result["winners"],
            startPlayer=name == start_player,
            role=_role(name, label),
        )
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": session_id,
        "playDate": play_date(started_at),
        "durationMin": minutes(started_at, ended_at),
        "game": {"name": game_name, "sourceGameId": system_id, "highestWins": True, "noPoints": False},
        "players": players,
    }


def link(one_play: Mapping[str, Any]) -> str:
    """The address that opens the play in BG Stats on a phone where it is installed (the format's own way in)."""
    return CREATE_PLAY + quote(json.dumps(one_play, separators=(",", ":")), safe="")


def csv_rows(one_play: Mapping[str, Any]) -> list[list[Any]]:
    """The play as CSV rows (``CSV_COLUMNS``), one per player: a spreadsheet counts wins by filtering."""
    game = one_play["game"]
    return [
        [
            one_play["playDate"],
            one_play["durationMin"],
            game["name"],
            game["sourceGameId"],
            one_play["sourcePlayId"],
            p["name"],
            p["role"],
            p.get("score", ""),
            p["rank"],
            "yes" if p["winner"] else "no",
            "yes" if p["startPlayer"] else "no",
        ]
        for p in one_play["players"]
    ]
