"""Milliseconds per packet-agent decision, in every built-in scenario under both rulesets.

One PacketAgent plays every combatant (as an NPC-run fight or the GM's autopilot would),
fight after fight with seeds 0, 1, 2 ... until each scenario has given ``--decisions``
decisions; only ``agent.act(view)`` is timed (not the ruleset's legal actions or apply).
Battles run with keep_log=False and quiet, as simulations do.

Bar: under 5 ms per decision, mean and 99th percentile, in every scenario.

    .venv/bin/python benchmarks/npc_decision.py [--decisions 3000] [--ruleset pnp] [--json]
    .venv/bin/python benchmarks/npc_decision.py --profile   # cProfile of the agent, top 25
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.bestiary.loader import load_scenario, scenario_names  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402

BAR_MS = 5.0


def decision_times(rules: str, name: str, decisions: int) -> list[float]:
    """Seconds per ``act`` call over at least ``decisions`` decisions."""
    rs = get_ruleset(rules)
    s = load_scenario(name)
    out: list[float] = []
    seed = 0
    clock = time.perf_counter
    while len(out) < decisions:
        b = rs.new_battle(s, seed, keep_log=False)
        b.quiet = True
        agent = PacketAgent(seed)
        while not b.over:
            view = view_of(rs, b)
            t0 = clock()
            action = agent.act(view)
            out.append(clock() - t0)
            rs.apply(b, action, check=False)
        seed += 1
    return out


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=3000, help="per scenario and ruleset")
    ap.add_argument("--ruleset", choices=RULESETS, action="append")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    ap.add_argument("--profile", action="store_true", help="cProfile the runs, top 25")
    args = ap.parse_args()
    rulesets = args.ruleset or list(RULESETS)
    prof = cProfile.Profile() if args.profile else None
    rows = []
    for rules in rulesets:
        for name in scenario_names():
            if prof:
                prof.enable()
            times = decision_times(rules, name, args.decisions)
            if prof:
                prof.disable()
            ms = [t * 1000 for t in times]
            rows.append({"ruleset": rules, "scenario": name, "decisions": len(ms),
                         "mean_ms": statistics.fmean(ms), "p50_ms": percentile(ms, 0.5),
                         "p99_ms": percentile(ms, 0.99), "max_ms": max(ms)})
    ok = all(r["mean_ms"] < BAR_MS and r["p99_ms"] < BAR_MS for r in rows)
    if args.json:
        print(json.dumps({"bar_ms": BAR_MS, "ok": ok, "rows": rows}, indent=1))
    else:
        print(f"{'ruleset':7} {'scenario':15} {'decisions':>9} {'mean ms':>8} {'p50 ms':>7} "
              f"{'p99 ms':>7} {'max ms':>7}")
        for r in rows:
            print(f"{r['ruleset']:7} {r['scenario']:15} {r['decisions']:9d} {r['mean_ms']:8.3f} "
                  f"{r['p50_ms']:7.3f} {r['p99_ms']:7.3f} {r['max_ms']:7.2f}")
        print(f"bar: mean and p99 under {BAR_MS} ms in every scenario: "
              f"{'met' if ok else 'NOT met'}")
    if prof:
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(25)
        print(buf.getvalue())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
