"""The exact chances of pnp/odds.py, checked against an independent count of the 216
outcomes of 3d6 and against the engine itself on every one of those outcomes (seed 000:
Attacking, Critical Hits)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from wasteland.rules.events import AttackRolled
from wasteland.rules.pnp.odds import hit_chance, p_3d6_at_least

from .kit import F, arena, only

# how many of the 216 ordered outcomes of 3d6 sum to each total (3..18)
WAYS = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, 13: 21,
        14: 15, 15: 10, 16: 6, 17: 3, 18: 1}


def _exact(n: int) -> Fraction:
    """P(3d6 >= n or triple six), from the table above."""
    return Fraction(max(1, sum(w for s, w in WAYS.items() if s >= n)), 216)


@pytest.mark.parametrize("n", range(-3, 25))
def test_p_3d6_at_least_is_the_exact_count_over_216(n):
    """Seed 000_4e72993430dea166.txt, Attacking: 3d6 + bonuses equal to or above Defense
    hits; Critical Hits: triple six always crits (reading: so it always hits)."""
    assert sum(WAYS.values()) == 216
    assert Fraction(p_3d6_at_least(n)).limit_denominator(216) == _exact(n)
    assert p_3d6_at_least(n) == pytest.approx(float(_exact(n)), abs=1e-12)


def test_p_3d6_at_least_known_values():
    """Spot values a GM can check by hand: 11+ is even odds, 18 is 1 in 216, and a
    target over 18 still leaves the triple six."""
    assert p_3d6_at_least(3) == 1.0
    assert p_3d6_at_least(11) == 108 / 216
    assert p_3d6_at_least(18) == 1 / 216
    assert p_3d6_at_least(19) == 1 / 216 and p_3d6_at_least(40) == 1 / 216


def _shot(square=".", called=None, **target):
    rows = "\n".join(["............", f"....{square}.......", "............"])
    a = arena([F("gunner", (0, 1), "ann", weapons=[("pistol", 1)]),
               F("target", (4, 1), "bob", side=1, hp=999, **target)], rows=rows)
    return a


@pytest.mark.parametrize("square,called,target,need", [
    (".", None, {"defense": 15}, 12),          # 15 - PER 2 - skill 1
    (",", None, {"defense": 15}, 14),          # light cover +2 Defense
    ("=", "head", {"defense": 13}, 18),        # heavy cover +4, head -4
    (".", "arm", {"defense": 25}, 24),         # only triple six
    (".", None, {"defense": 3}, 0),            # always
])
def test_hit_chance_is_exact_and_matches_the_engine_on_all_216_rolls(square, called, target,
                                                                      need):
    """Seed 000_4e72993430dea166.txt, Attacking, Cover, Called Shots, Critical Hits:
    `hit_chance` is the exact share of the 216 rolls on which the engine's first shot
    hits, triple six included."""
    a = _shot(square, **target)
    p = hit_chance(a.b, a.c("ann"), a.c("bob"), called)
    assert p == pytest.approx(float(_exact(need)), abs=1e-12)
    hits = 0
    for faces in product(range(1, 7), repeat=3):
        b = _shot(square, **target)
        b.rig.d6(*faces).d6(*[1] * 8)  # enough damage dice for a crit's two rolls
        atk = only(b.act("attack bob" + (f" {called}" if called else "")), AttackRolled)
        hits += atk.shots[0]
    assert hits == round(p * 216)


def test_hit_chance_agrees_with_the_engine_on_a_fixed_seed():
    """The same chance met by the battle's own seeded dice (no scripted faces): 4000
    attacks needing 13+ (or triple six) hit within 3 standard errors of 56/216."""
    a = _shot(defense=16)
    p = hit_chance(a.b, a.c("ann"), a.c("bob"))
    assert p == 56 / 216
    a.b.rng = random.Random(20240609)
    a.b.max_rounds = 10_000
    hits = n = 0
    for _ in range(2000):
        for who in ("ann", "bob"):
            a.c(who).hp = 999
        a.c("ann").wstate.loaded = a.c("ann").weapon.capacity
        if a.whose() == "ann":
            hits += only(a.act("attack bob"), AttackRolled).shots[0]
            n += 1
        else:
            a.act("end")
    sd = (p * (1 - p) / n) ** 0.5
    assert n == 1000 and abs(hits / n - p) < 3 * sd
