"""Inn's screen: the tables, the coins as bars (the seats' in their colours, the purse in none), the sign,
if any, as its prompt line, and the roll on the table in its title."""

from tableside.core.screen import Bar, Bars, KeyFigure, Screen


def screen(state, roll=None):
    coins = state["coins"]
    bars = (
        *(Bar(name, n, 10, colour=i) for i, (name, n) in enumerate(coins.items())),
        Bar("Purse", state["purse"], 10),
    )
    title = f"Inn, roll {roll.seq}" if roll is not None else "Inn"
    elements = (KeyFigure("Tables", str(state["tables"])), Bars("Coins", bars))
    return Screen(title, status=state["phase"], elements=elements, prompt=state.get("sign"))
