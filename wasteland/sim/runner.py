"""Fights in seed order, on one process, spread over the local cores, or on a backend
(Ray: wasteland/sim/ray_backend.py).

Fight i of a run is seeded ``seed + i`` and depends on nothing else, so which process
(or machine) fights it and how the fights are chunked change nothing: the records come
back in seed order and the numbers are the same for any ``jobs`` or backend.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Callable, Generator
from typing import Any, Protocol, TypeVar

from wasteland.rules.errors import WastelandError
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset

from .fight import fight
from .record import FightRecord
from .spec import SimSpec

# fights per task: a chunk of 25 fights is tens of milliseconds of work, so a task's cost
# (pickling a few kilobytes of records back) stays well under 1%
MAX_CHUNK = 25

R = TypeVar("R")
# what one fight of a spec is: fight.fight for an encounter, chain.fight_chain for a chain,
# branch.fight_from for the rest of a saved fight; (ruleset, spec, seed) -> its record
FightFn = Callable[[Ruleset, Any, int], Any]

BACKENDS = ("local", "ray")


class Backend(Protocol):
    """Somewhere else to fight: ``fn(ruleset, spec, s)`` for s in ``seed .. seed + n - 1``,
    yielded in that order; closing the generator early stops the fights still running."""

    def run(self, spec: Any, fn: Callable[[Ruleset, Any, int], R], seed: int, n: int,
            jobs: int) -> Generator[R, None, None]: ...


def make_backend(name: str, address: str | None = None) -> Backend | None:
    """The backend ``--backend NAME [--address ADDR]`` names; None is the local pool.
    Ray is only looked for here, not imported: it connects at its first run."""
    if name not in BACKENDS:
        raise WastelandError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if name == "local":
        if address is not None:
            raise WastelandError("--address names a Ray cluster; it needs --backend ray")
        return None
    from .ray_backend import RayBackend

    return RayBackend(address)


_worker: tuple[Ruleset, Any, FightFn] | None = None


def _init(spec: Any, fn: FightFn) -> None:
    global _worker
    # Ctrl-C reaches the whole process group: the parent stops the pool, and a worker
    # that took it too would print a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = (get_ruleset(spec.ruleset), spec, fn)


def _chunk(task: tuple[int, int]) -> list[Any]:
    assert _worker is not None, "the pool's initializer did not run"
    rs, spec, fn = _worker
    start, count = task
    return [fn(rs, spec, s) for s in range(start, start + count)]


def warm_maps(spec: Any) -> None:
    """Build the map caches of the spec's scenarios (sight, walking distances, 2d20 zones:
    75 ms for ruined_street's zones) once, before forking, so that every worker inherits
    them instead of building its own. They depend on the map alone, so results do not
    change; a scenario whose battle cannot be built here is left to the fight to report."""
    scenarios = [getattr(spec, "scenario", None)]
    scenarios += [getattr(st, "scenario", None) for st in getattr(spec, "stages", ())]
    rs = get_ruleset(spec.ruleset)
    for sc in scenarios:
        if sc is not None:
            try:
                rs.new_battle(sc, 0, keep_log=False)
            except WastelandError:
                pass


def default_jobs() -> int:
    return os.cpu_count() or 1


def check_jobs(jobs: int) -> None:
    """--jobs of a local pool: fights are CPU work, so a process beyond the cores fights
    no faster and only costs memory (150 of them took 400 MB more)."""
    if jobs < 1:
        raise WastelandError(f"--jobs must be at least 1 process, got {jobs}")
    if jobs > default_jobs():
        raise WastelandError(f"--jobs must be at most {default_jobs()}, this machine's cores, "
                             f"got {jobs}")


def chunks(seed: int, n: int, jobs: int) -> list[tuple[int, int]]:
    """(first seed, count) tasks covering seeds ``seed .. seed + n - 1``: several per
    process, so that one slow chunk does not leave the other cores idle at the end."""
    size = max(1, min(MAX_CHUNK, n // (jobs * 4)))
    return [(s, min(size, seed + n - s)) for s in range(seed, seed + n, size)]


def _context() -> Any:
    # fork starts a worker in milliseconds with the engine already imported; elsewhere
    # (macOS, Windows) spawn, which imports it again in each worker
    methods = mp.get_all_start_methods()
    return mp.get_context("fork" if "fork" in methods else "spawn")


def run_fights(spec: SimSpec, seed: int, n: int, jobs: int = 1,
               backend: Backend | None = None) -> Generator[FightRecord, None, None]:
    """The records of fights ``seed .. seed + n - 1``, in that order. With ``jobs`` > 1 a
    pool of processes fights ahead of the reader; closing the iterator early (a precision
    reached, Ctrl-C) ends the pool. A ``backend`` fights them instead of the pool."""
    return run(spec, fight, seed, n, jobs, backend)


def run(spec: Any, fn: Callable[[Ruleset, Any, int], R], seed: int, n: int, jobs: int = 1,
        backend: Backend | None = None) -> Generator[R, None, None]:
    """``fn(ruleset, spec, s)`` for s in ``seed .. seed + n - 1``, in that order, as
    run_fights does (``fn`` must be a module-level function: spawned workers and Ray's
    import it)."""
    if backend is not None:
        return backend.run(spec, fn, seed, n, jobs)
    return _local(spec, fn, seed, n, jobs)


def _local(spec: Any, fn: Callable[[Ruleset, Any, int], R], seed: int, n: int, jobs: int
           ) -> Generator[R, None, None]:
    tasks = chunks(seed, n, jobs)
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        rs = get_ruleset(spec.ruleset)
        for s in range(seed, seed + n):
            yield fn(rs, spec, s)
        return
    ctx = _context()
    if ctx.get_start_method() == "fork":
        warm_maps(spec)
    with ctx.Pool(jobs, initializer=_init, initargs=(spec, fn)) as pool:
        for batch in pool.imap(_chunk, tasks):
            yield from batch
