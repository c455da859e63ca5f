"""One arena game: two agents, one on each side of a two-sided scenario, fought on the
simulation's fast path (sim.fight: the fight `wasteland fight --seed` shows).

Many games go to the runner (sim/runner.py) as one ArenaSpec per ruleset, game i being
the runner's "seed" i: the local pool and Ray then spread them as they spread a
simulation's fights, and return them in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasteland.bestiary.models import Scenario
from wasteland.rules.protocol import Ruleset
from wasteland.sim.fight import fight
from wasteland.sim.spec import SimSpec


@dataclass(frozen=True, slots=True)
class Game:
    scenario: int  # index into ArenaSpec.scenarios
    agents: tuple[str, str]  # agent kinds, side 0 then side 1
    seed: int


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int | None  # the winning side, None for a draw
    rounds: int


@dataclass(frozen=True)
class ArenaSpec:
    ruleset: str
    scenarios: tuple[Scenario, ...]
    games: tuple[Game, ...]


def play_game(rs: Ruleset, spec: ArenaSpec, i: int) -> GameResult:
    """Game ``i`` of ``spec``: its battle's dice from its seed, side k's agent from
    seed + k, as sim.fight seeds them."""
    g = spec.games[i]
    rec = fight(rs, SimSpec(spec.ruleset, spec.scenarios[g.scenario], g.agents, 0), g.seed)
    return GameResult(rec.winner, rec.rounds)
