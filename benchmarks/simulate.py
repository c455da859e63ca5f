"""Fights per second of `wasteland simulate`: a 4v4 scenario (ruined_street) with packet
agents on both sides, under each ruleset, on 1 and 2 processes; and, in the same run, the
engine's decisions per second from env_throughput.py's measurement.

Each measurement is one `simulate` call as the command makes it (seeds 0..N-1, the pool
started and stopped inside the time), so it is what a GM waits for, minus the imports.

Bar (issue 11): 1,000 fights in at most 2 s on 2 cores (500 fights/s), under pnp and
under f2d20; goal: 10,000 fights in 5 s (2,000 fights/s).

    .venv/bin/python benchmarks/simulate.py [--fights 1000] [--jobs 1 --jobs 2]
        [--ruleset pnp] [--scenario ruined_street] [--engine-seconds 3] [--json]
    .venv/bin/python benchmarks/simulate.py --profile   # cProfile of one process, top 25
    .venv/bin/python benchmarks/simulate.py --backend ray [--address HOST:PORT]

With --backend ray the same fights run as Ray tasks: without --address, a local Ray
instance with --jobs CPUs (started and warmed up outside the time, which is reported
apart), with --address the cluster's CPUs; Ray's own cost per task is measured first
(empty tasks, pipelined and one at a time), the number the batch size is chosen from
(wasteland/sim/ray_backend.py).
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from env_throughput import engine_decisions, profile  # noqa: E402

from wasteland.bestiary.loader import load_scenario, scenario_names  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.sim.runner import Backend  # noqa: E402
from wasteland.sim.simulate import simulate  # noqa: E402
from wasteland.sim.spec import SimSpec, side_agents  # noqa: E402

BAR_FIGHTS, BAR_SECONDS = 1_000, 2.0
GOAL_FIGHTS, GOAL_SECONDS = 10_000, 5.0
BAR_RATE, GOAL_RATE = BAR_FIGHTS / BAR_SECONDS, GOAL_FIGHTS / GOAL_SECONDS


def packet_spec(ruleset: str, scenario: str) -> SimSpec:
    sc = load_scenario(scenario)
    return SimSpec(ruleset, sc, side_agents(sc, ["packet"]), 0)


def measure(ruleset: str, scenario: str, fights: int, jobs: int,
            backend: Backend | None = None) -> dict:
    spec = packet_spec(ruleset, scenario)
    start = time.perf_counter()
    sim = simulate(spec, fights, 0, jobs, backend=backend)
    seconds = time.perf_counter() - start
    rate = fights / seconds
    return {"fights": fights, "jobs": jobs, "seconds": seconds, "fights_per_s": rate,
            "decisions_per_fight": sim.tally.decisions / fights,
            "us_per_decision_per_process": 1e6 * seconds * jobs / sim.tally.decisions,
            "verdict": sim.tally.verdict(),
            "bar_met": rate >= BAR_RATE, "goal_met": rate >= GOAL_RATE}


def _noop(x: int) -> int:
    return x


def ray_start(jobs: int, address: str | None, temp: str) -> tuple[Any, float, int]:
    """Ray connected (a local instance of ``jobs`` CPUs unless ``address``): the module,
    the seconds it took and its CPUs."""
    import ray

    start = time.perf_counter()
    if address is None:
        ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.ERROR,
                 log_to_driver=False, _temp_dir=temp)
    else:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    return ray, time.perf_counter() - start, int(ray.cluster_resources().get("CPU", 1))


def ray_overhead(ray: Any, tasks: int = 1000) -> dict:
    """Ray's own cost of a task that does nothing: per task when many are in flight, and
    the round trip of one at a time (median)."""
    noop = ray.remote(_noop)
    ray.get([noop.remote(i) for i in range(4 * tasks // 100 + 20)])  # workers up
    start = time.perf_counter()
    ray.get([noop.remote(i) for i in range(tasks)])
    pipelined = (time.perf_counter() - start) / tasks
    trips = []
    for i in range(tasks // 5):
        t = time.perf_counter()
        ray.get(noop.remote(i))
        trips.append(time.perf_counter() - t)
    return {"ms_per_task_pipelined": 1e3 * pipelined,
            "ms_round_trip": 1e3 * statistics.median(trips)}


def measure_ray(rulesets: list[str], scenario: str, fights: int, jobs_list: list[int],
                address: str | None) -> dict:
    """Every measurement through Ray: one instance per CPU count (or the cluster), its
    start and the workers' first fights outside the time."""
    from wasteland.sim.ray_backend import RayBackend

    out: dict = {"ray": [], "simulate": {r: [] for r in rulesets}}
    for jobs in [None] if address is not None else jobs_list:
        with tempfile.TemporaryDirectory(prefix="ray") as temp:
            ray, started, cpus = ray_start(jobs or 1, address, temp)
            try:
                backend = RayBackend(address)
                out["ray"].append({"cpus": cpus, "start_s": started, **ray_overhead(ray)})
                for r in rulesets:
                    measure(r, scenario, 4 * cpus, 1, backend)  # each worker imports the engine
                    m = measure(r, scenario, fights, cpus, backend)
                    out["simulate"][r].append({**m, "backend": "ray"})
            finally:
                ray.shutdown()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=1000, help="fights per measurement")
    ap.add_argument("--jobs", type=int, action="append",
                    help="processes (repeatable; default: 1 and 2)")
    ap.add_argument("--ruleset", action="append", choices=RULESETS,
                    help="ruleset to measure (repeatable; default: every registered one)")
    ap.add_argument("--scenario", default="ruined_street", help="the scenario fought")
    ap.add_argument("--engine-seconds", type=float, default=3.0,
                    help="time of the engine measurement per ruleset (0: skip it)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="run the fights on the local pool or as Ray tasks")
    ap.add_argument("--address", help="with --backend ray: a running cluster, HOST:PORT")
    ap.add_argument("--profile", action="store_true",
                    help="profile the fights of one process with cProfile instead")
    args = ap.parse_args(argv)
    rulesets = args.ruleset or list(RULESETS)
    jobs_list = args.jobs or [1, 2]

    if args.profile:
        spec = packet_spec(rulesets[0], args.scenario)
        print(profile(lambda: simulate(spec, args.fights, 0, 1)))
        return 0

    results: dict = {"scenario": args.scenario, "agents": "packet", "rulesets": {},
                     "bar": {"fights": BAR_FIGHTS, "seconds": BAR_SECONDS, "jobs": 2},
                     "goal": {"fights": GOAL_FIGHTS, "seconds": GOAL_SECONDS}}
    if args.backend == "ray":
        through = measure_ray(rulesets, args.scenario, args.fights, jobs_list, args.address)
        results["ray"] = through["ray"]
    for r in rulesets:
        runs = (through["simulate"][r] if args.backend == "ray" else
                [measure(r, args.scenario, args.fights, j) for j in jobs_list])
        res: dict = {"simulate": runs}
        if args.engine_seconds > 0:
            rate, n, battles = engine_decisions(r, scenario_names(), args.engine_seconds)
            res["engine"] = {"decisions_per_s": rate, "decisions": n, "battles": battles}
        results["rulesets"][r] = res

    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{args.scenario}, packet agents on both sides; bar {BAR_FIGHTS:,} fights in "
          f"{BAR_SECONDS:g} s on 2 processes ({BAR_RATE:,.0f}/s), goal {GOAL_FIGHTS:,} in "
          f"{GOAL_SECONDS:g} s ({GOAL_RATE:,.0f}/s)")
    head = (f"{'ruleset':<8} {'jobs':>4} {'fights':>7} {'seconds':>8} {'fights/s':>9} "
            f"{'dec/fight':>9} {'us/dec':>7}  bar (goal)")
    for x in results.get("ray", []):
        print(f"Ray on {x['cpus']} CPUs: started in {x['start_s']:.1f} s (not timed below); an "
              f"empty task costs {x['ms_per_task_pipelined']:.2f} ms with many in flight, "
              f"{x['ms_round_trip']:.2f} ms alone")
    print(head)
    print("-" * len(head))
    for r, res in results["rulesets"].items():
        for m in res["simulate"]:
            state = ("met" if m["bar_met"] else "MISSED") + (", goal met" if m["goal_met"] else "")
            jobs = f"{m['jobs']}{'r' if m.get('backend') == 'ray' else ''}"
            print(f"{r:<8} {jobs:>4} {m['fights']:>7,} {m['seconds']:>8.2f} "
                  f"{m['fights_per_s']:>9,.0f} {m['decisions_per_fight']:>9.0f} "
                  f"{m['us_per_decision_per_process']:>7.0f}  {state}")
        if "engine" in res:
            e = res["engine"]
            print(f"{r:<8} engine alone (env_throughput.py, random actions, every built-in "
                  f"scenario): {e['decisions_per_s']:,.0f} decisions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
