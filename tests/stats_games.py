"""Games for the Stats page's tests (#34), built over HTTP as a table would play them quickly, and this test's own
record of each (never read back from the server).

The appliance server (``webui.server``) runs in the test's process over a real table, whose clock is the test's:
each game starts on a game night the test chooses and each request moves the clock on by a known step, so every
duration and night is known. How each system's game ends:
- VENOM Assault: the players declare the end (Freedom Squadron or VENOM wins: a team game, won or lost together;
  with no Leader captured every player shares the Medal of Honor);
- Venus Needs Men: the winner's population fixed up to the threshold from Earth's land areas (a competitive win);
- Venusian Vegas: VP fixed (the winner 9, the others fewer, all different), then every round's hands played out;
- Venus 2140 has no end of game in its rules: a game counts as played (games, time, luck, calendar) from its first
  action and is never won or lost.
Every game starts with a free roll of 3d6 by its first player's phone, faces typed in: its luck.
"""

from __future__ import annotations

import http.client
import json
import math
import random
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app
from tableside.webui.server import make_server
from tableside.webui.stream import Broker

from tableside.config import ServerLimits
from tests.live import CODE

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
WORLDS = ["Venus", "Mars", "Ganymede", "Titan", "Pluto"]
SYSTEMS = ["vnm", "venom", "vegas", "v2140"]
PLAYERS = {"vnm": (3, 4), "venom": (2, 5), "vegas": (2, 3), "v2140": (3, 4)}  # how many, the GM among them
SD6 = math.sqrt((36 - 1) / 12)


