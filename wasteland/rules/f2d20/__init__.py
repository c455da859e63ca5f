"""Fallout 2d20 (seeds 002 and 003): minor / major actions, Action Points, combat dice."""

from .ruleset import F2d20

__all__ = ["F2d20"]
