"""Issue 10's acceptance sweeps for shipped policies: the seat test, the unseen-map test and
the mirror test, each a paired comparison with the packet on the same seeds.

    .venv/bin/python benchmarks/policy_seats.py                      # every shipped policy
    .venv/bin/python benchmarks/policy_seats.py radscorpion_pnp -n 1000 --jobs 2
    .venv/bin/python benchmarks/policy_seats.py --seats maps     # issue 10's maps, untuned

Seats (--seats suite, the default): the seat suite's seats with a bar for the policy's
family and ruleset (wasteland/bestiary/seats/, docs/seats.md), where the packet wins 35-65%
against packets: its built-in and new maps make the seat test, its held-out maps the
unseen test, its mirror seat the mirror test. --seats maps: every built-in scenario and
held-out map where the creatures fight, as first written, and four drawn mirror arenas.

* seat: on each built-in scenario where its creatures fight, the policy plays them (the
  rest of their side and the other side are packets), then the packet plays the same seat
  on the same seeds. Passes when the policy wins at least 5 points more often and the 95%
  interval of the difference (Newcombe) is above 0.
* unseen: the same on the held-out maps (wasteland/training/heldout/, never trained on);
  passes when the interval of the difference includes or is above 0.
* mirror: its creatures against the same creatures (mirror arenas), sides swapped every
  other fight, the packet on the other side; passes when the Wilson 95% lower bound of
  the policy's share of decided fights is above 0.5. Draws are reported.

Prints a table per policy and one JSON line per policy (what the closing note quotes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from wasteland.agents.policy import PolicyAgent, load_policy, shipped_names
from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.bestiary.models import Scenario
from wasteland.rules.errors import WastelandError
from wasteland.training.seats import Record, difference_interval, mirror, seat
from wasteland.training.stats import wilson

MAX_FIGHTS = 100_000  # benchmark_table.py's cap
MAX_SEED = 2**31 - 1  # a training config's seed cap: battle seeds stay within it

HELDOUT = Path(__file__).resolve().parent.parent / "wasteland" / "training" / "heldout"


def scenarios_with(kinds: frozenset[str], paths: list[str]) -> list[Scenario]:
    out = []
    for p in paths:
        sc = load_scenario(p)
        if any(c.creature in kinds for side in sc.sides for c in side.combatants):
            out.append(sc)
    return out


def _chunk(args: tuple[str, str, Any, str, int, int, str, int | None]) -> dict[str, int]:
    """One slice of fights (a worker process): 'policy' or 'packet' in the seat."""
    name, kind, scenario, ruleset, first, n, who, side = args
    pol = _load(name)
    maker = (lambda s: PolicyAgent(pol, s)) if who == "policy" else "packet"
    if kind == "mirror":
        r = mirror(maker, scenario, ruleset, sorted(pol.kinds), fights=n, first_seed=first)
    else:
        r = seat(maker, scenario, ruleset, sorted(pol.kinds), seat_side=side, fights=n,
                 first_seed=first)
    return {"fights": r.fights, "wins": r.wins, "losses": r.losses, "draws": r.draws}


def run(pool: ProcessPoolExecutor, name: str, kind: str, sc: Scenario, ruleset: str,
        n: int, jobs: int, who: str, side: int | None = None, first: int = 0) -> Record:
    step = -(-n // jobs)
    parts = [(name, kind, sc, ruleset, first + i, min(step, n - i), who, side)
             for i in range(0, n, step)]
    r = Record()
    for d in pool.map(_chunk, parts):
        r.fights += d["fights"]
        r.wins += d["wins"]
        r.losses += d["losses"]
        r.draws += d["draws"]
    return r


def mirror_scenarios(kinds: frozenset[str]) -> list[Scenario]:
    import numpy as np

    from wasteland.training.mirror import mirror_arena

    return [mirror_arena(np.random.default_rng(7_000 + k), sorted(kinds)) for k in range(4)]


def suite_seats(kinds: frozenset[str], ruleset: str) -> dict[str, list[tuple[Scenario, int | None]]]:
    """The suite's seats with a bar for the family of ``kinds`` under ``ruleset``, by test."""
    from wasteland.bestiary.suite import FAMILIES, load_suite, select

    family = next((f for f, ks in FAMILIES.items() if kinds & set(ks)), None)
    out: dict[str, list[tuple[Scenario, int | None]]] = {"seat": [], "unseen": [], "mirror": []}
    if family is None:
        return out
    test = {"built-in": "seat", "held-out": "unseen", "mirror": "mirror"}
    for s in select(load_suite(), family, ruleset, bar_only=True):
        out[test[s.kind]].append((s.load(), s.side))
    return out


def five_points_ahead(wins: int, fights: int, base_wins: int, base_fights: int) -> bool:
    """Whether a win rate is at least 5 points above the baseline's, counted in whole
    fights (594 - 544 of 1,000 is 5 points, though 0.594 - 0.544 < 0.05 in floats)."""
    return (wins * base_fights - base_wins * fights) * 20 >= fights * base_fights


def _load(name: str) -> Any:
    """A shipped policy by name, or the one at a path."""
    return load_policy(name) if "/" not in name else load_policy(Path(name))


