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
    down, up = g.slopes(left, right)
    assert set(down) == {g.index(1, 0), g.index(1, 2)} and g.index(0, 0) not in down
