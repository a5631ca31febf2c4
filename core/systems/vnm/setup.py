"""Setup: the options, their cross-checks, and the starting state.

The rulebook's population table stops after "Australia", so the land areas are
setup data: the five known areas come prefilled from the table, the rest are
either entered by the players or, for a Normal game, derived from the total
(101) as one area flagged "players confirm".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import BadRequest, RuleError
from tableside.core.system import Field, State, check_fields
from tableside.core.systems.vnm import rules

DEFAULT_PLAYERS = ["Venus", "Mars", "Pluto"]

TECH_FIELDS: tuple[Field, ...] = (
    Field("weapon_dice", "count", required=False, minimum=1, maximum=10,
          help="dice per attack, from the Weapon Technology card"),
    Field("defense_space", "count", required=False, minimum=1, maximum=10,
          help="Defense in a space area or Orbit, from the Defense Technology card"),
    Field("defense_land", "count", required=False, minimum=1, maximum=10, help="Defense in a land area"),
    Field("defense_ocean", "count", required=False, minimum=1, maximum=10, help="Defense in an ocean area"),
    Field("builds_per_action", "count", required=False, minimum=1, maximum=6,
          help="spaceships per build action, if a card changes it"),
    Field("cards", "texts", required=False,
          help="names of the Technology cards this planet holds (for duplicate/obsolete checks)"),
)

OPTIONS: tuple[Field, ...] = (
    Field("players", "json", required=False, default=DEFAULT_PLAYERS,
          help="clockwise seating: a home world per player (\"Venus\"), or "
               "{\"name\": \"Wally\", \"home_worlds\": [\"Mars\", \"Venus\"]}; two players take two planets each"),
    Field("version", "pick", required=False, default="Basic", choices=rules.VERSIONS,
          help="Basic Game or Enhanced Game"),
    Field("game_length", "pick", required=False, default="Normal", choices=rules.GAME_LENGTHS),
    Field("total_population", "count", required=False, minimum=1,
          help="Earth's total population; the rulebook gives only Normal (101)"),
    Field("land_areas", "json", required=False,
          help="[{\"name\": \"China\", \"population\": 27}, ...]: the players confirm or edit; "
               "they must add up to the total"),
    Field("first_player", "pick", required=False, choices=rules.PLANETS,
          help="Pluto; if no one plays Pluto, the first player clockwise from Pluto"),
    Field("tech", "json", required=False,
          help="Enhanced: per planet {weapon_dice, defense_space, defense_land, defense_ocean, "
               "builds_per_action, cards} from its Technology cards"),
)


def validate_options(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Field checks, then the rules that tie options together; returns normalised options."""
    if raw is not None and not isinstance(raw, Mapping):
        raise BadRequest("options must be an object")
    opts = check_fields(OPTIONS, raw or {}, "options")
    players = resolve_players(opts["players"])
    worlds = [w for p in players for w in p["home_worlds"]]
    first = resolve_first_player(worlds, opts["first_player"])
    areas, total = resolve_land_areas(opts["game_length"], opts["total_population"], opts["land_areas"])
    tech = resolve_tech(opts["version"], worlds, opts["tech"])
    return {**opts, "players": players, "first_player": first, "land_areas": areas,
            "total_population": total, "tech": tech}


def resolve_players(raw: list[Any]) -> list[dict[str, Any]]:
    """2-6 players, each with a home world; with two players, two planets each (not Earth)."""
    count = len(raw)
    if count > rules.MAX_PLAYERS:
        raise RuleError(f"options: {count} players given; Venus Needs Men takes 2 to 6 players "
                        "(one per home world), so there is no 7th player")
    if count < rules.MIN_PLAYERS:
        raise RuleError(f"options: {count} player given; Venus Needs Men takes 2 to 6 players")
    players = [_player(item, i) for i, item in enumerate(raw)]
    worlds = [w for p in players for w in p["home_worlds"]]
    for world in worlds:
        if worlds.count(world) > 1:
            raise RuleError(f"options: {world} is chosen twice; each home world has one player")
    names = [p["name"].casefold() for p in players]
    if len(set(names)) != len(names):
        raise RuleError("options: two players have the same name")
    for p in players:
        want = 2 if count == 2 else 1
        if len(p["home_worlds"]) != want:
            rule = ("with two players each plays two planets (not Earth) as a team"
                    if count == 2 else "each player has one home world")
            raise RuleError(f"options: {p['name']} has {len(p['home_worlds'])} home worlds; {rule}")
        if count == 2 and "Earth" in p["home_worlds"]:
            raise RuleError("options: in the two-player game each player chooses two planets other than Earth")
    return players


