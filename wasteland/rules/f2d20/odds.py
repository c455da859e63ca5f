"""Exact chances under Fallout 2d20: the number of successes of Nd20 at a target number
and tag rank is a sum of independent dice, each worth 0, 1 or 2 successes."""

from __future__ import annotations

from functools import cache

from wasteland.rules.battle import Battle, Combatant

from . import stats as S


@cache
def successes(target: int, tag: int, dice: int) -> tuple[float, ...]:
    """P(exactly k successes) for k = 0..2*dice."""
    one = sum(1 for f in range(1, 21) if f <= target and not (f == 1 or f <= tag)) / 20
    two = sum(1 for f in range(1, 21) if f <= target and (f == 1 or f <= tag)) / 20
    die = (1 - one - two, one, two)
    dist = [1.0]
    for _ in range(dice):
        nxt = [0.0] * (len(dist) + 2)
        for k, p in enumerate(dist):
            for s, q in enumerate(die):
                nxt[k + s] += p * q
        dist = nxt
    return tuple(dist)


def p_pass(target: int, tag: int, difficulty: int, dice: int = 2) -> float:
    """Chance that a test passes; difficulty 0 passes without a roll (seed 003)."""
    if difficulty <= 0:
        return 1.0
    return sum(successes(target, tag, dice)[difficulty:])


def hit_chance(b: Battle, c: Combatant, t: Combatant, location: str | None = None,
               extra_dice: int = 0) -> float:
    from .ruleset import F2d20

    diff, _ = F2d20().attack_difficulty(b, c, t, c.active_weapon, location)
    tn, tag = S.attack_test(c, c.active_weapon)
    return p_pass(tn, tag, diff, 2 + extra_dice)
