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
import sys
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


class PinClaimError(Exception):
    """A button's or the LED's pin could not be claimed: which part, which pin, and why in words."""

    def __init__(self, part: str, pin: int, cause: BaseException) -> None:
        self.part, self.pin, self.cause = part, pin, cause
        text = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        # gpiozero's GPIOPinInUse (another device in this process) and lgpio's error 'GPIO busy'
        # (another program holds the line) are the same fault for a person: the pin is taken.
        self.busy = type(cause).__name__ == "GPIOPinInUse" or "busy" in text.lower()
        if self.busy:
            message = f"{part}: GPIO{pin} is already in use by another program ({type(cause).__name__}: {text})"
        else:
            message = f"{part}: GPIO{pin} could not be claimed ({type(cause).__name__}: {text})"
        super().__init__(message)
        self.message = message

    def fix(self, setting: str) -> str:
        """What to do; ``setting`` names the config key that moves this part ("[buttons] pins A")."""
        if self.busy:
            return (
                f"stop the program that holds GPIO{self.pin} ('gpioinfo' lists it as used, with its name), "
                f"or move it with {setting} in the config; Tableside tries the pin again by itself"
            )
        return f"check {setting} in the config and the wiring; Tableside tries the pin again by itself"


class PipeDirectoryError(OSError):
    """lgpio cannot make its notification pipe where the process runs."""


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


def lgpio_pipe_problem(env: dict[str, str] | None = None, cwd: str | None = None) -> str | None:
    """Why lgpio could not make its notification pipe here, or None when it can.

    lgpio creates a named pipe (``.lgd-nfyN``) when it is imported, in ``$LG_WD`` or else the
    working directory, and the Python side opens it relative to the working directory. A service
    started from ``/`` fails with ``FileNotFoundError: '.lgd-nfy0'`` (lgpio issue #22).
    """
    if "lgpio" in sys.modules:
        return None  # imported already: its pipe exists
    env = os.environ if env is None else env
    where = env.get("LG_WD")
    try:
        folder = os.path.join(cwd or os.getcwd(), where) if where else (cwd or os.getcwd())
    except OSError as exc:  # the working directory was removed
        return f"lgpio makes its notification pipe in the working directory, which is gone ({exc.strerror})"
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    user = _user_name()
    if where:
        return f"lgpio makes its notification pipe in LG_WD={where}, which user {user} cannot write"
    return f"lgpio makes its notification pipe in the working directory {folder}, which user {user} cannot write"


