"""`simulate --backend ray [--address ADDR]`: the fights as Ray tasks, on this machine's
cores or across a cluster (docs/scale.md).

A task fights a batch of consecutive seeds and returns their records; the driver keeps a
few tasks per CPU in flight and reads the results in seed order, so the numbers are those
of the local backend. Ray is imported only here, and only when a run starts.

How big a batch: on this project's 2-core machine a Ray task costs about 0.6-0.9 ms
pipelined and 1.6 ms for a lone round trip, while one fight takes 1.5 ms (a duel) to
9 ms (ruined_street, pnp) or 23 ms (ruined_street, f2d20) in pure Python. A fixed count
would be 15 times too small for one scenario or too big for another, so each batch is
sized from the time the previous ones took per fight, to about TASK_SECONDS of work:
the overhead then stays near 1% (docs/simulate.md, "Ray").
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, TypeVar

from wasteland import __version__
from wasteland.rules.errors import WastelandError, one_line
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset

R = TypeVar("R")

# a task's work: 100 ms is more than 100 times Ray's cost per task measured here
TASK_SECONDS = 0.1
# before any task has come back its fights' length is unknown: 4 fights are 6-90 ms
FIRST_BATCH = 4
# a task's records travel back as one message: 1,000 records are ~100 KB
MAX_BATCH = 1000
# tasks queued per CPU: the results are read in seed order, so a CPU whose task is done
# ahead of an older one must find another one waiting
IN_FLIGHT_PER_CPU = 4
# how long a TCP connection to --address may take before it is declared unreachable
CONNECT_SECONDS = 5.0

INSTALL = "ray is not installed: pip install 'wasteland[ray]'"

_rulesets: dict[str, Ruleset] = {}


def _batch(spec: Any, fn: Callable[[Ruleset, Any, int], Any], start: int, count: int,
           version: str) -> tuple[list[Any], float]:
    """One task, run by a Ray worker: fights ``start .. start + count - 1`` and the
    seconds they took."""
    if version != __version__:
        # another version may fight other fights for the same seed
        raise WastelandError(f"a Ray worker on {socket.gethostname()} runs wasteland "
                             f"{__version__}, this machine {version}: install the same "
                             f"version on every machine of the cluster")
    rs = _rulesets.get(spec.ruleset)
    if rs is None:
        rs = _rulesets[spec.ruleset] = get_ruleset(spec.ruleset)
    began = time.perf_counter()
    out = [fn(rs, spec, s) for s in range(start, start + count)]
    return out, time.perf_counter() - began


def batch_size(per_fight: float | None, left: int, in_flight: int) -> int:
    """Fights in the next task: about TASK_SECONDS of them, fewer near the end so the last
    fights are spread over the CPUs rather than queued in one task."""
    size = FIRST_BATCH if per_fight is None else round(TASK_SECONDS / max(per_fight, 1e-6))
    return max(1, min(size, MAX_BATCH, left // in_flight))


def split_address(address: str) -> tuple[str, int]:
    """HOST and PORT of ``HOST:PORT`` or ``ray://HOST:PORT``."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise WastelandError(f"--address must be HOST:PORT, the head node's (e.g. "
                             f"10.0.0.5:6379), or auto; got {address!r}")
    return host.strip("[]"), int(port)


def reachable(address: str) -> None:
    """Refuse an address nothing listens on, in seconds: Ray itself retries an unreachable
    head for minutes, printing warnings, before it gives up."""
    host, port = split_address(address)
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise WastelandError(f"--address {address}: no Ray cluster reachable there "
                             f"({one_line(why)})") from None


def token_mode() -> None:
    """Ask for token authentication when this machine holds a Ray token, as `ray start
    --address` does: Ray 2.60's `ray start --head` enables it by default, and a driver that
    does not send the token is refused only after some 20 s of retries."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") or (
            Path.home() / ".ray" / "auth_token").is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def connect(address: str | None) -> Any:
    """The ray module, connected: to the cluster at ``address`` (``auto``: the one `ray
    start` began on this machine), else to a new local instance with this machine's
    cores. A connection already made (a test's instance, a second --balance count) is
    kept; an unreachable ``address`` is refused even then."""
    try:
        import ray
    except ImportError:
        raise WastelandError(INSTALL) from None
    if address not in (None, "auto"):
        reachable(address)
    if ray.is_initialized():
        return ray
    # Ray's INFO and WARNING lines (the instance started, its token) would land between
    # the progress bar and the report; its errors still show
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address is None:
        ray.init(address="local", include_dashboard=False, **quiet)
        return ray
    token_mode()
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise WastelandError(f"--address {address}: cannot connect to Ray ({one_line(first)})"
                             ) from None
    return ray


class RayBackend:
    """Fights as Ray tasks. ``jobs`` is the local pool's and is not used: Ray runs as many
    tasks at once as the cluster has CPUs."""

    def __init__(self, address: str | None = None) -> None:
        import importlib.util

        # looked for now, so that a missing ray is one line before any work
        if importlib.util.find_spec("ray") is None:
            raise WastelandError(INSTALL)
        self.address = address

    def run(self, spec: Any, fn: Callable[[Ruleset, Any, int], R], seed: int, n: int,
            jobs: int) -> Generator[R, None, None]:
        ray = connect(self.address)
        task = ray.remote(_batch)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        in_flight = IN_FLIGHT_PER_CPU * cpus
        shared = ray.put(spec)  # sent to each machine once, not with every task
        window: deque[Any] = deque()
        at, end = seed, seed + n
        per_fight: float | None = None
        try:
            while window or at < end:
                while at < end and len(window) < in_flight:
                    count = batch_size(per_fight, end - at, in_flight)
                    window.append(task.remote(shared, fn, at, count, __version__))
                    at += count
                records, seconds = _get(ray, window.popleft())
                per_fight = seconds / len(records)
                yield from records
        finally:
            for ref in window:  # a precision reached, Ctrl-C: drop what was not read
                ray.cancel(ref)


def _get(ray: Any, ref: Any) -> Any:
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, WastelandError):
            raise WastelandError(str(cause)) from None
        if isinstance(cause, ImportError):
            raise WastelandError(f"a Ray worker cannot import wasteland ({one_line(str(cause))}): "
                                 f"install it on every machine of the cluster") from None
        raise
