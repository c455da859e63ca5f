"""The 2d20 test and combat dice (RULES.md, Fallout 2d20; seed 003, Combat Dice)."""

from __future__ import annotations

import random
from typing import Final

# combat die faces -> (damage, effect): 1 -> 1, 2 -> 2, 3-4 -> 0, 5-6 -> 1 and an effect
CD_DAMAGE: Final = (0, 1, 2, 0, 0, 1, 1)
CD_EFFECT: Final = (0, 0, 0, 0, 0, 1, 1)
EXTRA_DICE_COST: Final = (0, 1, 3, 6)  # total AP for 0..3 extra d20s: 1, then 2, then 3 more
MAX_POOL: Final = 6


def roll_d20s(rng: random.Random, n: int) -> list[int]:
    r = rng.random
    return [int(r() * 20) + 1 for _ in range(n)]


def count(faces: list[int], target: int, tag: int, complication_from: int = 20
          ) -> tuple[int, int]:
    """(successes, complications): a die at or under the target number is one success, at
    or under the tag rank (if tagged) or a 1 is two; each die at or above
    ``complication_from`` is a complication."""
    succ = comp = 0
    for f in faces:
        if f <= target:
            succ += 2 if (f == 1 or f <= tag) else 1
        if f >= complication_from:
            comp += 1
    return succ, comp


def combat_dice(rng: random.Random, n: int) -> tuple[list[int], int, int]:
    """(faces, damage, effects) of ``n`` combat dice."""
    r = rng.random
    return score_cd([int(r() * 6) + 1 for _ in range(n)])


def score_cd(faces: list[int]) -> tuple[list[int], int, int]:
    """(faces, damage, effects) of rolled combat dice."""
    return faces, sum(CD_DAMAGE[f] for f in faces), sum(CD_EFFECT[f] for f in faces)
