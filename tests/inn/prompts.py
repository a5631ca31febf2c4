"""What Inn waits for: the action named in the state's ``waiting``."""

from tableside.core.system import Prompt


def pending(state):
    wanted = state.get("waiting")
    return [Prompt(None, f"waiting for {wanted}", wanted)] if wanted else []
