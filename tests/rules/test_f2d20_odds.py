"""The 2d20 odds helpers (wasteland/rules/f2d20/odds.py) agree with the engine: exact
values by enumeration of every face (the main check), the engine's own test and attack
rolled over every face, and the engine on fixed seeds (a second check, with a tolerance
from the sample size). Seeds: 002_265a8a3b5c20fde4.txt (Aim, Making an Attack, Dying),
003_938882289c4f9016.txt (Range, Ranged Attacks Within Reach, Sneak Attacks);
RULES.md, Fallout 2d20 (the test, bought dice, tag ranks, complications)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from wasteland.rules import events
from wasteland.rules.f2d20 import odds
from wasteland.rules.f2d20.dice import count
from wasteland.rules.f2d20.skills import SkillTest

from .kit2d20 import F, arena

CASES = [  # (target number, tag rank, complication range from)
    (11, 3, 20), (8, 0, 20), (8, 0, 19), (14, 2, 19), (4, 0, 20), (20, 0, 20), (19, 5, 19),
]


def _enumerate(target, tag, dice, cf, reroll):
    """Exact (successes, complications) -> Fraction over every face of every die, with
    the engine's Aim rule (the first highest die rerolled when it failed)."""
    out: dict[tuple[int, int], Fraction] = {}
    unit = Fraction(1, 20 ** dice)
    for faces in itertools.product(range(1, 21), repeat=dice):
        worst = max(range(dice), key=lambda i: faces[i])
        if reroll and faces[worst] > target:
            for new in range(1, 21):
                f = list(faces)
                f[worst] = new
                k = count(f, target, tag, cf)
                out[k] = out.get(k, 0) + unit / 20
        else:
            k = count(list(faces), target, tag, cf)
            out[k] = out.get(k, 0) + unit
    return out


@pytest.mark.parametrize("dice", [2, 3])
@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("target,tag,cf", CASES)
def test_outcomes_are_exact_by_enumeration(target, tag, cf, dice, reroll):
    """RULES.md, Fallout 2d20: a die at or under the TN is one success, at or under the tag
    rank (or a 1) two; each die at or over the complication range is a complication (seed
    002 Dying: 19-20); bought dice (3d20) count the same; seed 002 Aim: one d20 rerolled.
    The helper's joint distribution equals the enumeration of every face."""
    exact = _enumerate(target, tag, dice, cf, reroll)
    got = {(s, c): p for s, c, p in odds.outcomes(target, tag, dice, cf, reroll)}
    assert set(got) == {k for k, v in exact.items() if v}
    for k, v in exact.items():
        assert got.get(k, 0.0) == pytest.approx(float(v), abs=1e-12)
    for diff in range(0, 2 * dice + 2):
        want = 1.0 if diff == 0 else float(sum(v for (s, _), v in exact.items() if s >= diff))
        assert odds.p_pass(target, tag, diff, dice, reroll) == pytest.approx(want, abs=1e-12)
    want_c = float(sum(v for (_, c), v in exact.items() if c))
    assert odds.p_complication(target, tag, dice, cf, reroll) == pytest.approx(want_c, abs=1e-12)


def test_five_dice_by_enumeration():
    """RULES.md, Fallout 2d20: up to 5d20 with three bought; checked over all 20^4 faces of
    four dice and the closed form of five (difficulty 1 fails only if every die fails)."""
    exact = _enumerate(9, 2, 4, 20, False)
    for diff in range(1, 9):
        want = float(sum(v for (s, _), v in exact.items() if s >= diff))
        assert odds.p_pass(9, 2, diff, 4) == pytest.approx(want, abs=1e-12)
    assert odds.p_pass(9, 2, 1, 5) == pytest.approx(1 - 0.55 ** 5, abs=1e-12)
    assert odds.p_pass(9, 2, 1, 5, reroll=True) == pytest.approx(1 - 0.55 ** 6, abs=1e-12)


def test_closed_forms():
    """Hand-checkable values: TN 11 tag 3 (3/20 double, 8/20 single, 9/20 fail): difficulty
    2 with 2d20 is 1 - 0.45^2 - 2(0.40)(0.45) = 0.4375; the dying test's 19-20 on 2d20
    is 1 - 0.9^2 = 0.19 (seed 002 Dying)."""
    assert odds.p_pass(11, 3, 2) == pytest.approx(0.4375, abs=1e-12)
    assert odds.p_pass(11, 0, 2) == pytest.approx(1 - 0.45 ** 2 - 2 * 0.50 * 0.45, abs=1e-12)
    assert odds.p_complication(8, 0, 2, 19) == pytest.approx(0.19, abs=1e-12)
    assert odds.expected_excess(11, 3, 1) == pytest.approx(
        sum(p * (k - 1) for k, p in enumerate(odds.successes(11, 3, 2)) if k >= 1))


