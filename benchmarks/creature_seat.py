"""A trained policy in a creature's seat against the packet, next to the packet in the
same seat (issue 10's seat test, in small): MaskablePPO with train()'s settings learns
side 1 of a scenario against packet opponents, then both sit in that seat for the same
fights (seeds 0..N-1) against packets.

    .venv/bin/python benchmarks/creature_seat.py vault_corridor pnp 400000

Prints one JSON line: training wall time, and wins / losses / draws with Wilson 95%
intervals for the policy and for the packet. Results: docs/training-notes.md.
"""

from __future__ import annotations

import json
import sys
import time

from wasteland.training.train import evaluate, train


def main() -> None:
    scenario, ruleset, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fights = int(sys.argv[4]) if len(sys.argv) > 4 else 300
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


if __name__ == "__main__":
    main()
