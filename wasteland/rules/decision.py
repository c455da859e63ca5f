"""Making a ``Decision`` (protocol.py) in the rulesets' ``decider``, asked once or twice
for every decision: the named tuple's own ``__new__`` is a Python function, which compiled
code calls through a Python frame (measured at about 4% of an env turn); ``tuple.__new__``
makes the same object directly, and a plain decision is made once."""

from __future__ import annotations

from typing import Final, cast

from .protocol import Decision

_new = tuple.__new__
# the decisions with no reaction and no subject, by slot, then by combatant: a turn's
# decisions are these, and a Decision is an immutable value, so one object serves all
_PLAIN: Final[dict[str, list[Decision | None]]] = {}


def decision(combatant: int, slot: str, reaction: str | None = None,
             subject: int | None = None) -> Decision:
    if reaction is None and subject is None and 0 <= combatant < 64:
        row = _PLAIN.get(slot)
        if row is None:
            row = _PLAIN[slot] = [None] * 64
        got = row[combatant]
        if got is None:
            got = row[combatant] = cast(Decision, _new(Decision, (combatant, slot, None, None)))
        return got
    return cast(Decision, _new(Decision, (combatant, slot, reaction, subject)))
