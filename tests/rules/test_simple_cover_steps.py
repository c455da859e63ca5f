"""Simple's nearest cover (the `cover` action's legality at every move decision) answers
from the map's own steps-to-cover when no cover is in reach even with nobody in the way:
the same answer as the walk itself, on every map, from every hex, with people about."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules.hexes import hexes_for
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.simple import movement as M


def _walked(b, c, hexes: int) -> int | None:
    """The nearest free hex with cover within ``hexes`` steps, walked (walls and people
    block): the rule as nearest_cover reads it, without its shortcut."""
    h = hexes_for(b.grid)
    seen = {c.pos}
    frontier = [c.pos]
    for _ in range(hexes):
        nxt, found = [], []
        for p in frontier:
            for n in h.neighbors[p]:
                if n in seen or n in b.occupied:
                    continue
                seen.add(n)
                nxt.append(n)
                if b.grid.cover[n]:
                    found.append(n)
        if found:
            return min(found)
        frontier = nxt
    return None


@pytest.mark.parametrize("scenario", scenario_names())
def test_nearest_cover_is_the_walks_answer_from_every_hex(scenario: str) -> None:
    b = get_ruleset("simple").new_battle(load_scenario(scenario), 0)
    if b.grid.rough:
        pytest.skip("climbing and swimming take the capped walk, not the shortcut")
    h = hexes_for(b.grid)
    c = b.combatants[0]
    rng = random.Random(scenario)
    others = [o for o in b.combatants if o is not c]
    free = [p for p in range(h.n_cells) if h.passable[p]]
    shortcut = 0
    for p in free:
        for o in others:  # the rest stand about at random, off c's hex
            o.pos = rng.choice([q for q in free if q != p])
        c.pos = p
        b.occupied = {o.pos: o.slot for o in b.combatants}
        for hexes in (1, 2, 4, 8):
            got = M.nearest_cover(b, c, hexes)
            assert got == _walked(b, c, hexes), (scenario, p, hexes)
            shortcut += not b.grid.cover[p] and M.cover_steps(b.grid, h)[p] > hexes
    assert shortcut > 0  # the shortcut was taken, and agreed


def test_steps_to_cover_are_the_shortest_walks() -> None:
    b = get_ruleset("simple").new_battle(load_scenario("ruined_street"), 0)
    h = hexes_for(b.grid)
    steps = M.cover_steps(b.grid, h)
    covered = [q for q in range(h.n_cells) if b.grid.cover[q] and h.passable[q]]
    assert covered
    for p in range(h.n_cells):
        if h.passable[p]:
            walks = [h.walk_distances(q)[p] for q in covered]
            assert steps[p] == min(walks), p
