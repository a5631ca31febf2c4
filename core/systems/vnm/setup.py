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
from tableside.core.system import Choice, Field, State, check_fields
from tableside.core.systems.vnm import rules
from tableside.core.text import N_

DEFAULT_PLAYERS = ["Venus", "Mars", "Pluto"]

# The colours as said on a phone (rules.COLOURS are the pieces' own, which screen.py inks by).
_COLOUR_WORDS = dict(
    zip(rules.COLOURS, (N_("Purple"), N_("Red"), N_("Blue"), N_("Yellow"), N_("Black"), N_("Green")), strict=True)
)
_PLANET_CHOICES = tuple(
    Choice(p, N_("{planet} ({colour})", planet=p, colour=_COLOUR_WORDS[c]))
    for p, c in zip(rules.PLANETS, rules.COLOURS, strict=True)
)

TECH_FIELDS: tuple[Field, ...] = (
    Field(
        "weapon_dice",
        "count",
        label=N_("Weapon dice"),
        required=False,
        minimum=1,
        maximum=10,
        help=N_("dice per attack, from the Weapon Technology card"),
    ),
    Field(
        "defense_space",
        "count",
        label=N_("Defense in space"),
        required=False,
        minimum=1,
        maximum=10,
        help=N_("Defense in a space area or Orbit, from the Defense Technology card"),
    ),
    Field(
        "defense_land",
        "count",
        label=N_("Defense on land"),
        required=False,
        minimum=1,
        maximum=10,
        help=N_("Defense in a land area"),
    ),
    Field(
        "defense_ocean",
        "count",
        label=N_("Defense at sea"),
        required=False,
        minimum=1,
        maximum=10,
        help=N_("Defense in an ocean area"),
    ),
    Field(
        "builds_per_action",
        "count",
        label=N_("Builds per action"),
        required=False,
        minimum=1,
        maximum=6,
        help=N_("spaceships per build action, if a card changes it"),
    ),
    Field(
        "cards",
        "texts",
        label=N_("Technology cards"),
        required=False,
        maximum=12,
        max_length=40,
        help=N_(
            "names of the Technology cards this planet holds (for duplicate/obsolete checks); "
            "default: the cards the rulebook names for this planet, which the players confirm"
        ),
    ),
)


# The planet-tagged cards each planet starts with are the table's reading (rules.PLANET_CARDS).
TECH_CARDS_WARNING = N_("Technology cards the rulebook names for each planet: players confirm under Technology values")


def tech_field(name: str) -> Field:
    """The Technology field ``name``, for another form that asks the same value (the attack's Weapon dice)."""
    return next(f for f in TECH_FIELDS if f.name == name)


PLAYER_FIELDS: tuple[Field, ...] = (
    Field(
        "name",
        "text",
        label=N_("Name"),
        required=False,
        default="",
        max_length=30,
        help=N_("the player's name; empty: the home world's name"),
    ),
    Field(
        "home_worlds",
        "picks",
        label=N_("Home world"),
        choices=_PLANET_CHOICES,
        minimum=1,
        maximum=2,
        help=N_(
            "one planet, Earth included; in a two-player game two planets each, played as a team, and then not Earth"
        ),
    ),
)

AREA_FIELDS: tuple[Field, ...] = (
    Field("name", "text", label=N_("Land area"), max_length=30),
    Field("population", "count", label=N_("Population"), minimum=0, maximum=999),
)

# The game lengths whose total the rulebook does not give: only they need a total or land areas
# typed in (a Normal game has 101, the five listed areas and "Australia & 2 more, together"), so the
# phone shows those fields only for them. The API still takes land areas in a Normal game.
CHOSEN_TOTALS = tuple(length for length in rules.GAME_LENGTHS if length not in rules.KNOWN_TOTALS)

