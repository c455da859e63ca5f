"""Fresh dice for every session: `play`, `gm` and `fight` without --seed draw a seed from
the operating system and say it once, so two sessions roll different dice while any one
of them can be rolled again (``--seed N``). A save keeps the seed it began from, so a
resumed session goes on with the same dice."""

from __future__ import annotations

import os
from collections.abc import Callable

# short enough to read aloud at a table and type back: 1 to 99999
MAX_SEED = 99_999


def os_seed() -> int:
    """A seed from the operating system's entropy, 1 to MAX_SEED (the modulo's bias, under
    one in 40 000, does not matter for dice that only need to differ)."""
    return int.from_bytes(os.urandom(4), "big") % MAX_SEED + 1


# where a session without --seed gets its seed; tests replace it with a fixed one
source: Callable[[], int] = os_seed


def fresh_seed() -> int:
    return source()


def seed_line(seed: int) -> str:
    """What a session that drew its seed says first."""
    return f"seed {seed}: `--seed {seed}` replays these dice"
