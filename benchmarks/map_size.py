"""Memory and time of the largest maps, the measurement behind wasteland/limits.py.

For each size, a fresh subprocess builds an open map (floor inside a wall border, the
worst case: every pair of squares sees every other, so the line-of-sight trace is as
long as it gets) with one combatant in each far corner, then for every ruleset makes a
battle and a combat_v0 env, resets it and plays a few random masked steps. It reports
wall time and peak RSS of the whole subprocess (imports included, about 60 MB).

    .venv/bin/python benchmarks/map_size.py [--sizes 24x14,40x24,48x32,...]

The Scenario is built without validation, but laying out the battle checks the caps
again, so a size past them prints its one-line refusal instead of numbers (the numbers
past the caps in limits.py were measured before the caps existed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import resource, sys, time
t0 = time.perf_counter()
import numpy as np
from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import combat_v0
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

w, h = int(sys.argv[1]), int(sys.argv[2])
rows = ["#" * w] + ["#" + "." * (w - 2) + "#" for _ in range(h - 2)] + ["#" * w]
data = {"id": "big", "name": "Big", "map": "\n".join(rows),
        "legend": {".": "floor", "#": "wall"},
        "sides": [{"name": "A", "combatants": [{"creature": "vault_dweller", "at": [1, 1]}]},
                  {"name": "B", "combatants": [{"creature": "raider", "at": [w - 2, h - 2]}]}]}
# model_construct skips the model's validation (lay_out still checks the caps)
s = Scenario.model_construct(
    id="big", name="Big", description="", map=data["map"], legend=data["legend"],
    lighting="clear", max_rounds=30,
    sides=[Side.model_construct(name=sd["name"], alert=True, combatants=[
        Placement.model_construct(creature=p["creature"], at=tuple(p["at"]), id=None, ai=None)
        for p in sd["combatants"]]) for sd in data["sides"]])
t1 = time.perf_counter()
rng = np.random.default_rng(0)
for name in RULESETS:
    R = get_ruleset(name)
    R.new_battle(s, 1)
    e = combat_v0.env(ruleset=name, scenario=s)
    e.reset(seed=1)
    for _ in range(20):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
t2 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {rss:.0f}")
"""


def measure(w: int, h: int) -> tuple[float, float, float] | str:
    p = subprocess.run([sys.executable, "-c", CHILD, str(w), str(h)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        return (p.stderr.strip().splitlines() or ["failed"])[-1]
    a, b, c = p.stdout.split()
    return float(a), float(b), float(c)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="24x14,32x12,12x32,25x16,20x20")
    args = ap.parse_args()
    print(f"{'map':>8} {'cells':>6} {'import s':>9} {'build s':>8} {'peak MB':>8}")
    for size in args.sizes.split(","):
        w, h = (int(v) for v in size.split("x"))
        got = measure(w, h)
        if isinstance(got, str):
            print(f"{size:>8} {w * h:>6}  failed: {got}")
        else:
            print(f"{size:>8} {w * h:>6} {got[0]:>9.2f} {got[1]:>8.2f} {got[2]:>8.0f}")


if __name__ == "__main__":
    main()
