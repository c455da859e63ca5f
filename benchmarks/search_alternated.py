"""Two search budgets timed in one run, alternated fight by fight on the same seeds, so the
machine's drift (20-40% within a day here) falls on both alike: seconds a decision, the
longest wait a GM sees between two decisions of the party, continuations a second and the
results, per agent, in one suite seat; and each later agent's wins less the first's, paired
on the seeds, with its 95% interval.

    .venv/bin/python benchmarks/search_alternated.py super_mutants_ruined_street_f2d20 \\
        --agents 'search,search:turn=1' -n 4

(``deadly`` is ``search:rollouts=160,candidates=10,plans=2,full=4``; add ``,turn=1`` to it.)
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import search  # noqa: E402  (benchmarks/search.py)

from wasteland.agents.names import split_agents  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seat", help="a seat suite id (docs/seats.md)")
    ap.add_argument("--agents", required=True, help="two or more agents, comma-separated")
    ap.add_argument("-n", "--fights", type=int, default=4)
    a = ap.parse_args(argv)
    agents = split_agents(a.agents)
    if len(agents) < 2 or not 1 <= a.fights <= 10_000:
        ap.error("give two or more agents and 1 to 10,000 fights")
    from wasteland.agents.make import make_agent
    from wasteland.bestiary.suite import load_suite
    from wasteland.rules.errors import WastelandError

    ids = [s.id for s in load_suite()]
    if a.seat not in ids:
        ap.error(f"unknown seat {a.seat!r}; seats: {', '.join(ids)}")
    for x in agents:
        if x.startswith(("cmd:", "cmd@")):
            continue  # a program is checked as it starts, not started only to check it
        try:  # here, in one line, rather than as a traceback in the first fight
            make_agent(x)
        except WastelandError as e:
            ap.error(f"--agents {x}: {e}")
    got: list[list] = [[] for _ in agents]  # by position: an agent may be named twice
    for seed in range(a.fights):
        for x, mine in zip(agents, got):
            t = time.perf_counter()
            r = search.play_suite((a.seat, x, seed))
            mine.append(r)
            print(f"fight {seed} {x}: {'won' if r[0] else 'lost' if r[1] else 'draw'}, "
                  f"{len(r[2])} decisions, {time.perf_counter() - t:.1f} s", flush=True)
    for x, mine in zip(agents, got):
        times = sorted(t for r in mine for t in r[2])
        waits = sorted(w for r in mine for w in r[4])
        thought = sum(r[6] for r in mine)
        print(f"{x}: won {sum(r[0] for r in mine)} of {a.fights}; "
              f"{sum(times) / max(len(times), 1):.3f} s a decision (99th percentile "
              f"{search._p99(times):.3f}), wait 99th percentile {search._p99(waits):.2f} s, "
              f"longest {waits[-1] if waits else 0:.2f} s, "
              f"{sum(r[5] for r in mine) / thought if thought else 0:.0f} continuations/s")
    first = [r[0] for r in got[0]]
    for x, mine in zip(agents[1:], got[1:]):
        d = [r[0] - f for r, f in zip(mine, first)]
        mean = sum(d) / len(d)
        half = 1.959964 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.inf
        print(f"{x} less {agents[0]}: {mean:+.1%} [{mean - half:+.1%}, {mean + half:+.1%}] "
              f"over {len(d)} fights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
