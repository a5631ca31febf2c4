"""Packages are found, never listed: a new folder with an ``__init__.py`` (a fifth game system in
``core/systems/``) is in the wheel without editing anything.

The folders stay at the top of the repository and install inside the ``tableside`` namespace
(pyproject's ``package-dir``), so each name setuptools finds gets that prefix. Everything else
is declared in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = ("core", "device", "display", "webui")

setup(
    packages=[
        "tableside",
        "tableside.rulebooks",  # data only: the rulebooks in docs/rulebooks (pyproject's package-dir)
        *(
            f"tableside.{name}"
            for name in find_packages(include=[f"{top}{tail}" for top in FOLDERS for tail in ("", ".*")])
        ),
    ]
)
