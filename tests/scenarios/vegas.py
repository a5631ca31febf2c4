"""The vegas golden scenario: docs/systems/vegas.md, up to the second trick."""

OPTIONS = {"players": ["Ann", "Bob", "Cy"], "vp_spaces": ["Game 3"]}
ACTIONS = [
    {"type": "setup_tracks", "player": "Ann", "tracks": ["Team", "Game"]},
    {"type": "setup_tracks", "player": "Bob", "tracks": ["Game", "Inspector"]},
    {"type": "setup_tracks", "player": "Cy", "tracks": ["Bot", "Mobster"]},
    {"type": "start_round"},
    {"type": "choose_furthest_behind", "player": "Bob"},
    {"type": "free_increase", "track": "Team"},
    {
        "type": "play_trick",
        "cards": [
            {"player": "Bob", "suit": "Game", "number": 9},
            {"player": "Cy", "suit": "Team", "number": 7},
            {"player": "Ann", "suit": "Bot", "number": 2, "token": "Game", "trump": "Bot"},
        ],
    },
    {"type": "claim_bonus", "player": "Ann", "suit": "Team", "number": 7},
    {"type": "trick_winner", "winner": "Bob", "tokens": [{"player": "Cy", "token": "Mobster", "take": "Team 3"}]},
]
