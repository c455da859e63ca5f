"""`simulate --balance`: the enemy count closest to a difficulty the GM names.

The enemies grow one creature at a time, from one, until the encounter is past the target
(for deadly: is deadly), or the map or the battle is full; each count is fought with the same seeds, so two
counts differ by the extra enemy and not by luck of the dice. The pick is the count whose
verdict is the target, or the nearest rung; between equals, the one whose party win rate
is nearest the middle of the target's win band, then the one nearer the target
(docs/simulate.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from wasteland.rules.errors import WastelandError

from .simulate import Simulation
from .tally import Tally
from .verdict import DEADLY, RUNGS, VERDICTS

# the party win rate in the middle of each verdict's band (trivial 98-100%, easy 95-98%,
# medium 85-95%, hard 60-85%, deadly below 60%)
_tops = [1.0, *(r.min_win for r in RUNGS)]
BAND_MIDDLE = {r.name: (lo + hi) / 2 for r, lo, hi in
               zip((*RUNGS, DEADLY), (*(r.min_win for r in RUNGS), 0.0), _tops)}


@dataclass
class Candidate:
    count: int
    enemies: list[str]
    sim: Simulation

    @property
    def tally(self) -> Tally:
        return cast(Tally, self.sim.tally)  # a balance search fights single encounters

    @property
    def verdict(self) -> str:
        return self.tally.verdict()

    @property
    def win(self) -> float:
        t = self.tally
        return t.outcomes["win"] / max(t.n, 1)


def enemy_lists(base: list[str], vary: str | None, most: int) -> Iterator[list[str]]:
    """Enemy lists of 1, 2, ... creatures, at most ``most``: without ``vary`` the first k
    of ``base`` taken round and round; with it, ``base`` with k of ``vary`` where it
    stands in the list (the other enemies as they are)."""
    if vary is None:
        for k in range(1, most + 1):
            yield [base[i % len(base)] for i in range(k)]
        return
    at = base.index(vary)
    before = [c for c in base[:at] if c != vary]
    after = [c for c in base[at:] if c != vary]
    for k in range(1, most - len(before) - len(after) + 1):
        yield before + [vary] * k + after


def enemies_text(creatures: list[str]) -> str:
    """The --enemies value that gives exactly this list: runs of one creature counted
    ("raider, 2 radscorpion"), in order, since the order places them on the map."""
    runs: list[list[object]] = []
    for c in creatures:
        if runs and runs[-1][1] == c:
            runs[-1][0] = int(str(runs[-1][0])) + 1
        else:
            runs.append([1, c])
    return ", ".join(str(c) if k == 1 else f"{k} {c}" for k, c in runs)


def pick(candidates: list[Candidate], target: str) -> int:
    """The index of the candidate closest to ``target`` (see the module's docstring)."""
    t = VERDICTS.index(target)
    middle = BAND_MIDDLE[target]

    def key(i: int) -> tuple[int, float, int]:
        rank = VERDICTS.index(candidates[i].verdict)
        # still equal: the count nearer the target, more enemies when all are too easy
        return abs(rank - t), abs(candidates[i].win - middle), -i if rank < t else i

    return min(range(len(candidates)), key=key)


def search(lists: Iterator[list[str]], fight: Callable[[list[str]], Simulation],
           target: str) -> tuple[list[Candidate], int, str | None]:
    """Fight each enemy list in turn until one is harder than ``target``. Returns the
    candidates, the index of the pick and why the search stopped before passing the
    target (the map or the battle full), if it did."""
    t = VERDICTS.index(target)
    out: list[Candidate] = []
    stopped: str | None = None
    for enemies in lists:
        try:
            sim = fight(enemies)
        except WastelandError as e:
            if not out:
                raise
            stopped = str(e)  # no room for one more: the last count that fit is the most
            break
        out.append(Candidate(len(enemies), enemies, sim))
        rank = VERDICTS.index(out[-1].verdict)
        # past the target, every further count is harder still; nothing is past deadly,
        # so for it the first deadly count ends the search
        if sim.interrupted or rank > t or rank == t == len(VERDICTS) - 1:
            break
    else:
        if out and VERDICTS.index(out[-1].verdict) < t:
            stopped = "the battle is full (10 combatants)"
    return out, pick(out, target), stopped
