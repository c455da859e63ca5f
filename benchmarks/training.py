"""Training throughput and time to beat the packet, for a training config (issue 10, item 6).

Three measurements:

(a) env steps/s of the league env (wasteland/training/league_env.py) with random legal
    actions, for n_envs 1 and 2 under DummyVecEnv and SubprocVecEnv. Each step asks the
    vector env for the masks (``env_method("action_masks")``, as MaskablePPO does while
    collecting rollouts), picks a random legal action per env and steps; episodes reset
    inside the vector env. Counted in env steps (n_envs per vector step), for a fixed time.
(b) MaskablePPO training steps/s of a short run (``--train-steps``, default 20,000) with
    each vector env class, the config's network, hyperparameters and n_envs, no
    evaluations (``model.learn`` alone, as ``wasteland train`` builds the model).
(c) with ``--run DIR`` (a folder made by ``wasteland train``): the wall time and step at
    which the config's policy first beat its packet (every evaluation scenario, 5 points
    above the packet in the same seat), read from summary.json or, for a run still going,
    from eval.csv.

(a) also runs the batched env (wasteland/envs/batched.py) for n_envs ``--batched``
(default 1, 16, 64), in this process and over ``--workers`` processes, and (b) trains
once more on it with a large rollout (``--large``, default 64 envs x 256 steps = 16,384;
minibatches of an eighth of it). The last column is each row's steps/s over
DummyVecEnv's with the config's n_envs, measured in the same run.

Prints a table, then one JSON line.

    .venv/bin/python benchmarks/training.py [CONFIG] [--seconds 5] [--train-steps 20000]
        [--run runs/radscorpion_pnp] [--set key=value ...] [--skip-train]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.training.config import TrainConfig, load_config  # noqa: E402

VEC_CLASSES = ("DummyVecEnv", "SubprocVecEnv")


def config_or_exit(name: str, overrides: list[str]) -> TrainConfig:
    """The config with its overrides, or exit with its one-line error (an unknown config or
    field, a value out of range)."""
    from wasteland.rules.errors import WastelandError

    try:
        return load_config(name, overrides)
    except WastelandError as e:
        raise SystemExit(str(e)) from None


def vec_env(cfg: TrainConfig, n_envs: int, kind: str, workers: int = 0) -> Any:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from wasteland.training.league_env import LeagueEnv

    if kind == "Batched":
        from functools import partial

        from wasteland.training.batched import BatchedVecEnv

        vec = BatchedVecEnv([partial(LeagueEnv, cfg) for _ in range(n_envs)], workers)
        vec.seed(cfg.seed)
        return vec
    cls = SubprocVecEnv if kind == "SubprocVecEnv" else DummyVecEnv
    return make_vec_env(LeagueEnv, n_envs=n_envs, seed=cfg.seed, env_kwargs={"cfg": cfg},
                        vec_env_cls=cls)


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row, for all rows at once (a learner's
    sampling is one batched call too)."""
    return np.argmax(masks * rng.random(masks.shape), axis=1)


def env_steps_per_s(cfg: TrainConfig, n_envs: int, kind: str, seconds: float,
                    workers: int = 0, warmup: float = 10.0) -> dict[str, Any]:
    """(a): random legal actions through the vector env for ``seconds``."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(cfg.seed)
    vec = vec_env(cfg, n_envs, kind, workers)
    try:
        vec.reset()
        episodes = 0
        t0 = time.perf_counter()
        # warm up: workers started, each process's pool of arenas laid out (96 maps at
        # about 40 ms each), as in the first minute of a training run
        while time.perf_counter() - t0 < warmup:
            _, _, dones, _ = vec.step(random_legal(rng, get_action_masks(vec)))
        steps = 0
        t0 = time.perf_counter()
        while (elapsed := time.perf_counter() - t0) < seconds:
            # the masks as MaskablePPO asks for them while collecting a rollout
            _, _, dones, _ = vec.step(random_legal(rng, get_action_masks(vec)))
            steps += n_envs
            episodes += int(np.sum(dones))
    finally:
        vec.close()
    name = kind if kind != "Batched" else f"Batched/{workers}w"
    return {"measure": "env", "vec_env": name, "n_envs": n_envs, "steps": steps,
            "seconds": round(elapsed, 2), "steps_per_s": round(steps / elapsed, 1),
            "episodes": episodes}


def train_steps_per_s(cfg: TrainConfig, kind: str, steps: int, workers: int = 0
                      ) -> dict[str, Any]:
    """(b): MaskablePPO.learn for ``steps`` with the config's model and n_envs."""
    from wasteland.training.run import _new_model, _seed_all

    _seed_all(cfg.seed)
    vec = vec_env(cfg, cfg.n_envs, kind, workers)
    try:
        model = _new_model(cfg, vec, None)
        callback = None
        if kind == "Batched" and workers:  # as `wasteland train` runs it
            from wasteland.training.batched import update_threads

            callback = update_threads(workers)
        t0 = time.perf_counter()
        model.learn(total_timesteps=steps, callback=callback)
        elapsed = time.perf_counter() - t0
        done = int(model.num_timesteps)
    finally:
        vec.close()
    name = kind if kind != "Batched" else f"Batched/{workers}w"
    return {"measure": "train", "vec_env": name, "n_envs": cfg.n_envs, "steps": done,
            "seconds": round(elapsed, 2), "steps_per_s": round(done / elapsed, 1),
            "rollout": cfg.n_envs * cfg.ppo.n_steps, "batch_size": cfg.ppo.batch_size}


