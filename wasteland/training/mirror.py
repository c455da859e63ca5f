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

from .arenas import _Map, random_arena

TRIES = 50


def _connected(rows: list[str]) -> bool:
    """Every open square reachable from every other, by the arena builder's own test (an
    arena's only wall is "#")."""
    m = _Map(len(rows[0]), len(rows))
    m.wall = [ch == "#" for row in rows for ch in row]
    return m.connected()


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
        if not _connected(rows):
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