class Client:
    """One phone's keep-alive connection to the in-process server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(self, method: str, path: str, body=None, seat: str | None = None, gzip: bool = False):
        headers = {"Authorization": f"Bearer {CODE}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if seat:
            headers["X-Tableside-Seat"] = seat
        if gzip:
            headers["Accept-Encoding"] = "gzip"
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        assert response.status < 300, (method, path, body, response.status, raw[:300])
        return raw, response

    def json(self, method: str, path: str, body=None, seat: str | None = None):
        return json.loads(self.send(method, path, body, seat)[0])


class Clock:
    """The table's clock: whole seconds the test moves."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def served(folder: Path) -> Iterator[tuple[Client, Clock, Table]]:
    """The appliance server in this process over a real table on a new file in ``folder``, the clock the
    test's (from a Friday at 19:00 local time): ``yield from served(...)`` in a fixture."""
    clock = Clock(time.mktime((2025, 1, 3, 19, 0, 0, 0, 0, -1)))
    table = Table(Store(folder / "tableside.db"), rng=random.Random(1), clock=clock)
    broker = Broker()
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=table.press, broker=broker)
    services.new_games.per_minute = 10**6  # hundreds of games in a minute or two: the rate limit is not tested
    server = make_server(create_app(services), broker, ServerLimits(), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    client = Client(server.effective_port)
    yield client, clock, table
    client.conn.close()
    broker.close()
    server.stop_soon()
    thread.join(10)
    table.store.close()


def play_nights(games: Games, count: int) -> None:
    """``count`` games, the four systems in turn, 2-7 a night on game nights about a week apart."""
    rng, clock = games.rng, games.clock
    tonight = 0
    for n in range(count):
        if tonight == 0:  # the next game night: a week or so later, at 19:00 or so
            tonight = rng.randint(2, 7)
            day = datetime.fromtimestamp(clock.now) + timedelta(days=rng.randint(3, 9))
            clock.now = time.mktime(day.replace(hour=19, minute=rng.randint(0, 59)).timetuple())
        tonight -= 1
        system = SYSTEMS[n % 4]
        getattr(games, system)(rng.sample(NAMES, rng.randint(*PLAYERS[system])))


def _fix(key: str, value: int, **more) -> dict:
    return {"type": "correct", "key": key, "value": value, "reason": "counted again", **more}


def _vegas_rounds(players: list[str], vp: list[int]) -> list[dict]:
    """The moves of a quick Venusian Vegas game, asked of a table in memory (the same rules, no clock): the
    setup increases, VP fixed, then each round started and its hands played out."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(Path(folder) / "plan.db"), rng=random.Random(1))
        try:
            table.create_session("vegas", {"players": players})
            moves = []
            fixed = False
            while table.screen().result is None:
                pending = table.view()["pending"]
                kind, seat = pending[0]["type"], pending[0].get("seat")
                state = table.current_state()
                if kind == "setup_tracks":
                    step = [
                        {
                            "type": kind,
                            "player": seat,
                            "tracks": ["Team", "Game", "Bot"][: 3 if len(players) == 5 else 2],
                        }
                    ]
                elif kind == "start_round" and not fixed:
                    step = [_fix(f"vp.{i}", v) for i, v in enumerate(vp)] + [{"type": kind}]
                    fixed = True
                elif kind == "start_round":
                    step = [{"type": kind}]
                elif kind == "choose_furthest_behind":
                    step = [{"type": kind, "player": state["furthest_behind"][0]}]
                elif kind == "free_increase":
                    step = [{"type": kind, "track": "Team"}]
                else:  # a trick to play: the cards counted again, every hand is empty
                    step = [_fix(f"hand.{i}", 0) for i in range(len(players))]
                for move in step:
                    table.act(move, source="cli")
                moves += step
            return moves
        finally:
            table.store.close()


class Games:
    """The 500 games as this test plays them, and its own record of each (never read back from the server)."""

    def __init__(self, client: Client, clock: Clock, rng: random.Random) -> None:
        self.client, self.clock, self.rng = client, clock, rng
        self.played: list[dict] = []
        self.plans: dict[tuple, list[dict]] = {}

    def tick(self) -> None:
        self.clock.now += self.rng.randint(20, 400)

    def act(self, action: dict) -> None:
        self.tick()
        self.client.json("POST", "/api/sessions/active/actions", action)

    def start(self, system: str, options: dict, seats: list[str], typed: list[str]) -> dict:
        """A new game; its first player's phone rolls 3d6 (the faces typed in) as its first action."""
        made = self.client.json("POST", "/api/sessions", {"system": system, "options": options})
        started = self.clock.now
        token = self.client.json("POST", "/api/sessions/active/seats", {"seat": seats[0]})["token"]
        faces = [self.rng.randint(1, 6) for _ in range(3)]
        self.tick()
        self.client.json("POST", "/api/rolls", {"expr": "3d6", "faces": faces}, seat=token)
        game = {
            "id": made["id"],
            "system": system,
            "start": started,
            "seats": [{"name": n, "won": False, "medal": False, "faction": None} for n in typed],
            "dice": {typed[0]: (3, sum((f - 3.5) / SD6 for f in faces))},
            "team": system == "venom",
            "result": system != "v2140",
        }
        self.played.append(game)
        return game

    def venom(self, players: list[str]) -> None:
        typed = self._typed(players)
        game = self.start("venom", {"players": typed, "commander": typed[0]}, typed, typed)
        won = self.rng.random() < 0.6
        self.act({"type": "game_over", "winner": "freedom_squadron" if won else "venom"})
        for s in game["seats"]:
            s["won"] = s["medal"] = won  # no Leader captured: every player shares the Medal
        self._ended(game)

    def vnm(self, players: list[str]) -> None:
        typed = self._typed(players)
        worlds = self.rng.sample(WORLDS, len(players))
        players_ = [{"name": n, "home_worlds": [w]} for n, w in zip(typed, worlds, strict=True)]
        options = {"players": players_, **({} if "Pluto" in worlds else {"first_player": worlds[0]})}  # Pluto starts
        game = self.start("vnm", options, typed, typed)
        for s, w in zip(game["seats"], worlds, strict=True):
            s["faction"] = w
        winner = self.rng.randrange(len(players))
        state = self.client.json("GET", "/api/sessions/active")["state"]
        need, world = state["threshold"], worlds[winner]
        population = state["worlds"][world]["population"]
        for i, area in enumerate(state["land_areas"]):
            take = min(area["population"], need - population)
            if take <= 0:
                break
            population += take
            self.act(_fix(f"worlds.{world}.population", population, balance=f"land_areas.{i}.population"))
        game["seats"][winner]["won"] = True
        self._ended(game)

    def vegas(self, players: list[str]) -> None:
        typed = self._typed(players)
        game = self.start("vegas", {"players": typed}, typed, typed)
        winner = self.rng.randrange(len(players))
        vp = [9 if i == winner else 1 + i for i in range(len(players))]
        key = (len(players), winner)
        if key not in self.plans:
            self.plans[key] = _vegas_rounds([f"P{i}" for i in range(len(players))], vp)
        for move in self.plans[key]:
            self.act(_named(move, typed))
        game["seats"][winner]["won"] = True
        self._ended(game)

    def v2140(self, players: list[str]) -> None:
        *pcs, gm = self._typed(players)
        self.start("v2140", {"players": pcs, "gm": gm}, pcs, [*pcs, gm])
        self.tick()
        self.client.json("POST", "/api/rolls", {"expr": "1d6", "faces": [4]})  # the table's: nobody's luck
        self._ended(self.played[-1])

    def _typed(self, players: list[str]) -> list[str]:
        """As a phone types them: now and then in another case (the same person)."""
        return [n.lower() if self.rng.random() < 0.1 else n for n in players]

    def _ended(self, game: dict) -> None:
        """The game's length, and its people by their names here (whatever case was typed)."""
        game["seconds"] = self.clock.now - game["start"]
        for s in game["seats"]:
            s["name"] = _person(s["name"])
        game["dice"] = {_person(typed): luck for typed, luck in game["dice"].items()}


def _person(typed: str) -> str:
    return next(n for n in NAMES if n.casefold() == typed.casefold())


def _named(move: dict, names: list[str]) -> dict:
    """A planned move with the plan's stand-in names (P0, P1, ...) as the game's players."""
    text = json.dumps(move)
    for i, name in enumerate(names):
        text = text.replace(f'"P{i}"', json.dumps(name))
    return json.loads(text)
