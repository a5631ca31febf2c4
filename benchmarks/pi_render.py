"""Rendering never delays an action, a button or the LED: measured at a Pi Zero 2 W's size.

    .venv/bin/python benchmarks/pi_render.py [--rolls N] [--only rolls,led,ready] [--write]

Each ``tableside serve --simulate`` runs in a cgroup with 12% of one core (as benchmarks/run.py's
pi-sized run). Frames are drawn in a worker process of their own (device/driver_worker.py FrameWorker);
a Pi Zero 2 W has four such cores, so the worker is moved into a second 12% cgroup: "its own
core". For comparison the same run with the worker left in the server's cgroup (one core shared).

Figures, for the pHAT (212x104) and the 13.3" Spectra (1600x1200, the largest panel):
- a roll POSTed twice a second, each one making a new frame, so rolls land while frames are
  drawn (the worker's CPU seconds during the rolls are printed as proof): p50 and p99;
- touch to status LED on (gpiozero MockFactory, benchmarks/buttons.py) in a process under the
  quota while a FrameWorker draws 13.3" frames without pause;
- ready (GET /healthz answers) against the empty Flask app, seven runs each in turns, with the CPU
  the server's main thread used until then (load-independent, unlike the wall clock).
``--write`` appends the rows to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import CpuQuota, Server, pct  # noqa: E402  (benchmarks/run.py: the same cgroup and server helpers)

SHARE = 0.12
TICK = os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    out.append(int(child))
                    todo.append(int(child))
    return out


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def wait_for_worker(server: Server, timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = descendants(server.proc.pid)
        if found:
            time.sleep(0.5)  # the pool's worker and its helper
            return descendants(server.proc.pid)
        time.sleep(0.05)
    raise RuntimeError("no render worker process appeared")


STANDINS = HERE.parent / "tests" / "standin_modules"  # stand-in spidev/gpiodevice for inky's own driver code


def standin_env() -> dict[str, str]:
    """PYTHONPATH that puts the stand-in spidev and gpiodevice first (the worker inherits it)."""
    return {"PYTHONPATH": os.pathsep.join([str(STANDINS), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}


def rolls_while_drawing(folder: Path, panel: str, own_core: bool, n: int, driver: bool = False) -> dict:
    with CpuQuota(SHARE) as server_core, CpuQuota(SHARE, tag="-worker") as worker_core:
        if server_core.procs is None or worker_core.procs is None:
            raise SystemExit(f"no CPU-quota cgroup here: {server_core.why_not or worker_core.why_not}")
        config = f'[display]\npanel = "{panel}"\nmin_interval = 0\n'
        if driver:  # inky's real driver for this panel (display.model: no EEPROM), on stand-in SPI and GPIO
            config = f'[display]\nkind = "inky"\nmodel = "{panel}"\nmin_interval = 0\n'
        server = Server(
            folder / f"{panel}-{own_core}-{driver}",
            cgroup=server_core,
            config=config,
            simulate=not driver,
            env=standin_env() if driver else None,
        ).start()
        try:
            workers = wait_for_worker(server)
            if own_core:
                for pid in workers:
                    with contextlib.suppress(OSError):
                        worker_core.procs.write_text(str(pid))
            c = server.client(timeout=60)
            c.json("POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
            time.sleep(3)
            before = cpu_seconds(workers)
            took: list[float] = []
            for _ in range(n):
                time.sleep(0.5)
                start = time.perf_counter()
                c.call("POST", "/api/rolls", {"expr": "5d6cs>=4"})
                took.append((time.perf_counter() - start) * 1000)
            drawn = cpu_seconds(workers) - before
            hardware = c.json("GET", "/api/hardware")
            rss = server.rss_mb()
            c.close()
        finally:
            children = descendants(server.proc.pid)
            server.stop()
            for pid in children:  # a worker the stop left behind would keep the cgroup busy
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
            time.sleep(0.2)
    return {
        "p50": statistics.median(took),
        "p99": pct(took, 99),
        "max": max(took),
        "worker_cpu": drawn,
        "n": n,
        "rss": rss,
        "display": f"{hardware.get('display')} {hardware.get('panel')}",
        "error": hardware.get("display_error"),
    }


LED_CHILD = r"""
import sys, threading, time
sys.path.insert(0, sys.argv[1])
from buttons import measure
from tableside.device.driver_worker import FrameWorker
from tableside.display.panels import get_panel
from tableside.core.screen import Screen, Text

worker = FrameWorker()
panel = get_panel("spectra-13.3")
spec = ("screen", Screen(title="Drawing", status="", elements=tuple(Text(f"line {i}") for i in range(12))), None)
display = None
if sys.argv[3] == "driver":  # inky's el133uf1 driver in the worker, on stand-in SPI (PYTHONPATH)
    import tempfile
    from tableside.device.display import drive_in, open_display
    drive_in(worker)
    from pathlib import Path
    display, _ = open_display("inky", None, Path(tempfile.gettempdir()), model="spectra-13.3")
