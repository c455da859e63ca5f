"""Callbacks shared by the commands' options."""

from __future__ import annotations


def lowered(value: str | None) -> str | None:
    """A ruleset's name as the code spells it: ``--ruleset F2D20`` or ``PnP`` is meant as
    ``f2d20`` or ``pnp``, and the save records the canonical name."""
    return value.strip().lower() if value is not None else None


# the agents --ai and --agents take, the levels first (agents/levels.py: what each is)
AGENT_NAMES = ("a level, easy (the packet, a third of its choices random), normal (the "
               "packet), hard or deadly (the packet's choice checked by a search: stronger, "
               "slower); or packet, scripted, random, search, policy:NAME (a "
               "shipped policy, or policy:path/to/NAME.npz), cmd:COMMAND (a program "
               "speaking the agent protocol, docs/protocol.md). `wasteland agents` lists "
               "them")
