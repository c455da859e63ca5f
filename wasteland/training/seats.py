"""Seat evaluations: an agent plays one side's creatures of given kinds (the seat) against
opponents, for a range of battle seeds; the rest of its side is played by the packet.

The same seeds with the packet in the seat give the baseline, so "does the policy play
this seat better than the packet" is a paired comparison of two win rates. The fights
drive the engine directly with agents (no env), so any agent can sit anywhere.

    seat(PolicyAgent(...), "vault_corridor", "pnp", kinds, fights=1000)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from wasteland.agents.base import Agent
from wasteland.agents.loop import checked, play
from wasteland.agents.make import make_agent
from wasteland.bestiary.models import Scenario
from wasteland.bestiary.suite import mirror_side
from wasteland.rules.rulesets import get_ruleset

from .stats import wilson

AgentMaker = Callable[[int], Agent]
Z95 = 1.959964


@dataclass
class Record:
    """Wins, losses and draws of the seat's side."""

    fights: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights if self.fights else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.fights)

    def add(self, winner: int | None, side: int) -> None:
        """Count one fight of ``side`` that ``winner`` won (None: a draw)."""
        self.fights += 1
        if winner is None:
            self.draws += 1
        elif winner == side:
            self.wins += 1
        else:
            self.losses += 1

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = asdict(self)
        d["win_rate"] = round(self.win_rate, 4)
        d["wilson95"] = [round(x, 4) for x in self.interval]
        return d


def difference_interval(a: Record, b: Record) -> tuple[float, float]:
    """Newcombe's 95% interval (method 10, from two Wilson intervals) of a's win rate
    minus b's."""
    p1, p2 = a.win_rate, b.win_rate
    l1, u1 = a.interval
    l2, u2 = b.interval
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return lo, hi


def agent_maker(spec: str | AgentMaker) -> AgentMaker:
    if isinstance(spec, str):
        return lambda seed: make_agent(spec, seed)
    return spec


def fight(scenario: Scenario, ruleset: str, seed: int, seat_side: int, kinds: Sequence[str],
          seat: AgentMaker, opponents: AgentMaker, allies: AgentMaker | None = None,
          max_rounds: int | None = None) -> int | None:
    # params: a seat fight's line-up, as the seat suite builds it
    """One battle; the winning side's index, or None for a draw."""
    R = get_ruleset(ruleset)
    b = R.new_battle(scenario, seed, keep_log=False, max_rounds=max_rounds)
    b.quiet = True
    kindset = set(kinds)
    mine, friends, others = seat(seed), (allies or agent_maker("packet"))(seed + 1), opponents(seed + 2)
    by_slot = [(mine if c.creature.id in kindset else friends) if c.side == seat_side else others
               for c in b.combatants]
    play(R, b, by_slot, apply=checked(R))
    return b.winner


def seat(seat_agent: str | AgentMaker, scenario: Scenario, ruleset: str, kinds: Sequence[str],
         seat_side: int | None = None, opponents: str | AgentMaker = "packet",
         fights: int = 100, first_seed: int = 0, max_rounds: int | None = None) -> Record:
    # params: a seat's record request, as the suite and the CLI pass it
    """The seat side's record over seeds first_seed .. first_seed + fights - 1. The seat
    side defaults to the first side holding one of ``kinds``."""
    if seat_side is None:
        seat_side = side_of(scenario, kinds)
    me, opp = agent_maker(seat_agent), agent_maker(opponents)
    r = Record()
    for i in range(fights):
        r.add(fight(scenario, ruleset, first_seed + i, seat_side, kinds, me, opp,
                    max_rounds=max_rounds), seat_side)
    return r


def side_of(scenario: Scenario, kinds: Sequence[str]) -> int:
    """The first side with a combatant of one of ``kinds``."""
    for i, side in enumerate(scenario.sides):
        if any(p.creature in kinds for p in side.combatants):
            return i
    raise ValueError(f"scenario {scenario.id!r} has none of {', '.join(kinds)}")


def mirror(seat_agent: str | AgentMaker, scenario: Scenario, ruleset: str,
           kinds: Sequence[str], fights: int = 100, first_seed: int = 0,
           opponents: str | AgentMaker = "packet") -> Record:
    """A mirror match (both sides of ``scenario`` hold the same creatures): the seat agent
    takes the side bestiary/suite.py's ``mirror_side`` gives the seed, the opponents the
    other."""
    me, opp = agent_maker(seat_agent), agent_maker(opponents)
    r = Record()
    for seed in range(first_seed, first_seed + fights):
        side = mirror_side(seed)
        r.add(fight(scenario, ruleset, seed, side, kinds, me, opp), side)
    return r
