"""The answers the 2d20 odds keep (odds._TAILS, odds._ASSISTED, tactics._CD_KEPT, the
mean-DR memo) are the sums they stand for, for every argument asked in any order: a key
that left out one argument would answer one question with another's kept answer.
Seeds: 002_265a8a3b5c20fde4.txt (Assist, Damage), 003_938882289c4f9016.txt (Piercing,
Vicious, Breaking); the sums themselves are checked by enumeration in test_f2d20_odds.py
and test_f2d20_damage.py."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from wasteland.bestiary.loader import load_bestiary, load_scenario
from wasteland.bestiary.models import RANGES_2D20
from wasteland.rules.f2d20 import odds
from wasteland.rules.f2d20 import stats as S
from wasteland.rules.f2d20.tactics import cd_expected, mean_resist
from wasteland.rules.facts import Arm
from wasteland.rules.rulesets import get_ruleset


def _assisted(target: int, tag: int, diff: int, dice: int, reroll: bool,
              helper: tuple[int, int]) -> float:
    lead = odds.successes(target, tag, dice, reroll)
    aid = odds.successes(helper[0], helper[1], 1)
    return sum(p * q for k, p in enumerate(lead) for h, q in enumerate(aid)
               if k >= diff or (k >= 1 and k + h >= diff))


def test_every_assisted_chance_is_its_own_in_any_order():
    cases = list(itertools.product((6, 11, 14), (0, 2), (1, 2, 3, 4, 6), (2, 3),
                                   (False, True), ((9, 1), (12, 0), (14, 3))))
    for order in range(2):
        random.Random(order).shuffle(cases)
        for target, tag, diff, dice, reroll, helper in cases:
            got = odds.p_pass(target, tag, diff, dice, reroll, helper)
            assert got == _assisted(target, tag, diff, dice, reroll, helper), (
                target, tag, diff, dice, reroll, helper)


def test_every_unassisted_chance_is_its_own_in_any_order():
    cases = list(itertools.product((3, 9, 14, 20), (0, 2, 5), (1, 2, 3, 5), (2, 3, 4),
                                   (False, True)))
    random.Random(7).shuffle(cases)
    for target, tag, diff, dice, reroll in cases:
        want = sum(odds.successes(target, tag, dice, reroll)[diff:])
        assert odds.p_pass(target, tag, diff, dice, reroll) == want


def _combat_dice(n: int, vicious: bool, piercing: int, resist: int) -> Fraction:
    """Every face of ``n`` combat dice (1, 2, 0, 0, 1+effect, 1+effect), enumerated."""
    faces = ((1, 0), (2, 0), (0, 0), (0, 0), (1, 1), (1, 1))
    total = Fraction(0)
    for roll in itertools.product(faces, repeat=n):
        d = sum(f[0] for f in roll)
        e = sum(f[1] for f in roll)
        dmg = d + (e if vicious else 0)
        total += Fraction(max(0, dmg - max(0, resist - piercing * e)), 6 ** n)
    return total


def test_every_expected_damage_is_its_own_in_any_order():
    cases = list(itertools.product(range(0, 5), (False, True), (0, 1, 3), (0, 1, 2, 5)))
    random.Random(3).shuffle(cases)
    for n, vicious, piercing, resist in cases:
        got = cd_expected(n, vicious, piercing, resist)
        assert abs(got - float(_combat_dice(n, vicious, piercing, resist))) < 1e-12, (
            n, vicious, piercing, resist)


def _mean_dr(c, dtype: str) -> float:
    lo, total = 0, 0
    for hi, name, _kind in S.location_table(c):
        total += (hi - lo) * S.dr(c, name, dtype)
        lo = hi
    return round(total / 20)


def test_the_mean_dr_follows_the_damage_type_and_breaking():
    b = get_ruleset("f2d20").new_battle(load_scenario("ruined_street"), 0, keep_log=False)
    sam = next(c for c in b.combatants if c.creature.id == "super_mutant")
    seen = set()
    for dtype in ("physical", "energy", "radiation", "physical", "energy"):
        got = mean_resist(sam, dtype)
        assert got == _mean_dr(sam, dtype)
        seen.add((dtype, got))
    assert len({g for _d, g in seen}) > 1  # the types differ on this stat block
    torso = S.location_of_kind(sam, "torso")
    sam.cond["broken"] = {torso: 2}
    assert mean_resist(sam, "physical") == _mean_dr(sam, "physical")
    assert mean_resist(sam, "physical") < _mean_dr_unbroken(sam, "physical")
    del sam.cond["broken"]
    assert mean_resist(sam, "physical") == _mean_dr(sam, "physical")


def _mean_dr_unbroken(c, dtype: str) -> float:
    broken = c.cond.pop("broken", None)
    try:
        return _mean_dr(c, dtype)
    finally:
        if broken is not None:
            c.cond["broken"] = broken


def test_an_arms_band_index_is_its_range_band():
    bestiary = load_bestiary()
    seen = set()
    creature = bestiary.creatures["raider"]
    for w in bestiary.weapons.values():
        if w.f2d20 is not None:
            a = Arm(creature, w)
            assert RANGES_2D20[a.band_index] == w.f2d20.range
            seen.add(a.band_index)
    assert len(seen) > 1
