"""What the search's parts cost, per ruleset, next to PettingZoo's connect_four_v3 in the
same run (this machine's speed drifts 20-40% within a day: compare ratios).

On ruined_street, states are taken from packet fights (seeds 0.., every decision of the
second round) and, for each ruleset:
- fork: microseconds to fork a battle (rules/fork.py);
- rollouts/s: continuations a second (fork, a legal action, packets on every side) cut
  after the default horizon, and played to the end (horizon 0);
- decisions/s: the search agent's decisions a second at a budget (default ``search``).
connect_four: raw AEC env steps a second with random legal moves, the yardstick the
other benchmarks use.

    .venv/bin/python benchmarks/search_speed.py [--seconds 3] [--agent search] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from env_throughput import aec_turns, connect_four_env  # noqa: E402

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.agents.search import Budget, continuation  # noqa: E402
from wasteland.bestiary.loader import load_scenario  # noqa: E402
from wasteland.rules.fork import fork  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402


def states(ruleset: str, scenario: str, n: int) -> list:
    """Up to ``n`` forks of battles at their second round's decisions (packets play)."""
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    out = []
    seed = 0
    while len(out) < n and seed < 10 * n:
        b = rs.new_battle(sc, seed, keep_log=False)
        b.quiet = True
        agents = [make_agent("packet", seed + s) for s in range(len(b.side_names))]
        while not b.over and b.round <= 2:
            v = view_of(rs, b)
            if b.round == 2 and len(v.legal_ids) > 1:
                out.append(fork(b, seed))
            rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v), check=False)
        seed += 1
    return out[:n]


def rate(fn, items: list, seconds: float) -> float:
    """Calls of ``fn`` over ``items`` (round and round) a second."""
    n, start = 0, time.perf_counter()
    while True:
        for x in items:
            fn(x)
            n += 1
        if time.perf_counter() - start > seconds:
            return n / (time.perf_counter() - start)


def measure(ruleset: str, scenario: str, agent: str, seconds: float) -> dict:
    rs = get_ruleset(ruleset)
    pool = states(ruleset, scenario, 40)
    rng = random.Random(0)
    firsts = [rng.choice(view_of(rs, b).legal_ids) for b in pool]
    pairs = list(zip(pool, firsts))
    horizon = Budget().horizon
    fork_rate = rate(lambda b: fork(b, 1), pool, seconds)
    cut = rate(lambda p: continuation(rs, p[0], p[1], 1, 7, horizon, PacketAgent), pairs,
               seconds)
    full = rate(lambda p: continuation(rs, p[0], p[1], 1, 7, 0, PacketAgent), pairs, seconds)
    searcher = make_agent(agent, 0)
    decisions = rate(lambda b: searcher.act(view_of(rs, b)), pool, seconds)
    return {"ruleset": ruleset, "scenario": scenario, "states": len(pool),
            "fork_us": 1e6 / fork_rate, "rollouts_per_s": cut, "horizon": horizon,
            "full_rollouts_per_s": full, "agent": agent, "decisions_per_s": decisions}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--scenario", default="ruined_street")
    ap.add_argument("--agent", default="search")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    c4 = aec_turns([connect_four_env()], a.seconds)[0]
    rows = [measure(r, a.scenario, a.agent, a.seconds) for r in RULESETS]
    c4_after = aec_turns([connect_four_env()], a.seconds)[0]
    if a.json:
        print(json.dumps({"connect_four_steps_per_s": [c4, c4_after], "rows": rows}, indent=1))
        return 0
    print(f"connect_four_v3 raw env: {c4:,.0f} steps/s before, {c4_after:,.0f} after")
    print(f"{'ruleset':8} {'fork us':>8} {'c4 steps/fork':>13} {'rollouts/s':>11} "
          f"{'full/s':>8} {'decisions/s':>12}  ({a.agent}, {a.scenario})")
    for r in rows:
        print(f"{r['ruleset']:8} {r['fork_us']:8.0f} {r['fork_us'] * c4 / 1e6:13.1f} "
              f"{r['rollouts_per_s']:11.0f} {r['full_rollouts_per_s']:8.0f} "
              f"{r['decisions_per_s']:12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
