"""Zones over the square map, for the 2d20 range bands (Seed 003_938882289c4f9016.txt,
Range: Close = same zone, Medium = adjacent zone, Long = two zones away, Extreme =
three or more). The partition's reading is in wasteland/rules/zones.py."""

from __future__ import annotations

from collections import deque

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules.grid import Grid, grid_for
from wasteland.rules.textmap import render_zones
from wasteland.rules.zones import (
    CLOSE,
    EXTREME,
    LONG,
    MEDIUM,
    MIN_ZONE,
    UNREACHABLE,
    Zones,
    zone_glyph,
    zones_for,
)

LEGEND = {".": ["floor"], "#": ["wall"], ",": ["light_cover"], "=": ["heavy_cover"]}


def _grid(name: str) -> Grid:
    sc = load_scenario(name)
    legend = {k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    return grid_for(sc.rows(), legend)


SCENARIOS = scenario_names()


def _connected(grid: Grid, cells: tuple[int, ...]) -> bool:
    inside = set(cells)
    seen = {cells[0]}
    queue = deque([cells[0]])
    while queue:
        c = queue.popleft()
        for j in grid.neighbors[c]:
            if j in inside and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen == inside


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_passable_square_is_in_exactly_one_connected_zone(name):
    g = _grid(name)
    zs = zones_for(g)
    assert zs.count >= 1
    for i in range(g.n_cells):
        assert (zs.zone_of[i] >= 0) == g.passable[i]
    seen: list[int] = []
    for z in range(zs.count):
        cells = zs.cells(z)
        assert cells and all(zs.zone_of[c] == z for c in cells)
        assert _connected(g, cells), zs.name(z)
        seen.extend(cells)
    assert sorted(seen) == [i for i in range(g.n_cells) if g.passable[i]]
    # numbered in reading order of each zone's first square
    assert [min(zs.cells(z)) for z in range(zs.count)] == sorted(min(zs.cells(z)) for z in range(zs.count))


@pytest.mark.parametrize("name", SCENARIOS)
def test_zone_sizes_are_sensible(name):
    zs = zones_for(_grid(name))
    for z in range(zs.count):
        n = len(zs.cells(z))
        assert n <= 64, (zs.name(z), n)
        assert n >= MIN_ZONE or not zs.adjacent(z), (zs.name(z), n)


@pytest.mark.parametrize("name", SCENARIOS)
def test_adjacency_is_symmetric_and_means_a_walkable_step(name):
    g = _grid(name)
    zs = zones_for(g)
    for a in range(zs.count):
        assert a not in zs.adjacent(a)
        for b in zs.adjacent(a):
            assert a in zs.adjacent(b)
        steps_to = {zs.zone_of[j] for c in zs.cells(a) for j in g.neighbors[c]} - {a}
        assert set(zs.adjacent(a)) == steps_to


@pytest.mark.parametrize("name", SCENARIOS)
def test_hops_agree_with_adjacency(name):
    zs = zones_for(_grid(name))
    n = zs.count
    for a in range(n):
        assert zs.hops[a][a] == 0
        for b in range(n):
            assert zs.hops[a][b] == zs.hops[b][a]
            if b in zs.adjacent(a):
                assert zs.hops[a][b] == 1
            elif a != b:
                assert zs.hops[a][b] >= 2
            for c in zs.adjacent(b):  # one zone step changes the distance by at most one
                assert abs(zs.hops[a][b] - zs.hops[a][c]) <= 1
            for c in range(n):
                assert zs.hops[a][c] <= zs.hops[a][b] + zs.hops[b][c]


@pytest.mark.parametrize("name", SCENARIOS)
def test_band_is_hops_capped_at_extreme(name):
    """Seed 003_938882289c4f9016.txt, Range: same zone Close, adjacent Medium, two zones
    Long, three or more Extreme."""
    g = _grid(name)
    zs = zones_for(g)
    cells = [i for i in range(g.n_cells) if g.passable[i]]
    for a in cells:
        za = zs.zone_of[a]
        for b in cells:
            h = zs.hops[za][zs.zone_of[b]]
            assert zs.band(a, b) == min(h, EXTREME)
            assert zs.band(a, b) == zs.zone_band(za, zs.zone_of[b])
            if za == zs.zone_of[b]:
                assert zs.band(a, b) == CLOSE


def _corridor() -> Grid:
    # a 1-square-high corridor long enough for five zones
    return Grid.from_ascii(["#" * 32, "#" + "." * 30 + "#", "#" + "." * 30 + "#", "#" * 32], LEGEND)


def test_bands_along_a_corridor():
    """Seed 003_938882289c4f9016.txt, Range: the band grows by one per zone and stops at
    Extreme, three or more zones away."""
    g = _corridor()
    zs = Zones(g)
    assert zs.count == 5
    start = g.index(1, 1)
    bands = [zs.band(start, zs.centre(z)) for z in range(zs.count)]
    assert bands == [CLOSE, MEDIUM, LONG, EXTREME, EXTREME]
    assert zs.hops[0][4] == 4
    assert zs.zones_within(0, 1) == (0, 1)
    assert zs.zones_within(2, 2) == (0, 1, 2, 3, 4)


def test_a_wall_splits_zones_and_bands_follow_walking():
    """Seed 003_938882289c4f9016.txt, Range: zones are counted along the way one walks,
    so squares a step apart on either side of a wall are not in one zone."""
    rows = [
        "##########",
        "#....#...#",
        "#....#...#",
        "#....#...#",
        "#........#",
        "##########",
    ]
    g = Grid.from_ascii(rows, LEGEND)
    zs = Zones(g)
    left, right = g.index(4, 1), g.index(6, 1)
    assert zs.zone_of[left] != zs.zone_of[right]
    assert zs.band(left, right) >= MEDIUM
    # a sealed wall leaves two zones with no route: unreachable hops, Extreme band
    sealed = Grid.from_ascii(["#######", "#..#..#", "#..#..#", "#..#..#", "#######"], LEGEND)
    zs2 = Zones(sealed)
    a, b = zs2.zone_of[sealed.index(1, 1)], zs2.zone_of[sealed.index(5, 1)]
    assert a != b and zs2.hops[a][b] == UNREACHABLE
    assert zs2.band(sealed.index(1, 1), sealed.index(5, 1)) == EXTREME
    assert zs2.adjacent(a) == () and len(zs2.cells(a)) == 6  # an isolated pocket stays
    assert zs2.next_zone_toward(a, b) == a
    assert zs2.band(sealed.index(0, 0), sealed.index(1, 1)) == EXTREME  # a wall square


def test_small_fragments_merge_into_a_neighbour():
    # the lattice cuts between x=6 and x=7; the right-hand block's nook at (7,1)-(8,1)
    # is walled off from the rest of its block and opens only to the left-hand block
    rows = [
        "#........#...#",
        "#........#...#",
        "#......###...#",
        "#............#",
        "#............#",
        "#............#",
        "#............#",
        "#........#...#",
    ]
    g = Grid.from_ascii(rows, LEGEND)
    zs = Zones(g)
    assert zs.count == 2
    assert zs.zone_of[g.index(7, 1)] == zs.zone_of[g.index(8, 1)] == zs.zone_of[g.index(6, 1)]
    assert zs.zone_of[g.index(7, 3)] != zs.zone_of[g.index(6, 3)]
    assert all(len(zs.cells(z)) >= MIN_ZONE for z in range(zs.count))


@pytest.mark.parametrize("name", SCENARIOS)
def test_zones_are_deterministic_and_cached(name):
    g = _grid(name)
    a, b = Zones(g), Zones(g)
    assert a.zone_of == b.zone_of and a.hops == b.hops
    assert [a.centre(z) for z in range(a.count)] == [b.centre(z) for z in range(b.count)]
    assert [a.cover(z) for z in range(a.count)] == [b.cover(z) for z in range(b.count)]
    assert zones_for(g) is zones_for(g)
    assert zones_for(g).zone_of == a.zone_of


@pytest.mark.parametrize("name", SCENARIOS)
def test_movement_helpers(name):
    g = _grid(name)
    zs = zones_for(g)
    for a in range(zs.count):
        assert zs.centre(a) in zs.cells(a)
        assert zs.next_zone_toward(a, a) == a
        for b in range(zs.count):
            h = zs.hops[a][b]
            step = zs.next_zone_toward(a, b)
            if 0 < h < UNREACHABLE:
                assert step in zs.adjacent(a)
                assert zs.hops[step][b] == h - 1
            away = zs.zones_away_from(a, b)
            assert all(o in zs.adjacent(a) and zs.hops[o][b] > h for o in away)
            assert set(away) == {o for o in zs.adjacent(a) if zs.hops[o][b] > h}


def test_zones_away_from_a_threat_along_a_corridor():
    zs = Zones(_corridor())
    assert zs.zones_away_from(2, 1) == (3,)
    assert zs.zones_away_from(2, 3) == (1,)
    assert zs.zones_away_from(4, 0) == ()


@pytest.mark.parametrize("name", SCENARIOS)
def test_free_cell_respects_occupancy(name):
    g = _grid(name)
    zs = zones_for(g)
    for z in range(zs.count):
        cells = zs.cells(z)
        near = cells[-1]
        first = zs.free_cell(z, set(), near_cell=near)
        assert first == near
        second = zs.free_cell(z, {near: 0}, near_cell=near)
        assert second is not None and second != near and second in cells
        walk = g.walk_distances(near)
        assert walk[second] == min(walk[c] for c in cells if c != near)
        far = zs.free_cell(z, set(), far_from=near)
        assert far is not None and walk[far] == max(walk[c] for c in cells)
        assert zs.free_cell(z, set(cells)) is None
        assert zs.free_cell(z, set()) == zs.centre(z)
        assert zs.free_cell(z, set(cells[1:])) == cells[0]


def test_zone_cover_reading():
    rows = [
        "##########",
        "#,,......#",
        "#,.......#",
        "#........#",
        "#.......=#",
        "##########",
    ]
    zs = Zones(Grid.from_ascii(rows, LEGEND))
    assert zs.count == 1
    assert zs.cover(0) == 1  # 3 light, 1 heavy: neither a quarter; light is commonest
    full = Zones(Grid.from_ascii(["######", "#==..#", "#....#", "######"], LEGEND))
    assert full.cover(0) == 2  # a quarter of the squares are heavy cover
    bare = Zones(Grid.from_ascii(["######", "#....#", "#....#", "######"], LEGEND))
    assert bare.cover(0) == 0


def test_zone_cover_at_exactly_a_quarter():
    """The boundary of the quarter rule (Zones._find_cover, docs/rules/f2d20.md cover
    reading) on maps where the two readings differ: 2 heavy of 8 squares is exactly a
    quarter, so heavy (2), though light (3 squares) is commoner and would win the
    fallback; 2 heavy of 9 is under a quarter, so light (5 of 9 at least light) wins."""
    quarter = Zones(Grid.from_ascii(["######", "#==,,#", "#,...#", "######"], LEGEND))
    assert quarter.count == 1 and len(quarter.cells(0)) == 8
    assert quarter.cover(0) == 2
    under = Zones(Grid.from_ascii(["#####", "#==,#", "#,,.#", "#...#", "#####"], LEGEND))
    assert under.count == 1 and len(under.cells(0)) == 9
    assert under.cover(0) == 1


@pytest.mark.parametrize("name", SCENARIOS)
def test_render_zones_shows_every_zone(name):
    g = _grid(name)
    zs = zones_for(g)
    text = render_zones(g).splitlines()
    picture, legend = text[:g.height], text[g.height:]
    assert len(legend) == zs.count
    for z in range(zs.count):
        x, y = g.xy(zs.cells(z)[0])
        assert picture[y][x] == zone_glyph(z)
        assert legend[z].startswith(f"{zone_glyph(z)} {zs.name(z)}: {len(zs.cells(z))} squares")
    for i in range(g.n_cells):
        x, y = g.xy(i)
        assert (picture[y][x] == "#") == (not g.passable[i])


def test_random_maps_keep_the_invariants():
    import random

    rng = random.Random(3)
    for _ in range(30):
        w, h = rng.randint(3, 26), rng.randint(3, 14)
        rows = ["".join("#" if rng.random() < 0.3 else rng.choice("...,=") for _ in range(w))
                for _ in range(h)]
        g = Grid.from_ascii(rows, LEGEND)
        zs = Zones(g)
        assert Zones(g).zone_of == zs.zone_of
        for i in range(g.n_cells):
            assert (zs.zone_of[i] >= 0) == g.passable[i]
        for z in range(zs.count):
            assert _connected(g, zs.cells(z))
            assert len(zs.cells(z)) >= MIN_ZONE or not zs.adjacent(z)
            for o in zs.adjacent(z):
                assert z in zs.adjacent(o)
        for a in range(g.n_cells):
            for b in range(g.n_cells):
                if g.passable[a] and g.passable[b]:
                    same_area = g.walk_distances(a)[b] < (1 << 20)
                    assert (zs.hops[zs.zone_of[a]][zs.zone_of[b]] < UNREACHABLE) == same_area


def test_a_map_of_walls_has_no_zones():
    zs = Zones(Grid.from_ascii(["###", "###"], LEGEND))
    assert zs.count == 0 and zs.zone_of == [-1] * 6
    assert zs.band(0, 5) == EXTREME
