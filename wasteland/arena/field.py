"""What a tournament fights, checked before any game: the agents, the scenarios, the
rulesets and the seeds. Every mistake is one line naming what is accepted."""

from __future__ import annotations

from dataclasses import dataclass

from wasteland.bestiary.models import Scenario
from wasteland.rules.errors import WastelandError

from .fingerprint import agent_hash, scenario_hash


@dataclass(frozen=True)
class Entrant:
    name: str  # as the user wrote it, for the tables
    kind: str  # what make_agent makes it from anywhere (a policy's path made absolute)
    hash: str  # fingerprint.agent_hash


@dataclass(frozen=True)
class Field:
    entrants: tuple[Entrant, ...]
    scenarios: tuple[Scenario, ...]
    scenario_hashes: tuple[str, ...]
    rulesets: tuple[str, ...]
    n: int  # games per pairing, side order and scenario and ruleset
    seed: int  # game i of a pairing uses seed + i

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]


def names_in(text: str | None, option: str) -> list[str]:
    """The comma-separated names of ``option``, blanks dropped, each once."""
    names = [s.strip() for s in (text or "").split(",") if s.strip()]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise WastelandError(f"{option} names {n!r} twice; name each once")
        seen.add(n)
    return names


def entrants(text: str | None) -> tuple[Entrant, ...]:
    from wasteland.agents.base import AGENTS, agent_kind, make_agent

    names = names_in(text, "--agents")
    if len(names) < 2:
        raise WastelandError(f"--agents needs at least two agents, comma-separated (e.g. "
                             f"random,packet); got {len(names)}. Available: {', '.join(AGENTS)}")
    out = []
    for name in names:
        agent = make_agent(name, 0)  # an unknown agent or a broken policy: one line, now
        close = getattr(agent, "close", None)  # an agent that holds a resource (a program)
        if callable(close):
            close()
        kind = agent_kind(name)
        out.append(Entrant(name, kind, agent_hash(kind)))
    return tuple(out)


def scenarios(text: str | None) -> tuple[Scenario, ...]:
    """The scenarios named (built-in names or files), else every built-in one; each must
    have two sides, one per agent of a game."""
    from wasteland.bestiary.loader import load_scenario, scenario_names

    out = []
    for name in names_in(text, "--scenarios") or scenario_names():
        sc = load_scenario(name)
        if len(sc.sides) != 2:
            raise WastelandError(f"--scenarios: {sc.id!r} has {len(sc.sides)} sides; an arena "
                                 f"game puts one agent on each of two sides")
        out.append(sc)
    ids = [sc.id for sc in out]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup is not None:
        raise WastelandError(f"--scenarios names two scenarios with the id {dup!r}")
    return tuple(out)


def rulesets(text: str | None) -> tuple[str, ...]:
    from wasteland.rules.protocol import RULESETS

    names = names_in(text, "--rulesets") or list(RULESETS)
    for r in names:
        if r not in RULESETS:
            raise WastelandError(f"--rulesets: unknown ruleset {r!r}; available: {', '.join(RULESETS)}")
    return tuple(names)


def check_numbers(n: int, seed: int, jobs: int) -> None:
    from wasteland.limits import MAX_FIGHTS, MAX_SEED
    from wasteland.sim.runner import check_jobs

    if not 1 <= n <= MAX_FIGHTS:
        raise WastelandError(f"-n must be 1 to {MAX_FIGHTS:,} games per pairing, got {n}")
    check_jobs(jobs)
    if not -MAX_SEED <= seed <= MAX_SEED - (n - 1):
        raise WastelandError(f"--seed: the games use seeds {seed} to {seed + n - 1}; seeds "
                             f"run from {-MAX_SEED} to {MAX_SEED}")


def make_field(agents: str | None, scenario_text: str | None, ruleset_text: str | None, n: int,
               seed: int, jobs: int = 1) -> Field:
    """The tournament the options describe; each scenario's battle is built once under each
    ruleset, so a scenario a ruleset cannot fight is refused before the first game."""
    from wasteland.rules.protocol import get_ruleset

    check_numbers(n, seed, jobs)
    rs_names = rulesets(ruleset_text)
    scs = scenarios(scenario_text)
    ents = entrants(agents)
    for r in rs_names:
        rs = get_ruleset(r)
        for sc in scs:
            rs.new_battle(sc, seed, keep_log=False)
    return Field(ents, scs, tuple(scenario_hash(sc) for sc in scs), rs_names, n, seed)
