"""Which gpiozero pin factory drives the buttons and the LED, and why.

gpiozero on its own tries lgpio, then RPi.GPIO, pigpio and its pure-Python
"native" factory, and only *warns* on each fall-back. On a Pi 5 (and on any
Bookworm kernel without the old sysfs interface) the fall-backs load but their
edge callbacks never fire, so the buttons look fine and do nothing. Tableside
therefore never falls back silently: on a Pi it uses lgpio (or the factory the
config or ``GPIOZERO_PIN_FACTORY`` names) and a factory that cannot work is an
*error* that is logged, kept for ``tableside doctor`` and shown by
``GET /api/hardware``. The phone's virtual buttons keep working meanwhile.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
_ENTRY = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
LGPIO_FIX = (
    "install lgpio in Tableside's venv: re-run 'sudo systemd/install.sh' or '.venv/bin/pip install lgpio' "
    "(where pip must build it: 'sudo apt install swig liblgpio-dev python3-dev' first)"
)


def pi_model(root: Path = Path("/")) -> str | None:
    """The board's model string ("Raspberry Pi 4 Model B Rev 1.5"), or None off a Pi."""
    try:
        model = (root / "proc/device-tree/model").read_bytes().rstrip(b"\0").decode(errors="replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


@dataclass
class PinChoice:
    """The factory in use, its name, why it was chosen, and the error when real buttons cannot work."""

    factory: Any
    name: str
    why: str
    error: str | None = None
    fix: str = ""
    model: str | None = None
    simulated: bool = field(init=False)

    def __post_init__(self) -> None:
        self.simulated = self.name == "mock"

    def to_dict(self) -> dict[str, Any]:
        out = {"pin_factory": self.name, "why": self.why, "model": self.model, "simulated": self.simulated}
        if self.error:
            out.update(error=self.error, fix=self.fix)
        return out


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory  # lazy: gpiozero only where buttons are built

    return MockFactory()


def _load(name: str) -> Any:
    import importlib

    module_name, class_name = _ENTRY[name]
    module = importlib.import_module(module_name)  # the C library (lgpio, RPi.GPIO) is imported here
    return getattr(module, class_name)()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def choose_pin_factory(
    simulate: bool = False,
    requested: str | None = None,
    model: str | None = None,
    env: dict[str, str] | None = None,
) -> PinChoice:
    """Pick the pin factory; never raises (a failure is a PinChoice with ``error`` and the mock factory).

    ``requested`` comes from the config (``[buttons] pin_factory``); else
    ``$GPIOZERO_PIN_FACTORY``; else lgpio on a Pi and the mock factory elsewhere.
    """
    env = os.environ if env is None else env
    if simulate:
        return PinChoice(mock_factory(), "mock", "simulation was asked for (--simulate)", model=model)
    source = "the config file"
    if not requested and env.get("GPIOZERO_PIN_FACTORY"):
        requested, source = env["GPIOZERO_PIN_FACTORY"], "GPIOZERO_PIN_FACTORY"
    name = (requested or "").strip().lower() or None
    if name is not None and name not in FACTORIES:
        return PinChoice(
            mock_factory(),
            "mock",
            f"{source} names an unknown pin factory {requested!r}",
            error=f"unknown pin factory {requested!r}",
            fix=f"use one of {', '.join(FACTORIES)}",
            model=model,
        )
    if name == "mock":
        return PinChoice(mock_factory(), "mock", f"{source} asks for gpiozero's mock factory", model=model)
    if name is None and model is None:
        return PinChoice(
            mock_factory(),
            "mock",
            "not a Raspberry Pi (no Pi model in /proc/device-tree/model): virtual buttons",
            model=None,
        )
    name = name or "lgpio"
    why = f"{source} asks for {name}" if requested else f"{model}: lgpio reads the Pi's GPIO on every model"
    if model and "Raspberry Pi 5" in model and name in ("rpigpio", "pigpio", "native"):
        return PinChoice(
            mock_factory(),
            "mock",
            why,
            error=f"the {name} pin factory does not work on a {model} (its GPIO is on the RP1 chip)",
            fix="use lgpio: remove pin_factory from the config and unset GPIOZERO_PIN_FACTORY",
            model=model,
        )
    if name == "native":
        return PinChoice(
            mock_factory(),
            "mock",
            why,
            error="gpiozero's native factory polls for edges and misses presses",
            fix="use lgpio (" + LGPIO_FIX + ")",
            model=model,
        )
    try:
        factory = _load(name)
    except Exception as exc:
        error = f"the {name} pin factory failed to load ({_first_line(exc)}): the physical buttons will not work"
        if name == "lgpio" and isinstance(exc, ImportError):
            fix = LGPIO_FIX
        elif "gpiochip" in str(exc) or isinstance(exc, PermissionError):
            fix = "add the service user to the 'gpio' group ('sudo adduser USER gpio') and restart"
        else:
            fix = "run 'tableside doctor'"
        return PinChoice(mock_factory(), "mock", why, error=error, fix=fix, model=model)
    return PinChoice(factory, name, why, model=model)
