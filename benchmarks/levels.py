"""The difficulty levels' measured strength and time a decision (agents/levels.py MEASURED,
shown by `wasteland agents`).

Strength: `wasteland evaluate`'s round robin of the levels (every pair, both side orders)
on the seat suite's maps (docs/seats.md) of the rulesets given, openskill mu with the
packet ("normal") anchored at 25. Time: the mean seconds of one decision of each level on
states of those fights (benchmarks/search_speed.py's states, every ruleset given).

    .venv/bin/python benchmarks/levels.py --rulesets pnp --games 2 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from search_speed import states  # noqa: E402

from wasteland.agents.base import LEVEL_AGENTS, view_of  # noqa: E402
from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.cli.evaluate import run  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402


def seconds_a_decision(level: str, rulesets: list[str], scenario: str) -> float:
    total = n = 0.0
    for r in rulesets:
        rs = get_ruleset(r)
        agent = make_agent(level, 0)
        for b in states(r, scenario, 20):
            t = time.perf_counter()
            agent.act(view_of(rs, b))
            total += time.perf_counter() - t
            n += 1
    return total / max(n, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rulesets", default="pnp")
    ap.add_argument("--suite", default="all")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--scenario", default="ruined_street", help="where decisions are timed")
    a = ap.parse_args(argv)
    levels = list(LEVEL_AGENTS)
    rep = run(",".join(levels), None, a.rulesets, a.games, 0, a.jobs, None, None, None, True,
              False, suite=a.suite)
    mu = {r["agent"]: r["mu"] for r in rep["ratings"]}
    print(f"{rep['games']} games on the {a.suite} suite's maps ({a.rulesets}) in "
          f"{rep['seconds']:.0f} s")
    print("MEASURED = {")
    for level in levels:
        s = seconds_a_decision(level, a.rulesets.split(","), a.scenario)
        print(f'    "{level}": ({mu.get(level, float("nan")):.1f}, {s:.4f}),')
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
