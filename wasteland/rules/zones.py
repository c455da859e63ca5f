"""Zones over the square grid, for the Fallout 2d20 ruleset's range bands and movement.

Fallout 2d20 measures distance in zones (Seed 003_938882289c4f9016.txt, Range; Seed
002_265a8a3b5c20fde4.txt, Move and Sprint): a target in the same zone is at Close range,
in an adjacent zone at Medium, two zones away at Long and three or more at Extreme. A
scenario is written once as a map of 5-ft squares, so the zones are derived from it:

1. The passable squares' bounding box is cut into columns and rows of about
   ``ZONE_SIDE`` squares (30 ft). Each axis is cut by a small dynamic programme that
   keeps every band close to ``ZONE_SIDE`` squares wide and moves a cut beside a line
   that is mostly wall when one is near, so walls and zone edges tend to coincide.
2. Each block of that lattice is split into its connected parts (steps between
   passable squares, diagonals included, as walking has them): a wall through a block
   splits it, and no zone spans a wall.
3. Fragments smaller than ``MIN_ZONE`` squares merge, smallest first, into the
   neighbouring zone they share most steps with (then the smaller, then the earlier one).
4. Zones are numbered in reading order of their first square.

Everything is deterministic: the same map gives the same zones. A map's zones are
built once and kept on its shared ``Grid`` (``zones_for``), like the grid's own
line-of-sight and walking tables.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container
from typing import Any, ClassVar, Final

import numpy as np

from wasteland.rules.grid import COVER_NONE, Grid

ZONE_SIDE: Final = 6  # squares (30 ft) along each side of a zone, roughly
MIN_ZONE: Final = 8  # a connected fragment smaller than this merges into a neighbour
WALL_BONUS: Final = 8.0  # how strongly a cut prefers a wall line (in squared squares of misfit)
UNREACHABLE: Final = 1 << 20  # hops between zones with no walking route between them
CLOSE: Final = 0
MEDIUM: Final = 1
LONG: Final = 2
EXTREME: Final = 3
ZONE_GLYPHS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def zones_for(grid: Grid) -> Zones:
    """The zones of ``grid``, built on first use and kept on the grid (grids are shared
    between battles and never change once built)."""
    z = grid.zones
    if z is None:
        z = grid.zones = Zones(grid)
    return z


def zone_glyph(z: int) -> str:
    """One character for zone ``z``: A..Z, then a..z, then 0..9, then '?'."""
    return ZONE_GLYPHS[z] if 0 <= z < len(ZONE_GLYPHS) else "?"


def _cuts(wall_frac: list[float]) -> list[int]:
    """Split positions ``0..len(wall_frac)-1`` into bands; return each band's first
    position. ``wall_frac[k]`` is the share of wall squares on line ``k``.

    Cost of a cutting: the sum over bands of (width - ``ZONE_SIDE``)^2, less
    ``WALL_BONUS`` times the larger wall share of the two lines beside each cut.
    Ties keep the cutting found first (deterministic)."""
    span = len(wall_frac)
    best = [float("inf")] * (span + 1)
    prev = [0] * (span + 1)
    best[0] = 0.0
    for e in range(1, span + 1):
        bonus = WALL_BONUS * max(wall_frac[e - 1], wall_frac[e]) if e < span else 0.0
        for s in range(e):
            cost = best[s] + (e - s - ZONE_SIDE) ** 2 - bonus
            if cost < best[e]:
                best[e], prev[e] = cost, s
    starts = []
    e = span
    while e > 0:
        e = prev[e]
        starts.append(e)
    return starts[::-1]


def _blocks(grid: Grid) -> list[int]:
    """Lattice block of every passable square (-1 for walls), step 1 of the module
    docstring."""
    w = grid.width
    passable = np.array(grid.passable, dtype=bool).reshape(grid.height, w)
    block = [-1] * grid.n_cells
    if not passable.any():
        return block
    ys, xs = np.nonzero(passable)
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
    inner = ~passable[y0:y1 + 1, x0:x1 + 1]
    col_frac = [float(v) for v in inner.mean(axis=0)]
    row_frac = [float(v) for v in inner.mean(axis=1)]
    col_band = np.searchsorted(np.array(_cuts(col_frac)), np.arange(x1 - x0 + 1), side="right") - 1
    row_band = np.searchsorted(np.array(_cuts(row_frac)), np.arange(y1 - y0 + 1), side="right") - 1
    n_cols = int(col_band.max()) + 1
    for i in range(grid.n_cells):
        if grid.passable[i]:
            x, y = grid.xs[i], grid.ys[i]
            block[i] = int(row_band[y - y0]) * n_cols + int(col_band[x - x0])
    return block


def _partition(grid: Grid) -> list[int]:
    """Zone of every square (-1 for walls), numbered in reading order of first square."""
    block = _blocks(grid)
    n = grid.n_cells
    label = [-1] * n
    members: dict[int, list[int]] = {}
    # step 2: connected parts of each block
    for i in range(n):
        if block[i] < 0 or label[i] >= 0:
            continue
        k = len(members)
        part = [i]
        label[i] = k
        queue = deque([i])
        while queue:
            c = queue.popleft()
            for j in grid.neighbors[c]:
                if label[j] < 0 and block[j] == block[i]:
                    label[j] = k
                    part.append(j)
                    queue.append(j)
        members[k] = part
    # step 3: merge small fragments into the neighbour they share most steps with
    while True:
        small = sorted((len(cs), min(cs), k) for k, cs in members.items() if len(cs) < MIN_ZONE)
        merged = False
        for _, _, k in small:
            shared: dict[int, int] = {}
            for c in members[k]:
                for j in grid.neighbors[c]:
                    if label[j] != k:
                        shared[label[j]] = shared.get(label[j], 0) + 1
            if not shared:
                continue  # an isolated pocket: it stays a zone of its own
            into = min(shared, key=lambda o: (-shared[o], len(members[o]), min(members[o])))
            fragment = members.pop(k)
            for c in fragment:
                label[c] = into
            members[into].extend(fragment)
            merged = True
            break
        if not merged:
            break
    # step 4: number in reading order of each zone's first square
    order = sorted(members, key=lambda k: min(members[k]))
    renumber = {k: z for z, k in enumerate(order)}
    return [renumber[k] if k >= 0 else -1 for k in label]


class Zones:
    """The zones of one map. Build with ``zones_for(grid)`` (cached on the grid).

    ``zone_of[cell]`` is the cell's zone (-1 for walls); zones are 0..count-1 and named
    "Z0", "Z1", ...; ``hops[a][b]`` is the number of zone-to-zone steps from zone a to
    zone b (``UNREACHABLE`` when no walking route joins them); ``band(a_cell, b_cell)``
    is the 2d20 range band between two squares, 0..3 (close, medium, long, extreme);
    ``band_table[a_cell][b_cell]`` is the same value, for loops that hoist the row."""

    def __init__(self, grid: Grid | None = None) -> None:
        if grid is None:  # a copy in the making: __setstate__ fills it in
            return
        self.grid = grid
        self.zone_of: list[int] = _partition(grid)
        self.count: int = max(self.zone_of, default=-1) + 1
        members: list[list[int]] = [[] for _ in range(self.count)]
        for i, z in enumerate(self.zone_of):
            if z >= 0:
                members[z].append(i)
        self._cells = [tuple(m) for m in members]
        adj: list[set[int]] = [set() for _ in range(self.count)]
        for i, z in enumerate(self.zone_of):
            if z >= 0:
                for j in grid.neighbors[i]:
                    if self.zone_of[j] != z:
                        adj[z].add(self.zone_of[j])
        self._adj = [tuple(sorted(a)) for a in adj]
        self.hops: list[list[int]] = [self._bfs(z) for z in range(self.count)]
        # the 2d20 movement caches (rules/f2d20/movement.py), which depend on the map only
        # keyed by plain ints (order_key, move_key): legal_ids reads them for every
        # combatant at every decision, and a tuple key costs an allocation and a hash
        self.orders: dict[int, tuple[int, ...]] = {}
        self.reached: dict[tuple[int, int, bool, int], int] = {}
        self.moves: dict[int, tuple[int, int, int, int]] = {}
        self.band_table: list[bytes] = self._band_table()
        self._centre = [self._find_centre(z) for z in range(self.count)]
        self._cover = [self._find_cover(z) for z in range(self.count)]

    # copied and pickled field by field: the map refers back to its zones, so a copy
    # cannot be built from the map; and mypyc's own copying would skip __init__ when
    # plain Python builds a Zones
    _STATE: ClassVar[tuple[str, ...]] = (
        "grid", "zone_of", "count", "_cells", "_adj", "hops", "orders", "reached", "moves",
        "band_table", "_centre", "_cover")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Zones, (), {k: getattr(self, k) for k in self._STATE})

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    # -- construction ------------------------------------------------------------------

    def _bfs(self, src: int) -> list[int]:
        dist = [UNREACHABLE] * self.count
        dist[src] = 0
        queue = deque([src])
        while queue:
            z = queue.popleft()
            for o in self._adj[z]:
                if dist[o] == UNREACHABLE:
                    dist[o] = dist[z] + 1
                    queue.append(o)
        return dist

    def _band_table(self) -> list[bytes]:
        """Band between every pair of squares: one lookup per ``band`` call. Walls and
        squares with no walking route between them count as Extreme."""
        hops = np.full((self.count + 1, self.count + 1), EXTREME, dtype=np.int64)
        if self.count:
            hops[:self.count, :self.count] = np.minimum(np.array(self.hops, dtype=np.int64), EXTREME)
        zone = np.array(self.zone_of, dtype=np.int64)
        zone[zone < 0] = self.count  # walls index the all-Extreme row and column
        table = hops[zone][:, zone].astype(np.uint8)
        return [bytes(row.tobytes()) for row in table]

    def _find_centre(self, z: int) -> int:
        """The square with the least walking distance to the zone's farthest square, then
        the least total distance, then the lowest index."""
        cells = self._cells[z]
        best: tuple[int, int, int] | None = None
        for c in cells:
            walk = self.grid.walk_distances(c)
            ds = [walk[o] for o in cells]
            key = (max(ds), sum(ds), c)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[2]

    def _find_cover(self, z: int) -> int:
        """The zone's cover level (0 none, 1 light, 2 heavy, 3 full) for 2d20.

        Reading: in 2d20 a zone is described by what is in it, and anyone in the zone may
        get behind it, so a zone with any cover square offers cover. Its level is the
        best level L such that squares with cover of at least L make up a quarter or
        more of the zone (cover that dense is within a step or two of anywhere in it);
        when no level is that common, the most common nonzero level (the lower one on a
        tie) -- a lone crate is what the zone offers, not nothing."""
        covers = [self.grid.cover[c] for c in self._cells[z]]
        n = len(covers)
        for level in (3, 2, 1):
            if 4 * sum(1 for c in covers if c >= level) >= n:
                return level
        counts = {lv: covers.count(lv) for lv in (1, 2, 3) if lv in covers}
        if not counts:
            return COVER_NONE
        return min(counts, key=lambda lv: (-counts[lv], lv))

    # -- queries -----------------------------------------------------------------------

    def cells(self, z: int) -> tuple[int, ...]:
        """The zone's squares, in index order."""
        return self._cells[z]

    def adjacent(self, z: int) -> tuple[int, ...]:
        """Zones one walkable step (diagonals included) out of zone ``z``, ascending."""
        return self._adj[z]

    def band(self, a_cell: int, b_cell: int) -> int:
        """Range band between two squares: 0 close (same zone), 1 medium (adjacent),
        2 long (two zones), 3 extreme (three or more, capped at 3)."""
        return self.band_table[a_cell][b_cell]

    def zone_band(self, a: int, b: int) -> int:
        """Range band between two zones (hops capped at 3)."""
        h = self.hops[a][b]
        return h if h < EXTREME else EXTREME

    def name(self, z: int) -> str:
        return f"Z{z}"

    def centre(self, z: int) -> int:
        """The zone's central square (least walking distance to its farthest square)."""
        return self._centre[z]

    def cover(self, z: int) -> int:
        """The zone's cover level; the reading is in ``_find_cover``."""
        return self._cover[z]

    def zones_within(self, z: int, hops: int) -> tuple[int, ...]:
        """Zones at most ``hops`` zone steps from ``z`` (itself included), ascending:
        a Move reaches ``zones_within(z, 1)``, a Sprint ``zones_within(z, 2)``."""
        row = self.hops[z]
        return tuple(o for o in range(self.count) if row[o] <= hops)

    def next_zone_toward(self, from_zone: int, to_zone: int) -> int:
        """The adjacent zone one hop nearer ``to_zone``: among those, the one whose centre
        is the shortest walk from ``to_zone``'s centre, then the lowest number. Returns
        ``from_zone`` when already there or when no walking route exists."""
        h = self.hops[from_zone][to_zone]
        if h == 0 or h >= UNREACHABLE:
            return from_zone
        walk = self.grid.walk_distances(self._centre[to_zone])
        row = self.hops
        best = [o for o in self._adj[from_zone] if row[o][to_zone] == h - 1]
        return min(best, key=lambda o: (walk[self._centre[o]], o))

    def zones_away_from(self, from_zone: int, threat_zone: int) -> tuple[int, ...]:
        """Adjacent zones farther (in hops) from ``threat_zone`` than ``from_zone`` is,
        best first: the longest walk from the threat zone's centre, then the lowest
        number. Empty when no step leads away."""
        h = self.hops[from_zone][threat_zone]
        walk = self.grid.walk_distances(self._centre[threat_zone])
        away = [o for o in self._adj[from_zone] if self.hops[o][threat_zone] > h]
        return tuple(sorted(away, key=lambda o: (-walk[self._centre[o]], o)))

    def free_cell(self, z: int, occupied: Container[int], near_cell: int | None = None,
                  far_from: int | None = None) -> int | None:
        """A square of zone ``z`` not in ``occupied``: the nearest to ``near_cell`` by
        walking distance, else the farthest from ``far_from``, else the nearest to the
        zone's centre; ties go to the lower cell index. (With both given, nearness comes
        first and farness breaks its ties.) None when the zone is full."""
        free = [c for c in self._cells[z] if c not in occupied]
        if not free:
            return None
        if near_cell is None and far_from is None:
            near_cell = self._centre[z]
        near = self.grid.walk_distances(near_cell) if near_cell is not None else None
        far = self.grid.walk_distances(far_from) if far_from is not None else None
        return min(free, key=lambda c: (near[c] if near is not None else 0,
                                        -far[c] if far is not None else 0, c))
