"""``python -m tableside``: the same command as ``tableside``."""

from tableside.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
