"""The ``tableside`` command (contract section 2): serve, roll, doctor, export.

Bad input exits 2 with one line naming the problem, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence


class UsageError(Exception):
    """A command line argparse refused: one line, exit 2 (JSON for ``roll --json``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # noqa: D102 - raised, printed once by main()
        raise UsageError(message)


def _port(text: str) -> int:
    """``--port``: 1-65535, checked before anything starts (never quietly another port)."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: use a number from 1 to 65535 (default 8080)")
    return int(text)


def _host(text: str) -> str:
    """``--host``: an address or a name this machine resolves, checked before anything starts."""
    from tableside.preflight import HOST_FIX, host_problem

    problem = host_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(f"{problem}: {HOST_FIX}")
    return text


def _panel(text: str) -> str:
    """``--panel``: one of the layouts in display.panels, checked before anything starts."""
    from tableside.display.panels import PANELS  # data only: no Pillow, no inky

    if text not in PANELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a panel; choose one of {', '.join(PANELS)}")
    return text


def _path(text: str) -> str:
    """``--data`` and ``--config``: an empty one would quietly mean the default, so it is refused."""
    if not text.strip() or "\0" in text or len(text) > 4096:
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not a path: name a folder or file, e.g. ~/games")
    return text


def _seed(text: str) -> int:
    """``roll --seed``: a whole number a person can type again (at most 19 digits)."""
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a seed: use a whole number, e.g. --seed 7")
    return int(text)


def _session(text: str) -> str:
    """``export --session``: a session id as the phone and ``GET /api/sessions`` show it (hex, 1-64 characters)."""
    if not text or len(text) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in text):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a session id: ids look like 3f9a1c2e (GET /api/sessions lists them)"
        )
    return text


ROLL_OPTIONS = ("--seed", "--faces", "--json", "-h", "--help")


def _roll_argv(argv: list[str]) -> list[str]:
    """``roll -1d6``: an expression that starts with '-' is the expression, not an unknown option,
    so the dice parser names what is wrong with it instead of argparse saying an argument is missing."""
    if not argv or argv[0] != "roll" or "--" in argv:
        return argv
    out, rest, i = ["roll"], [], 1
    while i < len(argv):
        token = argv[i]
        if token in ("--seed", "--faces") and i + 1 < len(argv):
            out += [token, argv[i + 1]]
            i += 2
            continue
        if token.startswith("-") and token.split("=")[0] not in ROLL_OPTIONS:
            rest.append(token)
        else:
            out.append(token)
        i += 1
    return out + (["--", *rest] if rest else [])


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tableside",
        description="A Raspberry Pi table assistant for board games.",
        epilog="'tableside COMMAND --help' shows a command's options; docs: README.md and docs/ in the source.",
    )
    parser.add_argument("--version", action="store_true", help="print the installed version and exit")
    # Not required: ``tableside`` alone prints this help (its commands) instead of "a command is required".
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND", parser_class=_Parser)

    serve = sub.add_parser("serve", help="run the table: core, display, buttons and phone panel")
    serve.add_argument("--simulate", action="store_true", help="force the virtual display and virtual buttons")
    serve.add_argument(
        "--data",
        type=_path,
        help="data folder (default $TABLESIDE_DATA, $XDG_DATA_HOME/tableside or ~/.local/share/tableside)",
    )
    serve.add_argument("--host", type=_host, help="address to listen on (default 0.0.0.0: the table's Wi-Fi)")
    serve.add_argument("--port", type=_port, help="port, 1-65535 (default 8080)")
    serve.add_argument("--config", type=_path, help="TOML config file")
    serve.add_argument("--panel", type=_panel, help="panel layout to simulate, e.g. what-red, impression-7.3")

    roll = sub.add_parser("roll", help="roll a dice expression, e.g. 2d10cs>=8")
    roll.add_argument("expr")
    roll.add_argument("--seed", type=_seed, help="seed the dice (repeatable rolls)")
    roll.add_argument("--faces", help="use these faces in order, e.g. 6,6,5 (a physical roll typed in)")
    roll.add_argument("--json", action="store_true", help="print one JSON object")

    doctor = sub.add_parser("doctor", help="check SPI/I2C, the Inky board, GPIO and the data folder")
    doctor.add_argument("--data", type=_path, help="data folder to check")
    doctor.add_argument(
        "--config", type=_path, help="TOML config file (default /etc/tableside/tableside.toml if present)"
    )

    owner = sub.add_parser(
        "owner-pin", help="make a new owner PIN for the phone's Settings page and print it (the old one stops working)"
    )
    owner.add_argument("--data", type=_path, help="data folder")
    owner.add_argument(
        "--config", type=_path, help="TOML config file (default /etc/tableside/tableside.toml if present)"
    )

    export = sub.add_parser(
        "export", help="write a session's full action log to stdout (exit 3 if damaged rows were left out)"
    )
    export.add_argument("--session", type=_session, help="session id (default: the active session)")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--data", type=_path, help="data folder")

    restore = sub.add_parser("restore", help="put a backup in place of a damaged database (the old file is kept)")
    restore.add_argument(
        "backup", nargs="?", type=_path, help="backup file (default: the newest good one in DATA/backups)"
    )
    restore.add_argument("--data", type=_path, help="data folder")
    restore.add_argument(
        "--force", action="store_true", help="restore even when the database is healthy (it is kept beside it)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = _roll_argv(list(sys.argv[1:] if argv is None else argv))
    as_json = bool(argv) and argv[0] == "roll" and "--json" in argv
    try:
        args = build_parser().parse_args(argv)
    except UsageError as exc:
        return _refuse(str(exc), as_json)
    if args.version:
        import tableside

        print(f"tableside {tableside.__version__}")
        return 0
    if args.command is None:  # a usage mistake like any other (exit 2), but answered with the commands
        build_parser().print_help(sys.stderr)
        return 2
    from tableside.private import narrow_umask

    narrow_umask()  # the data folder, its backups, archive and exports: this user's only (tableside.private)
    try:
        if args.command == "roll":
            return cmd_roll(args)
        if args.command == "export":
            return cmd_export(args)
        if args.command == "restore":
            return cmd_restore(args)
        if args.command == "owner-pin":
            return cmd_owner_pin(args)
        if args.command == "doctor":
            from tableside.doctor import run_doctor

            return run_doctor(args.data, args.config)
        gc.disable()  # start-up: no collections until the server runs (serve enables and freezes)
        from tableside.serve import run_serve

        return run_serve(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``tableside export | head``: the reader has what it wanted; nothing to say
        _quiet_stdout()
        return EXIT_PIPE
    except Exception as exc:  # TablesideError, ConfigError, OSError ...: one line, no traceback
        message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        if isinstance(exc, OSError):  # never a bare "[Errno 13] ...": what, where, and what to do
            from tableside.oserror import describe_os_error

            message = describe_os_error(exc)
        _say_error(message, as_json)
        return 2 if _is_user_error(exc) else 1


EXIT_PIPE = 141  # what a shell reports for a command whose reader closed the pipe (128 + SIGPIPE)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush at exit cannot fail again (Python's
    documented recipe for SIGPIPE: docs.python.org/3/library/signal.html, "Note on SIGPIPE")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _refuse(message: str, as_json: bool) -> int:
    _say_error(message, as_json)
    return 2


def _say_error(message: str, as_json: bool) -> None:
    """One line on stderr: ``{"error": ...}`` for ``roll --json`` (a script parses it), else words.
    stdout stays empty on an error, so a script never mistakes it for a roll."""
    from tableside.service import to_journal

    prefix = "<3>" if to_journal(sys.stderr) else ""  # under systemd: an error in 'journalctl -p err'
    print(json.dumps({"error": message}) if as_json else f"{prefix}tableside: {message}", file=sys.stderr)


def cmd_restore(args: argparse.Namespace) -> int:
    """Move the database aside (never delete it), copy a good backup in, and re-apply every readable entry
    of the old file that the backup lacks. A healthy database that has everything the backup has is
    replaced only with ``--force``. Refused while serve runs."""
    from pathlib import Path

    from tableside.backup import (
        Backups,
        check_backup,
        check_database,
        describe,
        missing_entries,
        recover_newer,
        restore,
        unrecovered,
    )
    from tableside.config import data_dir, load_config, system_config
    from tableside.lock import FolderLock

    folder = data_dir(args.data, None if args.data else load_config(system_config()).data)
    db = folder / "tableside.db"
    lock = FolderLock(folder).acquire("restoring a backup")
    try:
        backups = Backups(db)
        chosen = Path(args.backup) if args.backup else backups.newest_good()
        if chosen is None:
            print(f"tableside: no good backup in {backups.folder}", file=sys.stderr)
            return 1
        problem = check_backup(chosen)
        if problem is not None:  # before anything is moved, and never a --force for a file that is not there
            print(f"tableside: {problem}. Nothing was changed", file=sys.stderr)
            return 1
        if db.exists() and check_database(db) is None and not missing_entries(db, chosen) and not args.force:
            print(
                f"tableside: the database {db} is healthy and has every entry of {chosen}: restoring would put "
                "an older copy in its place. Nothing was changed; add --force to restore anyway",
                file=sys.stderr,
            )
            return 1
        aside = restore(db, chosen)
        from tableside.private import tighten

        tighten(folder)
        print(f"restored {chosen} ({describe(db)}) as {db}")
        if aside != db:
            recovered = recover_newer(aside, db)
            if recovered:
                total = sum(recovered.values())
                games = ", ".join(f"{sid}: {n}" for sid, n in recovered.items())
                print(f"re-applied {total} newer entr{'y' if total == 1 else 'ies'} from the old file ({games})")
            from tableside.core.words import plural

            lost = unrecovered(aside, db)
            if lost is None:
                print(
                    f"the previous file cannot say how many entries it had: any acknowledged after {chosen.name} "
                    "and not re-applied above are lost"
                )
            else:
                print(f"{plural(lost, 'acknowledged entry')} after {chosen.name} could not be brought back")
            print(f"the previous file is kept as {aside}")
        return 0
    finally:
        lock.release()


def cmd_owner_pin(args: argparse.Namespace) -> int:
    """A new owner PIN, printed here on the Pi's own terminal (never on the e-paper); only its hash is kept."""
    from tableside.config import data_dir, load_config, system_config
    from tableside.webui.owner import new_pin

    folder = data_dir(args.data, None if args.data else load_config(args.config or system_config()).data)
    pin = new_pin(folder)
    print(f"Owner PIN: {pin}")
    print("Enter it on a phone's Settings tab; phones that gave the old PIN must give this one.")
    return 0


def _is_user_error(exc: Exception) -> bool:
    from tableside.config import ConfigError
    from tableside.core.errors import TablesideError

    return isinstance(exc, TablesideError | ConfigError)


def cmd_roll(args: argparse.Namespace) -> int:
    from tableside.core import dice

    faces = dice.parse_faces(args.faces) if args.faces is not None else None
    import random

    rng = random.Random(args.seed) if args.seed is not None else None
    if args.expr.startswith("-"):
        raise dice.DiceError(
            f"{args.expr!r} cannot start with '-': a dice expression starts with the number of dice, as in 1d6 or 1d6-1"
        )
    result = dice.roll(args.expr, faces=faces, rng=rng)
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    line = f"{result.expr}: {result.rolls}"
    if result.kept != result.rolls:
        line += f" kept {result.kept}"
    if result.successes is not None:
        line += f" -> {result.successes} success{'es' if result.successes != 1 else ''}"
    else:
        line += f" -> {result.total}"
    print(line)
    return 0


def _read_only(folder) -> bool:
    import os

    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


EXIT_DAMAGED = 3  # ``tableside export``: every readable entry was written, some rows could not be read


def cmd_export(args: argparse.Namespace) -> int:
    """Write a session's whole log; exit 3 (``EXIT_DAMAGED``) when rows could not be read, naming them."""
    import sqlite3

    from tableside.config import data_dir, load_config, system_config
    from tableside.core.errors import NotFound
    from tableside.core.store import Store
    from tableside.webui.exports import EVERYTHING, export_lines

    folder = data_dir(args.data, None if args.data else load_config(system_config()).data)
    path = folder / "tableside.db"
    if not path.exists():
        raise NotFound(f"no Tableside data in {folder} (use --data or $TABLESIDE_DATA)")
    # On a read-only disk (a backup card, a mount with ``ro``) nobody can write the database, and once its
    # journal was checkpointed (no ``-wal`` file) every entry is in the file: sqlite may read it as immutable,
    # without the ``-shm`` file it would otherwise have to create there.
    read_only = _read_only(folder)
    journal = path.with_name(path.name + "-wal").exists()
    try:
        store = Store.reader(path, immutable=read_only and not journal)
        store.get_meta("active_session")  # sqlite opens lazily: a folder it cannot read is found here
    except sqlite3.OperationalError as exc:
        fix = (
            "it is on a read-only disk with an unfinished journal (tableside.db-wal): copy the folder to a disk "
            "that can be written and use --data there"
            if read_only
            else f"run as the user who owns {folder}, or copy the folder and use --data"
        )
        raise NotFound(f"cannot read {path} ({exc}): {fix}") from None
    session_id = args.session or store.get_meta("active_session")
    if not session_id or not store.get_session(session_id):
        store.close()
        raise NotFound(
            f"no session {session_id!r} in {folder} (GET /api/sessions lists them)"
            if session_id
            else f"no game is on the table in {folder}: start one on the phone, or name a saved one with --session ID"
        )
    damaged: list[dict] = []
    for piece in export_lines(store, session_id, EVERYTHING, args.format, damaged):
        sys.stdout.write(piece)
    sys.stdout.flush()
    if damaged:
        seqs = ", ".join(str(d["seq"]) for d in damaged[:20])
        print(
            f"tableside: {len(damaged)} damaged log entr{'y' if len(damaged) == 1 else 'ies'} could not be read "
            f"({seqs}; {damaged[0]['problem']}); every readable entry was written",
            file=sys.stderr,
        )
        return EXIT_DAMAGED
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