def first_beat(run: Path) -> dict[str, Any]:
    """(c): when the run's policy first beat its packet; None when it has not (yet)."""
    from wasteland.training.run import beats_packet

    out: dict[str, Any] = {"run": str(run), "first_beat_packet": None}
    summary_path, csv_path = run / "summary.json", run / "eval.csv"
    if summary_path.is_file():
        s = json.loads(summary_path.read_text())
        out.update(steps=s.get("steps"), wall_s=s.get("wall_s"), config=s.get("config"),
                   first_beat_packet=s.get("first_beat_packet"), finished=True)
        if out["first_beat_packet"] is not None or not csv_path.is_file():
            return out
    else:
        out["finished"] = False
    if not csv_path.is_file():
        raise SystemExit(f"{run}: no summary.json and no eval.csv: not a training run")
    by_step: dict[int, list[dict[str, Any]]] = defaultdict(list)
    wall: dict[int, float] = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            step = int(row["step"])
            wall[step] = float(row["wall_s"])
            by_step[step].append({"opponents": row["opponents"],
                                  "win_rate": float(row["win_rate"]),
                                  "packet_win_rate": float(row["packet_win_rate"])})
    for step in sorted(by_step):
        if beats_packet(by_step[step]):
            out["first_beat_packet"] = {"step": step, "wall_s": wall[step]}
            break
    if by_step and "steps" not in out:
        last = max(by_step)
        out.update(steps=last, wall_s=wall[last])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", nargs="?", default="radscorpion_pnp",
                    help="a shipped training config or a path to one")
    ap.add_argument("--set", dest="overrides", action="append", default=[],
                    help="override a config field, key=value (repeatable)")
    ap.add_argument("--seconds", type=float, default=5.0, help="per env measurement")
    ap.add_argument("--envs", default="1,2", help="n_envs values for (a)")
    ap.add_argument("--warmup", type=float, default=10.0,
                    help="seconds each env measurement runs before it counts")
    ap.add_argument("--train-steps", type=int, default=20_000, help="for (b)")
    ap.add_argument("--batched", default="1,16,64",
                    help="n_envs values for the batched env in (a); '' to skip")
    ap.add_argument("--workers", type=int, default=2,
                    help="processes stepping the batched env, this one included (also "
                         "measured with 0)")
    ap.add_argument("--large", default="64x256",
                    help="the batched env's training run in (b): n_envs x ppo.n_steps "
                         "(a rollout of 16k-64k steps); '' to skip")
    ap.add_argument("--skip-env", action="store_true")
    ap.add_argument("--skip-train", action="store_true")
    ap.add_argument("--run", type=Path, help="a wasteland train run folder, for (c)")
    args = ap.parse_args()

    cfg = config_or_exit(args.config, args.overrides)
    results: dict[str, Any] = {"config": cfg.id, "ruleset": cfg.ruleset,
                               "network": cfg.network, "env": [], "train": [], "run": None}
    if not args.skip_env:
        for kind in VEC_CLASSES:
            for n in (int(x) for x in args.envs.split(",")):
                results["env"].append(env_steps_per_s(cfg, n, kind, args.seconds,
                                                      warmup=args.warmup))
        for n in (int(x) for x in args.batched.split(",") if x):
            # workers 0 and 1 both step everything in this process
            for w in sorted({0, min(args.workers, n)} - {1}):
                results["env"].append(env_steps_per_s(cfg, n, "Batched", args.seconds, w,
                                                      args.warmup))
    if not args.skip_train:
        for kind in VEC_CLASSES:
            results["train"].append(train_steps_per_s(cfg, kind, args.train_steps))
        if args.large:
            n, n_steps = (int(x) for x in args.large.split("x"))
            rollout = n * n_steps
            steps = max(args.train_steps, 2 * rollout)
            big = load_config(args.config, [*args.overrides, f"n_envs={n}",
                                            f"ppo.n_steps={n_steps}",
                                            f"ppo.batch_size={min(4096, rollout // 8)}",
                                            f"steps={steps}"])
            results["train"].append(train_steps_per_s(big, "Batched", steps, args.workers))
    if args.run is not None:
        results["run"] = first_beat(args.run)

    print(f"config {cfg.id} ({cfg.ruleset}; network {cfg.network}; n_envs {cfg.n_envs})")
    print(f"{'measure':<8} {'vec env':<14} {'n_envs':>6} {'steps':>9} {'seconds':>8} "
          f"{'steps/s':>9} {'x Dummy(2)':>10}")
    base = {r["measure"]: r["steps_per_s"] for r in results["env"] + results["train"]
            if r["vec_env"] == "DummyVecEnv" and r["n_envs"] == cfg.n_envs}
    for r in results["env"] + results["train"]:
        ratio = r["steps_per_s"] / base[r["measure"]] if base.get(r["measure"]) else 0.0
        r["ratio_to_dummy"] = round(ratio, 2)
        print(f"{r['measure']:<8} {r['vec_env']:<14} {r['n_envs']:>6} {r['steps']:>9,} "
              f"{r['seconds']:>8.1f} {r['steps_per_s']:>9,.0f} {ratio:>10.2f}")
    if results["run"] is not None:
        r = results["run"]
        fb = r["first_beat_packet"]
        state = "finished" if r.get("finished") else "still running or stopped"
        if fb is None:
            print(f"run {r['run']} ({state}, {r.get('steps') or 0:,} steps in "
                  f"{r.get('wall_s') or 0:.0f} s): has not beaten its packet")
        else:
            print(f"run {r['run']} ({state}): first beat its packet at step {fb['step']:,}, "
                  f"{fb['wall_s']:.0f} s of wall time ({fb['wall_s'] / 60:.1f} min)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
