"""How fast a button press is felt and acted on, on gpiozero's MockFactory with the real timer thread.

    .venv/bin/python benchmarks/buttons.py [--repeat N]

Figures (median and p99 over N presses):
- touch -> LED on: from the pin going low to the status LED's pin going high (the promise is
  "within 20 ms": 10 ms of it is the debounce window, the contact must be steady that long);
- release -> action starts: from the pin going high to the handler running (a press is known
  once its release is steady);
- 50 quick presses: the time for all 50 to be queued and run, with each action taking 5 ms.
A Pi Zero 2 W is several times slower than a desktop core: read these as a floor.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from gpiozero.pins.mock import MockFactory, MockPWMPin
from tableside.device.buttons import ButtonPanel, StatusLed


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(repeat: int) -> dict[str, tuple[float, float]]:
    factory = MockFactory(pin_class=MockPWMPin)
    started = threading.Event()
    stamp: dict[str, float] = {}

    def handler(gesture):
        stamp["ran"] = time.monotonic()
        started.set()
        return {"result": {"summary": gesture.name}}

    led = StatusLed(12, factory)
    panel = ButtonPanel(handler, factory, hold_time=1.0, led=led)
    pin, led_pin = factory.pin(5), factory.pin(12)
    touch, release = [], []
    try:
        for _ in range(repeat):
            started.clear()
            t0 = time.monotonic()
            pin.drive_low()
            while not led_pin.state:
                time.sleep(0.0002)
            touch.append(time.monotonic() - t0)
            time.sleep(0.03)
            t1 = time.monotonic()
            pin.drive_high()
            started.wait(5)
            release.append(stamp["ran"] - t1)
            time.sleep(0.12)  # the blink is over before the next touch
        done = threading.Event()
        count = [0]

        def slow(gesture):
            time.sleep(0.005)
            count[0] += 1
            if count[0] == 50:
                done.set()

        panel.handler = slow
        t2 = time.monotonic()
        for _ in range(50):
            pin.drive_low()
            time.sleep(0.022)
            pin.drive_high()
            time.sleep(0.022)
        done.wait(30)
        burst = time.monotonic() - t2
    finally:
        panel.close()
        factory.reset()
        factory.close()
    ms = 1000
    return {
        "touch -> LED on": (statistics.median(touch) * ms, _p(touch, 0.99) * ms),
        "release -> action starts": (statistics.median(release) * ms, _p(release, 0.99) * ms),
        "50 quick presses, all run": (burst * ms, burst * ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    for name, (p50, p99) in measure(args.repeat).items():
        print(f"{name:28s} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")


if __name__ == "__main__":
    main()
