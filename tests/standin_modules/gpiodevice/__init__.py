"""A stand-in for Pimoroni's ``gpiodevice`` (0.1.0, as installed with inky 2.6.0), the four names inky's
drivers use: ``find_chip_by_platform()``, ``check_pins_available(chip, pins)``, ``friendly_errors``
and ``wait_for_edge(request, line, timeout)`` (github.com/pimoroni/gpiodevice-python,
``gpiodevice/__init__.py`` and ``gpiodevice/watch.py``: it returns the first edge event on ``line``,
or None on a timeout). The chip hands out the one stand-in bus of tests/inky_standins.py as its line
request, so the driver's DC/CS levels and BUSY waits are those of that stand-in.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.inky_standins
from tests.inky_standins import Bus  # noqa: E402

friendly_errors = False
BUS = Bus(keep=False)


class Chip:
    """``gpiod.Chip`` as inky uses it: pin ids are line offsets; ``request_lines`` gives the bus."""

    def line_offset_from_id(self, pin):
        return int(pin)

    def request_lines(self, consumer=None, config=None):
        lines = list(config or ())
        # inky_el133uf1 requests two chip selects (five lines) and its BUSY wait needs the line to drop
        # then rise ("toggle"); the others wait for BUSY low-to-ready ("idle-low": uc8159, ac073tc1a).
        BUS.busy = "toggle" if len(lines) >= 5 else "idle-low"
        BUS.cs_pins = tuple(p for p in lines if p in (8, 7, 26, 16))
        return BUS


def find_chip_by_platform():
    return Chip()


def check_pins_available(chip, pins, fatal=True):
    return True


def wait_for_edge(request, line=None, timeout=None, raise_on_timeout=False):
    if not request.wait_edge_events(timeout):
        return None
    for event in request.read_edge_events():
        if line is None or event.line_offset == line:
            return event
    return None
