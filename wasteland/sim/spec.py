"""What a simulation fights: the encounter, the ruleset, one agent per side and which side
is the party, built and checked once before any fight begins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from wasteland.bestiary.models import Scenario
from wasteland.rules.errors import WastelandError


class Encounter(Protocol):
    """What the tally and the report read of a spec: a fresh encounter (SimSpec) or a
    saved moment (branch.FromSpec)."""

    @property
    def ruleset(self) -> str: ...
    @property
    def scenario(self) -> Scenario: ...
    @property
    def agents(self) -> tuple[str, ...]: ...
    @property
    def party(self) -> int: ...
    @property
    def side_names(self) -> list[str]: ...
    @property
    def party_ids(self) -> list[str]: ...
    @property
    def party_creatures(self) -> list[str]: ...


@dataclass(frozen=True)
class SimSpec:
    ruleset: str
    scenario: Scenario  # loaded once; every fight builds its battle from this object
    agents: tuple[str, ...]  # one agent kind per side, in side order
    party: int  # the players' side: whose odds the numbers are

    @property
    def side_names(self) -> list[str]:
        return [s.name for s in self.scenario.sides]

    @property
    def party_ids(self) -> list[str]:
        """The party's combatant ids as a battle names them (see PnP.new_battle)."""
        counts: dict[str, int] = {}
        out: list[str] = []
        for si, side in enumerate(self.scenario.sides):
            for p in side.combatants:
                n = counts.get(p.creature, 0)
                counts[p.creature] = n + 1
                if si == self.party:
                    out.append(p.id or f"{p.creature}_{n}")
        return out

    @property
    def party_creatures(self) -> list[str]:
        return [p.creature for p in self.scenario.sides[self.party].combatants]


def side_agents(scenario: Scenario, names: list[str] | None, ruleset: str | None = None
                ) -> tuple[str, ...]:
    """One agent kind per side: ``names`` in side order (one name plays every side); a
    side it does not name plays by its scenario's agent, else the packet. Each is made
    once here, so an unknown agent, a broken policy, a policy of another ruleset than
    ``ruleset`` or a program that does not answer is refused before any fight."""
    from wasteland.agents.make import make_agent

    defaults = [side.agent or "packet" for side in scenario.sides]
    kinds = [n.strip() for n in names or [] if n.strip()]
    if len(kinds) == 1:
        kinds = kinds * len(defaults)
    if len(kinds) > len(defaults):
        raise WastelandError(f"--agents names {len(kinds)} agents; scenario {scenario.id!r} has "
                             f"{len(defaults)} sides "
                             f"({', '.join(s.name for s in scenario.sides)})")
    kinds += defaults[len(kinds):]
    from wasteland.agents.external import check_program

    for k in dict.fromkeys(kinds):
        check_program(make_agent(k, 0, ruleset))  # a program must start and say hello
    return tuple(kinds)