def _player(item: Any, index: int) -> dict[str, Any]:
    where = f"options: player {index + 1}"
    if isinstance(item, str):
        world = _planet(item, where)
        return {"name": world, "home_worlds": [world]}
    if not isinstance(item, Mapping):
        raise BadRequest(f"{where} must be a home world or an object with name and home_worlds")
    extra = sorted(set(item) - {"name", "home_worlds"})
    if extra:
        raise BadRequest(f"{where}: unknown field(s) {', '.join(extra)}")
    worlds_raw = item.get("home_worlds")
    if not isinstance(worlds_raw, list) or not all(isinstance(w, str) for w in worlds_raw):
        raise BadRequest(f"{where}: 'home_worlds' must be a list of planet names")
    worlds = [_planet(w, where) for w in worlds_raw]
    name = item.get("name") or " & ".join(worlds)
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(f"{where}: 'name' must be text")
    return {"name": name.strip(), "home_worlds": worlds}


def _planet(name: str, where: str) -> str:
    world = rules.canonical(name, rules.PLANETS)
    if world is None:
        raise RuleError(f"{where}: unknown home world {name!r}; choose from {', '.join(rules.PLANETS)}")
    return world


def resolve_first_player(worlds: list[str], given: str | None) -> str:
    """"Pluto takes the first turn, or else the first player clockwise from Pluto"."""
    if "Pluto" in worlds:
        if given not in (None, "Pluto"):
            raise RuleError(f"options: first_player {given} is wrong: Pluto takes the first turn")
        return "Pluto"
    if given is None:
        raise RuleError("options: no one plays Pluto, so set first_player to the first player "
                        "clockwise from Pluto")
    if given not in worlds:
        raise RuleError(f"options: first_player {given} is not in this game")
    return given


def turn_order(players: list[dict[str, Any]], first: str) -> list[str]:
    """Clockwise from the first player; two players alternate so nobody plays twice in a row."""
    if len(players) == 2:
        lead = next(p for p in players if first in p["home_worlds"])
        other = next(p for p in players if p is not lead)
        mine = lead["home_worlds"]
        start = mine.index(first)
        mine = mine[start:] + mine[:start]
        return [mine[0], other["home_worlds"][0], mine[1], other["home_worlds"][1]]
    seats = [p["home_worlds"][0] for p in players]
    start = seats.index(first)
    return seats[start:] + seats[:start]


def resolve_land_areas(length: str, total: int | None, raw: list[Any] | None) -> tuple[list[dict], int]:
    """The land areas and the chosen total; they must add up (checked)."""
    known_sum = sum(v[length] for v in rules.KNOWN_LAND_AREAS.values())
    if total is not None and length in rules.KNOWN_TOTALS and total != rules.KNOWN_TOTALS[length]:
        raise RuleError(f"options: a {length} game has {rules.KNOWN_TOTALS[length]} population (rulebook), "
                        f"not {total}; choose Short, Long or Epic for another total")
    if raw is None:
        total = total if total is not None else rules.KNOWN_TOTALS.get(length)
        if total is None:
            raise RuleError(f"options: the rulebook's {length} column stops after North America "
                            f"({known_sum} in the five listed areas); enter total_population or land_areas")
        rest = total - known_sum
        if rest < 1:
            raise RuleError(f"options: total_population {total} must be more than {known_sum}, the {length} "
                            "population of China, India, Europe, Africa and North America")
        areas = [{"name": name, "population": by_length[length]}
                 for name, by_length in rules.KNOWN_LAND_AREAS.items()]
        areas.append({"name": rules.MISSING_AREA_NAME, "population": rest})
        return areas, total
    areas = [_given_area(item, i) for i, item in enumerate(raw)]
    if not 1 <= len(areas) <= rules.LAND_AREA_COUNT:
        raise RuleError(f"options: {len(areas)} land areas given; the board has 1 to {rules.LAND_AREA_COUNT}")
    names = [a["name"].casefold() for a in areas]
    if len(set(names)) != len(names):
        raise RuleError("options: two land areas have the same name")
    added = sum(a["population"] for a in areas)
    chosen = total if total is not None else rules.KNOWN_TOTALS.get(length, added)
    if added != chosen:
        raise RuleError(f"options: the land areas add up to {added}, not the chosen total {chosen}")
    if added < 1:
        raise RuleError("options: Earth needs some population")
    return areas, added


