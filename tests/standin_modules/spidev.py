"""A stand-in ``spidev`` module (the C extension's ``SpiDev`` as inky 2.6.0 uses it).

inky's drivers call ``spidev.SpiDev()``, ``open(0, cs_channel)``, set ``no_cs`` and ``max_speed_hz``,
then ``xfer3(list)`` or ``xfer(list)`` (``inky_ac073tc1a.Inky._spi_write``: one ``xfer([byte])`` per
byte; ``inky_el133uf1.Inky._spi_write_bytes``: ``xfer3``). The transfers go to the one shared
stand-in bus (``gpiodevice.BUS``: the same object as the GPIO lines, so DC and chip select levels are
known), which counts the bytes; each command byte writes "pid bytes" to ``TABLESIDE_STANDIN_SPI_LOG``.
"""

from __future__ import annotations

import os


class SpiDev:
    def __init__(self) -> None:
        import gpiodevice  # the stand-in package beside this file

        self.bus = gpiodevice.BUS
        self.no_cs = False
        self.max_speed_hz = 0
        self.mode = 0

    def open(self, bus: int, dev: int) -> None:
        self.bus.open(bus, dev)

    def xfer3(self, values):
        self.bus.xfer3(values)
        log = os.environ.get("TABLESIDE_STANDIN_SPI_LOG")
        if log and self.bus.command_sent():
            with open(log, "a") as out:
                out.write(f"{os.getpid()} {self.bus.bytes}\n")

    xfer = xfer3
    xfer2 = xfer3
    writebytes = xfer3

    def close(self) -> None:
        pass
