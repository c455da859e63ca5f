"""The rest of a fight from a given moment (`simulate --from SAVE`, `odds` in play and gm):
each continuation plays a copy of the battle whose dice are reseeded, so continuations
differ and the battle itself is never touched.

Continuation i copies the battle and reseeds the copy's RNG from ``seed + i``; side s's
agent is made fresh from ``seed + i + s``, as a fresh fight's are. The battle's own RNG
and the agents of the game it came from are neither read nor advanced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wasteland.bestiary.models import Scenario
from wasteland.observe.memory import Memory
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork
from wasteland.rules.protocol import Ruleset

from .fight import play_out
from .record import FightRecord

if TYPE_CHECKING:
    from .request import Progress, SimRequest
    from .runner import Backend


# the one fork, kept under the name the simulations have always called it by
branch = fork


@dataclass(frozen=True)
class FromSpec:
    """A saved moment and who plays on from it; reads as a SimSpec for the tally."""

    battle: Battle
    agents: tuple[str, ...]
    party: int
    memory: Memory | None = None  # what the combatants had seen (observe/memory.py)

    @property
    def ruleset(self) -> str:
        return self.battle.ruleset

    @property
    def scenario(self) -> Scenario:
        return self.battle.scenario

    @property
    def side_names(self) -> list[str]:
        return list(self.battle.side_names)

    @property
    def party_ids(self) -> list[str]:
        return [c.id for c in self.battle.combatants if c.side == self.party]

    @property
    def party_creatures(self) -> list[str]:
        return [c.creature.id for c in self.battle.combatants if c.side == self.party]


def from_spec(b: Battle, agents: list[str] | None, party: int,
              memory: Memory | None = None) -> FromSpec:
    """The spec of ``b``'s continuations: packets on every side unless ``agents`` names
    them (one name plays every side); refused in one line when the fight is over."""
    from wasteland.agents.make import make_agent

    if b.over:
        won = "a draw" if b.winner is None else f"{b.side_names[b.winner]} won"
        raise WastelandError(f"the fight is over ({won}); nothing to simulate from here")
    sides = len(b.side_names)
    kinds = [k.strip() for k in agents or [] if k.strip()] or ["packet"]
    if len(kinds) == 1:
        kinds *= sides
    if len(kinds) != sides:
        raise WastelandError(f"--agents names {len(kinds)} agents; the fight has {sides} sides "
                             f"({', '.join(b.side_names)})")
    from wasteland.agents.external import check_program

    for k in dict.fromkeys(kinds):
        check_program(make_agent(k, 0, b.ruleset))  # a program must start and say hello
    return FromSpec(b, tuple(kinds), party, memory)


def fight_from(rs: Ruleset, spec: FromSpec, seed: int) -> FightRecord:
    """One continuation of ``spec.battle`` with ``seed``; its rounds are those played past
    the battle's current one."""
    b = branch(spec.battle, seed)
    return play_out(rs, b, spec.agents, spec.party, seed, first_round=spec.battle.round,
                    memory=spec.memory)


def party_side(b: Battle, side: str | None) -> int:
    """--side, else the side the people played in `play` or `gm` (their save says), else 0."""
    from wasteland.sim.encounter import resolve_side

    if side is not None:
        return resolve_side(b.scenario, side)
    humans = (b.session or {}).get("humans") or [0]
    return int(humans[0])


def run_from(req: SimRequest, backend: Backend | None,
             progress: Progress | None = None) -> dict[str, Any]:
    """`simulate --from`'s report: the odds of the rest of the saved fight."""
    import time

    from wasteland.observe.memory import load
    from wasteland.rules.rulesets import get_ruleset

    from .simulate import fight_all, report_of

    req.refuse("--from continues the saved fight", ("--scenario", "--ruleset", "--party",
                                                    "--enemies", "--balance", "--chain"))
    req.check_numbers()
    b, memory = load(str(req.from_save))
    spec = from_spec(b, req.agent_names, party_side(b, req.side), memory)
    start = time.perf_counter()
    sim = fight_all(spec, req, backend, progress, fn=fight_from)
    rep = report_of(sim, req.procs, start)
    decides = get_ruleset(b.ruleset).decider(b).combatant
    rep["from"] = {"save": str(req.from_save), "round": b.round, "decides": b.ids[decides]}
    return rep
