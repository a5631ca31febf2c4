"""Stand-in SPI, I2C and GPIO for the inky library's own driver code, and a decoder of what was sent.

The recorder keeps every SPI transfer with the level of the data/command line
and the chip selects at that moment, so a test reads the command stream the
panel would receive (command byte, then its data) and rebuilds the ink index
of every pixel from it, for each controller's packing.
"""

from __future__ import annotations

import numpy
from gpiod.line import Value


class Bus:
    """One object as SPI bus and GPIO lines: records transfers as (dc, chip selects low, bytes)."""

    def __init__(
        self, busy: str = "idle-low", dc_pin: int = 22, cs_pins: tuple[int, ...] = (8,), keep: bool = True
    ) -> None:
        self.keep = keep  # False: count the bytes only (a benchmark's many refreshes)
        self.bytes = 0
        self._last_dc = True
        self.busy = busy  # "idle-low" (3-colour, uc8159, ac073tc1a), "idle-high" (e673), "toggle" (el133uf1)
        self.levels: dict[int, Value] = {}
        self.dc_pin = dc_pin
        self.cs_pins = cs_pins
        self.transfers: list[tuple[bool, tuple[int, ...], list[int]]] = []
        self._toggle = False

    # SPI
    def open(self, bus, dev):
        pass

    def xfer3(self, values):
        dc = self.levels.get(self.dc_pin) == Value.ACTIVE
        self.bytes += len(values)
        self._last_dc = dc
        if self.keep:
            selected = tuple(p for p in self.cs_pins if self.levels.get(p) == Value.INACTIVE)
            self.transfers.append((dc, selected, list(values)))

    def command_sent(self) -> bool:
        """The last transfer was a command (DC low): the next data belongs to it."""
        return not self._last_dc

    xfer = xfer3
    writebytes = xfer3

    # GPIO
    def set_value(self, pin, value):
        self.levels[pin] = value

    def get_value(self, pin):
        if self.busy == "idle-high":
            return Value.ACTIVE
        if self.busy == "toggle":
            self._toggle = not self._toggle
            return Value.ACTIVE if self._toggle else Value.INACTIVE
        return Value.INACTIVE

    def wait_edge_events(self, timeout=None):
        return True

    def read_edge_events(self):
        from types import SimpleNamespace

        return [SimpleNamespace(line_offset=17)]  # the busy line rose: the panel is ready

    def commands(self, cs: int | None = None) -> list[tuple[int, list[int]]]:
        """(command, data) in order; with ``cs``, only what went to that chip select."""
        out: list[tuple[int, list[int]]] = []
        for dc, selected, values in self.transfers:
            if cs is not None and cs not in selected:
                continue
            if not dc:
                out.extend((v, []) for v in values)
            elif out:
                out[-1][1].extend(values)
        return out

    def data_of(self, command: int, cs: int | None = None) -> list[list[int]]:
        return [data for cmd, data in self.commands(cs) if cmd == command and data]


class NoEEPROM:
    def write_i2c_block_data(self, *args):
        raise OSError("no EEPROM")

    def read_i2c_block_data(self, *args):
        raise OSError("no EEPROM")


def unpack_nibbles(data: list[int], shape: tuple[int, int]) -> numpy.ndarray:
    b = numpy.array(data, dtype=numpy.uint8)
    out = numpy.empty(b.size * 2, dtype=numpy.uint8)
    out[0::2] = b >> 4
    out[1::2] = b & 0x0F
    return out.reshape(shape)


def unpack_bits(data: list[int], shape: tuple[int, int]) -> numpy.ndarray:
    return numpy.unpackbits(numpy.array(data, dtype=numpy.uint8))[: shape[0] * shape[1]].reshape(shape)


def undo_geometry(driver, region: numpy.ndarray) -> numpy.ndarray:
    """Invert the flips and rotation a driver's ``show()`` applies to its buffer."""
    if getattr(driver, "rotation", 0):
        region = numpy.rot90(region, -(driver.rotation // 90))
    if getattr(driver, "h_flip", False):
        region = numpy.flipud(region)
    if getattr(driver, "v_flip", False):
        region = numpy.fliplr(region)
    return region
