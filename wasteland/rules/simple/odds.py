"""Exact chances under Simple, computed as the engine rolls (skills.py, attack.py): the
skill check's 2d10 against what the total must reach."""

from __future__ import annotations

from typing import Final

from wasteland.rules.battle import Battle, Combatant

from . import stats as S
from .attack import attack_mods, disarm_mods, disarmable

# P(2d10 >= k) for k = 0..21
_AT_LEAST: Final = tuple(sum(1 for a in range(1, 11) for b in range(1, 11) if a + b >= k) / 100
                  for k in range(22))


def p_2d10_at_least(k: int) -> float:
    return 1.0 if k <= 2 else (0.0 if k > 20 else _AT_LEAST[k])


def p_check(c: Combatant, skill: str, difficulty: int, mods: int = 0) -> float:
    """Chance that ``c``'s check of ``skill`` with ``mods`` reaches ``difficulty``."""
    extra = sum(v for _, v in S.check_penalties(c))
    return p_2d10_at_least(difficulty - S.skill(c, skill) - mods - extra)


def hit_chance(b: Battle, c: Combatant, t: Combatant, ws: int, location: str | None = None,
               charge: bool = False) -> float:
    """Exact chance that ``c``'s attack on ``t`` with weapon ``ws`` hits (a critical
    failure on the d100 still hits)."""
    mods, diff, _ = attack_mods(b, c, t, ws, location, charge)
    return p_check(c, S.skill_of(c, ws), diff, sum(v for _, v in mods))


def disarm_chance(b: Battle, c: Combatant, t: Combatant, charge: bool = False) -> float:
    """Exact chance that ``c``'s disarm of ``t`` takes what ``t`` holds (0 when ``c``
    lacks the open hands or ``t`` holds nothing to take)."""
    if not disarmable(c, t):
        return 0.0
    mods, diff, _ = disarm_mods(b, c, t, charge)
    return p_check(c, "melee", diff, sum(v for _, v in mods))
