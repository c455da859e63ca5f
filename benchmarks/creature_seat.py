"""A trained policy in a creature's seat against the packet, next to the packet in the
same seat (issue 10's seat test, in small): MaskablePPO with train()'s settings learns
side 1 of a scenario against packet opponents, then both sit in that seat for the same
fights (seeds 0..N-1) against packets.

    .venv/bin/python benchmarks/creature_seat.py vault_corridor pnp 400000

Prints one JSON line: training wall time, and wins / losses / draws with Wilson 95%
intervals for the policy and for the packet. Results: docs/training-notes.md.
"""

from __future__ import annotations

import argparse
import json
import time

from wasteland.training.train import evaluate, train


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("ruleset")
    ap.add_argument("steps", type=int, help="training steps (1 to 100,000,000)")
    ap.add_argument("fights", type=int, nargs="?", default=300,
                    help="fights in the seat (1 to 100,000; default 300)")
    a = ap.parse_args(argv)
    for key, hi in (("steps", 100_000_000), ("fights", 100_000)):
        if not 1 <= getattr(a, key) <= hi:
            ap.error(f"{key}: 1 to {hi:,}, got {getattr(a, key)}")
    scenario, ruleset, steps, fights = a.scenario, a.ruleset, a.steps, a.fights
    t = time.time()
    model = train(scenario, ruleset, timesteps=steps, seed=0, learner=1, opponents="packet",
                  n_envs=2)
    wall = time.time() - t
    seat = {"scenario": scenario, "ruleset": ruleset, "learner": 1, "opponents": "packet",
            "fights": fights, "first_seed": 0}
    res = {"scenario": scenario, "ruleset": ruleset, "steps": steps, "train_s": round(wall),
           "policy": evaluate(model, scenario, ruleset, fights=fights, first_seed=0,
                              learner=1, opponents="packet").as_dict(),
           "packet": evaluate("packet", scenario, ruleset, fights=fights, first_seed=0,
                              learner=1, opponents="packet").as_dict(),
           "seat": seat}
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
