"""Inn's derived values: refreshed after every action and on the starting state."""


def derive(state):
    state["derived_orders"] = len(state["orders"])
    return state