worker.frame(spec, panel)  # started
print("worker", worker.pid, flush=True)
sys.stdin.readline()  # moved to its own core by the parent
stop = threading.Event()
frames = [0]
def draw():
    while not stop.is_set():
        frame = worker.frame(spec, panel, image=display is None)
        if display is not None:
            display.show_frame(frame)  # the worker sends it over its SPI; the server waits for "done"
        frames[0] += 1
threading.Thread(target=draw, daemon=True).start()
result = measure(int(sys.argv[2]))
stop.set()
p50, p99 = result["touch -> LED on"]
print(f"led {p50:.3f} {p99:.3f} {frames[0]}", flush=True)
worker.close()
"""


def press_to_led(repeat: int, driver: bool = False) -> dict:
    with CpuQuota(SHARE) as server_core, CpuQuota(SHARE, tag="-worker") as worker_core:
        if server_core.procs is None:
            raise SystemExit(f"no CPU-quota cgroup here: {server_core.why_not}")
        argv = ["sh", "-c", f'echo $$ > "{server_core.procs}" && exec "$@"', "sh", sys.executable, "-c", LED_CHILD]
        proc = subprocess.Popen(
            [*argv, str(HERE), str(repeat), "driver" if driver else "draw"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **(standin_env() if driver else {})},
        )
        line = proc.stdout.readline()
        assert line.startswith("worker"), line
        for pid in descendants(proc.pid):
            with contextlib.suppress(OSError):
                worker_core.procs.write_text(str(pid))
        proc.stdin.write("go\n")
        proc.stdin.flush()
        out = proc.stdout.read()
        proc.wait(timeout=600)
    _, p50, p99, frames = next(line for line in out.splitlines() if line.startswith("led")).split()
    return {"p50": float(p50), "p99": float(p99), "frames": int(frames), "n": repeat}


def installed_copy(folder: Path) -> Path:
    """A venv with Tableside installed as a Pi has it (a wheel, bytecode compiled by pip); its bin/.

    The developer venv runs Tableside from the source tree (an editable install, its import hook
    loaded at every start) and may forbid writing bytecode (PYTHONDONTWRITEBYTECODE), so each start
    would compile Tableside's modules again: costs the appliance never pays. The libraries are this
    venv's own (a path line, so its editable hook is not loaded); the empty app runs on the same venv.
    """
    venv = folder / "installed"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(HERE.parent)],
        check=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    ours = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    libraries = subprocess.run(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(ours, "libraries.pth").write_text(libraries + "\n")
    compiled = list(Path(ours, "tableside").rglob("*.pyc"))
    if not compiled:
        raise SystemExit("pip installed Tableside without bytecode: the figure would not be a Pi's")
    return venv / "bin"


def main_thread_cpu(pid: int) -> float:
    """CPU seconds the process's main thread has run (ns resolution, /proc/PID/schedstat): start-up's own
    work. Unlike the wall-clock figure it does not move with the machine's load; the first request is
    answered on a worker thread and the hardware starts on its own thread, so neither is in it."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9