OPTIONS: tuple[Field, ...] = (
    Field(
        "players",
        "rows",
        label=N_("Players"),
        required=False,
        fields=PLAYER_FIELDS,
        minimum=rules.MIN_PLAYERS,
        maximum=rules.MAX_PLAYERS,
        default=[{"name": w, "home_worlds": [w]} for w in DEFAULT_PLAYERS],
        help=N_("clockwise seating, 2-6 players; two players take two planets each"),
    ),
    Field(
        "version",
        "pick",
        label=N_("Game"),
        required=False,
        default="Basic",
        choices=(Choice("Basic", N_("Basic Game")), Choice("Enhanced", N_("Enhanced Game (Technology cards)"))),
    ),
    Field(
        "game_length",
        "pick",
        label=N_("Game length"),
        required=False,
        default="Normal",
        choices=rules.GAME_LENGTHS,
        help=N_("less population for a shorter game, more for a longer one"),
    ),
    Field(
        "total_population",
        "count",
        label=N_("Earth's total population"),
        required=False,
        minimum=1,
        maximum=999,
        help=N_("the rulebook gives only Normal (101); needed for Short, Long and Epic"),
        shown_when={"game_length": CHOSEN_TOTALS},
    ),
    Field(
        "land_areas",
        "rows",
        label=N_("Land areas"),
        required=False,
        fields=AREA_FIELDS,
        minimum=1,
        maximum=rules.LAND_AREA_COUNT,
        help=N_(
            "the population chips per land area as printed on the board; the players confirm or edit "
            "them, and they must add up to the total"
        ),
        shown_when={"game_length": CHOSEN_TOTALS},
    ),
    Field(
        "first_player",
        "pick",
        label=N_("First player"),
        required=False,
        choices=_PLANET_CHOICES,
        help=N_("Pluto; if no one plays Pluto, the first player clockwise from Pluto"),
    ),
    Field(
        "tech",
        "rows",
        label=N_("Technology values"),
        required=False,
        fields=(Field("world", "pick", label=N_("Planet"), choices=_PLANET_CHOICES), *TECH_FIELDS),
        maximum=len(rules.PLANETS),
        help=N_("Enhanced: per planet, the values printed on its Technology cards"),
        shown_when={"version": ("Enhanced",)},
    ),
)


