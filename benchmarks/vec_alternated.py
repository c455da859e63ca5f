"""Learner steps/s of several vector envs, measured in alternating half-second blocks in one
process, so that the machine's drift (20-40% within a day here) falls on all of them alike;
benchmarks/training.py measures them one after another, which is what a user sees but
moves its ratios by tens of percent from run to run.

Each spec is N:KIND with KIND DummyVecEnv, SubprocVecEnv, Batched (in this process) or
Batched/W (W processes, this one included); the first spec is the baseline of the ratio
column. Each env is made and warmed up in turn (so forked workers inherit this process's
arena pool, as they do in training), then the blocks go round.

    .venv/bin/python benchmarks/vec_alternated.py super_mutant_f2d20 2:DummyVecEnv \\
        1:Batched 64:Batched 64:Batched/2 --set n_envs=2 --set vec_env=dummy
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np


def _training_benchmark() -> Any:
    """benchmarks/training.py, loaded by its path: a plain ``import training`` finds
    whichever ``training`` package comes first (the tests have one)."""
    import importlib.util

    path = Path(__file__).resolve().parent / "training.py"
    spec = importlib.util.spec_from_file_location("wasteland_bench_training", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


KINDS = ("DummyVecEnv", "SubprocVecEnv", "Batched")


def parse_spec(spec: str) -> tuple[int, str, int]:
    """N:KIND[/W] -> (n, kind, workers), or exit with a one-line error."""
    try:
        n_text, kind = spec.split(":")
        workers = 0
        if "/" in kind:
            kind, w_text = kind.split("/")
            workers = int(w_text)
        n = int(n_text)
    except ValueError:
        raise SystemExit(f"bad spec {spec!r}: write N:KIND or N:Batched/W, e.g. 64:Batched/2") from None
    if kind not in KINDS or not 1 <= n <= 256 or not 0 <= workers <= 8:
        raise SystemExit(f"bad spec {spec!r}: KIND is one of {', '.join(KINDS)}, N 1 to 256, "
                         "W 0 to 8")
    return n, kind, workers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("specs", nargs="+", help="N:KIND, the first one the baseline")
    ap.add_argument("--set", dest="overrides", action="append", default=[])
    ap.add_argument("--blocks", type=int, default=40, help="half-second blocks in all")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds per env before")
    args = ap.parse_args()
    if not len(args.specs) <= args.blocks <= 100_000:
        raise SystemExit(f"--blocks must be from the number of specs ({len(args.specs)}) to "
                         f"100000, got {args.blocks}")
    if not 0 <= args.warmup <= 3600:
        raise SystemExit(f"--warmup must be 0 to 3600 seconds, got {args.warmup}")
    parsed = [parse_spec(spec) for spec in args.specs]
    bench = _training_benchmark()
    cfg = bench.config_or_exit(args.config, args.overrides)
    random_legal, vec_env = bench.random_legal, bench.vec_env
    rng = np.random.default_rng(cfg.seed)
    from sb3_contrib.common.maskable.utils import get_action_masks

    vecs: dict[str, tuple[Any, int]] = {}
    try:
        if len(set(args.specs)) < len(args.specs):
            raise SystemExit("each spec once: the same N:KIND twice would share one row")
        for spec, (n, kind, workers) in zip(args.specs, parsed):
            v = vec_env(cfg, n, kind, workers)
            v.reset()
            vecs[spec] = (v, n)
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < args.warmup:
                v.step(random_legal(rng, get_action_masks(v)))
        done = {spec: [0, 0.0] for spec in vecs}
        for block in range(args.blocks):
            spec = list(vecs)[block % len(vecs)]
            v, n = vecs[spec]
            steps, t0 = 0, time.perf_counter()
            while (elapsed := time.perf_counter() - t0) < 0.5:
                v.step(random_legal(rng, get_action_masks(v)))
                steps += n
            done[spec][0] += steps
            done[spec][1] += elapsed
    finally:
        for v, _ in vecs.values():
            v.close()
    base = done[args.specs[0]][0] / done[args.specs[0]][1]
    print(f"config {cfg.id}; {args.blocks} alternated blocks of 0.5 s")
    for spec, (steps, secs) in done.items():
        print(f"{spec:<18} {steps / secs:>9,.0f} steps/s {steps / secs / base:>6.2f}x")


if __name__ == "__main__":
    main()
