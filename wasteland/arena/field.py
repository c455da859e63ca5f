"""What a tournament fights, checked before any game: the agents, the scenarios, the
rulesets and the seeds. Every mistake is one line naming what is accepted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wasteland.agents.names import split_agents
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
    # (scenario, ruleset) pairs fought; None: every scenario under every ruleset. The seat
    # suite's scenarios are each tuned for one ruleset (bestiary/suite.py).
    pairs: tuple[tuple[int, str], ...] | None = None

    def fights(self, scenario: int, ruleset: str) -> bool:
        return self.pairs is None or (scenario, ruleset) in self.pairs

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]


def names_in(text: str | None, option: str,
             split: Callable[[str], list[str]] = lambda t: t.split(",")) -> list[str]:
    """The comma-separated names of ``option``, blanks dropped, each once; ``split``
    cuts the text (split_agents for agents: a search budget's commas are its own)."""
    names = [s.strip() for s in split(text or "") if s.strip()]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise WastelandError(f"{option} names {n!r} twice; name each once")
        seen.add(n)
    return names


def entrants(text: str | None, rulesets: tuple[str, ...] = ()) -> tuple[Entrant, ...]:
    """The agents of ``--agents``, each made once: an unknown agent, a broken policy, a
    policy of a ruleset other than ``rulesets`` or a program that does not answer is
    refused in one line before any game."""
    from wasteland.agents.base import AGENTS, agent_kind, check_ruleset
    from wasteland.agents.external import check_program
    from wasteland.agents.make import make_agent

    names = names_in(text, "--agents", split_agents)
    if len(names) < 2:
        raise WastelandError(f"--agents needs at least two agents, comma-separated (e.g. "
                             f"random,packet); got {len(names)}. Available: {', '.join(AGENTS)}")
    out = []
    for name in names:
        agent = make_agent(name, 0)  # an unknown agent or a broken policy: one line, now
        for r in rulesets:
            check_ruleset(agent, r)
        check_program(agent)  # a program that does not start or answer: one line, now
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
    from wasteland.rules.names import RULESETS

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


def suite_scenarios(suite: str, ruleset_text: str | None
                    ) -> tuple[tuple[Scenario, ...], tuple[tuple[int, str], ...]]:
    """The seat suite's scenarios with a bar (all, or one family's), each with the ruleset it
    was tuned for, filtered by --rulesets."""
    from wasteland.bestiary.suite import FAMILIES, load_suite, select

    every = load_suite()
    families = [f for f in FAMILIES if any(s.family == f for s in every)]
    if suite != "all" and suite not in families:
        raise WastelandError(f"--suite: unknown family {suite!r}; accepted: all, "
                             f"{', '.join(families)}")
    wanted = set(rulesets(ruleset_text))
    seats = [s for s in select(every, None if suite == "all" else suite, bar_only=True)
             if s.ruleset in wanted]
    if not seats:
        raise WastelandError(f"--suite {suite}: no seat with a bar under "
                             f"{', '.join(sorted(wanted))}")
    return tuple(s.load() for s in seats), tuple((i, s.ruleset) for i, s in enumerate(seats))


def make_field(agents: str | None, scenario_text: str | None, ruleset_text: str | None, n: int,
               seed: int, jobs: int = 1, suite: str | None = None) -> Field:
    """The tournament the options describe; each scenario's battle is built once under each
    ruleset, so a scenario a ruleset cannot fight is refused before the first game. With
    ``suite`` (all or a family) the scenarios are the seat suite's, each under its own
    ruleset."""
    from wasteland.rules.rulesets import get_ruleset

    check_numbers(n, seed, jobs)
    rs_names = rulesets(ruleset_text)
    pairs: tuple[tuple[int, str], ...] | None = None
    if suite is not None:
        if scenario_text:
            raise WastelandError("--suite and --scenarios both name the scenarios; give one")
        scs, pairs = suite_scenarios(suite, ruleset_text)
        rs_names = tuple(r for r in rs_names if any(r == pr for _, pr in pairs))
    else:
        scs = scenarios(scenario_text)
    ents = entrants(agents, rs_names)
    for r in rs_names:
        rs = get_ruleset(r)
        for i, sc in enumerate(scs):
            if pairs is None or (i, r) in pairs:
                rs.new_battle(sc, seed, keep_log=False)
    return Field(ents, scs, tuple(scenario_hash(sc) for sc in scs), rs_names, n, seed, pairs)