def area_source(name: str, population: int, length: str) -> str:
    """"rulebook" where the table gives this value, "players confirm" for the derived area, else "players"."""
    if name == rules.MISSING_AREA_NAME:
        return "players confirm"
    known = rules.KNOWN_LAND_AREAS.get(name)
    return "rulebook" if known and known[length] == population else "players"


def _given_area(item: Any, index: int) -> dict[str, Any]:
    where = f"options: land area {index + 1}"
    if not isinstance(item, Mapping) or set(item) != {"name", "population"}:
        raise BadRequest(f"{where} must be {{\"name\": ..., \"population\": ...}}")
    name, population = item["name"], item["population"]
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(f"{where}: 'name' must be text")
    if isinstance(population, bool) or not isinstance(population, int):
        raise BadRequest(f"{where}: 'population' must be a whole number")
    name = name.strip()
    if population < 0:
        raise RuleError(f"{where}: {name} cannot have negative population")
    if rules.canonical(name, [rules.REFUGE]):
        raise RuleError(f"{where}: the {rules.REFUGE} starts empty and is not a land area")
    name = rules.canonical(name, [*rules.KNOWN_LAND_AREAS, rules.MISSING_AREA_NAME]) or name
    return {"name": name, "population": population}


def resolve_tech(version: str, worlds: list[str], raw: Mapping[str, Any] | None) -> dict[str, dict]:
    """Enhanced only: per planet values from Technology cards the seed does not print."""
    if raw is None:
        return {}
    if raw and version != "Enhanced":
        raise RuleError("options: tech applies to the Enhanced game only (Technology cards)")
    out: dict[str, dict] = {}
    for key, entry in raw.items():
        world = rules.canonical(str(key), worlds)
        if world is None:
            raise RuleError(f"options: tech for {key!r}, which is not a home world in this game")
        if not isinstance(entry, Mapping):
            raise BadRequest(f"options: tech for {world} must be an object")
        values = check_fields(TECH_FIELDS, entry, f"options: tech for {world}")
        out[world] = {k: v for k, v in values.items() if v is not None}
    return out


def initial_state(options: Mapping[str, Any]) -> State:
    """The table after Setup: ships on home worlds, chips on Earth, Zap decks dealt, hands drawn."""
    version = options["version"]
    players = options["players"]
    per_player, set_aside = rules.zap_deal(len(players))
    hand = min(rules.ZAP_HAND, per_player)
    worlds: dict[str, Any] = {}
    for index, player in enumerate(players):
        for world in player["home_worlds"]:
            worlds[world] = _world(world, index, version, options["tech"].get(world, {}))
    total = options["total_population"]
    warnings = []
    if total % len(players) == 0:
        warnings.append(f"{total} divides evenly by {len(players)} players: a tie is possible "
                        "(the rulebook advises a total that does not)")
    length = options["game_length"]
    areas = [{**a, "infected": 0, "source": area_source(a["name"], a["population"], length)}
             for a in options["land_areas"]]
    if any(a["source"] == "players confirm" for a in areas):
        warnings.append("Land areas marked *: players confirm")
    return {
        "version": version,
        "game_length": length,
        "total_population": total,
        "threshold": rules.threshold(total, len(players)),
        "players": [
            {"name": p["name"], "home_worlds": list(p["home_worlds"]),
             "zap": {"deck": per_player - hand, "hand": hand, "discard": 0}}
            for p in players
        ],
        "zap_set_aside": set_aside,
        "worlds": worlds,
        "turn_order": turn_order(players, options["first_player"]),
        "turn": 0,
        "round": 1,
        "turn_action": None,
        "land_areas": areas,
        "earth_may_collect": False,
        "aim": None,
        "upgrade_choice": None,
        "pending_upgrades": [],
        "pending_roll": None,
        "zap_played": [],
        "winners": [],
        "last_roll": None,
        "prompt": None,
        "warnings": warnings,
    }


def _world(world: str, player: int, version: str, tech: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": player,
        "fleet": rules.FLEET_SIZE[world],
        "on_board": rules.STARTING_SHIPS[version][world],
        "population": 0,
        "builds_per_action": tech.get("builds_per_action", rules.BUILDS_PER_ACTION[version][world]),
        "tech": None,
    }
    if version == "Enhanced":
        cards = list(tech.get("cards", []))
        if world == "Venus" and rules.QRAY not in cards:
            cards.insert(0, rules.QRAY)  # Q-Ray is Venus's Weapon Technology (revised card)
        out["tech"] = {
            "weapon_dice": tech.get("weapon_dice"),
            "defense": {t: tech.get(f"defense_{t}") for t in rules.AREA_TYPES},
            "cards": cards,
            "upgrades": [],
        }
    return out
