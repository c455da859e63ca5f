"""Wins, draws and losses with their Wilson 95% intervals (sim.stats.rate): of each
agent against each other agent, of each agent overall, and of each agent on each
scenario under each ruleset against the rest of the field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wasteland.sim.stats import rate

from .tournament import Played

OUTCOMES = ("win", "draw", "loss")


class Record:
    """One agent's wins, draws and losses in some set of games."""

    __slots__ = ("win", "draw", "loss")

    def __init__(self) -> None:
        self.win = self.draw = self.loss = 0

    @property
    def games(self) -> int:
        return self.win + self.draw + self.loss

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def report(self) -> dict[str, Any]:
        n = self.games
        return {"games": n, **{k: rate(getattr(self, k), n) for k in OUTCOMES}}


def outcomes(g: Played) -> Iterable[tuple[int, int, str]]:
    """(agent, opponent, the agent's outcome) for both agents of ``g``."""
    a, b = g.sides
    if g.winner is None:
        return ((a, b, "draw"), (b, a, "draw"))
    won = g.sides[g.winner]
    lost = b if won == a else a
    return ((won, lost, "win"), (lost, won, "loss"))


def tally(games: list[Played], agents: int, scenarios: list[str]) -> dict[str, Any]:
    """``matrix[i][j]``: agent i's record against agent j (None on the diagonal);
    ``overall[i]``; ``by_scenario[scenario][ruleset][i]``: agent i against the field."""
    pair = [[Record() for _ in range(agents)] for _ in range(agents)]
    overall = [Record() for _ in range(agents)]
    by: dict[tuple[int, str], list[Record]] = {}
    for g in games:
        cell = by.setdefault((g.scenario, g.ruleset), [Record() for _ in range(agents)])
        for me, other, outcome in outcomes(g):
            pair[me][other].add(outcome)
            overall[me].add(outcome)
            cell[me].add(outcome)
    by_scenario: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for (sc, r), recs in by.items():
        by_scenario.setdefault(scenarios[sc], {})[r] = [x.report() for x in recs]
    return {"matrix": [[None if i == j else pair[i][j].report() for j in range(agents)]
                       for i in range(agents)],
            "overall": [x.report() for x in overall],
            "by_scenario": by_scenario}
