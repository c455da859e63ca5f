"""A whole simulation: the fights of a seed range, tallied, stopped early once the party's
win rate is known precisely enough."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from .runner import Backend, FightFn, run, run_fights
from .spec import Encounter, SimSpec
from .tally import Tally

if TYPE_CHECKING:
    from .request import Progress, SimRequest

# the precision is checked after every CHECK_EVERY fights in seed order, never at a point
# that depends on the number of processes, so an early stop is at the same fight for any
# --jobs; at a few milliseconds a fight, fifty is a fraction of a second of overshoot
CHECK_EVERY = 50


class Counts(Protocol):
    """What a simulation adds its records to: a Tally, or a chain.ChainTally."""

    n: int

    def add(self, r: Any) -> None: ...
    def win_interval(self) -> tuple[float, float]: ...
    def report(self) -> dict[str, Any]: ...


@dataclass
class Simulation:
    spec: Encounter
    seed: int
    requested: int
    tally: Counts
    until_precision: float | None = None
    interrupted: bool = False

    @property
    def width(self) -> float:
        lo, hi = self.tally.win_interval()
        return hi - lo

    @property
    def precision_reached(self) -> bool | None:
        if self.until_precision is None:
            return None
        return self.width <= self.until_precision

    def report(self) -> dict[str, Any]:
        s = self.spec
        return {
            "ruleset": s.ruleset,
            "scenario": s.scenario.id,
            "sides": s.side_names,
            "party_side": s.side_names[s.party],
            "agents": dict(zip(s.side_names, s.agents)),
            "seed": self.seed,
            "seeds": [self.seed, self.seed + self.tally.n - 1],
            "requested": self.requested,
            "until_precision": self.until_precision,
            "precision_reached": self.precision_reached,
            "win_interval_width": self.width,
            "interrupted": self.interrupted,
            **self.tally.report(),
        }


def simulate(spec: Encounter, n: int, seed: int = 0, jobs: int = 1,
             until_precision: float | None = None,
             on_fight: Callable[[int], None] | None = None,
             fn: FightFn | None = None, tally: Counts | None = None,
             backend: Backend | None = None) -> Simulation:
    # params: the run's size, seeds, stop rule and where it runs, as SimRequest gives them
    """Fight ``spec`` with seeds ``seed``, ``seed + 1``, ... : ``n`` fights, or fewer once
    the Wilson 95% interval of the party's win rate is at most ``until_precision`` wide
    (checked every CHECK_EVERY fights). ``on_fight(done)`` follows the progress. Ctrl-C
    ends the run early with ``interrupted`` set: the fights tallied are still a seed range
    from ``seed``, so its numbers hold for what was fought. ``fn`` fights one fight of
    ``spec`` (default: fight.fight; branch.fight_from for the rest of a saved fight) and
    ``tally`` counts its records (default: a Tally; chain.ChainTally for chains);
    ``backend`` fights them (default: the local pool of ``jobs`` processes)."""
    sim = Simulation(spec, seed, n, Tally(spec) if tally is None else tally, until_precision)
    try:
        with closing(run_fights(cast(SimSpec, spec), seed, n, jobs, backend) if fn is None
                     else run(spec, fn, seed, n, jobs, backend)) as records:
            for r in records:
                sim.tally.add(r)
                if on_fight is not None:
                    on_fight(sim.tally.n)
                if (until_precision is not None and sim.tally.n % CHECK_EVERY == 0
                        and sim.width <= until_precision):
                    break
    except KeyboardInterrupt:
        sim.interrupted = True
    return sim


def fight_all(spec: Encounter, req: SimRequest, backend: Backend | None,
              progress: Progress | None = None, label: str = "fighting",
              fn: FightFn | None = None) -> Simulation:
    """The simulation ``req`` asks for of ``spec``, its progress shown by ``progress``."""
    def fought(on_fight: Callable[[int], None] | None = None) -> Simulation:
        return simulate(spec, req.fights, req.seed, req.procs, req.until_precision,
                        on_fight=on_fight, fn=fn, backend=backend)

    if progress is None:
        return fought()
    with progress(label, req.fights) as tick:
        return fought(tick)


def report_of(sim: Simulation, jobs: int, start: float) -> dict[str, Any]:
    """A finished run's report with its processes and wall time (every mode's). A Ctrl-C
    before any fight ended leaves nothing to show: it goes on as a KeyboardInterrupt."""
    if sim.interrupted and sim.tally.n == 0:
        raise KeyboardInterrupt
    rep: dict[str, Any] = sim.report()
    rep["jobs"] = jobs
    rep["seconds"] = time.perf_counter() - start
    return rep
