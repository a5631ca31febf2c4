"""Inn's setup: the starting state, and the check across options."""

from __future__ import annotations

from tableside.core.errors import RuleError


def check_options(options):
    if options["tables"] > 8 and options["purse"] < 9:
        raise RuleError(f"{options['tables']} tables need a purse of at least 9 coins")


def initial_state(options):
    return {
        "phase": "Open",
        "orders": [],
        "tips": [],
        "cellar": {"racks": [4, 1]},
        "pips": 0,
        "coins": {"Ann": 3, "Bob": 2},
        "purse": options["purse"],
        "tables": options["tables"],
        "turn": 1,
        "waiting": "open",
    }
