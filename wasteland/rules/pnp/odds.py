"""Exact chances under Fallout PnP, for agents that weigh their options (3d6 has 216
outcomes, so every probability here is a fraction over 216)."""

from __future__ import annotations

from functools import cache
from itertools import product

from wasteland.rules.battle import Battle, Combatant

from .combat import attack_mods


@cache
def p_3d6_at_least(n: int) -> float:
    """P(3d6 >= n), triple six counted as a hit whatever n is (seed 000, Critical Hits)."""
    hits = sum(1 for f in product(range(1, 7), repeat=3) if sum(f) >= n or f == (6, 6, 6))
    return hits / 216


def hit_chance(b: Battle, c: Combatant, t: Combatant, location: str | None = None,
               vats: bool = False, ws: int | None = None) -> float:
    """Chance that the first shot of an attack by ``c`` on ``t`` hits, from where both
    stand now."""
    ws = c.active_weapon if ws is None else ws
    mods, defense, _, _ = attack_mods(b, c, t, ws, location, vats, False)
    return p_3d6_at_least(defense - sum(v for _, v in mods))
