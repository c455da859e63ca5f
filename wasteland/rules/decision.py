"""Making a ``Decision`` (protocol.py) in the rulesets' ``decider``, asked once or twice
for every decision: the named tuple's own ``__new__`` is a Python function, which compiled
code calls through a Python frame (measured at about 4% of an env turn); ``tuple.__new__``
makes the same object directly."""

from __future__ import annotations

from typing import cast

from .protocol import Decision

_new = tuple.__new__


def decision(combatant: int, slot: str, reaction: str | None = None,
             subject: int | None = None) -> Decision:
    return cast(Decision, _new(Decision, (combatant, slot, reaction, subject)))
