"""What `wasteland simulate` is asked, as one value, and the checks that refuse a bad one
in a line before any fight (docs/simulate.md). The command parses its options into a
SimRequest; wasteland/sim/modes.py answers it; the command draws the answer."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wasteland.rules.errors import WastelandError

if TYPE_CHECKING:
    from .runner import Backend

DEFAULT_FIGHTS = 1000

# how the command shows progress: given a label and the number of fights, a context in
# which the function it yields is called with the fights done so far
Progress = Callable[[str, int], AbstractContextManager[Callable[[int], None]]]


@dataclass(frozen=True)
class SimRequest:
    """`wasteland simulate`'s options, a field each (docs/simulate.md says what each
    means), so that the modes and their checks take one value instead of eighteen."""

    scenario: str = "vault_corridor"
    ruleset: str = "pnp"
    side: str | None = None  # the party's side, name or number: else 0, or a save's people's
    party: str | None = None  # creature lists, as --party and --enemies take them
    enemies: str | None = None
    agents: str | None = None  # comma-separated, one a side
    fights: int = DEFAULT_FIGHTS
    seed: int = 0
    jobs: int | None = None  # None: one process a core
    backend: str = "local"
    address: str | None = None
    until_precision: float | None = None
    balance: str | None = None
    target: str = "medium"
    chain: str | None = None
    from_save: str | None = None
    plot: str | None = None  # its path is checked before any fight; the command draws it
    # the options the command line named, as it spells them ("--scenario"): a mode that
    # has no use for one refuses it even when it was given its default value
    given: frozenset[str] = frozenset()

    @property
    def mode(self) -> str:
        """encounter, balance, chain or from."""
        if self.from_save is not None:
            return "from"
        if self.chain is not None:
            return "chain"
        return "encounter" if self.balance is None else "balance"

    @property
    def side_text(self) -> str:
        """--side for a new encounter: as given, else the first side."""
        return self.side or "0"

    @property
    def procs(self) -> int:
        """The local pool's size."""
        from .runner import default_jobs

        return default_jobs() if self.jobs is None else self.jobs

    @property
    def agent_names(self) -> list[str] | None:
        from wasteland.agents.names import split_agents

        return split_agents(self.agents) if self.agents else None

    def refuse(self, why: str, options: tuple[str, ...]) -> None:
        """One line, ``why`` and the first of ``options`` given: a mode that has no use
        for them says so rather than ignore them."""
        clash = [o for o in options if o in self.given]
        if clash:
            raise WastelandError(f"{why}; it takes no {clash[0]}")

    def check(self) -> Backend | None:
        """The checks every mode shares, and the backend (None: the local pool)."""
        from .runner import make_backend

        if "--target" in self.given and self.balance is None:
            raise WastelandError("--target needs --balance (enemies, or an enemy creature id)")
        if self.plot is not None:
            from .plot import check_path

            check_path(self.plot)
        backend = make_backend(self.backend, self.address)
        if backend is not None and self.jobs is not None:
            raise WastelandError("--jobs sizes the local pool; with --backend ray every CPU "
                                 "of the cluster fights")
        return backend

    def check_numbers(self) -> None:
        from wasteland.limits import MAX_FIGHTS, MAX_SEED

        from .runner import check_jobs

        n, seed = self.fights, self.seed
        if not 1 <= n <= MAX_FIGHTS:
            raise WastelandError(f"-n must be 1 to {MAX_FIGHTS:,} fights, got {n}")
        check_jobs(self.procs)
        until = self.until_precision
        if until is not None and not 0 < until < 1:
            raise WastelandError(f"--until-precision must be between 0 and 1 (the width of the "
                                 f"win rate's interval, e.g. 0.02), got {until:g}")
        if not -MAX_SEED <= seed <= MAX_SEED - (n - 1):
            raise WastelandError(f"--seed: the fights use seeds {seed} to {seed + n - 1}; "
                                 f"seeds run from {-MAX_SEED} to {MAX_SEED}")
