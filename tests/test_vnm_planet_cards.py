"""The cards the seed tags with a planet ("Disintegration Ray (Pluto)") are that planet's Technology cards
by default, setup data the players confirm: they decide what the planet may research (#35)."""

from __future__ import annotations

from tableside.core.systems.vnm import SYSTEM, setup

from tests.rulebook_quotes import quoted
from tests.test_vnm_support import act, new_game, play_to, refused

GATLING_OBSOLETED = quoted(
    "vnm",
    "Obsoleted by Auto Fire Control, Energy Amplifier, Disintegration Ray (Pluto), Long-Range Missiles (Ganymede), "
    "Magneto-Blasters (Mars), Plasma Cannon (Titan).",
)
YTTRIUM_DUPLICATES = quoted(
    "vnm", "Duplicates Baryonite Armor (Venus), Biometallic Hull (Ganymede), and Ultronium Shielding (Pluto)."
)
MAY_NOT_ATTEMPT = quoted(
    "vnm", "You may not attempt to acquire an upgrade which duplicates or is obsoleted by a card you already have."
)
SIX_PLANETS = ["Pluto", "Venus", "Mars", "Ganymede", "Titan", "Earth"]


def enhanced(**options) -> dict:
    return new_game(players=SIX_PLANETS, version="Enhanced", **options)


def cards(state: dict, world: str) -> list[str]:
    return state["worlds"][world]["tech"]["cards"]


def test_pluto_holds_the_disintegration_ray_so_gatling_lasers_are_obsolete_for_it() -> None:
    """GATLING_OBSOLETED and MAY_NOT_ATTEMPT: by default Pluto may not research Gatling Lasers."""
    assert "Disintegration Ray (Pluto)" in GATLING_OBSOLETED and "obsoleted by" in MAY_NOT_ATTEMPT
    state = enhanced()  # Pluto's turn
    assert cards(state, "Pluto") == ["Disintegration Ray", "Ultronium Shielding"]
    refused(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"}, "obsoleted by Disintegration Ray")
    refused(state, {"type": "research", "upgrade": "Yttrium Alloys", "faces": [9]}, "duplicates Ultronium Shielding")


def test_each_planet_starts_with_the_cards_the_seed_names_for_it() -> None:
    """YTTRIUM_DUPLICATES names Venus's, Ganymede's and Pluto's; the weapons obsoleting Gatling Lasers the rest."""
    state = enhanced()
    assert cards(state, "Venus") == ["Q-Ray", "Baryonite Armor"]
    assert cards(state, "Mars") == ["Magneto-Blasters", "Chameleon Screen"]
    assert cards(state, "Ganymede") == ["Long-Range Missiles", "Biometallic Hull"]
    assert cards(state, "Titan") == ["Plasma Cannon", "Force Barrier"]
    assert cards(state, "Earth") == []  # the seed names no card of Earth's
    venus = play_to(state, "Venus")
    refused(venus, {"type": "choose_upgrade", "upgrade": "Yttrium Alloys"}, "duplicates Baryonite Armor")
    act(venus, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})  # the Q-Ray does not obsolete it
    earth = play_to(state, "Earth")
    act(earth, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    act(earth, {"type": "choose_upgrade", "upgrade": "Yttrium Alloys"})


def test_the_players_confirm_the_cards_and_may_change_them() -> None:
    """The seed never says the tagged cards are the planets' own: the state, the setup warning and the
    Technology cards field say the players confirm them; cards the table enters replace them."""
    state = enhanced()
    assert state["worlds"]["Pluto"]["tech"]["cards_source"] == "players confirm"
    assert state["worlds"]["Earth"]["tech"]["cards_source"] is None
    assert setup.TECH_CARDS_WARNING in state["warnings"] and "players confirm" in setup.TECH_CARDS_WARNING
    field = next(f for f in SYSTEM.options if f.name == "tech")
    assert "players confirm" in next(f for f in field.fields if f.name == "cards").help
    mine = enhanced(tech=[{"world": "Pluto", "cards": []}])
    assert cards(mine, "Pluto") == [] and mine["worlds"]["Pluto"]["tech"]["cards_source"] == "players"
    act(mine, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})
    state, _ = act(state, {"type": "set_tech", "world": "Pluto", "cards": ["Ultronium Shielding"]})
    assert state["worlds"]["Pluto"]["tech"]["cards_source"] == "players"
    act(state, {"type": "choose_upgrade", "upgrade": "Gatling Lasers"})


def test_the_basic_game_has_no_technology_cards() -> None:
    assert new_game(players=SIX_PLANETS)["worlds"]["Pluto"]["tech"] is None
    assert setup.TECH_CARDS_WARNING not in new_game(players=SIX_PLANETS)["warnings"]
