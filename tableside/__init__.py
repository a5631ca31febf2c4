"""The composition root: the ``tableside`` command wires core, device, display and webui."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """``tableside.__version__``: pyproject's version as installed (one source), read only when asked:
    importlib.metadata is not on the start-up path."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("tableside")
        except PackageNotFoundError:  # a source tree on sys.path that was never installed
            return "0+unknown"
    raise AttributeError(f"module 'tableside' has no attribute {name!r}")
