"""Throughput of the combat env and the engine, next to PettingZoo's connect_four_v3.

Three numbers, each measured for a fixed time:

(a) turns per second of random masked play through the raw AEC env (combat_v0.raw_env),
    counted like pettingzoo.test.performance_benchmark: agent_iter, last(), a random
    choice among np.flatnonzero(mask), step (dead steps count as turns too), reset when
    every agent is done; one battle after another, cycling over the built-in scenarios;
(b) decisions per second of the engine alone: ruleset.legal_ids, a random choice,
    ruleset.apply(check=False) on keep_log=False battles, a new battle when one is over,
    cycling over the scenarios;
(c) connect_four_v3.raw_env through the same loop as (a), in the same run.

Bars: the raw env at least as fast as connect_four (goal 2x); the engine at least 50,000
decisions per second (goal 200,000).

    .venv/bin/python benchmarks/env_throughput.py [--seconds 5] [--ruleset pnp] [--json]
    .venv/bin/python benchmarks/env_throughput.py --profile engine   # cProfile, top 25
    .venv/bin/python benchmarks/env_throughput.py --without-observation   # (a) less encoding

``--without-observation`` is a diagnostic: (a) with the encoder's ``observe`` answering a
constant array (the mask, the fog check, ``look`` and the block order still worked out), so
that the same run says what the rest of an env turn costs (docs/speed.md).

connect_four's module imports pygame, which it needs only to draw; when pygame is not
installed a stub module stands in (raw_env with render_mode=None never calls it).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# numpy's threads held to one before numpy loads, as the CLI holds them
from wasteland.cli import one_blas_thread  # noqa: E402

one_blas_thread()

# isort: split
import numpy as np  # noqa: E402

from wasteland.bestiary.loader import load_scenario, scenario_names  # noqa: E402
from wasteland.envs import combat_v0  # noqa: E402
from wasteland.observe.encoding import OBS_SIZE  # noqa: E402
from wasteland.rules.actions import ACTION_TABLE  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402

ENV_BAR, ENV_GOAL = 1.0, 2.0
ENGINE_BAR, ENGINE_GOAL = 50_000, 200_000


class NoEncoding:
    """An env's encoder whose ``observe`` answers zeros: everything else it does (``look``,
    ``order``, the memory the fog check reads) is the encoder's own."""

    def __init__(self, enc: object) -> None:
        self._enc = enc
        self._zeros = np.zeros(OBS_SIZE, np.float32)

    def observe(self, *args: object, **kwargs: object) -> np.ndarray:
        return self._zeros

    def __getattr__(self, name: str) -> object:
        return getattr(self._enc, name)


def strip_encoding(env) -> None:
    """``env``'s encoder, after a reset, as ``NoEncoding`` (once)."""
    if not isinstance(env._enc, NoEncoding):
        env._enc = NoEncoding(env._enc)


def aec_turns(envs: list, seconds: float, seed: int = 0,
              encode: bool = True, turns_cap: int | None = None) -> tuple[float, int, int]:
    """performance_benchmark's loop for ``seconds``, moving to the next env after each
    episode; ``encode`` False: each env's observation is ``strip_encoding``'s constant;
    ``turns_cap``: stop after that many turns instead (env_counts.py plays a fixed number).
    Returns (turns per second, turns, episodes)."""
    cap = turns_cap if turns_cap is not None else 1 << 62
    random.seed(seed)
    for i, e in enumerate(envs):
        e.reset(seed=seed + i)
        if not encode:
            strip_encoding(e)
    k = 0
    env = envs[0]
    turns = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while turns < cap:
        for _agent in env.agent_iter(env.num_agents):
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = random.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if turns >= cap:
                break
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
                if not encode:
                    strip_encoding(env)
                episodes += 1
                k = (k + 1) % len(envs)
                env = envs[k]
                break
        if time.perf_counter() > deadline:
            break
    return turns / (time.perf_counter() - start), turns, episodes