# --- hit_chance: aim, bought dice, the engine's difficulty ---------------------------------

def _duel(**kw):
    return arena([F("hero", (2, 2), "ann", **kw), F("dummy", (4, 2), "dum", side=1)])


def test_hit_chance_counts_aim():
    """Seed 002_265a8a3b5c20fde4.txt, Aim: reroll 1d20 on the first attack this round. The
    hero's pistol (TN 11, tag 3) at difficulty 1: 1 - 0.45^2 = 0.7975 unaimed, 1 - 0.45^3
    = 0.908875 aimed (the 0.80 against 0.91 of issue 9); after the first attack, unaimed
    again."""
    a = _duel()
    ann, dum = a.c("ann"), a.c("dum")
    assert a.rs.hit_chance(a.b, ann, dum) == pytest.approx(0.7975, abs=1e-12)
    a.act("aim")
    assert a.rs.hit_chance(a.b, ann, dum) == pytest.approx(0.908875, abs=1e-12)
    assert a.rs.hit_chance(a.b, ann, dum, aim=False) == pytest.approx(0.7975, abs=1e-12)
    a.rig.d20(1, 1, 5).push(6, 3, 3, 3)
    a.act("attack dum")
    a.act("boost 0")
    assert a.rs.hit_chance(a.b, ann, dum) == pytest.approx(0.7975, abs=1e-12)


def test_hit_chance_counts_bought_dice():
    """RULES.md, Fallout 2d20: extra d20s bought with AP roll with the test; 1, 2 and 3
    bought at difficulty 1 fail only when every die fails (0.45^n); with Aim one more."""
    a = _duel()
    ann, dum = a.c("ann"), a.c("dum")
    for extra in (1, 2, 3):
        want = 1 - 0.45 ** (2 + extra)
        assert a.rs.hit_chance(a.b, ann, dum, None, extra) == pytest.approx(want, abs=1e-12)
        assert a.rs.hit_chance(a.b, ann, dum, extra_dice=extra, aim=True) == pytest.approx(
            1 - 0.45 ** (3 + extra), abs=1e-12)
    # a called shot (+1) at difficulty 2 with one bought die: three dice, tag rank 3
    want = odds.p_pass(11, 3, 2, 3)
    assert a.rs.hit_chance(a.b, ann, dum, "head", 1) == pytest.approx(want, abs=1e-12)
    assert want != pytest.approx(odds.p_pass(11, 3, 2, 2))


def _engine_rate(setup, target_number, extra=0, aim=False):
    """The pass rate of a real attack (apply, with every draw scripted) over every face of
    every die: the engine's difficulty, dice and Aim, weighed exactly."""
    passed = Fraction(0)
    dice = 2 + extra
    for faces in itertools.product(range(1, 21), repeat=dice):
        rerolls = range(1, 21) if aim and max(faces) > target_number else [None]
        for new in rerolls:
            a = setup()
            if aim:
                a.act("aim")
            a.rig.d20(*faces)
            if new is not None:
                a.rig.d20(new)
            a.rig.d20(5)  # the hit location, if it hits
            ev = a.act("attack dum")
            if a.slot == "dice":
                a.rig.queue.clear()
                a.rig.d20(*faces)
                if new is not None:
                    a.rig.d20(new)
                a.rig.d20(5)
                ev = a.act(f"buy {extra}")
            (t,) = [e for e in ev if isinstance(e, events.TestRolled)]
            assert len(t.faces) == dice
            w = Fraction(1, 20 ** dice) / (20 if new is not None else 1)
            passed += w if t.passed else 0
    return passed


@pytest.mark.parametrize("pike,injury,loc,aim,extra,diff", [
    (False, False, None, False, 0, 2), (False, False, None, True, 0, 2),
    (True, False, None, False, 1, 4), (False, True, "head", True, 0, 4)])