def ready_against_empty(folder: Path, runs: int = 7) -> dict:
    empty, ready, empty_cpu, ready_cpu = [], [], [], []
    installed = installed_copy(folder)
    with CpuQuota(SHARE) as quota:
        if quota.procs is None:
            raise SystemExit(f"no CPU-quota cgroup here: {quota.why_not}")
        for i in range(runs):
            s = Server(folder / f"empty{i}", cgroup=quota, empty=True, bin=installed).start()
            empty.append(s.ready_s)
            empty_cpu.append(main_thread_cpu(s.proc.pid))
            s.stop()
            s = Server(folder / f"ready{i}", cgroup=quota, bin=installed).start()
            ready.append(s.ready_s)
            ready_cpu.append(main_thread_cpu(s.proc.pid))
            s.stop()
    return {
        "empty": statistics.median(empty),
        "ready": statistics.median(ready),
        "empty_cpu": statistics.median(empty_cpu),
        "ready_cpu": statistics.median(ready_cpu),
        "n": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rolls", type=int, default=60)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--write", action="store_true", help="append the rows to benchmarks/results.md")
    parser.add_argument("--only", help="comma-separated: rolls,led,ready,driver (default: all)")
    args = parser.parse_args()
    only = set((args.only or "rolls,led,ready,driver").split(","))
    rows = []
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="tableside-pi-render-") as tmp:
        folder = Path(tmp)
        for panel in ("phat-red", "spectra-13.3") if "rolls" in only else ():
            for own in (True, False):
                r = rolls_while_drawing(folder, panel, own, args.rolls)
                where = "worker on its own 12% core" if own else "worker sharing the server's 12%"
                rows.append(
                    f"| pi-render | POST a roll (2 a second, each makes a frame) while frames are drawn, {panel}, "
                    f"{where} | {r['p50']:.2f} ms | {r['p99']:.2f} ms | {r['n']} | goal p99 < 30 ms: "
                    f"{'yes' if r['p99'] < 30 else '**no**'} | max {r['max']:.0f} ms; the worker drew for "
                    f"{r['worker_cpu']:.2f} CPU s meanwhile |"
                )
                print(rows[-1], flush=True)
        for panel in ("impression-7.3", "spectra-13.3") if "driver" in only else ():
            for driver in (False, True):
                r = rolls_while_drawing(folder, panel, True, args.rolls, driver=driver)
                what = "real inky driver on stand-in SPI, in the worker" if driver else "virtual panel (same run)"
                rows.append(
                    f"| pi-render | POST a roll (2 a second, each makes a frame and a refresh), {panel}, {what}, "
                    f"worker on its own 12% core | {r['p50']:.2f} ms | {r['p99']:.2f} ms | {r['n']} | "
                    f"goal p99 <= 30 ms: "
                    f"{'yes' if r['p99'] <= 30 else '**no**'} | max {r['max']:.0f} ms; server RSS {r['rss']:.0f} MB; "
                    f"display {r['display']}{'; error ' + r['error'] if r['error'] else ''}; the worker used "
                    f"{r['worker_cpu']:.2f} CPU s meanwhile |"
                )
                print(rows[-1], flush=True)
        if "driver" in only:
            led = press_to_led(args.presses, driver=True)
            rows.append(
                f'| pi-render | touch -> status LED on under 12% while the worker draws and shows 13.3" frames with '
                f"inky's real el133uf1 driver on stand-in SPI | {led['p50']:.2f} ms | {led['p99']:.2f} ms | "
                f"{led['n']} | goal p99 <= 20 ms: {'yes' if led['p99'] <= 20 else '**no**'} | {led['frames']} frames "
                f"shown meanwhile; 10 ms of it is the debounce window |"
            )
            print(rows[-1], flush=True)
        if "led" in only:
            led = press_to_led(args.presses)
            rows.append(
                f'| pi-render | touch -> status LED on under 12% while a worker draws 13.3" frames without pause | '
                f"{led['p50']:.2f} ms | {led['p99']:.2f} ms | {led['n']} | goal < 20 ms: "
                f"{'yes' if led['p99'] < 20 else '**no** (p99)' if led['p50'] < 20 else '**no**'} | "
                f"{led['frames']} frames drawn meanwhile; 10 ms of it is the debounce window |"
            )
            print(rows[-1], flush=True)
        if "ready" in only:
            ready = ready_against_empty(folder)
            ratio = ready["ready"] / ready["empty"]
            rows.append(
                f"| pi-render | ready under 12% (tableside serve --simulate) against the empty Flask app | "
                f"{ready['ready']:.2f} s | empty app {ready['empty']:.2f} s | {ready['n']} | goal within x1.2: "
                f"{'yes' if ratio <= 1.2 else '**no**'} (x{ratio:.2f}) | medians of runs taken in turns, "
                f"both run by a venv with Tableside installed from its wheel (bytecode compiled by pip), as on a Pi; "
                f"main thread's CPU until ready {ready['ready_cpu'] * 1000:.0f} ms against "
                f"{ready['empty_cpu'] * 1000:.0f} ms (x{ready['ready_cpu'] / ready['empty_cpu']:.2f}: the figure "
                f"a busy machine does not move) |"
            )
            print(rows[-1], flush=True)
    if args.write:
        write(rows, only, load)


SECTION_OF = {
    "stand-in SPI": "driver",
    "virtual panel (same run)": "driver",
    "POST a roll": "rolls",
    "touch -> status LED": "led",
    "ready under": "ready",
}


def write(rows: list[str], only: set[str], load: float) -> None:
    """Replace this benchmark's section of results.md; rows of sections not rerun are kept."""
    text = (HERE / "results.md").read_text()
    marker = "\n## Rendering off the server"
    kept: list[str] = []
    notes = ""  # the paragraphs under the table (how to read the rows): kept, the table is what is rewritten
    if marker in text:
        old = text[text.index(marker) :].splitlines()
        last_row = max((i for i, line in enumerate(old) if line.startswith("|")), default=len(old))
        notes = "\n".join(old[last_row + 1 :]).strip("\n")
        kept = [
            line
            for line in old
            if line.startswith("| pi-render |")
            and not any(key in line and name in only for key, name in SECTION_OF.items())
        ]
        text = text[: text.index(marker)]
    order = list(SECTION_OF)
    rows = sorted(kept + rows, key=lambda line: next(i for i, key in enumerate(order) if key in line))
    head = (
        "\n## Rendering off the server, at a Pi Zero 2 W's size (benchmarks/pi_render.py)\n\n"
        f"Last run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} ({', '.join(sorted(only))}; rows of "
        f"sections not rerun are kept) on the shared build machine (load average {load:.1f} at the start: "
        "read the p99s as that machine's load as much as the design).\n\n"
        "| section | figure | p50 | p99 / other | n | goal | note |\n|---|---|---|---|---|---|---|\n"
    )
    tail = f"\n{notes}\n" if notes else ""
    (HERE / "results.md").write_text(text.rstrip("\n") + "\n" + head + "\n".join(rows) + "\n" + tail)


if __name__ == "__main__":
    main()
