"""The venom golden scenario: the Event card drawn, a Leader chosen, the dice allocated and rolled."""

OPTIONS = {"players": ["Ann", "Bob", "Cy"], "commander": "Ann"}
ACTIONS = [
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
]
