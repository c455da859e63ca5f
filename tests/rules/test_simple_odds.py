"""Simple's exact odds at their bounds (rules/simple/odds.py): the chance that 2d10 + the
skill total + modifiers reaches the difficulty (RULES.md, J.E. Sawyer's Simple: the normal
skill check; seed 001_0912b5c6442fb3b1.txt, Calculating to Hit), as exact fractions of the
100 equally likely pairs, and in agreement with the engine's own check at each edge."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wasteland.rules.simple.odds import p_2d10_at_least, p_check
from wasteland.rules.simple.skills import check

from .kitsimple import SEED, creature, sarena


def pairs_at_least(k: int) -> Fraction:
    """P(2d10 >= k) counted over the 100 pairs, independently of the module's table."""
    return Fraction(sum(1 for a in range(1, 11) for b in range(1, 11) if a + b >= k), 100)


def exact(p: float) -> Fraction:
    return Fraction(p).limit_denominator(100)


@pytest.mark.parametrize("k,count", [
    (-30, 100), (0, 100), (1, 100), (2, 100),  # needing 2 or less: certain
    (3, 99),                                   # only 1 + 1 fails
    (11, 55), (12, 45),
    (19, 3), (20, 1),                          # only 10 + 10
    (21, 0), (22, 0), (40, 0),                 # beyond 20: impossible
])
def test_2d10_at_least_is_exact_at_the_edges(k, count):
    """RULES.md (the normal skill check: 2d10 against what the total must reach)."""
    assert exact(p_2d10_at_least(k)) == Fraction(count, 100) == pairs_at_least(k)


def test_2d10_at_least_matches_the_count_everywhere():
    for k in range(-5, 26):
        assert exact(p_2d10_at_least(k)) == pairs_at_least(k), k


def _one():
    a = sarena([("ann", (0, 0), 0, creature("a")), ("bob", (5, 0), 1, creature("b"))])
    return a, a.c("ann")


@pytest.mark.parametrize("difficulty,mods,count", [
    (10, 0, 100),   # guns 8: needs 2 on the dice
    (10, -1, 99),   # a -1 modifier: needs 3
    (11, 0, 99),
    (9, 0, 100),    # needs 1: certain
    (28, 0, 1),     # needs 20
    (28, 1, 3),     # a +1 modifier: needs 19
    (29, 0, 0),     # needs 21
    (28, -1, 0),    # a -1 modifier: needs 21
])
def test_p_check_counts_the_skill_and_modifiers_at_the_bounds(difficulty, mods, count):
    """2d10 + skill 8 + modifiers >= difficulty, exactly."""
    _, ann = _one()
    assert exact(p_check(ann, "guns", difficulty, mods)) == Fraction(count, 100)


def test_p_check_counts_winded_as_minus_four():
    """Seed 001, Death and Fatigue: winded is -4 to skill checks; at the bound, difficulty 6
    with guns 8 needs 2 (certain), difficulty 7 needs 3."""
    _, ann = _one()
    ann.cond["fatigue"] = ann.hp
    assert exact(p_check(ann, "guns", 6)) == 1
    assert exact(p_check(ann, "guns", 7)) == Fraction(99, 100)


@pytest.mark.parametrize("faces,difficulty,mods,passed", [
    ((1, 1), 10, 0, True),     # needs 2: 1 + 1 passes (at the difficulty counts)
    ((1, 1), 11, 0, False),    # needs 3
    ((1, 2), 11, 0, True),
    ((10, 10), 28, 0, True),   # needs 20
    ((10, 10), 29, 0, False),  # needs 21: nothing passes
    ((10, 9), 28, 0, False),
    ((10, 9), 28, 1, True),
])
def test_the_engine_check_agrees_at_the_bounds(faces, difficulty, mods, passed):
    """The engine's check succeeds at or above the difficulty, as the odds count."""
    a, ann = _one()
    a.rig.push(10, *faces)
    ok, ev = check(a.b, ann, "guns", "test", difficulty, [("m", mods)] if mods else [], [])
    assert ok is passed and ev.passed is passed and ev.total == sum(faces) + 8 + mods


def test_seed_is_cited():
    assert "001" in SEED
