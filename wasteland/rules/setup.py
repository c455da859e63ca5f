"""Laying out a battle from a scenario: the map and every placed combatant. Shared by the
rulesets, which each make their own combatants from their own stat blocks."""

from __future__ import annotations

import random
from typing import Any, Protocol

from wasteland.bestiary.loader import Bestiary
from wasteland.bestiary.models import Scenario
from wasteland.limits import MAX_SEED, LimitError, map_size_problem, rounds_problem

from .battle import Battle, Combatant, DiceHook
from .grid import VISIBILITY, grid_for
from .rollnotes import NotedDice


class MakesCombatants(Protocol):
    name: str

    def make_combatant(self, bestiary: Bestiary, creature: str, slot: int, cid: str,
                       side: int, pos: int, alert: bool = True) -> Combatant: ...


def scenario_ids(scenario: Scenario) -> list[str]:
    """The combatants' ids in placement order: the scenario's, else ``creature_N``."""
    ids: list[str] = []
    counts: dict[str, int] = {}
    for side in scenario.sides:
        for p in side.combatants:
            n = counts.get(p.creature, 0)
            counts[p.creature] = n + 1
            ids.append(p.id or f"{p.creature}_{n}")
    return ids


def lay_out(ruleset: MakesCombatants, scenario: Scenario, seed: int, rng: random.Random,
            bestiary: Bestiary, keep_log: bool, max_rounds: Any,
            dice_hook: DiceHook | None = None) -> Battle:
    """The battle before its first roll: the map, the combatants in placement order (ids
    ``creature_N`` unless the scenario names them), the light and the round limit.
    The caps of wasteland/limits.py are checked here too, for scenarios not read from a
    file (built in code, or with ``model_construct``) and round limits from a caller."""
    problem = rounds_problem(max_rounds) if max_rounds is not None else None
    if problem:
        raise LimitError(problem)
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise LimitError(f"seed must be a whole number from {-MAX_SEED} to {MAX_SEED}, got {seed}")
    legend: dict[str, list[str]] = {
        k: ([v] if isinstance(v, str) else list(v)) for k, v in scenario.legend.items()}
    rows = scenario.rows()
    problem = map_size_problem(max((len(r) for r in rows), default=0), len(rows))
    if problem:
        raise LimitError(f"scenario {scenario.id!r}: map: {problem}")
    grid = grid_for(rows, legend)
    combatants: list[Combatant] = []
    ids = scenario_ids(scenario)
    for si, side in enumerate(scenario.sides):
        for p in side.combatants:
            combatants.append(ruleset.make_combatant(
                bestiary, p.creature, len(combatants), ids[len(combatants)], si,
                grid.index(*p.at), side.alert))
    b = Battle(ruleset.name, scenario, grid, combatants, [s.name for s in scenario.sides], seed,
               rng, dict(bestiary.items), keep_log=keep_log)
    b.rules = ruleset
    # set before the first roll, so a GM's table dice answer the initiative rolls too
    b.dice_hook = dice_hook
    if isinstance(dice_hook, NotedDice):  # it reads what each set-up roll is for
        dice_hook.battle = b
    b.ambient = VISIBILITY[scenario.lighting]
    b.max_rounds = int(max_rounds or scenario.max_rounds)
    return b
