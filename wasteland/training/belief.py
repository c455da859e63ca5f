"""What a decider could know: its enemies out of sight where it last saw them.

The observation (observe/encoding.py) shows an enemy out of a combatant's line of sight at
the square where that combatant last saw it, kept in the observer's memory
(observe/memory.py). The packet and the search read every enemy's true square. A network
taught by them is asked to copy choices made on facts it is never shown, and in a dark or
walled map it learns an average of them. ``last_seen`` moves each hidden enemy to the
decider's remembered square for the length of one decision and puts everything back after,
so a teacher's labels are made on what the network sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from wasteland.observe.memory import Memory


@contextmanager
def standing_at(battle: Any, where: dict[int, int]) -> Iterator[int]:
    """Within the block, combatant slot ``k`` stands on square ``where[k]`` (yields how
    many were moved); a square someone else stands on is not taken. The squares and the
    occupancy are restored on leaving, whatever the block raised."""
    moved: list[tuple[Any, int]] = []
    for slot, square in where.items():
        e = battle.combatants[slot]
        if square != e.pos and square not in battle.occupied:
            moved.append((e, e.pos))
            battle.set_pos(e, square)
    try:
        yield len(moved)
    finally:
        for e, pos in reversed(moved):
            battle.set_pos(e, pos)


def last_seen(battle: Any, me: int, memory: Memory) -> AbstractContextManager[int]:
    """A block within which each enemy of combatant ``me`` that it cannot see now stands
    where ``me`` last saw it by ``memory`` (``standing_at``; it yields how many were
    moved). An enemy never seen, or last seen on a square someone now stands on, is left
    where it is."""
    row = memory.seen_by(me)
    where: dict[int, int] = {}
    if row:
        c = battle.combatants[me]
        sight = battle.grid.sight[c.pos]
        for e in battle.combatants:
            if e.side == c.side or not e.up or sight[e.pos]:
                continue
            rec = row[e.slot] if e.slot < len(row) else None
            if rec is not None:
                where[e.slot] = rec.square
    return standing_at(battle, where)
