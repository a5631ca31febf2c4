"""The vnm golden scenario: four players, a turn each, then Cy (Pluto) attacked on its land area."""

OPTIONS = {
    "players": [
        {"name": "Ann", "home_worlds": ["Venus"]},
        {"name": "Bob", "home_worlds": ["Mars"]},
        {"name": "Cy", "home_worlds": ["Pluto"]},
        {"name": "Dee", "home_worlds": ["Titan"]},
    ]
}
ACTIONS = [
    {"type": "collect", "area": "China", "count": 2},
    {"type": "end_turn"},
    {"type": "build", "count": 1},
    {"type": "end_turn"},
    {"type": "declare_target", "target": "Pluto", "area_type": "land"},
    {"type": "attack", "target": "Pluto", "area_type": "land", "faces": [9, 3]},
]
