"""The v2140 golden scenario: docs/systems/v2140.md: Shred against Alamo Jack, an exchange pending."""

OPTIONS = {"players": ["Shred", "Sven"], "gm": "GM"}
ACTIONS = [
    {
        "type": "prepare_pool",
        "participant": "Shred",
        "primary_skills": 3,
        "secondary_skills": 3,
        "secondary_assist_quality": 4,
    },
    {"type": "roll_pool", "participant": "Shred", "faces": {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}},
    {"type": "prepare_pool", "participant": "GM", "racks": 1},
    {"type": "roll_pool", "participant": "GM", "faces": [6, 4, 3, 2, 2, 1, 1]},
    {"type": "bid_initiative", "participant": "Shred", "dice": [4]},
    {"type": "settle_initiative"},
    {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6], "says": "I snap a shot on top of him"},
    {"type": "answer", "dice": [4], "says": "Jack lurches to the side"},
    {"type": "resolve"},
    {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]},
]