def test_hit_chance_matches_the_engine_over_every_face(pike, injury, loc, aim, extra, diff):
    """Seed 002_265a8a3b5c20fde4.txt, Making an Attack, Aim; seed 003_938882289c4f9016.txt,
    Range, Ranged Attacks Within Reach: the helper's chance equals the engine's attack
    rolled over every face. The pistol (ideal Close, TN 11, tag 3) at a Defense 1 target
    in the next zone (+1); a pike two squares away (+2), a head injury (+1), a called
    shot (+1), Aim and bought dice as listed."""
    def setup():
        a = arena([F("hero", (2, 2), "ann"), F("dummy", (8, 2), "dum", side=1),
                   F("dummy", (2, 4) if pike else (27, 5), "pik", side=1, attacks=["pike"])])
        if injury:
            a.c("ann").crippled["head"] = 1
        a.set_pool(0, 3 if extra else 0)
        if loc:
            a.act = (lambda f: (lambda text: f(text.replace("attack dum", "attack dum head"))))(
                a.act)
        return a

    a = setup()
    if aim:
        a.act("aim")
    assert a.rs.attack_difficulty(a.b, a.c("ann"), a.c("dum"), 0, loc)[0] == diff
    chance = a.rs.hit_chance(a.b, a.c("ann"), a.c("dum"), loc, extra)
    assert 0 < chance < 1
    assert chance == pytest.approx(float(_engine_rate(setup, 11, extra, aim)), abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_engine_on_fixed_seeds(seed):
    """A second check: the engine's own test, rolled by the battle's seeded RNG 20,000 times
    (TN 11, tag 3, difficulty 2, Aim, one bought die; and the dying test's complications,
    19-20), lands within 4.5 standard errors of the exact chance."""
    a = _duel()
    b, c = a.b, a.c("ann")
    b.rng = random.Random(seed)
    b.quiet = True
    n = 20_000
    passes = comps = dying_comps = 0
    for _ in range(n):
        ok, _, comp = a.rs._test(b, c, SkillTest("x", "small_guns", 2, [], 1, reroll=True), [])
        passes += ok
        comps += comp > 0
        _, _, comp = a.rs._test(b, c, SkillTest("x", "survival", 1, [], complication_from=19), [])
        dying_comps += comp > 0
    for got, p in ((passes, odds.p_pass(11, 3, 2, 3, True)),
                   (comps, odds.p_complication(11, 3, 3, 20, True)),
                   (dying_comps, odds.p_complication(8, 2, 2, 19))):
        assert abs(got / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n), (got / n, p)


def test_hit_chance_counts_an_assisting_ally():
    """Seed 002_265a8a3b5c20fde4.txt, Assist: the helper's d20 (its own TN for the skill)
    adds its successes when the leader scored one. Exact: over every face of the leader's
    two dice and the helper's one (dice.count), against the helper and the engine's
    difficulty (Defense 2 + reach 2 = 4 is too hard; Defense 2 at two squares: 2)."""
    a = arena([F("hero", (3, 4), "ann", initiative=20), F("hero", (2, 2), "bea"),
               F("dummy", (5, 4), "dum", side=1, defense=2)])
    ann, dum = a.c("ann"), a.c("dum")
    plain = a.rs.hit_chance(a.b, ann, dum)
    ann.cond["assist"] = a.c("bea").slot
    want = Fraction(0)
    for f in itertools.product(range(1, 21), repeat=3):
        lead, _ = count(list(f[:2]), 11, 3)
        aid, _ = count([f[2]], 11, 3)
        if lead >= 2 or (lead >= 1 and lead + aid >= 2):
            want += Fraction(1, 8000)
    got = a.rs.hit_chance(a.b, ann, dum)
    assert got == pytest.approx(float(want), abs=1e-12) and got > plain
    assert odds.p_pass(11, 3, 2, 2, helper=(11, 3)) == pytest.approx(float(want), abs=1e-12)
    # and the engine over every face agrees
    passed = Fraction(0)
    for f in itertools.product(range(1, 21), repeat=3):
        b = arena([F("hero", (3, 4), "ann", initiative=20), F("hero", (2, 2), "bea"),
                   F("dummy", (5, 4), "dum", side=1, defense=2)])
        b.c("ann").cond["assist"] = b.c("bea").slot
        b.rig.d20(*f, 5)
        (t,) = [e for e in b.act("attack dum") if isinstance(e, events.TestRolled)]
        passed += Fraction(1, 8000) if t.passed else 0
    assert passed == want


@pytest.mark.parametrize("reroll", [False, True])
def test_a_pass_is_the_sum_of_the_success_counts_at_or_over_the_difficulty(reroll):
    """p_pass reads kept tails (odds.at_least); each is the sum it replaced, to the bit, and
    a difficulty past the most successes the dice can score never passes."""
    for target, tag, dice in itertools.product((3, 9, 14, 20), (0, 2), (2, 3, 5)):
        lead = odds.successes(target, tag, dice, reroll)
        for diff in range(1, 2 * dice + 3):
            want = sum(lead[diff:])
            got = odds.p_pass(target, tag, diff, dice, reroll)
            assert got == want and (diff <= 2 * dice or got == 0.0)
