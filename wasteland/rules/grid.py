"""The battle map as a grid of 5-ft squares, derived from a scenario's ASCII map.

Cells are indexed ``y * width + x``. Distances are Chebyshev (a diagonal step costs one
square, the reading recorded in docs/rules/pnp.md). Line of sight and walking distances
are computed once per map and cached, because legality asks for them on every decision.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from dataclasses import dataclass, field

COVER_NONE, COVER_LIGHT, COVER_HEAVY, COVER_FULL = 0, 1, 2, 3
COVER_NAMES = ("none", "light", "heavy", "full")
# visibility penalty of a square or of the ambient light (seed 000, Visibility Penalty)
VISIBILITY = {"clear": 0, "obscured": -2, "heavily_obscured": -4, "unseen": -10}

FEATURES: dict[str, dict[str, object]] = {
    "floor": {},
    "wall": {"wall": True},
    "light_cover": {"cover": COVER_LIGHT},
    "heavy_cover": {"cover": COVER_HEAVY},
    "full_cover": {"cover": COVER_FULL},
    "high_ground": {"height": 10},
    "darkness": {"visibility": "heavily_obscured"},
    "smoke": {"visibility": "obscured"},
}


@dataclass(slots=True)
class Cell:
    wall: bool = False
    cover: int = COVER_NONE
    height: int = 0
    visibility: str = "clear"


@dataclass
class Grid:
    width: int
    height: int
    cells: list[Cell]
    _dist: dict[int, list[int]] = field(default_factory=dict, repr=False)
    _cover_from: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)
    _slopes: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        self.passable = [not c.wall for c in self.cells]
        self.cover = [c.cover for c in self.cells]
        self.heights = [c.height for c in self.cells]
        self.vis = [VISIBILITY[c.visibility] for c in self.cells]
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
        self.sight = self._sight_table()
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

    def slopes(self, pos: int, goal: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The neighbours of ``pos`` that walk closer to ``goal``, and those that walk
        farther."""
        key = pos * self.n_cells + goal
        got = self._slopes.get(key)
        if got is None:
            field_ = self._dist.get(goal) or self._fill(goal)
            here = field_[pos]
            ns = self.neighbors[pos]
            down = tuple(n for n in ns if field_[n] < here)
            up = tuple(n for n in ns if field_[n] > here)
            got = self._slopes[key] = (down, up)
        return got

    def cover_by_distance(self, pos: int) -> list[tuple[int, int]]:
        """(walking distance, cell) of every cover square, nearest first, from ``pos``."""
        got = self._cover_from.get(pos)
        if got is None:
            got = sorted((self.walk_distances(c)[pos], c) for c in self.cover_cells)
            self._cover_from[pos] = got
        return got

    def walk_distances(self, target: int) -> list[int]:
        """Walking distance in squares from every cell to ``target`` (walls block)."""
        field_ = self._dist.get(target)
        if field_ is None:
            field_ = self._fill(target)
        return field_

    def _fill(self, target: int) -> list[int]:
        inf = 1 << 20
        field_ = [inf] * (self.width * self.height)
        field_[target] = 0
        q = deque([target])
        nb = self.neighbors
        while q:
            c = q.popleft()
            nd = field_[c] + 1
            for n in nb[c]:
                if field_[n] > nd:
                    field_[n] = nd
                    q.append(n)
        self._dist[target] = field_
        return field_


_GRIDS: dict[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], Grid] = {}


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
