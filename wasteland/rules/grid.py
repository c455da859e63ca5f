"""The battle map as a grid of 5-ft squares, derived from a scenario's ASCII map.

Cells are indexed ``y * width + x``. Distances are Chebyshev (a diagonal step costs one
square, the reading recorded in docs/rules/pnp.md). Line of sight and walking distances
are computed once per map and cached, because legality asks for them on every decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from mypy_extensions import mypyc_attr

COVER_NONE: Final = 0
COVER_LIGHT: Final = 1
COVER_HEAVY: Final = 2
COVER_FULL: Final = 3
COVER_NAMES: Final = ("none", "light", "heavy", "full")
# visibility of a square or of the ambient light, worst lowest: seed 000's Visibility
# Penalty, and barely_visible (-5), the step seed 001 has between darkness and unseen
# (Heavily Obscured, only vaguely made out), which PnP plays as heavily obscured
# (pnp.combat.PNP_VISIBILITY) and 2d20 as heavily obscured (f2d20.attack.VIS_DIFFICULTY)
VISIBILITY: Final = {"clear": 0, "obscured": -2, "heavily_obscured": -4, "barely_visible": -5,
                     "unseen": -10}

FEATURES: Final[dict[str, dict[str, object]]] = {
    "floor": {},
    "wall": {"wall": True},
    "light_cover": {"cover": COVER_LIGHT},
    "heavy_cover": {"cover": COVER_HEAVY},
    "full_cover": {"cover": COVER_FULL},
    "high_ground": {"height": 10},
    "darkness": {"visibility": "heavily_obscured"},
    "smoke": {"visibility": "obscured"},
    "fog": {"visibility": "barely_visible"},  # thick fog: shapes only vaguely made out
    # Simple's climbing and swimming (seed 001, Move Phase); the other rulesets walk them
    "water": {"water": True},
    "climb": {"climb": True},
}
# the most squares a move that starts on or enters such a square covers (Simple: climb 1,
# swim 2); NO_CAP elsewhere
CLIMB_CAP: Final = 1
SWIM_CAP: Final = 2
NO_CAP: Final = 99
COVER_GLYPH: Final = {COVER_LIGHT: ",", COVER_HEAVY: "=", COVER_FULL: "%"}


def terrain_glyph(passable: bool, move_cap: int, cover: int, height: int, vis: int) -> str:
    """A square's (or hex's) terrain character on the text maps: ``#`` wall, ``H`` climb,
    ``w`` water, cover ``,`` ``=`` ``%``, high ground ``^``, obscured ``~``, else ``.``."""
    if not passable:
        return "#"
    if move_cap < NO_CAP:
        return "H" if move_cap == CLIMB_CAP else "w"
    if cover:
        return COVER_GLYPH.get(cover, ",")
    if height > 0:
        return "^"
    if vis < 0:
        return "~"
    return "."


DIST_TABLE_CELLS: Final = 1024  # a map up to 32 x 32 keeps its distances as a table


def dist_table(d: Any) -> tuple[bytes, int]:
    """An n x n integer array of distances between cells as bytes, row by row, and n; (b"",
    0) when it would not fit (a map past DIST_TABLE_CELLS, a distance past a byte): the
    caller then works each out. Distances are asked tens of times a decision, and one byte
    read costs less than four reads of boxed coordinates."""
    n = int(d.shape[0])
    if n > DIST_TABLE_CELLS or (n and int(d.max()) > 255):
        return b"", 0
    return d.astype(np.uint8).tobytes(), n


@mypyc_attr(serializable=True)
@dataclass(slots=True)
class Cell:
    wall: bool = False
    cover: int = COVER_NONE
    height: int = 0
    visibility: str = "clear"
    water: bool = False
    climb: bool = False


@mypyc_attr(serializable=True)
@dataclass
class Grid:
    width: int
    height: int
    cells: list[Cell]
    _cover_from: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)
    # caches that depend on the map only (grids are shared between battles and never
    # change once built): its 2d20 zones, and the squares each reach covers
    zones: Any = field(default=None, repr=False, compare=False)
    balls: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, repr=False,
                                                         compare=False)
    # the same for layers above the engine (the envs' observation geometry), by name
    caches: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        self.passable = [not c.wall for c in self.cells]
        self.cover = [c.cover for c in self.cells]
        self.heights = [c.height for c in self.cells]
        self.vis = [VISIBILITY[c.visibility] for c in self.cells]
        self.move_cap = [CLIMB_CAP if c.climb else SWIM_CAP if c.water else NO_CAP
                         for c in self.cells]
        self.rough = any(m < NO_CAP for m in self.move_cap)
        self.xs = [i % w for i in range(w * h)]
        self.ys = [i // w for i in range(w * h)]
        self.neighbors: list[tuple[int, ...]] = []
        for i in range(w * h):
            x, y = i % w, i // w
            ns = []
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h:
                        j = (y + dy) * w + x + dx
                        if self.passable[j]:
                            ns.append(j)
            self.neighbors.append(tuple(ns))
        self.n_cells = w * h
        xs, ys = np.array(self.xs), np.array(self.ys)
        self._dists, self._dist_n = dist_table(np.maximum(abs(xs[:, None] - xs[None, :]),
                                                          abs(ys[:, None] - ys[None, :])))
        self.sight = self._sight_table()
        self._walk_tables()
        self.cover_cells = tuple(i for i, c in enumerate(self.cover) if c and self.passable[i])

    @classmethod
    def from_ascii(cls, rows: list[str], legend: dict[str, list[str]]) -> Grid:
        width = max(len(r) for r in rows)
        cells = []
        for row in rows:
            for ch in row.ljust(width, "."):
                props: dict[str, object] = {}
                for feat in legend[ch]:
                    props.update(FEATURES[feat])
                cells.append(Cell(**props))  # type: ignore[arg-type]
        return cls(width, len(rows), cells)

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def dist(self, a: int, b: int) -> int:
        """Chebyshev distance in squares."""
        n = self._dist_n
        if 0 <= a < n and 0 <= b < n:
            return self._dists[a * n + b]
        dx = self.xs[a] - self.xs[b]
        dy = self.ys[a] - self.ys[b]
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    def los(self, a: int, b: int) -> bool:
        """Whether a straight line between square centres crosses no wall."""
        return self.sight[a][b] == 1

    def _sight_table(self) -> list[bytearray]:
        """Line of sight between every pair of squares, traced at once with numpy (the
        same samples as ``_trace``), so no fight pays for tracing lines."""
        n = self.n_cells
        xs = np.array(self.xs, dtype=np.int64)
        ys = np.array(self.ys, dtype=np.int64)
        a, b = np.triu_indices(n, k=1)
        dx, dy = xs[b] - xs[a], ys[b] - ys[a]
        steps = np.maximum(np.abs(dx), np.abs(dy))
        inner = np.maximum(steps - 1, 0)
        pair = np.repeat(np.arange(a.size), inner)
        first = np.cumsum(inner) - inner
        s = np.arange(pair.size) - np.repeat(first, inner) + 1
        t = s / steps[pair]
        fx = xs[a][pair] + dx[pair] * t
        fy = ys[a][pair] + dy[pair] * t
        w = self.width
        wall = ~np.array(self.passable, dtype=bool)
        lo = np.floor(fy + 0.5 - 1e-9).astype(np.int64) * w + np.floor(fx + 0.5 - 1e-9).astype(np.int64)
        hi = np.floor(fy + 0.5 + 1e-9).astype(np.int64) * w + np.floor(fx + 0.5 + 1e-9).astype(np.int64)
        blocked_sample = wall[lo] & wall[hi]
        blocked = np.zeros(a.size, dtype=bool)
        blocked[pair[blocked_sample]] = True
        table = np.ones((n, n), dtype=np.uint8)
        table[a, b] = ~blocked
        table[b, a] = ~blocked
        return [bytearray(row.tobytes()) for row in table]

    def _trace(self, a: int, b: int) -> bool:
        x0, y0 = self.xy(a)
        x1, y1 = self.xy(b)
        steps = max(abs(x1 - x0), abs(y1 - y0))
        passable, w = self.passable, self.width
        for s in range(1, steps):
            t = s / steps
            # sample both roundings so a line grazing a wall corner counts as blocked only
            # when both neighbouring squares are walls
            fx, fy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            cx, cy = int(fx + 0.5 - 1e-9), int(fy + 0.5 - 1e-9)
            dx, dy = int(fx + 0.5 + 1e-9), int(fy + 0.5 + 1e-9)
            if not passable[cy * w + cx] and not passable[dy * w + dx]:
                return False
        return True

    def free_steps(self, pos: int, occupied: dict[int, int]) -> int:
        """Bit k set when the k-th direction out of ``pos`` leads to a free square."""
        bits = 0
        for n, bit in self._step_bits[pos]:
            if n not in occupied:
                bits |= bit
        return bits

    def _walk_tables(self) -> None:
        """Walking distances between every pair of squares (walls block, a diagonal step
        costs one), and for each square and goal the directions that walk closer to the
        goal (``downhill``) or farther from it (``uphill``) as bit masks: legality then
        asks one AND per target instead of walking the neighbours."""
        n, w, h = self.n_cells, self.width, self.height
        far = 1 << 20
        dirs = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        step_to = np.full((n, 8), -1, dtype=np.int64)
        xs, ys = np.array(self.xs), np.array(self.ys)
        passable = np.array(self.passable, dtype=bool)
        for k, (dx, dy) in enumerate(dirs):
            nx, ny = xs + dx, ys + dy
            ok = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h)
            j = np.where(ok, ny * w + nx, 0)
            step_to[:, k] = np.where(ok & passable[j] & passable, j, -1)
        dist = np.full((n + 1, n), far, dtype=np.int32)  # row n: "no square", never closer
        idx = np.flatnonzero(passable)
        dist[idx, idx] = 0
        safe = np.where(step_to >= 0, step_to, n)
        best = np.empty((n, n), dtype=np.int32)
        while True:  # relax until no distance shrinks (at most the map's diameter rounds)
            # the nearest of the eight neighbours' rows, one direction at a time: each a
            # contiguous copy, where a min over an (n, 8, n) gather read across its rows
            np.take(dist, safe[:, 0], axis=0, out=best)
            for k in range(1, 8):
                np.minimum(best, dist[safe[:, k]], out=best)
            best += 1  # (a wall's row stays far: its every neighbour is row n)
            new = np.minimum(dist[:n], best)
            if np.array_equal(new, dist[:n]):
                break
            dist[:n] = new
        here = dist[:n]
        down = np.zeros((n, n), dtype=np.uint8)
        up = np.zeros((n, n), dtype=np.uint8)
        for k in range(8):
            there = dist[safe[:, k]]
            valid = (step_to[:, k] >= 0)[:, None]
            down |= ((there < here) & valid).astype(np.uint8) << k
            up |= ((there > here) & valid & (there < far)).astype(np.uint8) << k
        self.step_to = [tuple(r) for r in step_to.tolist()]
        self._step_bits = [tuple((n, 1 << k) for k, n in enumerate(r) if n >= 0)
                           for r in self.step_to]
        # the squares one step from each (no corner cut), in direction order: goto's walks
        self.step_cells: list[tuple[int, ...]] = [tuple(n for n, _ in r) for r in self._step_bits]
        self._walk = here.tolist()
        self.downhill = [bytes(r) for r in down]
        self.uphill = [bytes(r) for r in up]

    def cover_by_distance(self, pos: int) -> list[tuple[int, int]]:
        """(walking distance, cell) of every cover square, nearest first, from ``pos``."""
        got = self._cover_from.get(pos)
        if got is None:
            got = sorted((self.walk_distances(c)[pos], c) for c in self.cover_cells)
            self._cover_from[pos] = got
        return got

    def walk_distances(self, target: int) -> list[int]:
        """Walking distance in squares from every cell to ``target`` (walls block)."""
        return self._walk[target]


_GRIDS: Final[dict[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], Grid]] = {}


def grid_for(rows: list[str], legend: dict[str, list[str]]) -> Grid:
    """One shared Grid per distinct map, so line-of-sight and distance caches outlive a
    single battle (a Grid never changes once built)."""
    key = ("\n".join(rows), tuple(sorted((k, tuple(v)) for k, v in legend.items())))
    g = _GRIDS.get(key)
    if g is None:
        if len(_GRIDS) > 256:
            _GRIDS.clear()
        g = _GRIDS[key] = Grid.from_ascii(rows, legend)
    return g
