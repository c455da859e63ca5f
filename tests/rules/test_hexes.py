"""The square map read as odd-r hexes, for the Simple ruleset (readings in
wasteland/rules/hexes.py). Expected values are worked by hand from the odd-r layout:
odd rows sit half a hex to the right of even rows."""

from __future__ import annotations

import copy
import pickle

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.rules.grid import Grid, grid_for
from wasteland.rules.hexes import (
    CACHE_KEY,
    DIRECTIONS,
    UNREACHABLE,
    Hexes,
    hexes_for,
)

LEGEND = {".": ["floor"], "#": ["wall"], ",": ["light_cover"], "=": ["heavy_cover"],
          "%": ["full_cover"]}
E, W, NE, NW, SE, SW = range(6)


def _hexes(*rows: str) -> Hexes:
    return Hexes(Grid.from_ascii(list(rows), LEGEND))


def _open(w: int, h: int) -> Hexes:
    return _hexes(*["." * w] * h)


def _scenario(name: str) -> Hexes:
    sc = load_scenario(name)
    legend = {k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    return Hexes(Grid.from_ascii(sc.rows(), legend))


def _at(hx: Hexes, x: int, y: int) -> int:
    return y * hx.width + x


def _cells(hx: Hexes, *xys: tuple[int, int]) -> tuple[int, ...]:
    return tuple(_at(hx, x, y) for x, y in xys)


# -- neighbours and distance -------------------------------------------------------------

def test_neighbours_of_an_even_row_cell_in_direction_order():
    hx = _open(6, 6)
    assert hx.neighbors[_at(hx, 2, 2)] == _cells(hx, (3, 2), (1, 2), (2, 1), (1, 1), (2, 3), (1, 3))


def test_neighbours_of_an_odd_row_cell_lean_right():
    hx = _open(6, 6)
    assert hx.neighbors[_at(hx, 2, 3)] == _cells(hx, (3, 3), (1, 3), (3, 2), (2, 2), (3, 4), (2, 4))


def test_the_map_edge_cuts_neighbours_by_row_parity():
    hx = _open(6, 6)
    # an even row's first cell has nothing west or to its lower and upper left
    assert hx.neighbors[_at(hx, 0, 2)] == _cells(hx, (1, 2), (0, 1), (0, 3))
    # an odd row's first cell still touches the cells above and below it
    assert hx.neighbors[_at(hx, 0, 1)] == _cells(hx, (1, 1), (1, 0), (0, 0), (1, 2), (0, 2))


def test_a_wall_removes_a_neighbour_and_its_step():
    hx = _hexes("......", "......", "...#..", "......")
    here = _at(hx, 2, 2)
    assert _at(hx, 3, 2) not in hx.neighbors[here]
    assert len(hx.neighbors[here]) == 5
    assert hx.step_to[here][E] == -1
    assert hx.step_to[here][W] == _at(hx, 1, 2)


@pytest.mark.parametrize("a, b, d", [
    ((0, 0), (1, 0), 1),
    ((0, 0), (0, 1), 1),   # south-east of an even row is straight below
    ((1, 0), (0, 1), 1),   # south-west of an even row is below and one left
    ((0, 1), (1, 0), 1),   # north-east of an odd row is above and one right
    ((0, 0), (1, 1), 2),   # below and one right of an even row is two steps
    ((0, 1), (0, 2), 1),   # south-west of an odd row is straight below
    ((0, 0), (0, 2), 2),
    ((0, 0), (0, 4), 4),
    ((0, 0), (3, 4), 5),
    ((0, 0), (5, 1), 6),   # the odd row leans away: one step down, five across
    ((5, 0), (0, 1), 5),   # ...and towards: down and left at once, then four across
    ((0, 0), (5, 0), 5),
])
def test_distance_by_hand(a, b, d):
    hx = _open(6, 6)
    assert hx.dist(_at(hx, *a), _at(hx, *b)) == d
    assert hx.dist(_at(hx, *b), _at(hx, *a)) == d


def test_distance_is_a_symmetric_metric_and_one_exactly_between_neighbours():
    hx = _open(5, 6)
    n = hx.n_cells
    for a in range(n):
        assert hx.dist(a, a) == 0
        for b in range(n):
            d = hx.dist(a, b)
            assert d == hx.dist(b, a)
            assert (d == 1) == (b in hx.neighbors[a]), (a, b)
            for c in range(0, n, 3):
                assert d <= hx.dist(a, c) + hx.dist(c, b)


def test_distance_is_the_walk_on_an_open_map_and_walls_are_ignored():
    hx = _open(7, 5)
    for t in range(hx.n_cells):
        assert hx.walk_distances(t) == [hx.dist(c, t) for c in range(hx.n_cells)]
    walled = _hexes(".......", "...#...", ".......")
    assert walled.dist(_at(walled, 2, 1), _at(walled, 4, 1)) == 2



def _axial(hx: Hexes, a: int, b: int) -> int:
    dq, dr = hx.q[a] - hx.q[b], hx.r[a] - hx.r[b]
    return max(abs(dq), abs(dr), abs(dq + dr))


def test_distance_table_is_the_axial_distance_and_a_big_map_works_it_out():
    """Hexes.dist reads a table of every pair on a map up to 32 x 32; it equals the axial
    distance on a built-in map, after a pickle, and on a map past the table's size."""
    hx = _scenario("ruined_street")
    back = pickle.loads(pickle.dumps(hx))
    for a in range(hx.n_cells):
        for b in range(hx.n_cells):
            assert hx.dist(a, b) == back.dist(a, b) == _axial(hx, a, b), (a, b)
    big = _open(40, 30)  # 1,200 cells: no table
    assert big._dist_n == 0
    for a, b in ((0, 1199), (41, 800), (1199, 39)):
        assert big.dist(a, b) == _axial(big, a, b)


# -- lines and sight ---------------------------------------------------------------------

def test_lines_by_hand():
    hx = _open(6, 6)
    assert hx.line(_at(hx, 0, 0), _at(hx, 4, 0)) == _cells(hx, *[(x, 0) for x in range(5)])
    # axial south-east from an even row zigzags down, stepping right on odd rows
    assert hx.line(_at(hx, 0, 0), _at(hx, 2, 4)) == _cells(hx, (0, 0), (0, 1), (1, 2), (1, 3), (2, 4))
    assert hx.line(_at(hx, 3, 3), _at(hx, 3, 3)) == (_at(hx, 3, 3),)


@pytest.mark.parametrize("hx", [_open(6, 7), _scenario("ruined_street")], ids=["open", "ruined_street"])
def test_lines_join_their_ends_in_dist_plus_one_adjacent_hexes(hx):
    for a in range(hx.n_cells):
        for b in range(a, hx.n_cells):  # the other half by the reversal below
            line = hx.line(a, b)
            assert line[0] == a and line[-1] == b
            assert len(line) == hx.dist(a, b) + 1
            assert all(hx.dist(u, v) == 1 for u, v in zip(line, line[1:])), (a, b, line)
            assert line == tuple(reversed(hx.line(b, a)))


def test_a_wall_between_blocks_sight_and_a_wall_beside_does_not():
    hx = _hexes(".......", "...#...", ".......")
    a, b = _at(hx, 1, 1), _at(hx, 5, 1)
    assert not hx.sees(a, b) and not hx.sees(b, a)
    hx = _hexes("...#...", ".......", ".......")
    assert hx.sees(_at(hx, 1, 1), _at(hx, 5, 1))
    assert hx.sees(_at(hx, 1, 0), _at(hx, 2, 0)) and not hx.sees(_at(hx, 1, 0), _at(hx, 5, 0))


def test_a_line_along_an_edge_is_blocked_only_by_walls_on_both_sides():
    # (2,0) to (2,2) passes exactly between (1,1) and (2,1)
    a, b = (2, 0), (2, 2)
    for rows, seen in [((".....", ".#...", "....."), True),
                       ((".....", "..#..", "....."), True),
                       ((".....", ".##..", "....."), False)]:
        hx = _hexes(*rows)
        assert hx.sees(_at(hx, *a), _at(hx, *b)) == seen, rows


def test_the_map_edge_is_a_wall_for_a_line_grazing_it():
    # (0,0) to (0,2) runs between (0,1) and the hex left of the map; (4,1) to (4,3) between
    # (4,2) and the hex right of it. A line stays on the map, and the edge hides like a wall.
    hx = _open(5, 5)
    assert hx.line(_at(hx, 0, 0), _at(hx, 0, 2)) == _cells(hx, (0, 0), (0, 1), (0, 2))
    assert hx.line(_at(hx, 4, 1), _at(hx, 4, 3)) == _cells(hx, (4, 1), (4, 2), (4, 3))
    hx = _hexes(".....", "#....", "....#", ".....", ".....")
    assert not hx.sees(_at(hx, 0, 0), _at(hx, 0, 2))
    assert not hx.sees(_at(hx, 4, 1), _at(hx, 4, 3))


def test_nothing_hides_on_an_open_map():
    hx = _open(9, 8)  # lines along the ragged side edges must not count as leaving the map
    assert all(all(hx.sight_row(a)) for a in range(hx.n_cells))


@pytest.mark.parametrize("name", ["ruined_street", "robot_depot"])
def test_sight_is_symmetric_and_is_either_nudged_line_being_clear(name):
    hx = _scenario(name)
    blocked = 0

    def clear(cells: list[int]) -> bool:
        return all(c >= 0 and hx.passable[c] for c in cells[1:-1])

    for a in range(hx.n_cells):
        for b in range(a, hx.n_cells):
            seen = hx.sees(a, b)
            assert seen == hx.sees(b, a), (a, b)
            lo, hi = min(a, b), max(a, b)
            assert seen == (clear(hx._trace(lo, hi, 1.0)) or clear(hx._trace(lo, hi, -1.0))), (a, b)
            if hx.passable[a] and hx.passable[b] and not seen:
                blocked += 1
    assert blocked > 500  # the walls do hide things


# -- walking and straight lines ----------------------------------------------------------

def test_walking_goes_around_a_wall_and_not_through_one():
    hx = _hexes(".......", "...#...", ".......")
    walk = hx.walk_distances(_at(hx, 4, 1))
    assert walk[_at(hx, 2, 1)] == 3  # up to (3,0), across to (4,0), down
    assert walk[_at(hx, 4, 1)] == 0
    assert walk[_at(hx, 3, 1)] == UNREACHABLE
    pocket = _hexes("..#..", ".#...", "..#..")
    walk = pocket.walk_distances(_at(pocket, 0, 1))
    assert walk[_at(pocket, 1, 0)] == 1
    assert walk[_at(pocket, 4, 1)] == UNREACHABLE
    assert pocket.walk_distances(_at(pocket, 2, 0)) == [UNREACHABLE] * pocket.n_cells
    assert pocket.walk_distances(_at(pocket, 0, 1)) is walk  # cached


def test_straight_along_each_of_the_six_directions():
    hx = _open(9, 9)
    here = _at(hx, 4, 4)
    for k, (dq, dr) in enumerate(DIRECTIONS):
        far = hx.cell_at(hx.q[here] + 3 * dq, hx.r[here] + 3 * dr)
        assert far >= 0
        assert hx.direction(here, far) == k
        assert hx.straight(here, far) and hx.straight(far, here)
        assert hx.ray(here, k, 3)[-1] == far
    # by hand: north-east twice from an even row is one row up-right, then one more
    assert hx.straight(here, _at(hx, 5, 2))
    assert hx.ray(here, NE, 2) == _cells(hx, (4, 3), (5, 2))
    assert hx.ray(here, SW, 2) == _cells(hx, (3, 5), (3, 6))


def test_not_straight_off_the_six_directions():
    hx = _open(9, 9)
    here = _at(hx, 4, 4)
    assert not hx.straight(here, _at(hx, 4, 2))  # straight up on squares zigzags on hexes
    assert not hx.straight(here, _at(hx, 6, 2))
    assert not hx.straight(here, _at(hx, 6, 5))
    assert not hx.straight(here, here)
    assert hx.direction(here, _at(hx, 4, 2)) == -1


def test_a_wall_breaks_a_straight_line_and_stops_a_ray():
    hx = _hexes(".........", ".........", ".....#...")
    here = _at(hx, 2, 2)
    assert not hx.straight(here, _at(hx, 7, 2))
    assert not hx.straight(here, _at(hx, 5, 2))
    assert hx.straight(here, _at(hx, 4, 2))
    assert hx.ray(here, E, 6) == _cells(hx, (3, 2), (4, 2))
    assert hx.ray(here, W, 6) == _cells(hx, (1, 2), (0, 2))  # and so does the map's edge


# -- cones -------------------------------------------------------------------------------

def test_cone_holds_the_aimed_at_hex_within_thirty_degrees():
    hx = _open(9, 9)
    here, aim = _at(hx, 4, 4), _at(hx, 7, 4)
    cone = hx.cone(here, aim, 3)
    assert aim in cone and _at(hx, 5, 4) in cone and _at(hx, 6, 4) in cone
    assert _at(hx, 5, 3) in cone  # the diagonal, exactly 30 degrees up: the edge counts
    assert _at(hx, 4, 3) not in cone  # the north-east neighbour, 60 degrees up
    assert _at(hx, 4, 2) not in cone  # straight up, 90 degrees
    assert _at(hx, 3, 4) not in cone and _at(hx, 1, 4) not in cone  # behind
    assert here not in cone
    assert all(hx.dist(here, c) <= 3 for c in cone)
    assert _at(hx, 8, 4) not in cone  # out of reach
    assert hx.cone(here, aim, 3) is cone  # cached
    assert hx.cone(here, here, 3) == frozenset()


def test_cone_stops_at_walls():
    hx = _hexes(".........", ".........", ".........", ".........", ".....#...",
                ".........", ".........")
    here, aim = _at(hx, 4, 4), _at(hx, 7, 4)
    cone = hx.cone(here, aim, 3)
    assert _at(hx, 5, 4) not in cone  # the wall itself
    assert aim not in cone and _at(hx, 6, 4) not in cone  # hidden behind it
    assert _at(hx, 5, 3) in cone


# -- drawing -----------------------------------------------------------------------------

def test_text_indents_odd_rows_and_draws_terrain_and_marks():
    hx = _hexes("#.,", ".=%", "...")
    assert hx.text() == ["# . ,", " . = %", ". . ."]
    assert hx.text({_at(hx, 1, 1): "1", _at(hx, 0, 2): "ab"}) == ["# . ,", " . 1 %", "a . ."]


# -- caching and copies ------------------------------------------------------------------

def _answers(hx: Hexes) -> list[object]:
    cells = range(0, hx.n_cells, 7)
    return [hx.neighbors, hx.step_to, [hx.sight_row(a) for a in cells],
            [hx.walk_distances(t) for t in cells], [hx.line(a, b) for a in cells for b in cells],
            [hx.dist(a, b) for a in cells for b in cells],
            [hx.cone(a, b, 4) for a in cells for b in cells], hx.text({3: "x"})]


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda h: pickle.loads(pickle.dumps(h))],
                         ids=["deepcopy", "pickle"])
def test_a_copy_gives_the_same_answers(clone):
    hx = _scenario("robot_depot")
    hx.sight_row(5)
    hx.walk_distances(30)
    hx.cone(30, 40, 3)
    twin = clone(hx)
    assert twin is not hx and twin._sight is not hx._sight
    assert twin._sight == hx._sight and twin._walk == hx._walk and twin._cones == hx._cones
    assert _answers(twin) == _answers(hx)
    fresh = clone(_scenario("robot_depot"))  # caches filled after the copy, not copied
    assert _answers(fresh) == _answers(hx)


def test_one_hexes_per_grid():
    sc = load_scenario("duel")
    legend = {k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    g = grid_for(sc.rows(), legend)
    hx = hexes_for(g)
    assert hexes_for(g) is hx
    assert hexes_for(grid_for(sc.rows(), legend)) is hx  # grids are shared, so are hexes
    assert g.caches[CACHE_KEY] is hx
    other = hexes_for(Grid.from_ascii(sc.rows(), legend))
    assert other is not hx and other.neighbors == hx.neighbors