def gpiochip_problem(dev: Path = Path("/dev")) -> str | None:
    """A missing GPIO chip and a chip this user may not open are different faults with different fixes."""
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return f"no GPIO chip ({dev}/gpiochip0 does not exist)"
    if not any(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return f"user {_user_name()} may not open {chips[0]} (it is not in the 'gpio' group)"
    return None


LG_WD_FIX = (
    "the service must run from a folder its user owns: re-run 'sudo systemd/install.sh' (its unit sets "
    "WorkingDirectory and LG_WD); by hand, start tableside from a folder you own or set LG_WD to one"
)


def _user_name() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def _load(name: str) -> Any:
    import importlib

    if name == "lgpio":
        problem = lgpio_pipe_problem()
        if problem:
            raise PipeDirectoryError(problem)
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
        return PinChoice(mock_factory(), "mock", "started with --simulate", model=model)
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
        if isinstance(exc, PipeDirectoryError) or ".lgd-nfy" in str(exc):
            fix = LG_WD_FIX
        elif name == "lgpio" and isinstance(exc, ImportError):
            fix = LGPIO_FIX
        elif "gpiochip" in str(exc) or isinstance(exc, PermissionError):
            chip = gpiochip_problem()
            if chip:
                error = f"the {name} pin factory failed to load: {chip}: the physical buttons will not work"
            fix = (
                "use a Raspberry Pi OS kernel (the GPIO chip is /dev/gpiochip0, /dev/gpiochip4 on a Pi 5)"
                if chip and "no GPIO chip" in chip
                else f"add the service user to the 'gpio' group ('sudo adduser {_user_name()} gpio') and restart"
            )
        else:
            fix = f"check that nothing else drives the GPIO and that [buttons] pin_factory suits a {model or 'Pi'}"
        return PinChoice(mock_factory(), "mock", why, error=error, fix=fix, model=model)
    return PinChoice(factory, name, why, model=model)


# -- the board's own pins ------------------------------------------------------------------------------------
# Read from the inky driver module's own constants (and a constructed driver's attributes), so a board
# whose pins differ (the 13.3" Impression's chip selects are GPIO26 and GPIO16) is checked by its own.
_PIN_CONSTANTS = {
    "CS0_PIN": "SPI chip select",
    "CS_PIN": "SPI chip select",
    "CS1_PIN": "second SPI chip select",
    "DC_PIN": "DC line",
    "RESET_PIN": "RESET line",
    "BUSY_PIN": "BUSY line",
    "MOSI_PIN": "SPI MOSI",
    "SCLK_PIN": "SPI clock",
}
_PIN_ATTRIBUTES = {
    "cs_pin": "SPI chip select",
    "cs_pin_0": "SPI chip select",
    "cs_pin_1": "second SPI chip select",
    "dc_pin": "DC line",
    "reset_pin": "RESET line",
    "busy_pin": "BUSY line",
}
_EVERY_BOARD = {2: "I2C SDA (the board's EEPROM)", 3: "I2C SCL (the board's EEPROM)", 9: "SPI MISO"}
# Where a board takes a default button pin, the button moves (Pimoroni's own examples for the 13.3" use 25).
BUTTON_DEFAULTS = {"inky.inky_el133uf1": {"C": 25}}


class PinConflict(Exception):
    """A button or the LED is set on a pin the display needs: a config error naming both uses."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix


def board_pins(panel: Any, driver: Any = None) -> dict[int, str]:
    """BCM pin -> what the board uses it for, from the board's inky driver (no pin is touched)."""
    import importlib

    known = getattr(driver, "pin_uses", None)
    if isinstance(known, dict):  # a driver living in the render worker: the worker read its pins there
        return dict(known)
    uses: dict[int, str] = dict(_EVERY_BOARD)
    names = [getattr(getattr(panel, "driver", None), "module", None)]
    if driver is not None:
        names.append(type(driver).__module__)  # a detected board: its own class's module wins
    for module_name in filter(None, names):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for constant, use in _PIN_CONSTANTS.items():
            pin = getattr(module, constant, None)
            if isinstance(pin, int) and not isinstance(pin, bool):
                uses[pin] = use
    for attribute, use in _PIN_ATTRIBUTES.items():
        pin = getattr(driver, attribute, None)
        if isinstance(pin, int) and not isinstance(pin, bool):
            uses[pin] = use
    name = getattr(panel, "name", "the display")
    return {pin: f"the {name}'s {use}" for pin, use in uses.items()}


def resolve_pins(cfg: Any, panel: Any, driver: Any = None, given: frozenset[str] | None = None) -> dict[str, int]:
    """The button pins for this board, checked against its own before anything is claimed.

    A button left at its default moves where the board needs the default pin
    (``BUTTON_DEFAULTS``); a pin the config sets on the board's raises
    ``PinConflict`` naming both uses.
    """
    uses = board_pins(panel, driver)
    defaults: dict[str, int] = {}
    driver_module = getattr(driver, "module", None) or type(driver).__module__  # RemoteDriver names its module
    for module_name in (getattr(getattr(panel, "driver", None), "module", ""), driver_module):
        defaults.update(BUTTON_DEFAULTS.get(module_name, {}))
    given = frozenset(getattr(cfg, "buttons_given", ())) if given is None else given
    pins = dict(cfg.buttons)
    for label, pin in defaults.items():
        if label not in given:
            pins[label] = pin
    name = getattr(panel, "name", "the display")
    for label, pin in sorted(pins.items()):
        if pin in uses:
            moved = defaults.get(label)
            raise PinConflict(
                f"[buttons] pins: {label} = GPIO{pin} is also {uses[pin]}; "
                f"a button there would stop the display (the pin cannot be both)",
                f"set [buttons] pins {label} = {moved}"
                if moved
                else f"move button {label} to a free pin in the config",
            )
    led = getattr(cfg, "led_pin", None)
    if led is not None and led in uses:
        raise PinConflict(
            f"[led] pin = GPIO{led} is also {uses[led]}; an LED there would stop the display",
            f"move the LED to a free pin in the config (on the {name}, not {', '.join(map(str, sorted(uses)))})",
        )
    if led is not None and led in pins.values():
        label = next(k for k, v in pins.items() if v == led)
        raise PinConflict(
            f"[led] pin = GPIO{led} is also button {label}'s pin on the {name}",
            "move the LED or the button to a free pin in the config",
        )
    return pins
