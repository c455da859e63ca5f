"""The square map read as hexes, for J.E. Sawyer's "Simple" Fallout ruleset.

A scenario is written once as a square ASCII map (rules/grid.py). The Simple ruleset
fights on hexes, so it reads the same cells in the "odd-r" offset layout: rows stay
horizontal and every odd row is shifted right by half a hex. A cell keeps its index
``y * width + x`` under every ruleset (a combatant's ``pos`` does not change); only the
neighbourhood, distance, line of sight and straight lines differ.

Coordinates follow redblobgames' "Hexagonal Grids": axial ``q = x - (y - (y & 1)) // 2``,
``r = y`` (cube ``s = -q - r``); distance ``max(|dq|, |dr|, |dq + dr|)``; a hex's pixel
centre ``(sqrt(3) * (q + r / 2), 1.5 * r)`` (pointy-top hexes, y grows downward).

Directions are numbered 0..5 in the order the neighbours are listed (``DIRECTIONS``):
east, west, north-east, north-west, south-east, south-west.

Lines (``line``) interpolate cube coordinates between the two centres at ``dist + 1``
evenly spaced points and round each to a hex. A point exactly on an edge between two
hexes is a tie; both endpoints are nudged by the same small cube offset to settle it, once
with ``+EPSILON`` and once with ``-EPSILON``, which gives the two ways a line grazing an
edge can be drawn. Both are computed from the lower cell index to the higher, so every
reading here is the same from either end.

Line of sight reading (``sees``): b is in sight of a when, on at least one of the two
nudged lines, every hex strictly between a and b is on the map and passable. So a line
that runs exactly along the edge between a wall and a floor hex is clear, and only one
with walls (or the map's edge) on both sides is blocked -- the same reading the square
grid has for a line grazing a wall corner (rules/grid.py, ``_trace``). Symmetric by
construction. The ends themselves are not looked at, as on the square grid.

A map's hexes are built once and kept on its shared ``Grid`` (``hexes_for``), like its
2d20 zones (rules/zones.py); the tables that would cost a pass over every pair of cells
(sight, walking distances, cones) fill in per source cell as they are asked for.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any, ClassVar, Final

import numpy as np

from wasteland.rules.grid import Grid, dist_table, terrain_glyph

CACHE_KEY: Final = "hexes"  # the Hexes' key in ``Grid.caches``
UNREACHABLE: Final = 1 << 20  # walking distance with no route (the square grid's sentinel)
# axial (dq, dr) of each direction, in the order neighbours are listed: E, W, NE, NW, SE, SW
DIRECTIONS: Final[tuple[tuple[int, int], ...]] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
DIRECTION_NAMES: Final = ("E", "W", "NE", "NW", "SE", "SW")
# the cube nudge that settles ties on a line (redblobgames: distinct sizes, summing to 0,
# so no nudged point lies on an edge or vertex again)
EPSILON: Final = (1e-6, 2e-6, -3e-6)
# pairs of cells traced together when a map's sight is laid out (a block's samples, about
# ten a pair, take some 40 bytes each in each of a dozen arrays)
_PAIRS_A_BLOCK: Final = 8192
CONE_HALF_ANGLE: Final = math.radians(30.0)
# a cone's edge is inclusive: hex centres exactly 30 degrees off the aim (the diagonals
# between two hex directions) lie on it, and float error must not drop them
_CONE_SLACK: Final = 1e-9


def hexes_for(grid: Grid) -> Hexes:
    """The hexes of ``grid``, built on first use and kept in ``grid.caches`` (grids are
    shared between battles and never change once built)."""
    h = grid.caches.get(CACHE_KEY)
    if h is None:
        h = Hexes(grid)
        grid.caches[CACHE_KEY] = h
    assert isinstance(h, Hexes)
    return h


def _round_cube(fq: float, fr: float, fs: float) -> tuple[int, int]:
    """The axial (q, r) of the hex holding the cube point (redblobgames' cube rounding)."""
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r


class Hexes:
    """The hexes of one map. Build with ``hexes_for(grid)`` (cached on the grid).

    ``q[i]``, ``r[i]``: axial coordinates of cell i; ``neighbors[i]``: the passable cells
    adjacent to i, in direction order (E, W, NE, NW, SE, SW; walls and the map's edge
    left out); ``step_to[i][k]``: the cell one step from i in direction k, -1 when that
    is off the map or a wall. Distances are in hexes; the module docstring has the line
    and sight readings."""

    def __init__(self, grid: Grid | None = None) -> None:
        if grid is None:  # a copy in the making: __setstate__ fills it in
            return
        w, h = grid.width, grid.height
        n = w * h
        self.width: int = w
        self.height: int = h
        self.n_cells: int = n
        self.passable: list[bool] = list(grid.passable)
        self.cover: list[int] = list(grid.cover)
        self.heights: list[int] = list(grid.heights)
        self.vis: list[int] = list(grid.vis)
        self.move_cap: list[int] = list(grid.move_cap)
        self.q: list[int] = [i % w - (i // w - (i // w & 1)) // 2 for i in range(n)]
        self.r: list[int] = [i // w for i in range(n)]
        root3 = math.sqrt(3.0)
        self.px: list[float] = [root3 * (self.q[i] + self.r[i] / 2) for i in range(n)]
        self.py: list[float] = [1.5 * self.r[i] for i in range(n)]
        qs, rs = np.array(self.q), np.array(self.r)
        dq, dr = qs[:, None] - qs[None, :], rs[:, None] - rs[None, :]
        self._dists, self._dist_n = dist_table(np.maximum(np.maximum(abs(dq), abs(dr)),
                                                          abs(dq + dr)))
        step_to: list[tuple[int, ...]] = []
        for i in range(n):
            row = []
            for dq, dr in DIRECTIONS:
                j = self.cell_at(self.q[i] + dq, self.r[i] + dr)
                row.append(j if j >= 0 and self.passable[j] else -1)
            step_to.append(tuple(row))
        self.step_to: list[tuple[int, ...]] = step_to
        self.neighbors: list[tuple[int, ...]] = [tuple(j for j in row if j >= 0) for row in step_to]
        # every row traced when the map is first used (a map holds at most MAX_MAP_CELLS;
        # 1-72 ms on the built-in maps), as Grid traces its squares: no fight pays for it
        self._sight: list[bytes] = self._sight_rows()
        self._walk: dict[int, list[int]] = {}
        self._cones: dict[tuple[int, int, int], frozenset[int]] = {}

    # copied and pickled field by field, like Zones: mypyc's own copying would skip
    # __init__ when plain Python builds a Hexes
    _STATE: ClassVar[tuple[str, ...]] = (
        "width", "height", "n_cells", "passable", "cover", "heights", "vis", "move_cap", "q",
        "r", "px",
        "py", "_dists", "_dist_n", "step_to", "neighbors", "_sight", "_walk", "_cones")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Hexes, (), {k: getattr(self, k) for k in self._STATE})

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    # -- coordinates -------------------------------------------------------------------

    def cell_at(self, q: int, r: int) -> int:
        """The cell at axial (q, r), or -1 off the map."""
        if r < 0 or r >= self.height:
            return -1
        x = q + (r - (r & 1)) // 2
        if x < 0 or x >= self.width:
            return -1
        return r * self.width + x

    def dist(self, a: int, b: int) -> int:
        """Hex distance between two cells, walls ignored."""
        n = self._dist_n
        if 0 <= a < n and 0 <= b < n:
            return self._dists[a * n + b]
        dq = self.q[a] - self.q[b]
        dr = self.r[a] - self.r[b]
        ds = dq + dr
        if dq < 0:
            dq = -dq
        if dr < 0:
            dr = -dr
        if ds < 0:
            ds = -ds
        if dq < dr:
            dq = dr
        return dq if dq > ds else ds

    def direction(self, a: int, b: int) -> int:
        """The direction (0..5) in which b lies on a straight hex line from a, or -1 when
        it lies on none (or b is a)."""
        dq = self.q[b] - self.q[a]
        dr = self.r[b] - self.r[a]
        if dq == 0 and dr == 0:
            return -1
        if dr == 0:
            return 0 if dq > 0 else 1
        if dq == 0:
            return 4 if dr > 0 else 3
        if dq == -dr:
            return 2 if dq > 0 else 5
        return -1

    # -- straight lines ----------------------------------------------------------------

    def ray(self, a: int, direction: int, n: int) -> tuple[int, ...]:
        """The cells 1..n steps from ``a`` in ``direction`` (0..5), ending before the first
        wall or the map's edge."""
        out = []
        c = a
        for _ in range(n):
            c = self.step_to[c][direction]
            if c < 0:
                break
            out.append(c)
        return tuple(out)

    def straight(self, a: int, b: int) -> bool:
        """Whether b lies along one of the six hex directions from a with every hex after
        a up to and including b passable: a charge's straight line. False for b == a."""
        k = self.direction(a, b)
        if k < 0:
            return False
        d = self.dist(a, b)
        return len(self.ray(a, k, d)) == d

    def _trace(self, lo: int, hi: int, sign: float) -> list[int]:
        """The cells of the line from ``lo`` to ``hi`` nudged by ``sign * EPSILON``, -1 for
        a point off the map. ``_blocked`` does the same sums with numpy; they must stay
        the same operations in the same order, so the two agree to the last bit."""
        n = self.dist(lo, hi)
        eq, er, es = sign * EPSILON[0], sign * EPSILON[1], sign * EPSILON[2]
        q0 = self.q[lo] + eq
        r0 = self.r[lo] + er
        s0 = -self.q[lo] - self.r[lo] + es
        q1 = self.q[hi] + eq
        r1 = self.r[hi] + er
        s1 = -self.q[hi] - self.r[hi] + es
        if n == 0:
            return [lo]
        out = []
        for k in range(n + 1):
            t = k / n
            q, r = _round_cube(q0 + (q1 - q0) * t, r0 + (r1 - r0) * t, s0 + (s1 - s0) * t)
            out.append(self.cell_at(q, r))
        return out

    def line(self, a: int, b: int) -> tuple[int, ...]:
        """The hexes a straight line from a to b passes, a and b included, ``dist + 1`` of
        them, each next to the one before. It is the ``+EPSILON`` line, or the ``-EPSILON``
        one when the first strays off the map (a line along the map's ragged edge); the
        same hexes from either end, reversed."""
        lo, hi = (a, b) if a <= b else (b, a)
        cells = self._trace(lo, hi, 1.0)
        if -1 in cells:
            other = self._trace(lo, hi, -1.0)
            if -1 not in other:
                cells = other
            else:  # not seen on a rectangle of cells; keep each point on the map if it can
                cells = [c if c >= 0 else o for c, o in zip(cells, other)]
        return tuple(cells) if a <= b else tuple(reversed(cells))

    # -- sight -------------------------------------------------------------------------

    def sight_row(self, a: int) -> bytes:
        """``sight_row(a)[b]`` is 1 when b is in sight of a, else 0 (the reading is in the
        module docstring), traced when the map was first used."""
        return self._sight[a]

    def sees(self, a: int, b: int) -> bool:
        """Whether b is in sight of a (and so a of b)."""
        return self._sight[a][b] == 1

    def _sight_rows(self) -> list[bytes]:
        """Every row of ``sight_row``: each pair traced once, from its lower index as
        ``line`` does (so a row and its column agree), with numpy, in blocks of pairs so
        that a 400-cell map's samples stay a few megabytes."""
        n = self.n_cells
        seen = np.ones((n, n), dtype=np.uint8)  # a cell sees itself
        los, his = np.triu_indices(n, k=1)
        for at in range(0, los.size, _PAIRS_A_BLOCK):
            lo, hi = los[at:at + _PAIRS_A_BLOCK], his[at:at + _PAIRS_A_BLOCK]
            clear = ~self._blocked(lo.astype(np.int64), hi.astype(np.int64))
            seen[lo, hi] = clear
            seen[hi, lo] = clear
        return [row.tobytes() for row in seen]

    def _blocked(self, lo: Any, hi: Any) -> Any:
        """For each pair (lo[i], hi[i]), lo < hi: whether both nudged lines between them
        cross a wall or leave the map (``_trace``'s sums, done with numpy)."""
        m = lo.size
        qs = np.array(self.q, dtype=np.int64)
        rs = np.array(self.r, dtype=np.int64)
        dq, dr = qs[lo] - qs[hi], rs[lo] - rs[hi]
        steps = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
        inner = np.maximum(steps - 1, 0)
        pair = np.repeat(np.arange(m, dtype=np.int64), inner)
        first = np.cumsum(inner) - inner
        k = np.arange(pair.size) - np.repeat(first, inner) + 1
        t = k / steps[pair]
        lo_p, hi_p = lo[pair], hi[pair]
        wall = ~np.array(self.passable, dtype=bool)
        w, h = self.width, self.height
        blocked_both = np.ones(m, dtype=bool)
        for sign in (1.0, -1.0):
            eq, er, es = sign * EPSILON[0], sign * EPSILON[1], sign * EPSILON[2]
            q0 = qs[lo_p] + eq
            r0 = rs[lo_p] + er
            s0 = -qs[lo_p] - rs[lo_p] + es
            q1 = qs[hi_p] + eq
            r1 = rs[hi_p] + er
            s1 = -qs[hi_p] - rs[hi_p] + es
            fq = q0 + (q1 - q0) * t
            fr = r0 + (r1 - r0) * t
            fs = s0 + (s1 - s0) * t
            rq, rr, rsn = np.rint(fq), np.rint(fr), np.rint(fs)
            ddq, ddr, dds = np.abs(rq - fq), np.abs(rr - fr), np.abs(rsn - fs)
            fix_q = (ddq > ddr) & (ddq > dds)
            fix_r = ~fix_q & (ddr > dds)
            cq = np.where(fix_q, -rr - rsn, rq).astype(np.int64)
            cr = np.where(fix_r, -rq - rsn, rr).astype(np.int64)
            x = cq + (cr - (cr & 1)) // 2
            off = (cr < 0) | (cr >= h) | (x < 0) | (x >= w)
            cell = np.where(off, 0, cr * w + x)
            bad = off | wall[cell]
            blocked = np.zeros(m, dtype=bool)
            blocked[pair[bad]] = True
            blocked_both &= blocked
        return blocked_both

    # -- walking -----------------------------------------------------------------------

    def walk_distances(self, target: int) -> list[int]:
        """Steps over passable hexes from every cell to ``target``; ``UNREACHABLE`` for
        walls, cells with no route, and every cell when the target is a wall."""
        got = self._walk.get(target)
        if got is None:
            got = [UNREACHABLE] * self.n_cells
            if self.passable[target]:
                got[target] = 0
                queue = deque([target])
                while queue:
                    c = queue.popleft()
                    d = got[c] + 1
                    for j in self.neighbors[c]:
                        if got[j] == UNREACHABLE:
                            got[j] = d
                            queue.append(j)
            self._walk[target] = got
        return got

    # -- areas -------------------------------------------------------------------------

    def cone(self, origin: int, toward: int, reach: int) -> frozenset[int]:
        """A narrow cone (overwatch): the passable cells at most ``reach`` hexes from
        ``origin`` and in its sight whose centre's bearing from the origin's is within 30
        degrees (inclusive) of the bearing to ``toward``'s. The origin is left out; empty
        when ``toward`` is the origin."""
        key = (origin, toward, reach)
        got = self._cones.get(key)
        if got is None:
            got = frozenset(self._cone(origin, toward, reach))
            self._cones[key] = got
        return got

    def _cone(self, origin: int, toward: int, reach: int) -> list[int]:
        ox, oy = self.px[origin], self.py[origin]
        ax, ay = self.px[toward] - ox, self.py[toward] - oy
        norm_a = math.hypot(ax, ay)
        if norm_a == 0.0:
            return []
        cos_edge = math.cos(CONE_HALF_ANGLE)
        sight = self.sight_row(origin)
        out = []
        for c in range(self.n_cells):
            if c == origin or not self.passable[c] or not sight[c]:
                continue
            if self.dist(origin, c) > reach:
                continue
            vx, vy = self.px[c] - ox, self.py[c] - oy
            if ax * vx + ay * vy >= (cos_edge - _CONE_SLACK) * norm_a * math.hypot(vx, vy):
                out.append(c)
        return out

    # -- drawing -----------------------------------------------------------------------

    def glyph(self, i: int) -> str:
        """The cell's terrain character, as the square map draws it (grid.terrain_glyph)."""
        return terrain_glyph(self.passable[i], self.move_cap[i], self.cover[i],
                             self.heights[i], self.vis[i])

    def text(self, marks: dict[int, str] | None = None) -> list[str]:
        """The map as hex rows for a terminal: a character and a space per cell, odd rows
        indented by one space so each hex sits between the two it touches above and below.
        ``marks`` puts a character (its first, if longer) on a cell instead of the
        terrain, e.g. combatants' slot digits."""
        lines = []
        for y in range(self.height):
            chars = []
            for x in range(self.width):
                i = y * self.width + x
                m = marks.get(i) if marks else None
                chars.append(m[:1] if m else self.glyph(i))
            lines.append((" " if y & 1 else "") + " ".join(chars))
        return lines
