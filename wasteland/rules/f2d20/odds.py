"""Exact chances under Fallout 2d20, computed the way the engine rolls (skills.py
``Skills._test``): Nd20 (2 plus the dice bought with AP) against a target number and a
tag rank, each die worth 0, 1 or 2 successes and a complication at or above the
complication range; with Aim, the highest die is rerolled once when it failed; with
assistance, each helper's d20 adds its successes when the leader scores at least one.
Tests in tests/rules/test_f2d20_odds.py check every helper against enumeration of all
the faces and against the engine on fixed seeds."""

from __future__ import annotations

from functools import cache
from typing import Final

from wasteland.rules.battle import ACTIVE, Battle, Combatant

from . import stats as S


def _face(f: int, target: int, tag: int, complication_from: int) -> tuple[int, int]:
    """(successes, complications) of one d20 face, as ``dice.count``."""
    s = (2 if (f == 1 or f <= tag) else 1) if f <= target else 0
    return s, 1 if f >= complication_from else 0


@cache
def outcomes(target: int, tag: int, dice: int, complication_from: int = 20,
             reroll: bool = False) -> tuple[tuple[int, int, float], ...]:
    """Every (successes, complications, probability) of ``dice`` d20s; ``reroll``: Aim,
    the highest die rerolled once if it is over the target number."""
    faces = [(f, *_face(f, target, tag, complication_from)) for f in range(1, 21)]
    # state: (successes, complications, highest face) -> probability
    dist: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for _ in range(dice):
        nxt: dict[tuple[int, int, int], float] = {}
        for (s, c, hi), p in dist.items():
            q = p / 20
            for f, fs, fc in faces:
                k = (s + fs, c + fc, f if f > hi else hi)
                nxt[k] = nxt.get(k, 0.0) + q
        dist = nxt
    out: dict[tuple[int, int], float] = {}
    for (s, c, hi), p in dist.items():
        if reroll and hi > target:  # the failed die (no successes) is rolled again
            c -= 1 if hi >= complication_from else 0
            for _f, fs, fc in faces:
                sc = (s + fs, c + fc)
                out[sc] = out.get(sc, 0.0) + p / 20
        else:
            out[(s, c)] = out.get((s, c), 0.0) + p
    return tuple((s, c, p) for (s, c), p in sorted(out.items()))


@cache
def successes(target: int, tag: int, dice: int, reroll: bool = False) -> tuple[float, ...]:
    """P(exactly k successes) for k = 0..2*dice."""
    dist = [0.0] * (2 * dice + 1)
    for s, _c, p in outcomes(target, tag, dice, 20, reroll):
        dist[s] += p
    return tuple(dist)


@cache
def at_least(target: int, tag: int, dice: int, reroll: bool = False) -> tuple[float, ...]:
    """P(at least k successes) for k = 0..2*dice, each summed as ``p_pass`` sums it (the
    odds ask for it a few times a decision; the same sums, done once)."""
    lead = successes(target, tag, dice, reroll)
    return tuple(sum(lead[k:]) for k in range(len(lead)))


# at_least's tails by a number packed from its arguments, for p_pass: asked for every
# weapon against every enemy at each decision, where functools.cache hashes a tuple of four
_TAILS: Final[dict[int, tuple[float, ...]]] = {}
# and an assisted test's chance, by its arguments and the helper's (target number, tag)
_ASSISTED: Final[dict[int, float]] = {}


def p_pass(target: int, tag: int, difficulty: int, dice: int = 2, reroll: bool = False,
           helper: tuple[int, int] | None = None) -> float:
    """Chance that a test passes; difficulty 0 passes without a roll (seed 003).
    ``helper``: an assisting ally's (target number, tag rank): its d20's successes count
    when the leader scores at least one (seed 002, Assist)."""
    if difficulty <= 0:
        return 1.0
    # the leader's arguments packed in one number, -1 when one is past what it packs
    key = (((target * 256 + tag) * 256 + dice) * 2 + (1 if reroll else 0)
           if 0 <= target < 256 and 0 <= tag < 256 and 0 <= dice < 256 else -1)
    if helper is None:
        tail = _TAILS.get(key) if key >= 0 else None
        if tail is None:
            tail = at_least(target, tag, dice, reroll)
            if key >= 0:
                _TAILS[key] = tail
        return tail[difficulty] if difficulty < len(tail) else 0.0
    h_tn, h_tag = helper
    if key >= 0 and 0 <= h_tn < 256 and 0 <= h_tag < 256 and difficulty < 256:
        key = ((key * 256 + h_tn) * 256 + h_tag) * 256 + difficulty
        got = _ASSISTED.get(key)
        if got is None:
            got = _ASSISTED[key] = _assisted(target, tag, difficulty, dice, reroll, helper)
        return got
    return _assisted(target, tag, difficulty, dice, reroll, helper)


def _assisted(target: int, tag: int, difficulty: int, dice: int, reroll: bool,
              helper: tuple[int, int]) -> float:
    lead = successes(target, tag, dice, reroll)
    aid = successes(helper[0], helper[1], 1)
    return sum(p * q for k, p in enumerate(lead) for h, q in enumerate(aid)
               if k >= difficulty or (k >= 1 and k + h >= difficulty))


def p_complication(target: int, tag: int, dice: int = 2, complication_from: int = 20,
                   reroll: bool = False) -> float:
    """Chance of at least one complication (each gives the other sides 1 AP); the dying
    test's range is 19-20 (seed 002)."""
    return sum(p for _s, c, p in outcomes(target, tag, dice, complication_from, reroll) if c)


def expected_excess(target: int, tag: int, difficulty: int, dice: int = 2,
                    reroll: bool = False) -> float:
    """Expected successes beyond the difficulty of a passed test (the AP it generates,
    before the pool's cap); a test at difficulty 0 that is not rolled generates none."""
    if difficulty <= 0:
        return 0.0
    return sum(p * (k - difficulty)
               for k, p in enumerate(successes(target, tag, dice, reroll)) if k >= difficulty)


def aims(b: Battle, c: Combatant) -> bool:
    """Whether ``c``'s next attack rerolls a die for Aim (as ``Attacks._roll_attack``)."""
    return c.cond.get("aim") == b.round and c.cond.get("attacked") != b.round


def hit_chance(diff: int, b: Battle, c: Combatant, extra_dice: int, aim: bool | None
               ) -> float:
    """Exact chance that ``c``'s attack with the weapon in hand passes at difficulty
    ``diff`` (``Attacks.hit_chance`` works it out from every modifier the engine applies),
    with ``extra_dice`` d20s bought, Aim's reroll when ``c`` has aimed this round and not
    yet attacked (``aim`` overrides), and an ally's assistance."""
    ws = c.active_weapon
    tn, tag = S.attack_test(c, ws)
    arm = c.arm(ws)
    return p_pass(tn, tag, diff, 2 + extra_dice, aims(b, c) if aim is None else aim,
                  helper_of(b, c, arm.skill if arm.f2d20 else "unarmed"))


def helper_of(b: Battle, c: Combatant, skill: str) -> tuple[int, int] | None:
    """The (target number, tag rank) of the ally assisting ``c``'s next test of ``skill``,
    if one is (as ``Skills._assisted``)."""
    h = c.cond.get("assist")
    if h is None or b.combatants[h].status != ACTIVE:
        return None
    return S.target_number(b.combatants[h], skill)
