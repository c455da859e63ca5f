"""Mirror arenas for issue 10's mirror test: the same creatures on both sides of a map that
is its own reflection, so neither side has the better ground and only the agents differ.

    mirror_arena(numpy.random.default_rng(7), ["radscorpion", "young_radscorpion"])

A procedural arena (arenas.py) is drawn, its west half reflected onto the east half, and
the west side's line-up placed again at the reflected squares as the "East" side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wasteland.bestiary.models import Scenario

from .arenas import random_arena

TRIES = 50
WALLS = "#"


def _connected(rows: list[str], legend: dict) -> bool:
    """Every square that is not a wall can be walked to from every other (8 directions)."""
    blocked = {ch for ch, v in legend.items() if v == "wall" or v == ["wall"]} | {WALLS}
    h, w = len(rows), len(rows[0])
    open_ = [(x, y) for y in range(h) for x in range(w) if rows[y][x] not in blocked]
    if not open_:
        return False
    seen = {open_[0]}
    todo = [open_[0]]
    while todo:
        x, y = todo.pop()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (x + dx, y + dy)
                if q not in seen and 0 <= q[0] < w and 0 <= q[1] < h and rows[q[1]][q[0]] not in blocked:
                    seen.add(q)
                    todo.append(q)
    return len(seen) == len(open_)


def mirror_arena(rng: np.random.Generator, kinds: Sequence[str], count: tuple[int, int] = (1, 3),
                 name: str = "mirror") -> Scenario:
    """A reflected arena with the same line-up (drawn from ``kinds``, ``count`` of them)
    on each side: "West" on the left, "East" on the right."""
    for _ in range(TRIES):
        n = int(rng.integers(count[0], count[1] + 1))
        line = [str(kinds[int(rng.integers(len(kinds)))]) for _ in range(n)]
        base = random_arena(rng, line, line, creature_count=(n, n), foe_count=(n, n), name=name)
        rows = base.map.strip("\n").splitlines()
        w = len(rows[0])
        rows = [r[: (w + 1) // 2] + r[: w // 2][::-1] for r in rows]
        if not _connected(rows, dict(base.legend)):
            continue
        west = min(base.sides, key=lambda s: s.combatants[0].at[0])
        placed_w = [{"creature": k, "at": list(p.at), "id": f"west_{i}"}
                    for i, (k, p) in enumerate(zip(line, west.combatants))]
        placed_e = [{"creature": k, "at": [w - 1 - p.at[0], p.at[1]], "id": f"east_{i}"}
                    for i, (k, p) in enumerate(zip(line, west.combatants))]
        data = base.model_dump(mode="json")
        data.update({"id": name, "name": f"Mirror arena {w}x{len(rows)}",
                     "description": f"A reflected arena: {', '.join(line)} on each side.",
                     "map": "\n".join(rows) + "\n",
                     "sides": [{"name": "West", "combatants": placed_w},
                               {"name": "East", "combatants": placed_e}]})
        return Scenario.model_validate(data)
    raise RuntimeError(f"no connected mirror arena in {TRIES} tries")
