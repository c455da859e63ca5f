"""`simulate --from SAVE`: the odds of the rest of a saved fight (docs/simulate.md).

The save is loaded (and checked, down to its replay) once; continuation i plays a copy of
the battle whose dice are reseeded from ``seed + i`` (wasteland/sim/branch.py).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

from wasteland.rules.errors import WastelandError

if TYPE_CHECKING:
    from wasteland.sim.runner import Backend


def party_side(b: Any, side: str | None) -> int:
    """--side, else the side the people played in `play` or `gm` (their save says), else 0."""
    from wasteland.cli.encounter import resolve_side

    if side is not None:
        return resolve_side(b.scenario, side)
    humans = (b.session or {}).get("humans") or [0]
    return int(humans[0])


def run_from(path: str, side: str | None, agents: str | None, n: int, seed: int,
             jobs: int | None, until_precision: float | None, as_json: bool,
             given: list[str], backend: Backend | None = None) -> dict[str, Any]:
    from wasteland.cli.simulate import check_numbers, fight_all, report_of
    from wasteland.rules import saves
    from wasteland.sim.branch import fight_from, from_spec
    from wasteland.sim.runner import default_jobs

    if given:
        raise WastelandError(f"--from continues the saved fight; it takes no {given[0]}")
    jobs = default_jobs() if jobs is None else jobs
    check_numbers(n, seed, jobs, until_precision)
    b = saves.load(path)
    spec = from_spec(b, agents.split(",") if agents else None, party_side(b, side))
    start = time.perf_counter()
    sim = fight_all(spec, n, seed, jobs, until_precision, not as_json and sys.stderr.isatty(),
                    fn=fight_from, backend=backend)
    rep = report_of(sim, jobs, start)
    rep["from"] = {"save": str(path), "round": b.round,
                   "decides": b.ids[_decider(b)]}
    return rep


def _decider(b: Any) -> int:
    from wasteland.rules.protocol import get_ruleset

    return get_ruleset(b.ruleset).decider(b).combatant
