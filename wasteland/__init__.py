"""Wasteland: Fallout tabletop combat run by AI agents."""

from ._compiled import guard as _guard

__version__ = "0.1.0"

# what runs the hot path: "compiled" (mypyc), "pure" (plain Python) or "stale" (plain
# Python because the sources changed since the build); see _compiled.py
ENGINE = _guard()
