"""Wasteland: Fallout tabletop combat run by AI agents."""

# Importing wasteland sets nothing global (no environment variable, thread count or
# warnings filter): that is the command line's business (cli/__init__.py,
# one_blas_thread), so a library user's process stays as they set it.
from ._compiled import guard as _guard

__version__ = "0.1.0"

# what runs the hot path: "compiled" (mypyc), "pure" (plain Python) or "stale" (plain
# Python because the sources changed since the build); see _compiled.py
ENGINE = _guard()
