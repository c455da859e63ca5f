"""Melee reach under Fallout 2d20: who can strike whom, and the +2 to any test but a
melee attack within an enemy's reach (seed 002, Range; seed 003, Ranged Attacks Within
Reach)."""

from __future__ import annotations

from typing import Any

from wasteland.rules.battle import ACTIVE, Battle, Combatant

from . import stats as S


def _holds_gun(c: Combatant) -> bool:
    a = c.arm(c.active_weapon)
    return a.f2d20 and not a.melee2d20


def reach_of(c: Combatant) -> int:
    """How far ``c`` strikes in melee, in squares: the longest reach of the melee weapons it
    carries and can use, in hand or not (drawing one is a minor action, so it threatens
    that far this turn), and at least 1 (anyone can strike unarmed). Reading: one notion
    for attacking, for the +2 of seed 002 Range / seed 003 Ranged Attacks Within Reach,
    and for the moves that keep a gunman out of reach."""
    arms = c.crippled.get("arm", 0)  # all that can change it: usable() reads the arms
    # a string while no arm is crippled: a tuple key was built and hashed at every ask
    key: Any = "reach_of" if not arms else ("reach_of", arms)
    got: int | None = c.memo.get(key)
    if got is None:
        r = 1
        for i, w in enumerate(c.weapons):
            a = c.arm(i)
            if a.f2d20 and a.reach > r and a.melee2d20 and S.usable(c, w):
                r = a.reach
        got = c.memo[key] = r
    return got


def _ball(g: Any, pos: int, r: int) -> tuple[int, ...]:
    """The squares a reach of ``r`` from ``pos`` covers: its own, the next ones, and
    those within ``r`` squares in sight of it (as ``_within_reach``); cached with the
    grid."""
    cache = g.balls
    got = cache.get((pos, r))
    if got is None:
        sight = g.sight[pos]
        w, h = g.width, g.height
        x0, y0 = pos % w, pos // w
        got = cache[(pos, r)] = tuple(
            y * w + x for y in range(max(0, y0 - r), min(h, y0 + r + 1))
            for x in range(max(0, x0 - r), min(w, x0 + r + 1))
            if (abs(x - x0) <= 1 and abs(y - y0) <= 1) or sight[y * w + x])
    return got


def _enemy_reach(b: Battle, c: Combatant) -> set[int]:
    """The squares within reach of ``c``'s standing enemies (``reach_of``; their own
    squares included)."""
    g = b.grid
    reach: set[int] = set()
    for e in b.combatants:
        if e.side != c.side and e.status == ACTIVE:
            reach.update(_ball(g, e.pos, reach_of(e)))
    return reach


def _within_reach(b: Battle, c: Combatant) -> bool:
    """An active enemy that could strike ``c`` in melee: within its ``reach_of`` squares
    and in sight of it."""
    g = b.grid
    pos = c.pos
    for e in b.combatants:
        if e.side != c.side and e.status == ACTIVE:
            d = g.dist(e.pos, pos)
            if d <= 1 or (d <= 3 and d <= reach_of(e) and g.sight[e.pos][pos]):
                return True
    return False