def validate_options(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Field checks, then the rules that tie options together; returns normalised options.

    The older request shapes stay valid: ``players`` as a list of home worlds
    (``["Venus", "Mars"]``) and ``tech`` as an object by planet
    (``{"Mars": {"weapon_dice": 1}}``) are turned into rows before the field checks,
    and planet names are read in any case.
    """
    if raw is not None and not isinstance(raw, Mapping):
        raise BadRequest(N_("options must be an object"))
    raw = _older_shapes(dict(raw or {}))
    opts = check_fields(OPTIONS, raw, "options")
    players = resolve_players(opts["players"])
    worlds = [w for p in players for w in p["home_worlds"]]
    first = resolve_first_player(worlds, opts["first_player"])
    areas, total = resolve_land_areas(opts["game_length"], opts["total_population"], opts["land_areas"])
    tech = resolve_tech(opts["version"], worlds, opts["tech"])
    return {
        **opts,
        "players": players,
        "first_player": first,
        "land_areas": areas,
        "total_population": total,
        "tech": tech,
    }


def _older_shapes(raw: dict[str, Any]) -> dict[str, Any]:
    players = raw.get("players")
    if isinstance(players, list):
        if len(players) > rules.MAX_PLAYERS:
            raise RuleError(
                N_(
                    "options: {count} players given; Venus Needs Men takes 2 to 6 players (one per home "
                    "world), so there is no {number}th player",
                    count=len(players),
                    number=rules.MAX_PLAYERS + 1,
                )
            )
        if len(players) < rules.MIN_PLAYERS:
            raise RuleError(
                N_("options: {count} player given; Venus Needs Men takes 2 to 6 players", count=len(players))
            )
        rows = []
        for item in players:
            if isinstance(item, str):
                item = {"home_worlds": [item]}
            if isinstance(item, Mapping) and isinstance(item.get("home_worlds"), list):
                item = {**item, "home_worlds": [_planet_name(w) for w in item["home_worlds"]]}
            rows.append(item)
        raw["players"] = rows
    tech = raw.get("tech")
    if isinstance(tech, Mapping):
        if len(tech) > len(rules.PLANETS):
            raise RuleError(
                N_(
                    "options: tech for {n_tech} planets; there are {n_planets}",
                    n_tech=len(tech),
                    n_planets=len(rules.PLANETS),
                ),
                rule="tech_cards",
            )
        raw["tech"] = [
            {**entry, "world": _planet_name(str(key))} if isinstance(entry, Mapping) else entry
            for key, entry in tech.items()
        ]
    if isinstance(raw.get("first_player"), str):
        raw["first_player"] = _planet_name(raw["first_player"])
    return raw


def _planet_name(name: Any) -> Any:
    return (rules.canonical(name, rules.PLANETS) or name) if isinstance(name, str) else name


def resolve_players(raw: list[Any]) -> list[dict[str, Any]]:
    """2-6 players, each with a home world; with two players, two planets each (not Earth)."""
    count = len(raw)
    if count > rules.MAX_PLAYERS:
        raise RuleError(
            N_(
                "options: {count} players given; Venus Needs Men takes 2 to 6 players (one per home "
                "world), so there is no 7th player",
                count=count,
            )
        )
    if count < rules.MIN_PLAYERS:
        raise RuleError(N_("options: {count} player given; Venus Needs Men takes 2 to 6 players", count=count))
    players = [_player(item, i) for i, item in enumerate(raw)]
    worlds = [w for p in players for w in p["home_worlds"]]
    for world in worlds:
        if worlds.count(world) > 1:
            raise RuleError(N_("options: {world} is chosen twice; each home world has one player", world=world))
    names = [p["name"].casefold() for p in players]
    if len(set(names)) != len(names):
        raise RuleError(N_("options: two players have the same name"), rule="names")
    for p in players:
        want = 2 if count == 2 else 1
        if len(p["home_worlds"]) != want:
            rule = (
                N_("with two players each plays two planets (not Earth) as a team")
                if count == 2
                else N_("each player has one home world")
            )
            raise RuleError(
                N_(
                    "options: {player} has {n_home_worlds} home worlds; {rule}",
                    player=p["name"],
                    n_home_worlds=len(p["home_worlds"]),
                    rule=rule,
                ),
                rule="team",
            )
        if count == 2 and "Earth" in p["home_worlds"]:
            raise RuleError(
                N_("options: in the two-player game each player chooses two planets other than Earth"), rule="team"
            )
    return players


def _player(item: Mapping[str, Any], index: int) -> dict[str, Any]:
    worlds = list(item["home_worlds"])
    name = item["name"] or " & ".join(worlds)
    return {"name": name, "home_worlds": worlds}


def resolve_first_player(worlds: list[str], given: str | None) -> str:
    """ "Pluto takes the first turn, or else the first player clockwise from Pluto"."""
    if "Pluto" in worlds:
        if given not in (None, "Pluto"):
            raise RuleError(N_("options: first_player {given} is wrong: Pluto takes the first turn", given=given))
        return "Pluto"
    if given is None:
        raise RuleError(
            N_("options: First player: no one plays Pluto, so choose the first player clockwise from Pluto")
        )
    if given not in worlds:
        raise RuleError(N_("options: first_player {given} is not in this game", given=given))
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
        raise RuleError(
            N_(
                "options: a {length} game has {known_totals} population (rulebook), not {total}; choose "
                "Short, Long or Epic for another total",
                length=length,
                known_totals=rules.KNOWN_TOTALS[length],
                total=total,
            ),
            rule="game_length",
        )
    if raw is None:
        total = total if total is not None else rules.KNOWN_TOTALS.get(length)
        if total is None:
            raise RuleError(
                N_(
                    "options: the rulebook's {length} column stops after North America ({known_sum} in the "
                    "five listed areas); enter Earth's total population or the Land areas",
                    length=length,
                    known_sum=known_sum,
                )
            )
        rest = total - known_sum
        if rest < 1:
            raise RuleError(
                N_(
                    "options: total_population {total} must be more than {known_sum}, the {length} population "
                    "of China, India, Europe, Africa and North America",
                    total=total,
                    known_sum=known_sum,
                    length=length,
                )
            )
        areas = [{"name": name, "population": by_length[length]} for name, by_length in rules.KNOWN_LAND_AREAS.items()]
        areas.append({"name": rules.MISSING_AREA_NAME, "population": rest})
        return areas, total
    areas = [_given_area(item, i) for i, item in enumerate(raw)]
    if not 1 <= len(areas) <= rules.LAND_AREA_COUNT:
        raise RuleError(
            N_(
                "options: {n_areas} land areas given; the board has 1 to {land_area_count}",
                n_areas=len(areas),
                land_area_count=rules.LAND_AREA_COUNT,
            ),
            rule="earth_areas",
        )
    names = [a["name"].casefold() for a in areas]
    if len(set(names)) != len(names):
        raise RuleError(N_("options: two land areas have the same name"))
    added = sum(a["population"] for a in areas)
    chosen = total if total is not None else rules.KNOWN_TOTALS.get(length, added)
    if added != chosen:
        raise RuleError(
            N_("options: the land areas add up to {added}, not the chosen total {chosen}", added=added, chosen=chosen)
        )
    if added < 1:
        raise RuleError(N_("options: Earth needs some population"), rule="population")
    return areas, added


def area_source(name: str, population: int, length: str) -> str:
    """ "rulebook" where the table gives this value, "players confirm" for the derived area, else "players"."""
    if name in (rules.MISSING_AREA_NAME, *rules.OLD_MISSING_AREA_NAMES):
        return "players confirm"
    known = rules.KNOWN_LAND_AREAS.get(name)
    return "rulebook" if known and known[length] == population else "players"


def _given_area(item: Mapping[str, Any], index: int) -> dict[str, Any]:
    where = f"options: land area {index + 1}"
    name, population = item["name"].strip(), item["population"]
    if not name:
        raise BadRequest(N_("{where}: 'name' must be text", where=where))
    if rules.canonical(name, [rules.REFUGE]):
        raise RuleError(
            N_("{where}: the {refuge} starts empty and is not a land area", where=where, refuge=rules.REFUGE)
        )
    if rules.canonical(name, list(rules.OLD_MISSING_AREA_NAMES)):
        name = rules.MISSING_AREA_NAME
    name = rules.canonical(name, [*rules.KNOWN_LAND_AREAS, rules.MISSING_AREA_NAME]) or name
    return {"name": name, "population": population}


def resolve_tech(version: str, worlds: list[str], rows: list[dict] | None) -> dict[str, dict]:
    """Enhanced only: per planet values from Technology cards the seed does not print."""
    if not rows:
        return {}
    if version != "Enhanced":
        raise RuleError(N_("options: tech applies to the Enhanced game only (Technology cards)"), rule="enhanced_only")
    out: dict[str, dict] = {}
    for row in rows:
        world = row["world"]
        if world not in worlds:
            raise RuleError(N_("options: tech for {world}, which is not a home world in this game", world=world))
        if world in out:
            raise RuleError(N_("options: tech for {world} is given twice", world=world))
        out[world] = {k: v for k, v in row.items() if k != "world" and v is not None}
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
        warnings.append(
            f"{total} divides evenly by {len(players)} players: a tie is possible "
            "(the rulebook advises a total that does not)"
        )
    length = options["game_length"]
    areas = [
        {**a, "infected": 0, "source": area_source(a["name"], a["population"], length)} for a in options["land_areas"]
    ]
    if any(a["source"] == "players confirm" for a in areas):
        warnings.append(N_("Land areas marked *: players confirm"))
    if any(w["tech"] and w["tech"]["cards_source"] == "players confirm" for w in worlds.values()):
        warnings.append(TECH_CARDS_WARNING)
    return {
        "version": version,
        "game_length": length,
        "total_population": total,
        "threshold": rules.threshold(total, len(players)),
        "players": [
            {
                "name": p["name"],
                "home_worlds": list(p["home_worlds"]),
                "zap": {"deck": per_player - hand, "hand": hand, "discard": 0},
            }
            for p in players
        ],
        "zap_dealt": per_player,
        "zap_set_aside": set_aside,
        "worlds": worlds,
        "turn_order": turn_order(players, options["first_player"]),
        "turn": 0,
        "turn_no": 1,
        "drawn": 0,
        "round": 1,
        "turn_action": None,
        "land_areas": areas,
        "destroyed": 0,
        "earth_may_collect": False,
        "aim": None,
        "upgrade_choice": None,
        "pending_upgrades": [],
        "pending_roll": None,
        "controlled": [],
        "zap_played": [],
        "winners": [],
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
        given = "cards" in tech
        cards = list(tech["cards"] if given else rules.PLANET_CARDS[world])
        if world == "Venus" and rules.QRAY not in cards:
            cards.insert(0, rules.QRAY)  # Q-Ray is Venus's Weapon Technology (revised card)
        out["tech"] = {
            "weapon_dice": tech.get("weapon_dice"),
            "defense": {t: tech.get(f"defense_{t}") for t in rules.AREA_TYPES},
            "cards": cards,
            "cards_source": cards_source(world, given),
            "upgrades": [],
        }
    return out


def cards_source(world: str, given: bool) -> str | None:
    """ "players" for cards the table entered; "players confirm" for the cards the seed tags with this
    planet, taken as its Technology cards (the seed never says so in words); None where it tags none."""
    if given:
        return "players"
    return "players confirm" if rules.PLANET_CARDS[world] else None
