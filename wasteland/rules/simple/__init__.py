"""J.E. Sawyer's Simple system (seed 001_0912b5c6442fb3b1.txt) on hexes."""

from .ruleset import Simple

__all__ = ["Simple"]
