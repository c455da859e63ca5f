"""Measuring agents in the seats of the suite (the seats themselves, their file and
loader: bestiary/suite.py; docs/seats.md).

The agent under test plays the seat's family's creatures on the seat's side; the rest of
that side and the other side are packets (``training.seats.seat``); in a mirror seat it
plays both sides in turn, swapping every other fight (``training.seats.mirror``).

    from wasteland.arena.suite import measure
    from wasteland.bestiary.suite import load_suite, select
    for s in select(load_suite(), family="robots", bar_only=True):
        print(s.id, s.rate, measure(s, "search", fights=200).win_rate)
"""

from __future__ import annotations

from typing import Any

from wasteland.bestiary.suite import Seat
from wasteland.training.seats import Record, mirror, seat


def measure(s: Seat, agent: str | Any = "packet", fights: int = 100, first_seed: int = 0,
            opponents: str | Any = "packet") -> Record:
    """``agent`` (a name or a seed -> Agent maker) in seat ``s`` for seeds first_seed ..
    first_seed + fights - 1; the opponents and the seat's allies are packets."""
    sc = s.load()
    if s.side is None:
        return mirror(agent, sc, s.ruleset, s.kinds, fights=fights, first_seed=first_seed,
                      opponents=opponents)
    return seat(agent, sc, s.ruleset, s.kinds, seat_side=s.side, fights=fights,
                first_seed=first_seed, opponents=opponents)
