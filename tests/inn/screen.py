"""Inn's screen: the coins as bars (the seats' in their colours, the purse in none) and the sign, if any,
as its prompt line."""

from tableside.core.screen import Bar, Bars, Screen


def screen(state, roll=None):
    coins = state["coins"]
    bars = (
        *(Bar(name, n, 10, colour=i) for i, (name, n) in enumerate(coins.items())),
        Bar("Purse", state["purse"], 10),
    )
    return Screen("Inn", status=state["phase"], elements=(Bars("Coins", bars),), prompt=state.get("sign"))