def engine_decisions(ruleset_name: str, scenarios: list[str], seconds: float,
                     seed: int = 0) -> tuple[float, int, int]:
    """(decisions per second, decisions, battles) of the engine without any env."""
    R = get_ruleset(ruleset_name)
    loaded = [load_scenario(s) for s in scenarios]
    rng = random.Random(seed)
    table = ACTION_TABLE
    legal_ids, apply = R.legal_ids, R.apply
    for sc in loaded:  # each map's caches are built by its first battle in a process;
        R.new_battle(sc, seed, keep_log=False)  # the rate is of the battles after it
    k = 0
    b = R.new_battle(loaded[0], seed, keep_log=False)
    n = battles = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            if b.over:
                battles += 1
                k = (k + 1) % len(loaded)
                b = R.new_battle(loaded[k], seed + battles, keep_log=False)
            ids = legal_ids(b)
            apply(b, table[ids[int(rng.random() * len(ids))]], check=False)
            n += 1
        if time.perf_counter() > deadline:
            break
    return n / (time.perf_counter() - start), n, battles


def connect_four_env():
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.raw_env()


def profile(fn: Callable[[], object], top: int = 25) -> str:
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--ruleset", action="append", choices=RULESETS,
                    help="ruleset to measure (repeatable; default: every registered one)")
    ap.add_argument("--scenario", action="append",
                    help="scenario to cycle over (repeatable; default: every built-in one)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--profile", choices=("env", "engine", "connect_four"),
                    help="profile one loop with cProfile instead of measuring")
    ap.add_argument("--without-observation", action="store_true",
                    help="(a) with the observation a constant array: what the rest costs")
    args = ap.parse_args(argv)
    rulesets = args.ruleset or list(RULESETS)
    scenarios = args.scenario or scenario_names()

    if args.profile:
        r = rulesets[0]
        if args.profile == "env":
            envs = [combat_v0.raw_env(ruleset=r, scenario=s) for s in scenarios]
            print(profile(lambda: aec_turns(envs, args.seconds)))
        elif args.profile == "engine":
            print(profile(lambda: engine_decisions(r, scenarios, args.seconds)))
        else:
            print(profile(lambda: aec_turns([connect_four_env()], args.seconds)))
        return 0

    c4_rate, c4_turns, c4_eps = aec_turns([connect_four_env()], args.seconds)
    results: dict = {
        "seconds": args.seconds,
        "scenarios": scenarios,
        "without_observation": args.without_observation,
        "connect_four": {"turns_per_s": c4_rate, "turns": c4_turns, "episodes": c4_eps},
        "rulesets": {},
    }
    for r in rulesets:
        envs = [combat_v0.raw_env(ruleset=r, scenario=s) for s in scenarios]
        env_rate, env_turns, env_eps = aec_turns(envs, args.seconds,
                                                 encode=not args.without_observation)
        eng_rate, eng_n, eng_battles = engine_decisions(r, scenarios, args.seconds)
        results["rulesets"][r] = {
            "raw_env": {"turns_per_s": env_rate, "turns": env_turns, "episodes": env_eps,
                        "vs_connect_four": env_rate / c4_rate,
                        "bar_met": env_rate / c4_rate >= ENV_BAR,
                        "goal_met": env_rate / c4_rate >= ENV_GOAL},
            "engine": {"decisions_per_s": eng_rate, "decisions": eng_n, "battles": eng_battles,
                       "vs_connect_four": eng_rate / c4_rate,
                       "bar_met": eng_rate >= ENGINE_BAR, "goal_met": eng_rate >= ENGINE_GOAL},
        }

    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{args.seconds:g} s per measurement; scenarios: {', '.join(scenarios)}"
          + ("; (a) WITHOUT the observation (a constant array)" if args.without_observation
             else ""))
    head = f"{'measure':<38} {'per second':>12} {'/ connect_four':>15}  bar (goal)"
    print(head)
    print("-" * len(head))
    for r, res in results["rulesets"].items():
        e, g = res["raw_env"], res["engine"]
        print(f"{f'(a) raw AEC env [{r}], turns':<38} {e['turns_per_s']:>12,.0f} "
              f"{e['vs_connect_four']:>14.2f}x  >= {ENV_BAR:g}x ({ENV_GOAL:g}x): "
              f"{'met' if e['bar_met'] else 'MISSED'}{', goal met' if e['goal_met'] else ''}")
        print(f"{f'(b) engine alone [{r}], decisions':<38} {g['decisions_per_s']:>12,.0f} "
              f"{g['vs_connect_four']:>14.2f}x  >= {ENGINE_BAR:,} ({ENGINE_GOAL:,}): "
              f"{'met' if g['bar_met'] else 'MISSED'}{', goal met' if g['goal_met'] else ''}")
    print(f"{'(c) connect_four_v3 raw env, turns':<38} "
          f"{results['connect_four']['turns_per_s']:>12,.0f} {1.0:>14.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
