"""Instructions and first-level cache misses of one raw AEC env turn, counted by valgrind.

    python benchmarks/env_counts.py --ruleset simple --turns 6000 --warm 6000

Plays benchmarks/env_throughput.py's loop (``aec_turns``: random masked play over every
built-in scenario, ``random.seed(0)``, env k reset with seed k) under cachegrind twice:
``warm + turns`` turns, then ``warm`` alone, and prints the difference over ``turns``. So
start-up, imports, the maps' tables and the warm-up's cache filling drop out, and what is
left is a steady turn.
Unlike a clock, the counts do not drift with the machine's load; unlike the instructions
alone, the cache misses show what a turn's spread over code and data costs (docs/speed.md,
"Counted and timed"). The counts move by a few hundred between runs of one build: string
hashes, and so dict probes, change with each process's hash seed. Takes a minute or two:
valgrind runs the loop some fifty times slower.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from wasteland.rules.names import RULESETS

ROOT = Path(__file__).resolve().parent.parent

_LOOP = (
    "import sys; sys.path.insert(0, 'benchmarks'); import env_throughput as et; "
    "from wasteland.envs import combat_v0; from wasteland.bestiary.loader import scenario_names; "
    "envs = [combat_v0.raw_env(ruleset={ruleset!r}, scenario=s) for s in scenario_names()]; "
    "et.aec_turns(envs, float('inf'), turns_cap={total})")

# cachegrind's summary lines: "==123== I   refs:      6,163,696,319" and the like
_FIELDS = {"I   refs": "instructions", "I1  misses": "I1 misses", "D1  misses": "D1 misses"}


def parse(summary: str) -> dict[str, int]:
    """The counts of a cachegrind run's summary (its stderr): instructions, I1 and D1
    misses (reads and writes together)."""
    out: dict[str, int] = {}
    for line in summary.splitlines():
        m = re.match(r"^==\d+== (I   refs|I1  misses|D1  misses):\s+([\d,]+)", line)
        if m:
            out[_FIELDS[m.group(1)]] = int(m.group(2).replace(",", ""))
    missing = [v for v in _FIELDS.values() if v not in out]
    if missing:
        raise ValueError(f"no {', '.join(missing)} in cachegrind's summary")
    return out


def per_turn(full: dict[str, int], warm: dict[str, int], turns: int) -> dict[str, float]:
    return {k: (full[k] - warm[k]) / turns for k in full}


def count(ruleset: str, total: int) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        got = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=yes",
             f"--cachegrind-out-file={Path(tmp) / 'out'}", sys.executable, "-c",
             _LOOP.format(ruleset=ruleset, total=total)],
            cwd=ROOT, env=dict(os.environ), capture_output=True, text=True)
    if got.returncode != 0:
        last = (got.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"env_counts: the counted loop failed: {last}")
    return parse(got.stderr)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", choices=RULESETS, default="f2d20")
    p.add_argument("--turns", type=int, default=6000)
    p.add_argument("--warm", type=int, default=6000)
    a = p.parse_args(argv)
    if not 1 <= a.turns <= 1_000_000 or not 0 <= a.warm <= 1_000_000:
        p.error("turns: 1 to 1,000,000; warm: 0 to 1,000,000")
    if shutil.which("valgrind") is None:
        p.error("valgrind is not installed (it counts the instructions and cache misses)")
    full, warm = count(a.ruleset, a.warm + a.turns), count(a.ruleset, a.warm)
    print(f"raw AEC env [{a.ruleset}], a turn of {a.turns:,} after {a.warm:,}:")
    for k, v in per_turn(full, warm, a.turns).items():
        print(f"  {k:<12} {v:>10,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
