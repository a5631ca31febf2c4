"""Mutation testing of the modules whose rules the tests must pin down, with mutmut 3.

mutmut 3 mutates a copy of the sources under ``mutants/`` and imports them by the
path they are at; Tableside's folders install under other names (``core/`` is
``tableside.core``), so this script first lays a copy of the repository out as it
installs (``tableside/core/...``) in a scratch folder, and runs mutmut there with
one module to mutate and only the tests that exercise it. One process, niced:
the machine is shared.

    .venv/bin/pip install -e '.[test,mutation]'
    .venv/bin/python benchmarks/mutation.py recorder   # or system, specs, corrections, pool, combat, referee, ...

It prints the figures for benchmarks/results.md: total, killed, survived,
equivalent (listed with the reason in benchmarks/equivalent_mutants.md, each
checked against the mutant's diff), other (no test reached it, suspicious), and
the score = killed / (total - equivalent); a mutant that makes the tests time out
(an endless loop) counts as killed. Mutants that survive are printed with their diff.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "benchmarks" / "equivalent_mutants.md"
RESULTS = ROOT / "benchmarks" / "results.md"
SECTION = "## Mutation testing"
INTRO = f"""{SECTION}

Written by `.venv/bin/python benchmarks/mutation.py <module> --write` (mutmut 3, one process, niced; how-to
in benchmarks/README.md). Each module is mutated alone and only the tests that exercise it run against each
mutant (the "tests" column). Score = killed / (total - equivalent); a mutant whose tests time out counts as
killed; equivalent mutants are listed with the reason in benchmarks/equivalent_mutants.md. Before issue 20:
recorder 64%, fields 45% (a sample), v2140 exchange 70%, vegas tricks 78%. Before issue 37: core/system.py
75.7% with its first tests (38% before them, per the issue), v2140 pool 64.7%, venom combat 90.3%, vegas
referee 83.9%, recorder 88.9% (this table had said 100%: its by/shown recording came later, untested).
Measured on the shared 2-core build machine (load 10-14): load only turns a slow run into a timeout.

