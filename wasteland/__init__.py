"""Wasteland: Fallout tabletop combat run by AI agents."""

import os as _os

# numpy's OpenBLAS starts a thread per core that spins while it waits for work. Nothing
# here multiplies matrices big enough to gain from it, and in `simulate`'s process pool
# each worker's spinning thread took CPU from the other's fights (1,000 2d20 fights on 2
# processes: 7.0-7.9 s with it, 5.9 s without). Set before numpy is first imported; a
# value the user set is kept.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ._compiled import guard as _guard  # noqa: E402

__version__ = "0.1.0"

# what runs the hot path: "compiled" (mypyc), "pure" (plain Python) or "stale" (plain
# Python because the sources changed since the build); see _compiled.py
ENGINE = _guard()
