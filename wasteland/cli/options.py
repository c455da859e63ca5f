"""Callbacks shared by the commands' options."""

from __future__ import annotations


def lowered(value: str | None) -> str | None:
    """A ruleset's name as the code spells it: ``--ruleset F2D20`` or ``PnP`` is meant as
    ``f2d20`` or ``pnp``, and the save records the canonical name."""
    return value.strip().lower() if value is not None else None
