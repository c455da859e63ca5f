"""Raw AEC env turns/s of two or more checkouts, alternated, with medians.

    python benchmarks/env_alternated.py --ruleset f2d20 --rounds 8 --seconds 2 \\
        /work/wt/base /work/main

Each round runs benchmarks/env_throughput.py's loop (random masked play over every built-in
scenario, after half a second of warm-up) once per checkout, each in a fresh process with
that checkout first on the path, in turn (the order flips each round). This machine's speed
drifts by 5-10% between runs a minute apart, so one run each, or three, can show a change
that is not there (docs/speed.md, "Counted and timed"): compare the medians and the median of
the round-by-round ratios, whose spread says how far to trust it. Build each checkout first
(``python setup.py build_ext --inplace`` in it); a stale build is refused. It runs the
code of each checkout it is given (that is what it measures): name only checkouts you
would run yourself.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from wasteland.rules.names import RULESETS

_LOOP = (
    "import sys; sys.path.insert(0, 'benchmarks'); import env_throughput as et; "
    "import wasteland; from wasteland.envs import combat_v0; "
    "from wasteland.bestiary.loader import scenario_names; "
    "envs = [combat_v0.raw_env(ruleset={ruleset!r}, scenario=s) for s in scenario_names()]; "
    "et.aec_turns(envs, 0.5); print(wasteland.ENGINE, et.aec_turns(envs, {seconds})[0])")


def summary(turns: dict[str, list[float]]) -> list[str]:
    """Lines: each checkout's median, least and most turns/s, then for each checkout after
    the first the median (and range) of its round-by-round ratio to the first."""
    names = list(turns)
    out = [f"{n}: median {statistics.median(v):,.0f}  min {min(v):,.0f}  max {max(v):,.0f} "
           f"turns/s ({len(v)} runs)" for n, v in turns.items()]
    first = turns[names[0]]
    for n in names[1:]:
        ratios = sorted(b / a for a, b in zip(first, turns[n]))
        out.append(f"{n} / {names[0]}: median {statistics.median(ratios):.3f}  "
                   f"range {ratios[0]:.3f}-{ratios[-1]:.3f}")
    return out


def run_once(tree: Path, ruleset: str, seconds: float) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    got = subprocess.run([sys.executable, "-c", _LOOP.format(ruleset=ruleset, seconds=seconds)],
                         cwd=tree, env=env, capture_output=True, text=True)
    words = got.stdout.split()
    if got.returncode != 0 or len(words) != 2:
        last = (got.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"env_alternated: {tree}: the env loop failed: {last}")
    if words[0] != "compiled":
        raise SystemExit(f"env_alternated: {tree}: the engine is {words[0]}, not compiled: "
                         f"build it first (python setup.py build_ext --inplace there)")
    return float(words[1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trees", nargs="+", type=Path, help="checkouts to compare (first: base)")
    p.add_argument("--ruleset", choices=RULESETS, default="f2d20")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--seconds", type=float, default=2.0)
    a = p.parse_args(argv)
    if len(a.trees) < 2:
        p.error("trees: at least two checkouts to compare")
    if not 1 <= a.rounds <= 1000 or not 0.1 <= a.seconds <= 600:
        p.error("rounds: 1 to 1,000; seconds: 0.1 to 600")
    for t in a.trees:
        if not (t / "benchmarks" / "env_throughput.py").is_file() or not (t / "wasteland").is_dir():
            p.error(f"{t}: not a Wasteland checkout (no benchmarks/env_throughput.py)")
    turns: dict[str, list[float]] = {str(t): [] for t in a.trees}
    for k in range(a.rounds):
        for t in (a.trees if k % 2 == 0 else a.trees[::-1]):
            turns[str(t)].append(run_once(t.resolve(), a.ruleset, a.seconds))
    print(f"raw AEC env [{a.ruleset}], {a.rounds} rounds of {a.seconds:g} s, alternated")
    print("\n".join(summary(turns)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
