"""Live odds: `odds` in play and gm, like a chess engine's evaluation bar. The rest of the
fight is simulated from the battle in memory (no save) for about a second, packets on
every side, and said in one line.

The game is not touched: every continuation plays a copy (sim/branch.py) with its own
dice and fresh agents, so the battle's RNG and the game's agents are where they were.
The continuations are seeded from the moment (the battle's seed and the number of moves
made), so asking twice at the same moment replays the same fights; only how many fit in
the time budget may differ.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass

from wasteland.limits import MAX_SEED
from wasteland.rules.battle import Battle
from wasteland.rules.rulesets import get_ruleset

from .branch import fight_from, from_spec
from .runner import run
from .tally import Tally
from .verdict import pct

BUDGET = 1.0  # seconds: what a player waits for at the table
MOST = 400  # fights: the win rate then known within about +-5 points, enough for a bar
# one process: a continuation from mid-fight takes a few milliseconds, and a pool's start
# (fork, then the first chunk) plus the wait for its last chunk ate most of the gain over
# a second on this project's 2-core machines (docs/simulate.md, "Live odds")
JOBS = 1


@dataclass
class Odds:
    tally: Tally
    seconds: float

    def line(self) -> str:
        """'odds: your side wins 64% [58-70] over 200 fights from here (packet AI both
        sides), someone dies in 12%'."""
        t = self.tally
        lo, hi = t.win_interval()
        n = max(t.n, 1)
        both = "both sides" if len(t.spec.side_names) == 2 else "every side"
        return (f"odds: your side wins {pct(t.outcomes['win'] / n)}% [{pct(lo)}-{pct(hi)}] "
                f"over {t.n} fights from here (packet AI {both}), someone dies in "
                f"{pct(t.anyone_died / n)}%")


def moment_seed(b: Battle) -> int:
    """The continuations' first seed: the same for the same moment of the same fight."""
    return (b.seed + len(b.moves) * 1_000_003) % (MAX_SEED - 2 * MOST)


def live_odds(b: Battle, side: int, budget: float | None = None, most: int | None = None,
              jobs: int | None = None) -> Odds:
    """Continuations of ``b`` for ``side`` until ``budget`` seconds (BUDGET) have passed or
    ``most`` (MOST) were fought, at least one, in seed order, on ``jobs`` (JOBS) processes."""
    start = time.perf_counter()
    budget = BUDGET if budget is None else budget
    most = MOST if most is None else most
    jobs = JOBS if jobs is None else jobs
    spec = from_spec(b, ["packet"], side)
    tally = Tally(spec)
    seed = moment_seed(b)
    if jobs <= 1:
        rs = get_ruleset(b.ruleset)
        for s in range(seed, seed + most):
            tally.add(fight_from(rs, spec, s))
            if time.perf_counter() - start >= budget:
                break
    else:
        with closing(run(spec, fight_from, seed, most, jobs)) as records:
            for r in records:
                tally.add(r)
                if time.perf_counter() - start >= budget:
                    break
    return Odds(tally, time.perf_counter() - start)
