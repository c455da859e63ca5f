"""Time to draw a random training arena, and to lay out its map (sight and walking tables),
the two costs behind training/league_env.py's pool of arenas.

    .venv/bin/python benchmarks/arena_generation.py [--arenas 100] [--family robots]

Drawing is timed alone; laying out builds each drawn map's Grid afresh (the engine caches
grids by map, so a map met again costs nothing).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wasteland.rules.grid import Grid
from wasteland.training.arenas import FAMILIES, FOES, LEGEND, random_arena


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arenas", type=int, default=100)
    ap.add_argument("--family", default="robots", choices=sorted(FAMILIES))
    args = ap.parse_args()
    if not 1 <= args.arenas <= 100_000:
        raise SystemExit(f"--arenas must be 1 to 100000, got {args.arenas}")
    rng = np.random.default_rng(0)
    random_arena(rng, FAMILIES[args.family], FOES)  # the bestiary loads once
    t = time.perf_counter()
    arenas = [random_arena(rng, FAMILIES[args.family], FOES) for _ in range(args.arenas)]
    draw = (time.perf_counter() - t) / args.arenas
    legend = {k: [v] if isinstance(v, str) else list(v) for k, v in LEGEND.items()}
    t = time.perf_counter()
    for sc in arenas:
        Grid.from_ascii(sc.map.splitlines(), legend)
    lay = (time.perf_counter() - t) / args.arenas
    print(f"{args.arenas} arenas of {args.family}: draw {draw * 1e3:.2f} ms each, "
          f"lay out the map {lay * 1e3:.2f} ms each")


if __name__ == "__main__":
    main()
