"""The map: line of sight and walking distances (readings in docs/rules/pnp.md)."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules.grid import Grid


def _grid(name: str) -> Grid:
    sc = load_scenario(name)
    legend = {k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    return Grid.from_ascii(sc.rows(), legend)


@pytest.mark.parametrize("name", scenario_names())
def test_precomputed_sight_matches_the_traced_line(name):
    g = _grid(name)
    for a in range(g.n_cells):
        for b in range(g.n_cells):
            assert g.los(a, b) == (a == b or g._trace(min(a, b), max(a, b))), (g.xy(a), g.xy(b))


def test_walls_block_sight_and_walking():
    g = Grid.from_ascii(["....", ".##.", "...."], {".": ["floor"], "#": ["wall"]})
    left, right = g.index(0, 1), g.index(3, 1)
    assert not g.los(left, right)
    assert g.los(g.index(0, 0), g.index(3, 0))
    assert g.walk_distances(right)[left] == 3  # around the wall, diagonals cost one
    closer = {g.step_to[left][k] for k in range(8) if g.downhill[left][right] >> k & 1}
    assert closer == {g.index(1, 0), g.index(1, 2)}
    top = g.index(1, 0)
    farther = {g.step_to[top][k] for k in range(8) if g.uphill[top][left] >> k & 1}
    assert farther == {g.index(2, 0)}


def _bfs(g: Grid, goal: int) -> dict[int, int]:
    from collections import deque

    dist = {goal: 0}
    q = deque([goal])
    while q:
        c = q.popleft()
        for n in g.neighbors[c]:
            if n not in dist:
                dist[n] = dist[c] + 1
                q.append(n)
    return dist


def test_walk_tables_match_breadth_first_search():
    g = _grid("ruined_street")
    for goal in range(0, g.n_cells, 7):
        if not g.passable[goal]:
            continue
        dist = _bfs(g, goal)
        field = g.walk_distances(goal)
        for cell in range(g.n_cells):
            assert field[cell] == dist.get(cell, 1 << 20)


@pytest.mark.parametrize("seed", range(6))
def test_walk_tables_of_generated_maps_match_breadth_first_search(seed):
    """Every goal of maps the training arenas lay out (walls in clumps, rooms, water):
    the distances, and the directions that walk nearer (downhill) or farther (uphill)."""
    import numpy as np

    from wasteland.training.arenas import random_arena

    sc = random_arena(np.random.default_rng(seed), ["super_mutant"], ["raider"],
                      ruleset="f2d20")
    legend = {k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    g = Grid.from_ascii(sc.rows(), legend)
    far = 1 << 20
    for goal in range(g.n_cells):
        dist = _bfs(g, goal) if g.passable[goal] else {}
        field = g.walk_distances(goal)
        assert field == [dist.get(cell, far) for cell in range(g.n_cells)]
        for cell in range(g.n_cells):
            for k, n in enumerate(g.step_to[cell]):
                nearer = n >= 0 and field[n] < field[cell]
                farther = n >= 0 and field[cell] < field[n] < far
                assert bool(g.downhill[cell][goal] >> k & 1) == nearer
                assert bool(g.uphill[cell][goal] >> k & 1) == farther


@pytest.mark.parametrize("name", ["duel", "ruined_street"])
def test_distance_table_is_chebyshev(name):
    """Grid.dist reads a table of every pair: the larger of the column and row differences,
    and the same worked out for a square off the table (the sums a caller's arithmetic
    gives); a map past the table's size works each out."""
    g = _grid(name)
    for a in range(g.n_cells):
        for b in range(g.n_cells):
            want = max(abs(g.xs[a] - g.xs[b]), abs(g.ys[a] - g.ys[b]))
            assert g.dist(a, b) == want, (g.xy(a), g.xy(b))
    assert g.dist(-1, 0) == max(abs(g.xs[-1] - g.xs[0]), abs(g.ys[-1] - g.ys[0]))
    wide = Grid.from_ascii(["." * 40] * 30, {".": ["floor"]})  # 1,200 squares: no table
    assert wide._dist_n == 0
    assert wide.dist(wide.index(0, 0), wide.index(39, 3)) == 39