def sweep(name: str, n: int, jobs: int, pool: ProcessPoolExecutor,
          seats: str = "suite", first: int = 0) -> dict[str, Any]:
    pol = _load(name)
    rs = pol.ruleset
    out: dict[str, Any] = {"policy": pol.name, "ruleset": rs, "fights": n, "seats": seats,
                           "first_seed": first, "seat": [], "unseen": [], "mirror": []}
    if seats == "suite":
        chosen = suite_seats(pol.kinds, rs)
    else:
        heldout = sorted(str(p) for p in HELDOUT.glob("*.yaml"))
        chosen = {"seat": [(sc, None) for sc in scenarios_with(pol.kinds, scenario_names())],
                  "unseen": [(sc, None) for sc in scenarios_with(pol.kinds, heldout)],
                  "mirror": [(sc, None) for sc in mirror_scenarios(pol.kinds)]}
    for test in ("seat", "unseen"):
        for sc, side in chosen[test]:
            t = time.time()
            a = run(pool, name, "seat", sc, rs, n, jobs, "policy", side, first)
            b = run(pool, name, "seat", sc, rs, n, jobs, "packet", side, first)
            lo, hi = difference_interval(a, b)
            ahead = five_points_ahead(a.wins, a.fights, b.wins, b.fights)
            ok = (ahead and lo > 0) if test == "seat" else hi >= 0
            out[test].append({"scenario": sc.id, "policy": a.as_dict(), "packet": b.as_dict(),
                              "difference": round(a.win_rate - b.win_rate, 4),
                              "difference95": [round(lo, 4), round(hi, 4)], "pass": ok,
                              "seconds": round(time.time() - t, 1)})
    total = Record()
    arenas = [sc for sc, _ in chosen["mirror"]]
    if not arenas:
        out["pass"] = all(r["pass"] for k in ("seat", "unseen") for r in out[k])
        return out
    for k, sc in enumerate(arenas):  # the fights spread over the arenas, pooled
        share = n // len(arenas) + (1 if k < n % len(arenas) else 0)
        a = run(pool, name, "mirror", sc, rs, share, jobs, "policy", first=first)
        for f in ("fights", "wins", "losses", "draws"):
            setattr(total, f, getattr(total, f) + getattr(a, f))
        out["mirror_arenas"] = out.get("mirror_arenas", []) + [{"arena": sc.map, **a.as_dict()}]
    decided = total.wins + total.losses
    lo, hi = wilson(total.wins, decided)
    out["mirror"].append({"arena": f"{len(arenas)} mirror arenas", **total.as_dict(),
                          "decided": decided,
                          "decided_win_rate": round(total.wins / decided, 4) if decided else None,
                          "decided95": [round(lo, 4), round(hi, 4)], "pass": lo > 0.5})
    out["pass"] = all(r["pass"] for k in ("seat", "unseen", "mirror") for r in out[k])
    return out


def show(res: dict[str, Any]) -> None:
    first = res.get("first_seed", 0)
    print(f"\n{res['policy']} ({res['ruleset']}), {res['fights']} fights each, seeds "
          f"{first}..{first + res['fights'] - 1}")
    for test in ("seat", "unseen"):
        for r in res[test]:
            a, b = r["policy"], r["packet"]
            print(f"  {test:<7}{r['scenario']:<22} policy {a['win_rate']:6.1%} "
                  f"(W{a['wins']}/L{a['losses']}/D{a['draws']})  packet {b['win_rate']:6.1%} "
                  f"(W{b['wins']}/L{b['losses']}/D{b['draws']})  diff {r['difference']:+.1%} "
                  f"[{r['difference95'][0]:+.1%}, {r['difference95'][1]:+.1%}]  "
                  f"{'pass' if r['pass'] else 'FAIL'}")
    for r in res["mirror"]:
        print(f"  mirror {r['arena']:<22} W{r['wins']}/L{r['losses']}/D{r['draws']}  decided "
              f"{(r['decided_win_rate'] or 0):6.1%} [{r['decided95'][0]:.1%}, "
              f"{r['decided95'][1]:.1%}]  {'pass' if r['pass'] else 'FAIL'}")
    print(f"  => {'PASS' if res['pass'] else 'FAIL'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policies", nargs="*", help="shipped names or paths (default: all shipped)")
    p.add_argument("-n", "--fights", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seats", choices=("suite", "maps"), default="suite",
                   help="the seat suite's tuned seats (default) or the maps as written")
    p.add_argument("--first-seed", type=int, default=0,
                   help="play seeds FIRST..FIRST+N-1 (default 0, the acceptance seeds); pick "
                        "a checkpoint on other seeds, e.g. 1000, then test it on 0..999")
    a = p.parse_args(argv)
    if not 1 <= a.fights <= MAX_FIGHTS or not 1 <= a.jobs <= 64:
        p.error(f"--fights must be 1 to {MAX_FIGHTS:,} and --jobs 1 to 64")
    if not 0 <= a.first_seed <= MAX_SEED - a.fights:
        p.error(f"--first-seed must be 0 to {MAX_SEED - a.fights:,} (the last seed played, "
                f"FIRST + N - 1, stays below 2**31)")
    names = a.policies or shipped_names()
    for name in names:  # every file readable before hours of fights start
        try:
            _load(name)
        except WastelandError as e:
            p.error(str(e))
    ok = True
    with ProcessPoolExecutor(a.jobs) as pool:
        for name in names:
            res = sweep(name, a.fights, a.jobs, pool, a.seats, a.first_seed)
            show(res)
            print(json.dumps(res))
            ok &= res["pass"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