| module | tests | total | killed | survived | equivalent | other | score | measured |
|---|---|---|---|---|---|---|---|---|
"""

# module -> (its file as installed, the tests that exercise it)
TARGETS: dict[str, tuple[str, list[str]]] = {
    "recorder": (
        "tableside/core/recorder.py",
        ["tests/test_recorder*.py", "tests/test_dice_entry.py", "tests/test_interface_v2.py"],
    ),
    "fields": (
        "tableside/core/fields.py",
        ["tests/test_fields*.py", "tests/test_shown_when.py", "tests/test_interface_v2.py"],
    ),
    "exchange": (
        "tableside/core/systems/v2140/exchange.py",
        ["tests/test_v2140_exchange*.py", "tests/test_v2140_rules.py", "tests/test_v2140_scene.py"],
    ),
    "tricks": (
        "tableside/core/systems/vegas/tricks.py",
        [
            "tests/test_vegas_tricks*.py",
            "tests/test_vegas_rounds.py",
            "tests/test_vegas_bonuses.py",
            "tests/test_vegas_referee.py",
            "tests/test_vegas_system.py",
            "tests/test_vegas_cards.py",
            "tests/test_vegas_seat_play.py",
        ],
    ),
    "system": (
        "tableside/core/system.py",
        ["tests/test_system_*.py", "tests/test_interface_v2.py"],
    ),
    "specs": (
        "tableside/core/specs.py",
        ["tests/test_system_*.py"],
    ),
    "corrections": (
        "tableside/core/corrections.py",
        ["tests/test_system_*.py"],
    ),
    "pool": (
        "tableside/core/systems/v2140/pool.py",
        ["tests/test_v2140_pool*.py", "tests/test_v2140_rules.py", "tests/test_v2140_scene.py"],
    ),
    "combat": (
        "tableside/core/systems/venom/combat.py",
        ["tests/test_venom_combat*.py"],
    ),
    "referee": (
        "tableside/core/systems/vegas/referee.py",
        ["tests/test_vegas_referee*.py"],
    ),
}

# the repository's folders and where they install (pyproject.toml's package-dir)
LAYOUT = {
    "tableside": "tableside",
    "core": "tableside/core",
    "device": "tableside/device",
    "display": "tableside/display",
}
LAYOUT["webui"] = "tableside/webui"
STATUS = re.compile(r"^\s+(\S+): (.+)$")


def stage(target: str, into: Path) -> None:
    """Copy the repository into ``into`` laid out as installed, with a mutmut section for ``target``."""
    path, tests = TARGETS[target]
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".venv", "mutants")
    for src, dst in LAYOUT.items():
        shutil.copytree(ROOT / src, into / dst, ignore=ignore, dirs_exist_ok=True)
    for extra in ("tests", "docs"):
        shutil.copytree(ROOT / extra, into / extra, ignore=ignore)
    tests = sorted({str(p.relative_to(ROOT)) for pattern in tests for p in ROOT.glob(pattern)})
    quoted = ", ".join(f'"{t}"' for t in tests)
    pyproject = (ROOT / "pyproject.toml").read_text()
    pyproject += (
        "\n[tool.mutmut]\n"
        'source_paths = ["tableside"]\n'
        f'only_mutate = ["{path}"]\n'
        f"pytest_add_cli_args_test_selection = [{quoted}]\n"
        'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider"]\n'
        "use_git_change_detection = false\n"
        'also_copy = ["docs"]\n'  # tests read the rulebooks and system docs
    )
    (into / "pyproject.toml").write_text(pyproject)


def equivalents() -> dict[str, tuple[str, str]]:
    """Mutants marked equivalent: name -> (a text its diff must contain, why it cannot be told apart)."""
    out = {}
    for line in EQUIVALENT.read_text().splitlines():
        m = re.match(r"^\| `([^`]+)` \| `(.+?)` \| (.+) \|$", line)
        if m:
            out[m.group(1)] = (m.group(2).replace("\\|", "|"), m.group(3))
    return out


def mutmut(args: list[str], cwd: Path) -> str:
    exe = Path(sys.executable).with_name("mutmut")
    run = subprocess.run(
        ["nice", "-n", "15", str(exe), *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, "CI": ""}
    )
    if run.returncode not in (0, 1) and args[0] == "run":
        raise SystemExit(f"mutmut {' '.join(args)} failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    return run.stdout


def measure(target: str, keep: bool, verbose: bool) -> dict[str, int]:
    work = Path(tempfile.mkdtemp(prefix=f"tableside-mutation-{target}-"))
    try:
        stage(target, work)
        log = mutmut(["run", "--max-children", "1"], work)
        statuses = {}
        for line in mutmut(["results", "--all", "true"], work).splitlines():
            m = STATUS.match(line)
            if m:
                statuses[m.group(1)] = m.group(2).strip()
        if not any(s != "not checked" for s in statuses.values()):
            raise SystemExit(f"mutmut checked no mutant of {target}; the end of its run:\n{log[-3000:]}")
        marked = {k: v for k, v in equivalents().items() if k.rsplit(".", 1)[0] == target_module(target)}
        equivalent, stale = 0, []
        for name, (fragment, _why) in marked.items():
            diff = mutmut(["show", name], work) if name in statuses else ""
            if fragment not in diff:
                stale.append(name)
            elif statuses[name] != "killed":
                equivalent += 1
        # A mutant that makes the tests run past their time limit (an endless loop) is caught too.
        timeouts = sum(1 for s in statuses.values() if s == "timeout")
        killed = sum(1 for s in statuses.values() if s == "killed") + timeouts
        survived = [n for n, s in statuses.items() if s == "survived" and n not in marked]
        other = [n for n, s in statuses.items() if s not in ("killed", "timeout", "survived") and n not in marked]
        total = len(statuses)
        score = killed / max(1, total - equivalent)
        print(
            f"{target}: {TARGETS[target][0]}: total {total}, killed {killed} ({timeouts} by timeout), "
            f"survived {len(survived)}, "
            f"equivalent {equivalent}, other {len(other)}, score {score:.1%}"
        )
        for name in stale:
            print(f"  marked equivalent but its diff no longer matches (re-check it): {name}")
        for name in other[:20]:
            print(f"  {name}: {statuses[name]}")
        if len(other) > 20:
            print(f"  ... and {len(other) - 20} more not killed for another reason")
        for name in survived:
            print(f"  survived: {name}")
            if verbose:
                print(mutmut(["show", name], work))
        if keep:
            print(f"  (kept {work})")
        return {
            "total": total,
            "killed": killed,
            "survived": len(survived),
            "equivalent": equivalent,
            "other": len(other),
        }
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def write_row(target: str, figures: dict[str, int]) -> None:
    """Put ``target``'s figures in results.md's mutation section (made if missing), keeping the other rows."""
    path, tests = TARGETS[target]
    module = path.removeprefix("tableside/")
    text = RESULTS.read_text() if RESULTS.exists() else ""
    head, _, section = text.partition(SECTION)
    section, nxt, tail = section.partition("\n## ")  # the sections after this one are kept as they are
    rows = {m.group(1): line for line in section.splitlines() if (m := re.match(r"^\| `([^`]+)` \|", line))}
    score = figures["killed"] / max(1, figures["total"] - figures["equivalent"])
    when = subprocess.run(["date", "-u", "+%Y-%m-%d %H:%M UTC"], capture_output=True, text=True).stdout.strip()
    rows[module] = (
        f"| `{module}` | {', '.join(f'`{t}`' for t in tests)} | {figures['total']} | {figures['killed']} | "
        f"{figures['survived']} | {figures['equivalent']} | {figures['other']} | {score:.1%} | {when} |"
    )
    body = INTRO + "\n".join(rows[k] for k in sorted(rows)) + "\n"
    after = f"\n{nxt.lstrip()}{tail}" if nxt else ""
    RESULTS.write_text(head.rstrip("\n") + "\n\n" + body + after)


def target_module(target: str) -> str:
    return TARGETS[target][0].removesuffix(".py").replace("/", ".")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=[*TARGETS, "all"])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder (to run mutmut show there)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each surviving mutant's diff")
    parser.add_argument("--write", action="store_true", help="put the figures in benchmarks/results.md")
    args = parser.parse_args()
    for target in TARGETS if args.target == "all" else [args.target]:
        figures = measure(target, args.keep, args.verbose)
        if args.write:
            write_row(target, figures)


if __name__ == "__main__":
    main()
